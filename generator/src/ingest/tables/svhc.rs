//! ECHA Candidate List of SVHCs (CSV: Substance name, Description, EC No., CAS No. (one or
//! several, or "-"), Reason for inclusion ("#"-separated), Date of inclusion, Remarks).

use std::path::Path;

use serde_json::json;

use super::call;
use super::ledger::Ledger;
use super::text::{cell, csv_error, day_month_year, read_utf8, reader};
use super::{Parsed, TableError};
use crate::ingest::contribution::{Contribution, Subject, to_json};
use crate::model::cas::parse_cell;
use crate::model::catalog::SourceDescriptor;
use crate::model::record::{Classification, EndocrineNote, Sourced, SvhcListing};

pub fn read(path: &Path, src: &SourceDescriptor) -> Result<Parsed, TableError> {
    parse(&read_utf8(path)?, src).map_err(|e| csv_error(&path.display().to_string(), e))
}

fn parse(text: &str, src: &SourceDescriptor) -> Result<Parsed, csv::Error> {
    let mut out = Vec::new();
    let mut ledger = Ledger::default();
    for row in reader(text, b',', true).records() {
        let row = row?;
        let id = ledger.row(cell(&row, 0).unwrap_or_default());
        let reasons: Vec<String> = cell(&row, 4)
            .unwrap_or_default()
            .split('#')
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(String::from)
            .collect();
        let date = cell(&row, 5).and_then(day_month_year).unwrap_or_default();
        let year = date.get(..4).and_then(|y| y.parse().ok());
        let endocrine: Vec<_> = reasons
            .iter()
            .filter(|r| r.starts_with("Endocrine disrupting"))
            .map(|r| {
                to_json(&EndocrineNote {
                    agency: "ECHA".into(),
                    finding: r.clone(),
                    year,
                    source: src.id.clone(),
                })
            })
            .collect();
        let ec = cell(&row, 2).map(|ec| Sourced {
            value: ec.to_string(),
            source: src.id.clone(),
        });
        let name = cell(&row, 0).unwrap_or_default();
        for cas in parse_cell(cell(&row, 3).unwrap_or_default()) {
            let mut fragment = json!({
                "safety": {"endocrine_disruption": endocrine},
                "regulatory": {
                    "classifications": [to_json(&Classification {
                        year,
                        date: Some(date.clone()).filter(|d| !d.is_empty()),
                        basis: Some(reasons.join("; ")),
                        ..call::stated(src, "ECHA", "ECHA SVHC Candidate List", "Substance of very high concern (Candidate List)")
                    })],
                    "listings": {"eu_svhc": to_json(&SvhcListing {
                        date_precision: None,
                        effective_from: None,
                        reasons: reasons.clone(),
                        date_of_inclusion: date.clone(),
                        source: src.id.clone(),
                    })},
                },
            });
            if let Some(ec) = &ec {
                fragment["crossrefs"] = json!({"ec_number": to_json(ec)});
            }
            ledger.about(id, [Subject::Cas(cas.clone())]);
            out.push(Contribution::new(cas, fragment).named(name).selecting());
        }
        ledger.otherwise(
            id,
            "entry names no CAS number (a group or a substance without one)",
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
    fn reasons_split_and_endocrine_noted() {
        let text = "Substance name,Description,EC No.,CAS No.,Reason for inclusion,Date of inclusion,Remarks\n\
            \"4,4'-isopropylidenediphenol\",,201-245-8,80-05-7,Toxic for reproduction (Article 57c)#Endocrine disrupting properties (Article 57(f) - human health),12-Jan-2017,\n\
            Some group,,700-960-7,-,vPvB (Article 57e),23-Jan-2024,\n\
            Hydrazine,,206-114-9,\"302-01-2, 7803-57-8\",Carcinogenic (Article 57a),19-Dec-2011,\n";
        let got = parse(text, &descriptor("svhc")).unwrap().contributions;
        assert_eq!(got.len(), 3, "no-CAS row skipped, two-CAS row gives two");
        let bpa = &got[0].fragment;
        assert_eq!(
            bpa["regulatory"]["listings"]["eu_svhc"]["reasons"][1],
            "Endocrine disrupting properties (Article 57(f) - human health)"
        );
        assert_eq!(bpa["safety"]["endocrine_disruption"][0]["year"], 2017);
        assert_eq!(bpa["crossrefs"]["ec_number"]["value"], "201-245-8");
        assert_eq!(got[2].cas().unwrap().as_str(), "7803-57-8");
    }
}
