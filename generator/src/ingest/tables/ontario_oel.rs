//! Ontario occupational exposure limits (Regulation 833) as shipped in `chemicals` (TSV:
//! CASRN ("; "-separated when an entry covers several), "Agent [CAS No.]", TWA, STEL, Ceiling
//! ("<number> <unit>", unit mg/m3 or ppm), Notations ("Skin"), MW).

use std::collections::HashMap;
use std::path::Path;

use serde_json::json;

use super::ledger::Ledger;
use super::text::{cell, csv_error, read_utf8, reader};
use super::{Parsed, TableError};
use crate::ingest::contribution::{Contribution, Subject, to_json};
use crate::model::cas::Cas;
use crate::model::catalog::SourceDescriptor;
use crate::model::record::ExposureLimit;
use crate::model::vocab::LimitKind;

pub fn read(path: &Path, src: &SourceDescriptor) -> Result<Parsed, TableError> {
    parse(&read_utf8(path)?, src).map_err(|e| csv_error(&path.display().to_string(), e))
}

const LIMITS: [(usize, LimitKind); 3] = [
    (2, LimitKind::Twa),
    (3, LimitKind::Stel),
    (4, LimitKind::Ceiling),
];

/// Entries (by their CASRN cell) for which Ontario lists several forms with different limits
/// (metal / soluble / organic compounds, fume / dust, hydrogen cyanide / cyanide salts...).
/// The `chemicals` flattening kept one value per column without saying which form it belongs
/// to (the chromium row holds the insoluble Cr VI limit, the platinum row that of soluble
/// salts), so no value of these rows can be attributed to the CAS: they are skipped.
const COLLAPSED_ENTRIES: [&str; 18] = [
    "409-21-2",                              // silicon carbide: non-fibrous / fibrous
    "1304-82-1",                             // bismuth telluride: undoped / Se-doped
    "7439-92-1",                             // lead / tetraethyl lead
    "7439-97-6",                             // mercury: all forms / alkyl compounds
    "7439-98-7",                             // molybdenum: soluble / metal and insoluble
    "7440-06-4",                             // platinum: metal / soluble compounds
    "7440-16-6",                             // rhodium: metal and insoluble / soluble
    "7440-22-4",                             // silver: metal / soluble compounds
    "7440-31-5",                             // tin: metal / oxide and inorganic / organic
    "7440-33-7",                             // tungsten: metal and insoluble / soluble
    "7440-47-3",                             // chromium: metal and Cr III / Cr VI forms
    "7440-50-8",                             // copper: fume / dusts and mists
    "7758-97-6",                             // lead chromate: as Pb / as Cr
    "8012-95-1",                             // mineral oil: pure / poorly refined
    "26628-22-8",                            // sodium azide / hydrazoic acid vapour
    "74-90-8; 592-01-8; 151-50-8; 143-33-9", // hydrogen cyanide / cyanide salts
    "14808-60-7; 1317-95-9",                 // silica: quartz, tripoli / cristobalite
    "53469-21-9; 11097-69-1",                // chlorodiphenyl 42% / 54% chlorine
];

/// "0.05 mg/m3", "1 ppm ", "0.5ppm" -> (value, unit).
fn limit_value(raw: &str) -> Option<(f64, String)> {
    let raw = raw.trim();
    let split = raw
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(raw.len());
    let (number, unit) = raw.split_at(split);
    let unit = unit.trim();
    let value: f64 = number.parse().ok()?;
    let unit_ok = !unit.is_empty()
        && !unit.contains(char::is_whitespace)
        && unit.starts_with(|c: char| c.is_alphabetic());
    unit_ok.then(|| (value, unit.to_string()))
}

/// A CAS as this table writes it: "13397-24-5)" carries a stray bracket and "75-01-04" a
/// zero-padded check digit; the check digit still has to hold.
fn cas_of(raw: &str) -> Option<Cas> {
    let raw = raw.trim().trim_end_matches([')', ']']);
    Cas::parse_lenient(raw).ok().or_else(|| {
        let (body, check) = raw.rsplit_once('-')?;
        let check = check.trim_start_matches('0');
        (check.len() == 1)
            .then(|| Cas::parse_lenient(&format!("{body}-{check}")).ok())
            .flatten()
    })
}

