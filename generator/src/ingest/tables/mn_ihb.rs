//! Minnesota Inhalation Health Benchmarks, `IHBs.csv` (CSV: CAS, Pollutant, Acute /
//! Subchronic / Chronic Non-cancer Reference Conc (ug/m3), Lifetime cancer risk of 1E-5 Air
//! Conc (ug/m3), the four "* IHB Reference" columns naming the originating body of each value
//! (IRIS, CAL EPA, MDH HRV, ATSDR...), Acute / Subchronic / Chronic Non-cancer Endpoints, and
//! 0/1 flags Persistent Bioaccumulative Toxicants, Respiratory Sensitizers, Developmental
//! Toxicants). "NA" is empty.

use std::path::Path;

use serde_json::{Value, json};

use super::dose;
use super::ledger::Ledger;
use super::text::{cell, csv_error, read_utf8, reader};
use super::{Parsed, TableError};
use crate::ingest::contribution::{Contribution, Subject, clean_name, to_json};
use crate::model::cas::Cas;
use crate::model::catalog::SourceDescriptor;
use crate::model::record::{DoseValue, Sourced};
use crate::model::vocab::DoseKind;

pub fn read(path: &Path, src: &SourceDescriptor) -> Result<Parsed, TableError> {
    parse(&read_utf8(path)?, src).map_err(|e| csv_error(&path.display().to_string(), e))
}

/// The value columns: (value column, reference column, endpoint column, kind).
const BENCHMARKS: [(usize, usize, Option<usize>, DoseKind); 4] = [
    (2, 6, Some(10), DoseKind::RfcAcute),
    (3, 7, Some(11), DoseKind::RfcSubchronic),
    (4, 8, Some(12), DoseKind::RfcChronic),
    (5, 9, None, DoseKind::AirConcentrationCancerRisk1e5),
];

const PBT_FLAG: usize = 13;

/// The agency behind a reference string. MDH values that adopt another body's number ("MDH
/// HRV (IRIS 2007)") are MDH's; NAAQS are US EPA standards; anything else (e.g. "MPCA") is
/// attributed to the Minnesota Department of Health, the benchmarks' publisher.
fn agency_of(reference: &str) -> &'static str {
    let upper = reference.to_ascii_uppercase();
    if upper.starts_with("MDH") {
        "Minnesota Department of Health"
    } else if upper.starts_with("IRIS") || upper.starts_with("PPRTV") || upper.starts_with("NAAQS")
    {
        "US EPA"
    } else if upper.starts_with("CAL EPA") || upper.starts_with("CALEPA") {
        "OEHHA"
    } else if upper.starts_with("ATSDR") {
        "ATSDR"
    } else {
        "Minnesota Department of Health"
    }
}

/// The year in "ATSDR (2019)" or "MDH HBV (2020)": the year of the reference body's own value
/// (not that of an adopted value, as in "MDH HRV (IRIS 2007)").
fn year_of(reference: &str) -> Option<i32> {
    let inner = reference.strip_suffix(')')?.rsplit_once(" (")?.1;
    (inner.len() == 4).then(|| inner.parse().ok()).flatten()
}

/// "Resp , Eyes" -> "Resp, Eyes".
fn endpoints(raw: &str) -> String {
    raw.split(',')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .collect::<Vec<_>>()
        .join(", ")
}

