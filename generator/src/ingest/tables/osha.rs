//! OSHA regulated carcinogens (29 CFR 1910.1003, the "13 carcinogens" standard) as shipped in
//! chemical-safety 1.1.6: CSV with name, cid only, so rows are keyed by PubChem CID and
//! resolved to CAS through the identifier tables. Rows without a positive CID are skipped.

use std::path::Path;

use serde_json::json;

use super::call;
use super::ledger::Ledger;
use super::text::{cell, csv_error, read_utf8, reader};
use super::{Parsed, TableError};
use crate::ingest::contribution::{Contribution, Subject, to_json};
use crate::model::catalog::SourceDescriptor;
use crate::model::record::{Classification, Sourced};

pub fn read(path: &Path, src: &SourceDescriptor) -> Result<Parsed, TableError> {
    parse(&read_utf8(path)?, src).map_err(|e| csv_error(&path.display().to_string(), e))
}

fn parse(text: &str, src: &SourceDescriptor) -> Result<Parsed, csv::Error> {
    let mut out = Vec::new();
    let mut ledger = Ledger::default();
    for row in reader(text, b',', true).records() {
        let row = row?;
        let id = ledger.row(cell(&row, 0).unwrap_or_default());
        let Some(cid) = cell(&row, 1)
            .and_then(|c| c.parse::<u64>().ok())
            .filter(|c| *c > 0)
        else {
            ledger.skip(id, "no PubChem CID in the row");
            continue;
        };
        let classification = Classification {
            basis: Some("29 CFR 1910.1003".into()),
            ..call::stated(src, "OSHA", "OSHA", "OSHA regulated carcinogen")
        };
        let listing = Sourced {
            value: true,
            source: src.id.clone(),
        };
        let fragment = json!({"regulatory": {
            "classifications": [to_json(&classification)],
            "listings": {"osha_carcinogen": to_json(&listing)},
        }});
        let name = cell(&row, 0).unwrap_or_default();
        ledger.about(id, [Subject::PubchemCid(cid)]);
        out.push(Contribution::for_pubchem_cid(cid, fragment).named(name));
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
    fn rows_are_keyed_by_cid() {
        let text = "name,cid\n\
            2-Acetylaminofluorene,5897\n\
            \"3,3'-Dichlorobenzidine\",7070\n\
            Unresolved agent,0\n\
            No cid,\n";
        let got = parse(text, &descriptor("osha"))
            .expect("table parses")
            .contributions;
        assert_eq!(got.len(), 2);
        assert_eq!(got[1].subject, Subject::PubchemCid(7070));
        assert_eq!(got[1].name.as_deref(), Some("3,3'-Dichlorobenzidine"));
        let f = &got[0].fragment["regulatory"];
        assert_eq!(
            f["listings"]["osha_carcinogen"],
            json!({"value": true, "source": "osha"})
        );
        assert_eq!(f["classifications"][0]["agency"], "OSHA");
        assert_eq!(f["classifications"][0]["basis"], "29 CFR 1910.1003");
        assert_eq!(
            f["classifications"][0]["classification"],
            "OSHA regulated carcinogen"
        );
    }
}
