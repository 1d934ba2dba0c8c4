//! California Proposition 65 list as exported by OEHHA (CSV in Windows-1252: Chemical, Type
//! of Toxicity, Listing Mechanism, CAS No., Date Listed, NSRL or MADL in µg/day). Entries
//! without a CAS ("---": groups such as lead compounds, qualified agents such as ethyl alcohol
//! in alcoholic beverages) become contributions about the row's name, which the ingest
//! resolves through `data/curated/groups.json`. A row whose note says OEHHA removed one of
//! its endpoints ("[Click here for the basis for the removal of female reproductive endpoint
//! effective March 7, 2014]") still shows it in the type column; the chemical is no longer
//! listed for it, so that endpoint gives nothing.

use std::path::Path;

use serde_json::{Value, json};

use super::call;
use super::ledger::Ledger;
use super::text::{cell, csv_error, day_month_year, read_cp1252, reader};
use super::{Parsed, TableError};
use crate::ingest::contribution::{Contribution, MemberLevel, Subject, clean_name, to_json};
use crate::model::cas::parse_cell;
use crate::model::catalog::SourceDescriptor;
use crate::model::record::{Classification, Prop65Listing};
use crate::model::vocab::Prop65Toxicity;

pub fn read(path: &Path, src: &SourceDescriptor) -> Result<Parsed, TableError> {
    parse(&read_cp1252(path)?, src).map_err(|e| csv_error(&path.display().to_string(), e))
}

