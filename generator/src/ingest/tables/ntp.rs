//! NTP Report on Carcinogens, 15th edition (CSV with a byte-order mark: CASRN, NAME, Listing
//! = Known | RAHC).

use std::path::Path;

use serde_json::json;

use super::call;
use super::ledger::Ledger;
use super::text::{cell, csv_error, read_utf8, reader};
use super::{Parsed, TableError};
use crate::ingest::contribution::{Contribution, Subject, clean_name, to_json};
use crate::model::cas::parse_cell;
use crate::model::catalog::SourceDescriptor;
use crate::model::record::{Classification, NtpRocListing};
use crate::model::vocab::NtpListing;

/// Year the 15th edition was published.
const EDITION_YEAR: i32 = 2021;

pub fn read(path: &Path, src: &SourceDescriptor) -> Result<Parsed, TableError> {
    parse(&read_utf8(path)?, src).map_err(|e| csv_error(&path.display().to_string(), e))
}

fn parse(text: &str, src: &SourceDescriptor) -> Result<Parsed, csv::Error> {
    let mut out = Vec::new();
    let mut ledger = Ledger::default();
    for row in reader(text, b',', true).records() {
        let row = row?;
        let name = cell(&row, 1).unwrap_or_default();
        let id = ledger.row(name);
        let listing = match cell(&row, 2) {
            Some("Known") => NtpListing::Known,
            Some("RAHC") => NtpListing::ReasonablyAnticipated,
            _ => {
                ledger.skip(id, "listing is neither Known nor RAHC");
                continue;
            }
        };
        // No CAS: the row names a group ("Lead and Lead Compounds") or an exposure.
        let subjects: Vec<Subject> = match parse_cell(cell(&row, 0).unwrap_or_default()) {
            list if list.is_empty() => vec![Subject::Named(clean_name(name))],
            list => list.into_iter().map(Subject::Cas).collect(),
        };
        ledger.about(id, subjects.iter().cloned());
        for subject in subjects {
            let fragment = json!({"regulatory": {
                "classifications": [to_json(&Classification {
                    year: Some(EDITION_YEAR),
                    ..call::stated(src, "NTP", "NTP RoC 15th edition", listing.description())
                })],
                "listings": {"ntp_roc": to_json(&NtpRocListing {
                    listing,
                    edition: "15th".into(),
                    via: None,
                    qualifier: None,
                    source: src.id.clone(),
                })},
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::tables::testing::descriptor;

    #[test]
    fn listings() {
        let text = "CASRN,NAME,Listing,,,\n50-00-0,Formaldehyde,Known,,,\n\
                    50-28-2,\"Estradiol-17B (see Estrogens, Steroidal)\",Known,,,\n\
                    75-01-4,Vinyl chloride,RAHC,,,\n,Soot,Known,,,\n";
        let got = parse(text, &descriptor("ntp")).unwrap().contributions;
        assert_eq!(got.len(), 4);
        assert_eq!(got[3].subject, Subject::Named("Soot".into()));
        assert_eq!(got[1].name.as_deref(), Some("Estradiol-17B"));
        assert_eq!(
            got[2].fragment["regulatory"]["listings"]["ntp_roc"]["listing"],
            "reasonably_anticipated"
        );
    }
}
