//! EU CLP Annex VI, Table 3 (CSV: index_no, chemical_name, ec_no, cas_no,
//! hazard_class_category, classification_h_codes, pictogram_signal_word, labelling_h_codes,
//! suppl_h_codes, scl_m_factors, notes, atp). Lists are " | "-separated; H-codes may carry
//! "*" markers of minimum classification, which belong to the entry notes, not the code.
//! One entry may cover several substances: "12035-72-2 [1] | 12035-71-1 [2]" in the CAS
//! cell, with the names numbered alike; each gets the entry under its own name.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::json;

use super::call;
use super::ledger::Ledger;
use super::text::{cell, csv_error, read_utf8, reader};
use super::{Parsed, TableError};
use crate::ingest::contribution::{Contribution, Subject, clean_name, to_json};
use crate::model::cas::{Cas, parse_cell};
use crate::model::catalog::SourceDescriptor;
use crate::model::record::{Classification, GhsClassification, Sourced, StatedRoute};
use crate::model::vocab::{ExposureRoute, SignalWord};

pub fn read(path: &Path, src: &SourceDescriptor) -> Result<Parsed, TableError> {
    parse(&read_utf8(path)?, src).map_err(|e| csv_error(&path.display().to_string(), e))
}

/// Splits a " | " or "; " separated cell into trimmed, non-empty items.
pub fn items(cell: Option<&str>, sep: char) -> Vec<String> {
    cell.unwrap_or_default()
        .split(sep)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

/// "H372 **" -> "H372"; "H370 (nervous system)" -> "H370".
pub fn h_code(raw: &str) -> String {
    raw.split_whitespace()
        .next()
        .unwrap_or_default()
        .trim_end_matches('*')
        .to_string()
}

/// The routes an Annex VI entry states beside its codes: "H372 (lungs) (Inhalation)", "H371
/// (nervous system; oral, inhalation)". A route is a whole word of a parenthesis, so a target
/// organ ("H373 (eyes, skin, liver)") is never read as one.
pub fn stated_routes(cells: &[Vec<String>]) -> Vec<StatedRoute> {
    let mut out: Vec<StatedRoute> = Vec::new();
    for item in cells.iter().flatten() {
        let code = h_code(item);
        let routes: Vec<ExposureRoute> = item
            .split(['(', ')', ';', ','])
            .skip(1)
            .filter_map(|w| match w.trim().to_lowercase().as_str() {
                "inhalation" => Some(ExposureRoute::Inhalation),
                "oral" => Some(ExposureRoute::Oral),
                "dermal" => Some(ExposureRoute::Dermal),
                _ => None,
            })
            .collect();
        if routes.is_empty() || out.iter().any(|r| r.code == code) {
            continue;
        }
        out.push(StatedRoute {
            code,
            routes,
            words: item.trim().to_string(),
            source: None,
        });
    }
    out
}

/// GHS pictograms and the signal word from one cell ("GHS02 | GHS05 | Dgr").
pub fn pictograms_and_signal(parts: &[String]) -> (Vec<String>, Option<SignalWord>) {
    let mut pictograms = Vec::new();
    let mut signal = None;
    for p in parts {
        match p.as_str() {
            "Dgr" | "Danger" => signal = Some(SignalWord::Danger),
            "Wng" | "Warning" => signal = Some(SignalWord::Warning),
            p if p.starts_with("GHS") => pictograms.push(p.to_string()),
            _ => {}
        }
    }
    (pictograms, signal)
}

/// A cell's parts with their substance numbers: "a [1] | b [2]" is (1, a), (2, b).
fn numbered(cell: &str) -> Vec<(Option<String>, String)> {
    cell.split('|')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|part| match (part.rfind('['), part.ends_with(']')) {
            (Some(open), true) => (
                Some(part[open + 1..part.len() - 1].trim().to_string()),
                part[..open].trim().to_string(),
            ),
            _ => (None, part.to_string()),
        })
        .collect()
}

