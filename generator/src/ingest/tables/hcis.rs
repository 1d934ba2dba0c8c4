//! Safe Work Australia HCIS (CSV: cas_no, chemical_name, hazard_category ("; "-separated),
//! pictograms_signal_word, h_codes, hazard_statements, cut_offs, notes, sources). Used only
//! where the EU has no harmonised classification (`fallback_for` in data/sources.json).

use std::path::Path;

use serde_json::json;

use super::clp::{h_code, items, pictograms_and_signal};
use super::ledger::Ledger;
use super::text::{cell, csv_error, read_utf8, reader};
use super::{Parsed, TableError};
use crate::ingest::contribution::{Contribution, Subject, to_json};
use crate::model::cas::parse_cell;
use crate::model::catalog::SourceDescriptor;
use crate::model::record::{GhsClassification, StatedRoute};
use crate::model::vocab::ExposureRoute;

pub fn read(path: &Path, src: &SourceDescriptor) -> Result<Parsed, TableError> {
    parse(&read_utf8(path)?, src).map_err(|e| csv_error(&path.display().to_string(), e))
}

fn parse(text: &str, src: &SourceDescriptor) -> Result<Parsed, csv::Error> {
    let mut out = Vec::new();
    let mut ledger = Ledger::default();
    for row in reader(text, b',', true).records() {
        let row = row?;
        let id = ledger.row(cell(&row, 1).unwrap_or_default());
        let (pictograms, signal_word) = pictograms_and_signal(&items(cell(&row, 3), ';'));
        let h_codes: Vec<String> = items(cell(&row, 4), ';')
            .iter()
            .map(|h| h_code(h))
            .collect();
        let ghs = GhsClassification {
            date_precision: None,
            effective_from: None,
            effective_until: None,
            jurisdiction: "AU".into(),
            hazard_classes: items(cell(&row, 2), ';'),
            routes: organ_routes(&h_codes, &items(cell(&row, 5), ';')),
            h_codes,
            pictograms,
            signal_word,
            specific_concentration_limits: cell(&row, 6).map(String::from),
            notes: cell(&row, 8).map(|s| format!("HCIS sources: {s}")),
            edition: None,
            via: None,
            qualifier: None,
            source: src.id.clone(),
            applies_from: None,
            status: None,
            superseded_by: None,
        };
        if ghs.h_codes.is_empty() {
            ledger.skip(id, "no hazard statement");
            continue;
        }
        for cas in parse_cell(cell(&row, 0).unwrap_or_default()) {
            let fragment = json!({"safety": {"ghs": [to_json(&ghs)]}});
            ledger.about(id, [Subject::Cas(cas.clone())]);
            out.push(Contribution::new(cas, fragment));
        }
        ledger.otherwise(id, "no valid CAS number in the row");
    }
    Ok(Parsed {
        contributions: out,
        ledger,
    })
}

/// The organ toxicity codes (H370-H373) whose hazard statement names its routes ("Causes
/// damage to organs through prolonged or repeated exposure if inhaled"). The statements are
/// not always in the order of the codes, so each is told by its wording; target organs in
/// parentheses ("(skin)") are not routes.
fn organ_routes(codes: &[String], statements: &[String]) -> Vec<StatedRoute> {
    let mut out: Vec<StatedRoute> = Vec::new();
    for s in statements {
        let repeated = s.contains("prolonged or repeated");
        let code = match (
            s.starts_with("Causes damage to organs"),
            s.starts_with("May cause damage to organs"),
            repeated,
        ) {
            (true, _, false) => "H370",
            (_, true, false) => "H371",
            (true, _, true) => "H372",
            (_, true, true) => "H373",
            _ => continue,
        };
        let outside_parentheses: String = s
            .split('(')
            .map(|part| part.split_once(')').map_or(part, |(_, rest)| rest))
            .collect();
        let routes = ExposureRoute::named_in(&outside_parentheses);
        if routes.is_empty()
            || !codes.iter().any(|c| c == code)
            || out.iter().any(|r| r.code == code)
        {
            continue;
        }
        out.push(StatedRoute {
            code: code.into(),
            routes,
            words: s.clone(),
            source: None,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::tables::testing::descriptor;

    #[test]
    fn rows_parse() {
        let text = "cas_no,chemical_name,hazard_category,pictograms_signal_word,h_codes,hazard_statements,cut_offs,notes,sources\n\
            121-20-0,cinerin II,Acute toxicity – category 4; Hazardous to the aquatic environment (acute) – category 1,GHS07; GHS09; Warning,H302; H410,Harmful if swallowed,,,EU\n\
            1-00-0,nothing,,,,,,,\n";
        let got = parse(text, &descriptor("hcis")).unwrap().contributions;
        assert_eq!(got.len(), 1);
        let ghs = &got[0].fragment["safety"]["ghs"][0];
        assert_eq!(ghs["jurisdiction"], "AU");
        assert_eq!(ghs["h_codes"], json!(["H302", "H410"]));
        assert_eq!(ghs["signal_word"], "Warning");
        assert_eq!(ghs["hazard_classes"][0], "Acute toxicity – category 4");
    }

    #[test]
    fn organ_classes_keep_the_routes_their_statements_name() {
        let codes: Vec<String> = ["H301", "H372", "H373"].map(String::from).to_vec();
        let statements: Vec<String> = [
            "May cause damage to organs (skin) through prolonged or repeated exposure",
            "Toxic if swallowed",
            "Causes damage to organs through prolonged or repeated exposure if swallowed or inhaled",
        ]
        .map(String::from)
        .to_vec();
        let got = organ_routes(&codes, &statements);
        assert_eq!(
            got.len(),
            1,
            "a target organ in parentheses is no route: {got:?}"
        );
        assert_eq!(got[0].code, "H372");
        assert_eq!(
            got[0].routes,
            [ExposureRoute::Inhalation, ExposureRoute::Oral]
        );
        assert!(
            organ_routes(&codes[..1], &statements).is_empty(),
            "a code the row lacks"
        );
    }
}