/// The agent text outside its "[CAS]" brackets, whitespace collapsed.
fn without_brackets(agent: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in agent.chars() {
        match c {
            '[' => depth += 1,
            ']' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(" ,", ",")
}

/// What mg/m3 values are expressed as: "Hydrogen fluoride [7664-39-3], as F" -> "as F".
fn expressed_as(agent: &str) -> Option<String> {
    let text = without_brackets(agent);
    let i = text.rfind(" as ")?;
    let basis = text[i + 1..].trim_end_matches(['.', ',', ' ']);
    Some(basis.to_string())
}

/// The compound's name: the agent text before its CAS bracket, without an "as X" basis or a
/// footnote digit ("Hydrogenated terphenyls2 [61788-32-7]").
fn name_of(agent: &str) -> String {
    let before = agent.split('[').next().unwrap_or_default();
    let before = if before.trim().is_empty() {
        without_brackets(agent)
    } else {
        before.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let name = match before.find(", as ").or_else(|| before.find(" as ")) {
        Some(i) => &before[..i],
        None => before.as_str(),
    };
    let name = name.trim_end_matches([',', ' ']);
    let mut chars = name.chars().rev();
    match (chars.next(), chars.next()) {
        (Some(d), Some(c)) if d.is_ascii_digit() && (c.is_lowercase() || c == ')') => {
            name[..name.len() - 1].to_string()
        }
        _ => name.to_string(),
    }
}

fn parse(text: &str, src: &SourceDescriptor) -> Result<Parsed, csv::Error> {
    let mut ledger = Ledger::default();
    let mut order: Vec<(Cas, Option<String>)> = Vec::new();
    let mut limits: HashMap<Cas, Vec<ExposureLimit>> = HashMap::new();
    for row in reader(text, b'\t', true).records() {
        let row = row?;
        let agent = cell(&row, 1).unwrap_or_default();
        let id = ledger.row(agent);
        let cas_cell = cell(&row, 0).unwrap_or_default();
        let cas_list: Vec<Cas> = cas_cell.split(';').filter_map(cas_of).collect();
        let repeated = cas_list
            .iter()
            .enumerate()
            .any(|(i, c)| cas_list[..i].contains(c));
        if cas_list.is_empty() {
            ledger.skip(id, "no CAS number (an agent such as a dust or a group)");
            continue;
        }
        if repeated || COLLAPSED_ENTRIES.contains(&cas_cell) {
            ledger.skip(id, "one CAS cell for several forms with different limits");
            continue;
        }
        let group = cas_list.len() > 1;
        let row_limits = row_limits(&row, agent, group, src);
        if row_limits.is_empty() {
            ledger.skip(id, "no limit value in \"<number> <unit>\" form");
            continue;
        }
        ledger.about(id, cas_list.iter().cloned().map(Subject::Cas));
        let name = (!group).then(|| name_of(agent));
        for cas in cas_list {
            let list = limits.entry(cas.clone()).or_insert_with(|| {
                order.push((cas.clone(), name.clone()));
                Vec::new()
            });
            for limit in &row_limits {
                add_limit(list, limit.clone());
            }
        }
    }
    let contributions = order
        .into_iter()
        .map(|(cas, name)| {
            let entries: Vec<_> = limits[&cas].iter().map(to_json).collect();
            let c = Contribution::new(cas, json!({"safety": {"exposure_limits": entries}}));
            match name {
                Some(n) => c.named(n),
                None => c,
            }
        })
        .collect();
    Ok(Parsed {
        contributions,
        ledger,
    })
}

/// The row's limit values, each with the skin notation and the row's other notes (for a
/// group entry, its name; else what the limit is expressed as).
fn row_limits(
    row: &csv::StringRecord,
    agent: &str,
    group: bool,
    src: &SourceDescriptor,
) -> Vec<ExposureLimit> {
    let notations = cell(row, 5).unwrap_or_default();
    let skin = notations.to_ascii_lowercase().contains("skin");
    let other_notes = notations
        .split_whitespace()
        .filter(|w| !w.eq_ignore_ascii_case("skin"))
        .collect::<Vec<_>>()
        .join(" ");
    let mut notes = Vec::new();
    if group {
        notes.push(format!("Ontario entry: {}", without_brackets(agent)));
    } else if let Some(basis) = expressed_as(agent) {
        notes.push(basis);
    }
    if !other_notes.is_empty() {
        notes.push(other_notes);
    }
    let notation = (!notes.is_empty()).then(|| notes.join("; "));
    let mut row_limits = Vec::new();
    for (col, kind) in LIMITS {
        let Some(raw) = cell(row, col) else {
            continue;
        };
        // "R", "see note", ranges: not a limit value; the row may still give others.
        let Some((value, unit)) = limit_value(raw) else {
            continue;
        };
        row_limits.push(ExposureLimit {
            agency: "Ontario Ministry of Labour".into(),
            jurisdiction: "CA-ON".into(),
            kind,
            value,
            unit,
            skin,
            notation: notation.clone(),
            source: src.id.clone(),
        });
    }
    row_limits
}

/// Adds a limit unless the compound already has it (two entries covering the same CAS, such
/// as "Butane, All isomers" and the alkane gases entry); the shorter notation is kept.
fn add_limit(list: &mut Vec<ExposureLimit>, limit: ExposureLimit) {
    let same = |l: &ExposureLimit| {
        l.kind == limit.kind
            && l.value == limit.value
            && l.unit == limit.unit
            && l.skin == limit.skin
    };
    let len = |l: &ExposureLimit| l.notation.as_deref().map_or(0, str::len);
    match list.iter_mut().find(|l| same(l)) {
        Some(old) if len(&limit) < len(old) => *old = limit,
        Some(_) => {}
        None => list.push(limit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::tables::ledger::Fate;
    use crate::ingest::tables::testing::descriptor;

    const HEADER: &str = "CASRN\tAgent [CAS No.]\tTime-Weighted Average Limit (TWA)\tShort-Term Exposure Limit (STEL)\tCeiling Limit (C)\tNotations\tMW\n";

    #[test]
    fn limits_per_cas_with_skin_and_basis() {
        let text = format!(
            "{HEADER}\
            \t\t\t\t\t\t\n\
            \tFlour dust\t3 mg/m3\t\t\t\t\n\
            71-43-2\tBenzene [71-43-2] \t0.5 ppm\t2.5 ppm\t\tSkin\t78.11\n\
            50-00-0\tFormaldehyde [50-00-0] \t \t1 ppm\t1.5 ppm\t\t30.03\n\
            7664-39-3\tHydrogen fluoride [7664-39-3], as F \t0.5ppm\t\t2 ppm\tSkin \t20.0\n\
            75-01-04\tVinyl chloride [75-01-04] \t1 ppm\t \t\t\t\n\
            61788-32-7\tHydrogenated terphenyls2 [61788-32-7]\t0.5 ppm\t\t\t\t\n\
            108-88-3\tToluene [108-88-3]\tR\tsee note\t1-2 ppm\t\t\n\
            7440-47-3\tChromium [7440-47-3] and inorganic compounds, as Cr Metal and Cr III compounds  Water- soluble Cr VI compounds Insoluble Cr VI compounds\t0.01 mg/m3 \t\t\t\t\n\
            7440-02-0; 7440-02-0; 12035-72-2\tNickel Elemental/metal [7440-02-0] Insoluble compounds, as Ni [7440-02-0] Soluble compounds, as Ni [7440-02-0] Nickel subsulfide, as Ni [12035-72-2]\t0.1 mg/m3 \t \t\t\t\n\
            106-97-8; 75-28-5\tAliphatic hydrocarbon gases Alkane [C1-C4], except Butane, All  isomers Butane, All isomers [106-97-8]; [75-28-5]\t800 ppm\t \t\t\t\n\
            106-97-8; 75-28-5\tButane, All isomers [106-97-8; 75-28-5]\t800 ppm\t\t\t\t\n\
            7778-18-9; 10034-76-1)\tCalcium sulfate [7778-18-9; 10034-76-1)] \t10 mg/m3 \t \t\t\t\n"
        );
        let got = parse(&text, &descriptor("on")).expect("test data");
        let skipped = got
            .ledger
            .rows()
            .iter()
            .filter(|r| matches!(r.fate, Fate::Skipped(_)))
            .count();
        assert_eq!(
            skipped, 5,
            "blank, no CAS, collapsed, repeated CAS, no limit in a readable form"
        );
        let cas: Vec<&str> = got
            .contributions
            .iter()
            .map(|c| c.cas().expect("test data").as_str())
            .collect();
        assert_eq!(
            cas,
            [
                "71-43-2",
                "50-00-0",
                "7664-39-3",
                "75-01-4",
                "61788-32-7",
                "106-97-8",
                "75-28-5",
                "7778-18-9",
                "10034-76-1"
            ]
        );
        let benzene = &got.contributions[0].fragment["safety"]["exposure_limits"];
        assert_eq!(
            benzene[0],
            json!({"agency": "Ontario Ministry of Labour", "jurisdiction": "CA-ON",
                   "kind": "twa", "value": 0.5, "unit": "ppm", "skin": true, "source": "on"})
        );
        assert_eq!(benzene[1]["kind"], "stel");
        assert_eq!(got.contributions[0].name.as_deref(), Some("Benzene"));
        let formaldehyde = &got.contributions[1].fragment["safety"]["exposure_limits"];
        assert_eq!(formaldehyde.as_array().expect("test data").len(), 2);
        assert_eq!(formaldehyde[1]["kind"], "ceiling");
        assert!(formaldehyde[1].get("skin").is_none());
        let hf = &got.contributions[2];
        assert_eq!(hf.fragment["safety"]["exposure_limits"][0]["value"], 0.5);
        assert_eq!(
            hf.fragment["safety"]["exposure_limits"][0]["notation"],
            "as F"
        );
        assert_eq!(hf.name.as_deref(), Some("Hydrogen fluoride"));
        assert_eq!(
            got.contributions[4].name.as_deref(),
            Some("Hydrogenated terphenyls")
        );
        let butane = &got.contributions[5];
        assert_eq!(butane.name, None, "group entries do not name a compound");
        let butane_limits = butane.fragment["safety"]["exposure_limits"]
            .as_array()
            .expect("test data");
        assert_eq!(butane_limits.len(), 1, "same limit from two entries");
        assert_eq!(
            butane_limits[0]["notation"],
            "Ontario entry: Butane, All isomers"
        );
    }

    #[test]
    fn values_and_names() {
        assert_eq!(limit_value("0.05 mg/m3"), Some((0.05, "mg/m3".into())));
        assert_eq!(limit_value("5 mg/m3 "), Some((5.0, "mg/m3".into())));
        assert_eq!(limit_value("0.1 f/cc"), Some((0.1, "f/cc".into())));
        assert_eq!(limit_value("0.5ppm"), Some((0.5, "ppm".into())));
        assert_eq!(limit_value("R"), None);
        assert_eq!(limit_value("0.1 mg/m3 R"), None);
        assert_eq!(limit_value("ppm"), None);
        assert_eq!(
            name_of("Beryllium and its compounds, as Be [7440-41-7] "),
            "Beryllium and its compounds"
        );
        assert_eq!(
            name_of("Vanadium pentoxide [1314-62-1] as V"),
            "Vanadium pentoxide"
        );
        assert_eq!(name_of("β-Propiolactone [57-57-8] "), "β-Propiolactone");
        assert_eq!(
            expressed_as("Asphalt (Bitumen) fume [8052-42-4], as benzene-soluble aerosol"),
            Some("as benzene-soluble aerosol".into())
        );
        assert_eq!(
            expressed_as(
                "Arsenic, elemental arsenic and inorganic compounds [7440-38-2], and organic compounds, as As."
            ),
            Some("as As".into())
        );
        assert_eq!(expressed_as("Aliphatic hydrocarbon gases"), None);
        assert_eq!(
            without_brackets("Diesel fuel [68334-30-5; 68476-30-2], as total hydrocarbons"),
            "Diesel fuel, as total hydrocarbons"
        );
        assert_eq!(cas_of("75-01-04").expect("test data").as_str(), "75-01-4");
        assert_eq!(
            cas_of(" 13397-24-5)").expect("test data").as_str(),
            "13397-24-5"
        );
        assert_eq!(cas_of("75-01-05"), None);
    }
}