/// The EC number of one substance of an entry: the part of the EC cell numbered as its CAS is
/// in the CAS cell ("202-759-5 [1] | 218-827-2 [2]" gives carvone 99-49-0 [1] the first), or
/// the one EC number the cell gives.
fn ec_of(ec_cell: &str, cas_cell: &str, cas: &Cas) -> Option<String> {
    let number = numbered(cas_cell)
        .into_iter()
        .find(|(_, c)| parse_cell(c).contains(cas))
        .and_then(|(n, _)| n);
    let parts = numbered(ec_cell);
    let single = parts.len() == 1;
    let fits = |m: &Option<String>| match (m, &number) {
        (Some(m), Some(n)) => m == n,
        _ => single,
    };
    parts
        .into_iter()
        .find(|(m, _)| fits(m))
        .map(|(_, ec)| ec)
        .filter(|ec| ec != "-")
}

/// The substances of an entry: (CAS, its own name, the grade the entry is for). "a [1] | b
/// [2]" pairs with the CAS cell's "x [1] | y [2]"; an entry with one substance keeps its whole
/// name.
fn substances(name: &str, cas_cell: &str) -> Vec<(Cas, String, Option<String>)> {
    let names = numbered(name);
    let cas: Vec<_> = numbered(cas_cell)
        .into_iter()
        .flat_map(|(n, c)| parse_cell(&c).into_iter().map(move |cas| (n.clone(), cas)))
        .collect();
    let whole = clean_name(name.trim_end_matches(';'));
    let several = cas.len() > 1;
    // A member whose own name states no grade takes the one every other member states: the
    // flattened table dropped it from perborate's first member (005-019-01-5), the
    // Regulation's entry states it for all three.
    let stated: Vec<Option<String>> = names.iter().map(|(_, text)| grade(text)).collect();
    let distinct: BTreeSet<&String> = stated.iter().flatten().collect();
    let entry_grade = match (
        stated.iter().filter(|g| g.is_none()).count(),
        distinct.len(),
    ) {
        (1, 1) => distinct.into_iter().next().cloned(),
        _ => None,
    };
    cas.into_iter()
        .map(|(number, cas)| {
            let own = number
                .filter(|_| several)
                .and_then(|n| names.iter().find(|(m, _)| m.as_ref() == Some(&n)));
            let own_name = own
                .map(|(_, text)| clean_name(text.trim_end_matches(';')))
                .filter(|t| !t.is_empty());
            let own_grade = match own {
                Some((_, text)) => grade(text),
                None => grade(name),
            };
            (
                cas,
                own_name.unwrap_or_else(|| whole.clone()),
                own_grade.or_else(|| entry_grade.clone()),
            )
        })
        .collect()
}

