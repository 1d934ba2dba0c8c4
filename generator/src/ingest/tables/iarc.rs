//! The IARC list of classifications as shipped in `chemicals` (TSV: CAS, description,
//! group, volumes, year). Groups are coded 1, 11 (2A), 12 (2B), 13 (3), 14 (4).

use std::path::Path;

use serde_json::json;

use super::call;
use super::ledger::Ledger;
use super::text::{cell, csv_error, read_utf8, reader};
use super::{Parsed, TableError};
use crate::ingest::contribution::{Contribution, Subject, clean_name, to_json};
use crate::model::cas::Cas;
use crate::model::catalog::SourceDescriptor;
use crate::model::record::{Carcinogenicity, Classification, IarcListing};
use crate::model::vocab::IarcGroup;

pub fn read(path: &Path, src: &SourceDescriptor) -> Result<Parsed, TableError> {
    parse(&read_utf8(path)?, src).map_err(|e| csv_error(&path.display().to_string(), e))
}

fn group_of(code: &str) -> Option<IarcGroup> {
    Some(match code {
        "1" => IarcGroup::G1,
        "11" | "2A" => IarcGroup::G2A,
        "12" | "2B" => IarcGroup::G2B,
        "13" | "3" => IarcGroup::G3,
        "14" | "4" => IarcGroup::G4,
        _ => return None,
    })
}

fn parse(text: &str, src: &SourceDescriptor) -> Result<Parsed, csv::Error> {
    let mut out = Vec::new();
    let mut ledger = Ledger::default();
    for row in reader(text, b'\t', true).records() {
        let row = row?;
        let name = cell(&row, 1).unwrap_or_default();
        let id = ledger.row(name);
        let Some(group) = cell(&row, 2).and_then(group_of) else {
            ledger.skip(id, "no IARC group in the row");
            continue;
        };
        let subject = match cell(&row, 0).map(Cas::parse_lenient) {
            Some(Ok(cas)) => Subject::Cas(cas),
            Some(Err(_)) => {
                ledger.skip(id, "CAS cell is not a valid CAS number");
                continue;
            }
            None => Subject::Named(clean_name(name)),
        };
        let volumes = cell(&row, 3).unwrap_or_default().to_string();
        let year = cell(&row, 4).and_then(|y| y.parse::<i32>().ok());
        let classification = Classification {
            year,
            basis: (!volumes.is_empty()).then(|| format!("IARC Monographs volumes {volumes}")),
            ..call::stated(
                src,
                "IARC",
                "IARC",
                format!("Group {}: {}", group.label(), group.description()),
            )
        };
        let fragment = json!({
            "safety": {"carcinogenicity": to_json(&Carcinogenicity {
                iarc_group: group,
                iarc_monograph: volumes.clone(),
                iarc_year: year,
                cancer_sites: Vec::new(),
                qualifier: None,
                source: src.id.clone(),
            })},
            "regulatory": {
                "classifications": [to_json(&classification)],
                "listings": {"iarc_group": to_json(&IarcListing {
                    date_precision: None,
                    effective_from: None,
                    effective_until: None,
                    group,
                    volumes,
                    year,
                    cancer_sites: Vec::new(),
                    via: None,
                    qualifier: None,
                    source: src.id.clone(),
                })},
            },
        });
        ledger.about(id, [subject.clone()]);
        out.push(
            Contribution::about(subject, fragment)
                .named(name)
                .selecting_if_keyed(),
        );
    }
    Ok(Parsed {
        contributions: out,
        ledger,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::tables::testing::descriptor;

    #[test]
    fn groups_are_decoded_and_rows_selected() {
        let text = "CAS\tdescription\tgroup\tvolumes\tyear\n\
                    50-00-0\tFormaldehyde\t1\tSup 7, 62, 88, 100F\t2012\n\
                    50-06-6\tPhenobarbital\t12\tSup 7, 79\t2001\n\
                    \tNo CAS agent\t1\t100E\t2012\n";
        let parsed = parse(text, &descriptor("iarc")).unwrap();
        let got = &parsed.contributions;
        assert_eq!(got.len(), 3);
        assert!(got[..2].iter().all(|c| c.selects));
        assert_eq!(got[2].subject, Subject::Named("No CAS agent".into()));
        assert!(!got[2].selects);
        assert_eq!(parsed.ledger.rows().len(), 3);
        let f = &got[1].fragment;
        assert_eq!(f["regulatory"]["listings"]["iarc_group"]["group"], "2B");
        assert_eq!(
            f["safety"]["carcinogenicity"]["iarc_monograph"],
            "Sup 7, 79"
        );
        assert_eq!(
            f["regulatory"]["classifications"][0]["classification"],
            "Group 2B: Possibly carcinogenic to humans"
        );
        assert_eq!(f["regulatory"]["classifications"][0]["year"], 2001);
        assert_eq!(got[0].name.as_deref(), Some("Formaldehyde"));
    }
}