fn parse(text: &str, src: &SourceDescriptor) -> Result<Parsed, csv::Error> {
    let mut out = Vec::new();
    let mut ledger = Ledger::default();
    for row in reader(text, b',', true).records() {
        let row = row?;
        let name = cell(&row, 1).unwrap_or_default();
        let id = ledger.row(name);
        // Group codes ("LEAD-COMPS") and suffixed numbers ("18540-29-9-pm") are not CAS
        // numbers: the row is about what its name says.
        let subject = match cell(&row, 0).and_then(|c| Cas::parse_lenient(c).ok()) {
            Some(cas) => Subject::Cas(cas),
            None => Subject::Named(clean_name(name)),
        };
        let mut doses = Vec::new();
        for (value_col, ref_col, endpoint_col, kind) in BENCHMARKS {
            let Some(value) = cell(&row, value_col).and_then(|v| v.parse::<f64>().ok()) else {
                continue;
            };
            let reference = cell(&row, ref_col).unwrap_or_default();
            let endpoints = endpoint_col
                .and_then(|i| cell(&row, i))
                .map(endpoints)
                .filter(|e| !e.is_empty());
            let basis = match (reference.is_empty(), endpoints) {
                (false, Some(e)) => Some(format!("{reference}; endpoints: {e}")),
                (false, None) => Some(reference.to_string()),
                (true, Some(e)) => Some(format!("endpoints: {e}")),
                (true, None) => None,
            };
            doses.push(to_json(&DoseValue {
                year: year_of(reference),
                basis,
                ..dose::stated(src, agency_of(reference), kind, value, "µg/m3")
            }));
        }
        let mut fragment = json!({});
        if !doses.is_empty() {
            fragment["dose_response"] = Value::Array(doses);
        }
        if cell(&row, PBT_FLAG) == Some("1") {
            fragment["properties"] = json!({"environmental_fate": {
                "persistent_bioaccumulative": to_json(&Sourced {value: true, source: src.id.clone()}),
            }});
        }
        if fragment.as_object().is_some_and(|f| f.is_empty()) {
            ledger.skip(id, "no numeric benchmark and no PBT flag");
            continue;
        }
        ledger.about(id, [subject.clone()]);
        out.push(Contribution::about(subject, fragment).named(name));
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

    const HEADER: &str = "CAS,Pollutant,Acute Reference Conc (ug/m3),Subchronic Reference Conc (ug/m3),Chronic Non-cancer Reference Conc (ug/m3),Lifetime cancer risk of 1E-5 Air Conc (ug/m3),Acute IHB Reference,Subchronic IHB Reference,Chronic Non-cancer IHB Reference,Cancer IHB Reference,Acute Endpoints,Subchronic Endpoints,Chronic Non-cancer Endpoints,Persistent Bioaccumulative Toxicants,Respiratory Sensitizers,Developmental Toxicants\n";

    #[test]
    fn benchmarks_with_their_origin() {
        let text = format!(
            "{HEADER}\
            75-07-0,Acetaldehyde,470,NA,9,5,CAL EPA,NA,IRIS,MDH HRV,\"Eyes , Resp\",NA,Resp,0,0,0\n\
            202-94-8,\"11H-Benz[b,c]aceanthrylene\",NA,NA,NA,0.2,NA,NA,NA,MDH RAA,NA,NA,NA,1,0,0\n\
            85-01-8,Phenanthrene,NA,NA,NA,NA,NA,NA,NA,MDH RAA,NA,NA,NA,1,0,0\n\
            91-20-3,Naphthalene,200,NA,9,NA,ATSDR (2019),NA,MDH HRV (IRIS 2007),MDH RAA,Resp,NA,Resp,0,0,0\n\
            7439-92-1,Lead,NA,0.15,0.15,NA,NA,NAAQS,NAAQS,NA,NA,\"Repro, Neuro, Cardio\",\"Repro, Neuro, Cardio\",1,0,1\n\
            50-00-0,Formaldehyde,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,0,1,0\n\
            LEAD-COMPS,Lead Compounds,NA,0.15,0.15,NA,NA,NAAQS,NAAQS,NA,NA,Repro,Repro,1,0,1\n\
            1332-21-4-LAA,\"Asbestos, Libby Amphibole (units in fibers)\",NA,NA,NA,1e-4,NA,NA,NA,MDH,NA,NA,NA,0,0,0\n\
            38380-0804,PCB 156,NA,NA,NA,0.1,NA,NA,NA,MDH RAA,NA,NA,NA,1,0,0\n"
        );
        let all = parse(&text, &descriptor("mn"))
            .expect("test data")
            .contributions;
        let named: Vec<_> = all
            .iter()
            .filter_map(|c| c.name.clone().filter(|_| c.cas().is_none()))
            .collect();
        assert_eq!(
            named,
            [
                "Lead Compounds",
                "Asbestos, Libby Amphibole (units in fibers)",
                "PCB 156"
            ],
            "group codes and suffixed numbers are about their names"
        );
        let got: Vec<_> = all.into_iter().filter(|c| c.cas().is_some()).collect();
        assert_eq!(got.len(), 5, "the no-value non-PBT row skipped");
        let acetaldehyde = got[0].fragment["dose_response"]
            .as_array()
            .expect("test data");
        assert_eq!(acetaldehyde.len(), 3);
        assert_eq!(
            acetaldehyde[0],
            json!({"kind": "rfc_acute", "value": 470.0, "unit": "µg/m3", "agency": "OEHHA",
                   "basis": "CAL EPA; endpoints: Eyes, Resp", "source": "mn"})
        );
        assert_eq!(acetaldehyde[1]["kind"], "rfc_chronic");
        assert_eq!(acetaldehyde[1]["agency"], "US EPA");
        assert_eq!(
            acetaldehyde[2],
            json!({"kind": "air_concentration_cancer_risk1e5", "value": 5.0, "unit": "µg/m3",
                   "agency": "Minnesota Department of Health", "basis": "MDH HRV", "source": "mn"})
        );
        assert!(got[0].fragment.get("properties").is_none());
        assert_eq!(got[1].fragment["dose_response"][0]["value"], 0.2);
        assert_eq!(
            got[1].fragment["properties"]["environmental_fate"]["persistent_bioaccumulative"],
            json!({"value": true, "source": "mn"})
        );
        assert_eq!(got[1].name.as_deref(), Some("11H-Benz[b,c]aceanthrylene"));
        assert!(
            got[2].fragment.get("dose_response").is_none(),
            "PBT flag only"
        );
        let naphthalene = got[3].fragment["dose_response"]
            .as_array()
            .expect("test data");
        assert_eq!(naphthalene.len(), 2, "cancer reference without a value");
        assert_eq!(naphthalene[0]["agency"], "ATSDR");
        assert_eq!(naphthalene[0]["year"], 2019);
        assert_eq!(naphthalene[1]["agency"], "Minnesota Department of Health");
        assert!(naphthalene[1].get("year").is_none());
        let lead = got[4].fragment["dose_response"]
            .as_array()
            .expect("test data");
        assert_eq!(lead[0]["kind"], "rfc_subchronic");
        assert_eq!(lead[0]["agency"], "US EPA");
        assert_eq!(lead[0]["basis"], "NAAQS; endpoints: Repro, Neuro, Cardio");
    }

    #[test]
    fn reference_strings() {
        assert_eq!(
            agency_of("MDH HRV (CALEPA)"),
            "Minnesota Department of Health"
        );
        assert_eq!(agency_of("CALEPA (2018)"), "OEHHA");
        assert_eq!(agency_of("CAL EPA *8hr"), "OEHHA");
        assert_eq!(agency_of("ATSDR *Short-term (24hr)"), "ATSDR");
        assert_eq!(agency_of("PPRTV"), "US EPA");
        assert_eq!(agency_of("MPCA"), "Minnesota Department of Health");
        assert_eq!(year_of("IRIS (2000)"), Some(2000));
        assert_eq!(year_of("ATSDR *Short-term (24hr)"), None);
        assert_eq!(year_of("MDH ISV (ATSDR 1997)"), None);
    }
}