/// The grade of the substance an entry is for, as Annex VI writes it in the name, in brackets
/// or in parentheses: "containing ≥ 0.1 % 4-chloroaniline", "containing < 0,1 % (w/w) of
/// particles with an aerodynamic diameter of below 50 µm", "containing ≥ 0,1 % butadiene
/// (203-450-8)". Kept as the table writes it, whitespace aside: where the flattened table lost
/// the comparator ("containing = 0,1 %", five perborate cells) it is not guessed
/// (data/README.md).
fn grade(text: &str) -> Option<String> {
    let start = text
        .find("[containing")
        .or_else(|| text.find("(containing"))?;
    let (open, close) = if text[start..].starts_with('[') {
        ('[', ']')
    } else {
        ('(', ')')
    };
    let mut depth = 0;
    let end = start
        + text[start..].char_indices().find_map(|(i, c)| {
            depth += i32::from(c == open) - i32::from(c == close);
            (depth == 0).then_some(i)
        })?;
    Some(
        text[start + 1..end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    )
}

fn parse(text: &str, src: &SourceDescriptor) -> Result<Parsed, csv::Error> {
    let mut out = Vec::new();
    let mut ledger = Ledger::default();
    for row in reader(text, b',', true).records() {
        let row = row?;
        let name = cell(&row, 1).unwrap_or_default();
        let id = ledger.row(name);
        let hazard_classes = items(cell(&row, 4), '|');
        let index_no = cell(&row, 0).map(String::from);
        let ghs = ghs(&row, &hazard_classes, src);
        let classification = classification(&hazard_classes, index_no.as_deref(), &ghs, src);
        let mut members: Vec<(Subject, String, Option<String>)> =
            substances(name, cell(&row, 3).unwrap_or_default())
                .into_iter()
                .map(|(cas, own, grade)| (Subject::Cas(cas), own, grade))
                .collect();
        if members.is_empty() {
            // A group entry ("lead compounds with the exception of ..."), a reaction mass or
            // a substance without a CAS number.
            members.push((
                Subject::Named(clean_name(name)),
                clean_name(name),
                grade(name),
            ));
        }
        ledger.about(id, members.iter().map(|(s, ..)| s.clone()));
        for (subject, own_name, grade) in members {
            let ghs = GhsClassification {
                qualifier: grade.clone(),
                ..ghs.clone()
            };
            let classification = Classification {
                qualifier: grade,
                ..classification.clone()
            };
            let fragment = json!({
                "crossrefs": crossrefs(&row, &subject, index_no.as_deref(), src),
                "safety": {"ghs": [to_json(&ghs)]},
                "regulatory": {"classifications": [to_json(&classification)]},
            });
            out.push(Contribution::about(subject, fragment).named(own_name));
        }
    }
    Ok(Parsed {
        contributions: out,
        ledger,
    })
}

/// The entry's GHS classification: its classes, H codes (classification and supplementary),
/// the routes stated beside them, pictograms and signal word, limits and notes.
fn ghs(
    row: &csv::StringRecord,
    hazard_classes: &[String],
    src: &SourceDescriptor,
) -> GhsClassification {
    let mut h_codes: Vec<String> = items(cell(row, 5), '|').iter().map(|h| h_code(h)).collect();
    h_codes.extend(items(cell(row, 8), '|').iter().map(|h| h_code(h)));
    h_codes.dedup();
    let (pictograms, signal_word) = pictograms_and_signal(&items(cell(row, 6), '|'));
    let routes = stated_routes(&[items(cell(row, 5), '|'), items(cell(row, 7), '|')]);
    GhsClassification {
        date_precision: None,
        effective_from: None,
        effective_until: None,
        jurisdiction: "EU".into(),
        hazard_classes: hazard_classes.to_vec(),
        h_codes,
        routes,
        pictograms,
        signal_word,
        specific_concentration_limits: cell(row, 9).map(String::from),
        notes: cell(row, 10).map(|n| format!("Annex VI notes: {n}")),
        edition: cell(row, 11).map(String::from),
        via: None,
        qualifier: None,
        source: src.id.clone(),
        applies_from: None,
        status: None,
        superseded_by: None,
    }
}

/// The harmonised classification as a regulatory classification, its basis the Annex VI
/// index and the edition.
fn classification(
    hazard_classes: &[String],
    index_no: Option<&str>,
    ghs: &GhsClassification,
    src: &SourceDescriptor,
) -> Classification {
    Classification {
        basis: index_no.map(|i| {
            format!(
                "Annex VI index {i}; {}",
                ghs.edition.clone().unwrap_or_default()
            )
        }),
        ..call::stated(
            src,
            "European Commission",
            "EU CLP Annex VI",
            if hazard_classes.is_empty() {
                "Harmonised classification (no hazard class listed)".into()
            } else {
                format!("Harmonised classification: {}", hazard_classes.join(", "))
            },
        )
    }
}

/// The EC number and the Annex VI index, each citing the table.
/// A member's cross-references: its own EC number where the entry names several
/// substances (`ec_of`), the entry's index number.
fn crossrefs(
    row: &csv::StringRecord,
    subject: &Subject,
    index_no: Option<&str>,
    src: &SourceDescriptor,
) -> serde_json::Value {
    let mut crossrefs = json!({});
    let ec = match (subject, cell(row, 2)) {
        (Subject::Cas(cas), Some(ec)) => ec_of(ec, cell(row, 3).unwrap_or_default(), cas),
        (_, ec) => ec.map(String::from),
    };
    if let Some(ec) = ec {
        crossrefs["ec_number"] = to_json(&Sourced {
            value: ec,
            source: src.id.clone(),
        });
    }
    if let Some(index) = index_no {
        crossrefs["clp_index_no"] = to_json(&Sourced {
            value: index.to_string(),
            source: src.id.clone(),
        });
    }
    crossrefs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::tables::testing::descriptor;

    #[test]
    fn entries_parse_with_markers_removed() {
        let text = "index_no,chemical_name,ec_no,cas_no,hazard_class_category,classification_h_codes,pictogram_signal_word,labelling_h_codes,suppl_h_codes,scl_m_factors,notes,atp\n\
            601-020-00-8,benzene,200-753-7,71-43-2,Flam. Liq. 2 | Carc. 1A | Muta. 1B | STOT RE 1 | Asp. Tox. 1 | Eye Irrit. 2 | Skin Irrit. 2,H225 | H350 | H340 | H372 ** | H304 | H319 | H315,GHS02 | GHS08 | GHS07 | Dgr,,,,,CLP00/ATP05\n\
            650-000-00-0,a group,-,-,Acute Tox. 4 *,H302,GHS07 | Wng,,,,A,CLP00\n";
        let got = parse(text, &descriptor("clp")).unwrap().contributions;
        assert_eq!(got.len(), 2);
        assert_eq!(got[1].subject, Subject::Named("a group".into()));
        let ghs = &got[0].fragment["safety"]["ghs"][0];
        assert_eq!(
            ghs["h_codes"],
            json!(["H225", "H350", "H340", "H372", "H304", "H319", "H315"])
        );
        assert_eq!(ghs["signal_word"], "Danger");
        assert_eq!(ghs["pictograms"], json!(["GHS02", "GHS08", "GHS07"]));
        assert_eq!(ghs["edition"], "CLP00/ATP05");
        assert_eq!(
            got[0].fragment["crossrefs"]["clp_index_no"]["value"],
            "601-020-00-8"
        );
        assert_eq!(got[0].name.as_deref(), Some("benzene"));
    }

    #[test]
    fn entries_naming_several_substances_reach_each_under_its_own_name() {
        let got = substances(
            "trinickel disulphide; | nickel subsulfide [1] | heazlewoodite  [2]",
            "12035-72-2 [1] | 12035-71-1 [2]",
        );
        let got: Vec<_> = got
            .iter()
            .map(|(c, n, _)| (c.as_str(), n.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("12035-72-2", "nickel subsulfide"),
                ("12035-71-1", "heazlewoodite")
            ]
        );
        let cas = |c: &str| Cas::parse(c).unwrap();
        let (ec, carvone) = (
            "202-759-5 [1] | 218-827-2 [2] | 229-352-5 [3]",
            "99-49-0 [1] | 2244-16-8 [2] | 6485-40-1 [3]",
        );
        assert_eq!(
            ec_of(ec, carvone, &cas("99-49-0")).as_deref(),
            Some("202-759-5")
        );
        assert_eq!(
            ec_of(ec, carvone, &cas("6485-40-1")).as_deref(),
            Some("229-352-5")
        );
        assert_eq!(
            ec_of("310-154-3 [1]", "74499-35-7 [1]", &cas("74499-35-7")).as_deref(),
            Some("310-154-3")
        );
        assert_eq!(
            ec_of(
                "215-215-7 [1]",
                "1313-99-1 [1] | 12035-36-8 [2]",
                &cas("12035-36-8")
            ),
            None,
            "a substance the EC cell does not number has no EC number"
        );
        assert_eq!(
            ec_of("200-753-7", "71-43-2", &cas("71-43-2")).as_deref(),
            Some("200-753-7")
        );
        let one = substances("benzene", "71-43-2");
        assert_eq!(one[0].1, "benzene");
        assert!(substances("a group", "-").is_empty());
    }

    #[test]
    fn an_entry_for_one_grade_says_which_on_each_member() {
        let grades = |name: &str, cas: &str| -> Vec<(String, Option<String>)> {
            substances(name, cas)
                .into_iter()
                .map(|(c, _, g)| (c.to_string(), g))
                .collect()
        };
        // As the table writes it (its comparator lost); the first member, which states no
        // grade, takes the one both others state.
        let dust =
            "containing = 0,1 % (w/w) of particles with an aerodynamic diameter of below 50 µm";
        assert_eq!(
            grades(
                "perboric acid, sodium salt [1] | perboric acid, sodium salt, monohydrate; [containing = 0,1 % (w/w) of particles with an aerodynamic diameter of below 50 µm] [2] | sodium peroxoborate; [containing = 0,1 % (w/w) of particles with an aerodynamic diameter of below 50 µm] [3]",
                "11138-47-9 [1] | 12040-72-1 [2] | 10332-33-9 [3]",
            ),
            [
                ("11138-47-9".to_string(), Some(dust.to_string())),
                ("12040-72-1".to_string(), Some(dust.to_string())),
                ("10332-33-9".to_string(), Some(dust.to_string())),
            ]
        );
        assert_eq!(
            grades(
                "malathion (ISO); 1,2-bis(ethoxycarbonyl)ethyl O,O-dimethyl phosphorodithioate; [containing ≤ 0.03 % isomalathion]",
                "121-75-5",
            ),
            [(
                "121-75-5".to_string(),
                Some("containing ≤ 0.03 % isomalathion".to_string())
            )]
        );
        // In parentheses, with a number in parentheses inside (601-004-01-8).
        assert_eq!(
            grades(
                "butane (containing ≥ 0,1 % butadiene (203-450-8)) [1] | isobutane (containing ≥ 0,1 % butadiene (203-450-8))  [2]",
                "106-97-8 [1] | 75-28-5 [2]",
            ),
            [
                (
                    "106-97-8".to_string(),
                    Some("containing ≥ 0,1 % butadiene (203-450-8)".to_string())
                ),
                (
                    "75-28-5".to_string(),
                    Some("containing ≥ 0,1 % butadiene (203-450-8)".to_string())
                )
            ]
        );
        assert_eq!(
            grades("benzene", "71-43-2"),
            [("71-43-2".to_string(), None)]
        );
        // Members stating different grades give none to a member stating none.
        assert_eq!(
            grades(
                "a [1] | b; [containing < 1 % x] [2] | c; [containing ≥ 1 % x] [3]",
                "50-00-0 [1] | 64-17-5 [2] | 67-56-1 [3]",
            )[0],
            ("50-00-0".to_string(), None)
        );
        let text = "index_no,chemical_name,ec_no,cas_no,hazard_class_category,classification_h_codes,pictogram_signal_word,labelling_h_codes,suppl_h_codes,scl_m_factors,notes,atp\n\
            603-221-01-3,\"x, hydrochloride; [containing ≥ 0.1 % 4-chloroaniline (EC No 203-401-0)]\",-,214353-17-0,Carc. 1B,H350,GHS08 | Dgr,,,,,ATP13\n";
        let got = parse(text, &descriptor("clp")).unwrap().contributions;
        let grade = "containing ≥ 0.1 % 4-chloroaniline (EC No 203-401-0)";
        assert_eq!(got[0].fragment["safety"]["ghs"][0]["qualifier"], grade);
        assert_eq!(
            got[0].fragment["regulatory"]["classifications"][0]["qualifier"],
            grade
        );
    }

    #[test]
    fn routes_beside_a_code_are_kept_and_target_organs_are_not_routes() {
        let cells = vec![
            vec![
                "H372 (lungs) (Inhalation)".to_string(),
                "H373 (eyes, skin, liver)".to_string(),
                "H371 (nervous system; oral, inhalation)".to_string(),
                "H350i".to_string(),
            ],
            vec!["H372 (lungs) (Inhalation)".to_string()],
        ];
        let got = stated_routes(&cells);
        let codes: Vec<&str> = got.iter().map(|r| r.code.as_str()).collect();
        assert_eq!(codes, ["H372", "H371"], "once per code; no route for H373");
        assert_eq!(got[0].routes, [ExposureRoute::Inhalation]);
        assert_eq!(got[0].words, "H372 (lungs) (Inhalation)");
        assert_eq!(
            got[1].routes,
            [ExposureRoute::Oral, ExposureRoute::Inhalation]
        );
    }
}
