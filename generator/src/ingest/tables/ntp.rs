//! NTP Report on Carcinogens, 15th edition (CSV with a byte-order mark: CASRN, NAME, Listing
//! = Known | RAHC).

use std::path::Path;

use serde_json::json;

use super::TableError;
use super::text::{cell, csv_error, read_utf8, reader};
use crate::ingest::contribution::{Contribution, to_json};
use crate::model::cas::parse_cell;
use crate::model::catalog::SourceDescriptor;
use crate::model::record::{Classification, NtpRocListing};
use crate::model::vocab::NtpListing;

/// Year the 15th edition was published.
const EDITION_YEAR: i32 = 2021;

pub fn read(path: &Path, src: &SourceDescriptor) -> Result<Vec<Contribution>, TableError> {
    parse(&read_utf8(path)?, src).map_err(|e| csv_error(&path.display().to_string(), e))
}

fn parse(text: &str, src: &SourceDescriptor) -> Result<Vec<Contribution>, csv::Error> {
    let mut out = Vec::new();
    for row in reader(text, b',', true).records() {
        let row = row?;
        let listing = match cell(&row, 2) {
            Some("Known") => NtpListing::Known,
            Some("RAHC") => NtpListing::ReasonablyAnticipated,
            _ => continue,
        };
        for cas in parse_cell(cell(&row, 0).unwrap_or_default()) {
            let fragment = json!({"regulatory": {
                "classifications": [to_json(&Classification {
                    agency: "NTP".into(),
                    attribution: "NTP RoC 15th edition".into(),
                    classification: listing.description().into(),
                    year: Some(EDITION_YEAR),
                    date: None,
                    basis: None,
                    source_url: src.url.clone(),
                    source: src.id.clone(),
                    status: None,
                    superseded_by: None,
                })],
                "listings": {"ntp_roc": to_json(&NtpRocListing {
                    listing,
                    edition: "15th".into(),
                    source: src.id.clone(),
                })},
            }});
            let name = cell(&row, 1).unwrap_or_default();
            out.push(Contribution::new(cas, fragment).named(name).selecting());
        }
    }
    Ok(out)
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
        let got = parse(text, &descriptor("ntp")).unwrap();
        assert_eq!(got.len(), 3);
        assert_eq!(got[1].name.as_deref(), Some("Estradiol-17B"));
        assert_eq!(
            got[2].fragment["regulatory"]["listings"]["ntp_roc"]["listing"],
            "reasonably_anticipated"
        );
    }
}