fn toxicities(cell: &str) -> Vec<Prop65Toxicity> {
    let mut out: Vec<Prop65Toxicity> = cell
        .split(',')
        .filter_map(|t| match t.trim() {
            "cancer" => Some(Prop65Toxicity::Cancer),
            "developmental" => Some(Prop65Toxicity::Developmental),
            "female" => Some(Prop65Toxicity::Female),
            "male" => Some(Prop65Toxicity::Male),
            _ => None,
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The endpoint a row's note says was removed from the list, if any.
fn removed_endpoint(name: &str) -> Option<Prop65Toxicity> {
    let lower = name.to_lowercase();
    let at = lower.find("removal of ")? + "removal of ".len();
    match lower[at..].split(" endpoint").next()?.trim() {
        "cancer" => Some(Prop65Toxicity::Cancer),
        "developmental" => Some(Prop65Toxicity::Developmental),
        "female reproductive" => Some(Prop65Toxicity::Female),
        "male reproductive" => Some(Prop65Toxicity::Male),
        _ => None,
    }
}

/// "0.06 (inhalation)\n10 (except inhalation)" -> "0.06 µg/day (inhalation); 10 µg/day
/// (except inhalation)". Values with their own unit ("100 fibers/day") keep it.
fn safe_harbor(raw: &str) -> String {
    raw.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|line| {
            let (number, rest) = line.split_at(
                line.find(|c: char| !(c.is_ascii_digit() || c == '.'))
                    .unwrap_or(line.len()),
            );
            let rest = rest.trim();
            if number.is_empty() || !(rest.is_empty() || rest.starts_with('(')) {
                line.to_string()
            } else if rest.is_empty() {
                format!("{number} µg/day")
            } else {
                format!("{number} µg/day {rest}")
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn parse(text: &str, src: &SourceDescriptor) -> Result<Parsed, csv::Error> {
    let mut out = Vec::new();
    let mut ledger = Ledger::default();
    let mut group_row: Option<String> = None;
    for row in reader(text, b',', true).records() {
        let row = row?;
        let name = cell(&row, 0).unwrap_or_default();
        let id = ledger.row(name);
        let mut tox = toxicities(cell(&row, 1).unwrap_or_default());
        if let (true, Some(group), Some(level)) = (tox.is_empty(), &group_row, cell(&row, 5)) {
            let subject = Subject::Named(clean_name(name));
            ledger.about(id, [subject.clone()]);
            let mut c = Contribution::about(subject, json!({})).named(name);
            c.member_level = Some(MemberLevel {
                row: group.clone(),
                level: safe_harbor(level),
                members: 0,
            });
            out.push(c);
            continue;
        }
        if tox.is_empty() {
            ledger.skip(
                id,
                "no type of toxicity (a cross-reference or continuation row)",
            );
            continue;
        }
        // The rows just below a listing row that carry only a level continue it, whether it
        // names a group without a CAS ("Lead and lead compounds") or files one under the
        // base's CAS ("o-Phenylenediamine and its salts", 95-54-5).
        group_row = Some(name.to_string());
        if let Some(removed) = removed_endpoint(name) {
            tox.retain(|t| *t != removed);
        }
        if tox.is_empty() {
            ledger.skip(
                id,
                "its only endpoint was removed from the list (the row's note gives the date)",
            );
            continue;
        }
        // No CAS ("---"): the row names a group or a qualified agent.
        let subjects: Vec<Subject> = match parse_cell(cell(&row, 3).unwrap_or_default()) {
            list if list.is_empty() => vec![Subject::Named(clean_name(name))],
            list => list.into_iter().map(Subject::Cas).collect(),
        };
        let mechanism = cell(&row, 2)
            .unwrap_or_default()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let date = cell(&row, 4).and_then(day_month_year);
        let level = cell(&row, 5).map(safe_harbor);
        let listings = listings(&tox, &mechanism, date.as_deref(), level.as_deref(), src);
        let classifications: Vec<_> = tox
            .iter()
            .map(|&t| to_json(&classification(t, &mechanism, date.as_deref(), src)))
            .collect();
        ledger.about(id, subjects.iter().cloned());
        for subject in subjects {
            let fragment = json!({"regulatory": {
                "classifications": classifications,
                "listings": {"prop65": listings},
            }});
            out.push(
                Contribution::about(subject, fragment)
                    .named(name)
                    .selecting_if_keyed(),
            );
        }
    }
    Ok(Parsed {
        contributions: out,
        ledger,
    })
}

/// The row's listing per endpoint. Its one level column is an NSRL when the row lists cancer,
/// else the MADL.
fn listings(
    tox: &[Prop65Toxicity],
    mechanism: &str,
    date: Option<&str>,
    level: Option<&str>,
    src: &SourceDescriptor,
) -> Vec<Value> {
    let cancer_row = tox.contains(&Prop65Toxicity::Cancer);
    tox.iter()
        .map(|&t| {
            to_json(&Prop65Listing {
                date_precision: None,
                effective_from: None,
                toxicity: t,
                listing_mechanism: mechanism.to_string(),
                date_listed: date.map(String::from).unwrap_or_default(),
                safe_harbor_level: ((t == Prop65Toxicity::Cancer) == cancer_row)
                    .then(|| level.map(String::from))
                    .flatten(),
                via: None,
                qualifier: None,
                source: src.id.clone(),
            })
        })
        .collect()
}

/// The classification one endpoint of the row states.
fn classification(
    t: Prop65Toxicity,
    mechanism: &str,
    date: Option<&str>,
    src: &SourceDescriptor,
) -> Classification {
    let what = match t {
        Prop65Toxicity::Cancer => "Known to the State of California to cause cancer",
        Prop65Toxicity::Developmental => {
            "Known to the State of California to cause developmental toxicity"
        }
        Prop65Toxicity::Female => {
            "Known to the State of California to cause female reproductive toxicity"
        }
        Prop65Toxicity::Male => {
            "Known to the State of California to cause male reproductive toxicity"
        }
    };
    Classification {
        year: date.and_then(|d| d[..4].parse().ok()),
        date: date.map(String::from),
        basis: (!mechanism.is_empty()).then(|| format!("listing mechanism {mechanism}")),
        ..call::stated(src, "OEHHA", "OEHHA Proposition 65", what)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::tables::ledger::Fate;
    use crate::ingest::tables::testing::descriptor;

    #[test]
    fn rows_with_several_toxicities_and_levels() {
        let text = "Chemical,Type of Toxicity,Listing Mechanism,CAS No.,Date Listed,NSRL or MADL (µg/day)a\n\
            Acetaldehyde,cancer,SQE,75-07-0,1-Apr-88,90 (inhalation)\n\
            Abiraterone acetate,\"developmental, female, male \",FR,154229-18-2,8-Apr-16,\n\
            Aflatoxins,cancer,SQE,---,1-Jan-88,\n\
            Aflatoxin B1,,,,,\n";
        let parsed = parse(text, &descriptor("p65")).unwrap();
        let got = &parsed.contributions;
        assert_eq!(got.len(), 3);
        assert_eq!(got[2].subject, Subject::Named("Aflatoxins".into()));
        assert!(!got[2].selects);
        let fates: Vec<_> = parsed.ledger.rows().iter().map(|r| &r.fate).collect();
        assert!(matches!(fates[3], Fate::Skipped(_)));
        assert!(matches!(fates[2], Fate::About(_)));
        let acetaldehyde = &got[0].fragment["regulatory"]["listings"]["prop65"][0];
        assert_eq!(acetaldehyde["toxicity"], "cancer");
        assert_eq!(acetaldehyde["date_listed"], "1988-04-01");
        assert_eq!(acetaldehyde["safe_harbor_level"], "90 µg/day (inhalation)");
        let abiraterone = &got[1].fragment["regulatory"]["listings"]["prop65"];
        assert_eq!(abiraterone.as_array().map(Vec::len), Some(3));
        assert_eq!(
            got[1].fragment["regulatory"]["classifications"][1]["classification"],
            "Known to the State of California to cause female reproductive toxicity"
        );
    }

    #[test]
    fn a_continuation_row_gives_its_level_to_the_member_it_names_under_the_group_row_above() {
        let text = "Chemical,Type of Toxicity,Listing Mechanism,CAS No.,Date Listed,NSRL or MADL (µg/day)a\n\
            Lead and lead compounds,cancer,AB,---,1-Oct-92,\n\
            Lead,,,,,15 (oral)\n\
            o-Phenylenediamine and its salts,cancer ,AB,95-54-5,15-May-98,\n\
            o-Phenylenediamine dihydrochloride,,,,,44\n\
            Lead acetate,cancer,SQE,301-04-2,1-Jan-88,23 (oral)\n\
            Phenylhydrazine,,,,,1\n";
        let parsed = parse(text, &descriptor("p65")).unwrap();
        let got = &parsed.contributions;
        assert_eq!(got.len(), 6);
        assert_eq!(
            got[3].member_level.as_ref().map(|l| l.row.as_str()),
            Some("o-Phenylenediamine and its salts"),
            "a group row filed under the base's CAS is continued too"
        );
        assert_eq!(
            got[5].member_level.as_ref().map(|l| l.row.as_str()),
            Some("Lead acetate"),
            "a level row continues the listing row above it, whatever that row names"
        );
        assert_eq!(got[1].subject, Subject::Named("Lead".into()));
        assert_eq!(got[1].name.as_deref(), Some("Lead"));
        assert_eq!(
            got[1].member_level,
            Some(MemberLevel {
                row: "Lead and lead compounds".into(),
                level: "15 µg/day (oral)".into(),
                members: 0,
            })
        );
        assert_eq!(got[1].fragment, json!({}), "it lists nothing of its own");
        let fates: Vec<_> = parsed.ledger.rows().iter().map(|r| &r.fate).collect();
        assert!(fates.iter().all(|f| matches!(f, Fate::About(_))));
    }

    #[test]
    fn an_endpoint_the_note_says_was_removed_is_not_listed() {
        let text = "Chemical,Type of Toxicity,Listing Mechanism,CAS No.,Date Listed,NSRL or MADL (µg/day)a\n\
            Toluene,developmental,SQE,108-88-3,1-Jan-91,7000c\n\
            \"Toluene [Click here for the basis for the removal of female reproductive endpoint effective March 7, 2014]\",female ,LC,108-88-3,7-Aug-09,\n\
            \"4-Vinylcyclohexene [Click here for the basis for the removal of male reproductive endpoint, effective December 20, 2013 ]\",\"female, male \",SQE,100-40-3,7-Aug-09,\n";
        let parsed = parse(text, &descriptor("p65")).unwrap();
        let got = &parsed.contributions;
        assert_eq!(got.len(), 2);
        let fates: Vec<_> = parsed.ledger.rows().iter().map(|r| &r.fate).collect();
        assert!(matches!(fates[1], Fate::Skipped(_)));
        let vch = &got[1].fragment["regulatory"];
        assert_eq!(vch["listings"]["prop65"].as_array().map(Vec::len), Some(1));
        assert_eq!(vch["listings"]["prop65"][0]["toxicity"], "female");
        assert_eq!(vch["classifications"].as_array().map(Vec::len), Some(1));
        assert_eq!(
            removed_endpoint(
                "2,4-D butyric acid [Click here for the basis for the removal of developmental endpoint, effective June 22, 2001]"
            ),
            Some(Prop65Toxicity::Developmental)
        );
        assert_eq!(
            removed_endpoint("Lead [Basis for listing changed effective November 22, 2013]"),
            None
        );
    }

    #[test]
    fn safe_harbor_levels() {
        assert_eq!(safe_harbor("2"), "2 µg/day");
        assert_eq!(
            safe_harbor("0.06 (inhalation)\n10 (except inhalation)"),
            "0.06 µg/day (inhalation); 10 µg/day (except inhalation)"
        );
        assert_eq!(
            safe_harbor("100 fibers/day (inhalation)"),
            "100 fibers/day (inhalation)"
        );
    }
}
