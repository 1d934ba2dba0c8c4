//! US EPA ToxValDB v9 cancer extract, an .xlsx with one sheet of 67 columns, of which these
//! are read: casrn, name, source (IRIS, PPRTV (ORNL), Cal OEHHA, Health Canada, EPA OPP, and
//! the compilations RSL, Wignall, Pennsylvania DEP ToxValues, Alaska DEC), subsource (for a
//! compilation: the body it took the value from), toxval_type, toxval_type_original,
//! toxval_numeric_original, toxval_units, toxval_units_original, exposure_route,
//! species_original, common_name, critical_effect_original, the first `year`, and url.
//! Oral slope factors and inhalation unit risks are kept; inhalation and dermal slope factors
//! are not (the record has no kind for them).

use std::collections::HashMap;
use std::path::Path;

use calamine::{Reader, open_workbook_auto};
use serde_json::json;

use super::dose;
use super::ledger::Ledger;
use super::{Parsed, TableError};
use crate::ingest::contribution::{Contribution, Subject, to_json};
use crate::model::cas::Cas;
use crate::model::catalog::SourceDescriptor;
use crate::model::record::DoseValue;
use crate::model::vocab::DoseKind;

pub fn read(path: &Path, src: &SourceDescriptor) -> Result<Parsed, TableError> {
    let format = |message: String| TableError::Format {
        path: path.display().to_string(),
        message,
    };
    let mut book = open_workbook_auto(path).map_err(|e| format(e.to_string()))?;
    let range = book
        .worksheet_range_at(0)
        .ok_or_else(|| format("the workbook has no sheet".into()))?
        .map_err(|e| format(e.to_string()))?;
    // Numbers print in their shortest round-trip form, so reading them back is exact.
    let rows: Vec<Vec<String>> = range
        .rows()
        .map(|r| r.iter().map(ToString::to_string).collect())
        .collect();
    parse(&rows, src).map_err(format)
}

/// Column positions, by header name (the sheet has two `year` columns: the first is the
/// value's own year, the second that of the document it was read from).
struct Columns {
    cas: usize,
    name: usize,
    source: usize,
    subsource: usize,
    toxval_type: usize,
    type_original: usize,
    value: usize,
    units: usize,
    units_original: usize,
    route: usize,
    species_original: usize,
    common_name: usize,
    critical_effect: usize,
    year: usize,
    url: usize,
}

impl Columns {
    fn find(header: &[String]) -> Result<Columns, String> {
        let col = |name: &str| {
            header
                .iter()
                .position(|h| h.trim() == name)
                .ok_or_else(|| format!("no column {name:?}"))
        };
        Ok(Columns {
            cas: col("casrn")?,
            name: col("name")?,
            source: col("source")?,
            subsource: col("subsource")?,
            toxval_type: col("toxval_type")?,
            type_original: col("toxval_type_original")?,
            value: col("toxval_numeric_original")?,
            units: col("toxval_units")?,
            units_original: col("toxval_units_original")?,
            route: col("exposure_route")?,
            species_original: col("species_original")?,
            common_name: col("common_name")?,
            critical_effect: col("critical_effect_original")?,
            year: col("year")?,
            url: col("url")?,
        })
    }
}

/// A cell, trimmed; ToxValDB's placeholders ("Not Specified", "-", "-1", "nd") are `None`.
fn field(row: &[String], i: usize) -> Option<&str> {
    let v = row.get(i)?.trim();
    match v {
        "" | "-" | "-1" | "nd" | "NA" | "Not Specified" => None,
        _ => Some(v),
    }
}

/// Sources that copy other bodies' values, naming the body in `subsource`.
const COMPILATIONS: [&str; 3] = ["RSL", "Wignall", "Pennsylvania DEP ToxValues"];

/// Preference among rows giving one agency the same value: the body's own table first.
const PREFERENCE: [&str; 8] = [
    "IRIS",
    "PPRTV (ORNL)",
    "Cal OEHHA",
    "Health Canada",
    "EPA OPP",
    "RSL",
    "Pennsylvania DEP ToxValues",
    "Wignall",
];

/// The agency behind a value. Compilations are attributed to the body they cite; "surrogate"
/// values (another chemical's) and Alaska DEC's cleanup table, which names no origin, are not
/// attributed to anyone and are skipped.
fn agency_of(source: &str, subsource: &str) -> Option<&'static str> {
    match source {
        "IRIS" | "PPRTV (ORNL)" | "EPA OPP" => Some("US EPA"),
        "Cal OEHHA" => Some("OEHHA"),
        "Health Canada" => Some("Health Canada"),
        s if COMPILATIONS.contains(&s) => {
            let sub = subsource.to_ascii_lowercase();
            if sub.starts_with("cal") {
                Some("OEHHA")
            } else if [
                "iris",
                "integrated risk",
                "pprtv",
                "provisional peer-reviewed",
                "heast",
                "health effects assessment",
                "opp",
                "ncea",
            ]
            .iter()
            .any(|k| sub.contains(k))
                || (s == "RSL"
                    && ["rpf applied", "tef applied", "user's guide"]
                        .iter()
                        .any(|k| sub.contains(k)))
            {
                Some("US EPA")
            } else {
                None
            }
        }
        _ => None,
    }
}

/// "(mg/kg-day)-1" in each of the spellings the sources use.
fn per_dose(unit: &str) -> bool {
    matches!(
        unit,
        "(mg/kg-day)-1" | "mg/kg-day-1" | "1/mg/kg-day" | "(mg/kg-d)-1"
    )
}

/// A unit risk's unit. ToxValDB lost the "µ" of IRIS's and Wignall's "(µg/m3)-1" to
/// "XXX" placeholders and mojibake ("1/XXXg/m3"); their values equal those RSL gives in
/// "(ug/m3)-1" for the same chemicals.
fn per_concentration(unit: &str) -> Option<&'static str> {
    match unit {
        "(ug/m3)-1" | "ug/m3-1" => Some("(µg/m3)-1"),
        "(mg/m3)-1" => Some("(mg/m3)-1"),
        u if u.contains("XXXg/m3") => Some("(µg/m3)-1"),
        _ => None,
    }
}

/// The kind and unit of a row, if it is an oral slope factor or an inhalation unit risk.
/// OEHHA's oral slope factors are typed "oral unit risk" in ToxValDB, but their unit is per
/// mg/kg-day; RSL's "SFO" and EPA OPP's pesticide benchmarks are oral without a route.
fn kind_of(row: &[String], c: &Columns) -> Option<(DoseKind, &'static str)> {
    let route = field(row, c.route);
    let original = field(row, c.type_original).unwrap_or_default();
    let unit = field(row, c.units_original).unwrap_or_default();
    let oral = route == Some("oral")
        || matches!(
            original,
            "SFO" | "oral slope factor" | "oral SF" | "oral unit risk"
        )
        || (route.is_none() && field(row, c.source) == Some("EPA OPP"));
    if per_dose(unit) && field(row, c.units) == Some("(mg/kg-day)-1") {
        return oral.then_some((DoseKind::OralSlopeFactor, "(mg/kg-day)-1"));
    }
    let inhalation = matches!(route, None | Some("inhalation")) && !original.contains("oral");
    if field(row, c.toxval_type) == Some("cancer unit risk") && inhalation {
        return per_concentration(unit).map(|u| (DoseKind::InhalationUnitRisk, u));
    }
    None
}

/// A value in one unit per kind (unit risks per µg/m3), to find the same value given in mg
/// and µg.
fn per_ug(d: &DoseValue) -> (f64, &str) {
    if d.unit == "(mg/m3)-1" {
        (d.value / 1000.0, "(µg/m3)-1")
    } else {
        (d.value, d.unit.as_str())
    }
}

/// Whether two values are one: equal once the more precise is rounded to the significant
/// digits of the other, as a compilation copies a body's value (RSL's 9e-6 for IRIS's 8.8e-6,
/// 0.103 and 0.1), and within 10% of each other, so that a one-digit value is not taken for
/// a copy of a distinct one (HEAST's 20 beside IRIS's 16).
fn same_value(a: f64, b: f64) -> bool {
    if (a - b).abs() > 0.1 * a.abs().max(b.abs()) {
        return false;
    }
    let digits = |v: f64| {
        format!("{v:e}")
            .split('e')
            .next()
            .map_or(1, |m| m.bytes().filter(u8::is_ascii_digit).count())
    };
    let n = digits(a).min(digits(b)).max(1);
    let round = |v: f64| format!("{v:.*e}", n - 1);
    round(a) == round(b)
}

/// A number as a reader expects it: plain between 0.01 and 1000, else in e-notation.
fn readable(v: f64) -> String {
    if (0.01..1000.0).contains(&v) {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

fn parse(rows: &[Vec<String>], src: &SourceDescriptor) -> Result<Parsed, String> {
    let Some((header, rows)) = rows.split_first() else {
        return Ok(Parsed::default());
    };
    let c = Columns::find(header)?;
    let mut rows: Vec<&Vec<String>> = rows.iter().collect();
    let rank = |r: &Vec<String>| {
        let s = field(r, c.source).unwrap_or_default();
        PREFERENCE
            .iter()
            .position(|p| *p == s)
            .unwrap_or(PREFERENCE.len())
    };
    rows.sort_by_key(|r| rank(r));

    let mut order: Vec<(Cas, String)> = Vec::new();
    let mut values: HashMap<Cas, Vec<DoseValue>> = HashMap::new();
    let mut ledger = Ledger::default();
    for row in rows {
        let id = ledger.row(field(row, c.name).unwrap_or_default());
        let (cas, dose) = match dose_of(row, &c, src) {
            Ok(found) => found,
            Err(reason) => {
                ledger.skip(id, reason);
                continue;
            }
        };
        ledger.about(id, [Subject::Cas(cas.clone())]);
        let list = values.entry(cas.clone()).or_insert_with(|| {
            let name = field(row, c.name).unwrap_or_default().to_string();
            order.push((cas.clone(), name));
            Vec::new()
        });
        let duplicate = list.iter().any(|d| {
            d.kind == dose.kind
                && d.agency == dose.agency
                && same_value(per_ug(d).0, per_ug(&dose).0)
        });
        if !duplicate {
            list.push(dose);
        }
    }
    values.values_mut().for_each(|list| mark_alternatives(list));
    let contributions = order
        .into_iter()
        .map(|(cas, name)| {
            let doses: Vec<_> = values[&cas].iter().map(to_json).collect();
            Contribution::new(cas, json!({"dose_response": doses})).named(name)
        })
        .collect();
    Ok(Parsed {
        contributions,
        ledger,
    })
}

/// Several values of one kind from one agency are alternatives the table does not tell
/// apart: IRIS gives the ends of a range for benzene, estimates from birth and in adulthood
/// for vinyl chloride, an upper bound and a central tendency for ethylene dibromide, and
/// ToxValDB keeps none of those words. Each is served marked as one of the set, never as the
/// agency's single answer.
fn mark_alternatives(list: &mut [DoseValue]) {
    let notes: Vec<Option<String>> = list
        .iter()
        .map(|d| {
            let set: Vec<(f64, &str)> = list
                .iter()
                .filter(|o| o.kind == d.kind && o.agency == d.agency)
                .map(per_ug)
                .collect();
            (set.len() > 1).then(|| {
                let low = set.iter().map(|v| v.0).fold(f64::INFINITY, f64::min);
                let high = set.iter().map(|v| v.0).fold(f64::NEG_INFINITY, f64::max);
                format!(
                    "one of {} {} values in the table ({} to {} {}), which does not say \
                     which estimate each is",
                    set.len(),
                    d.agency,
                    readable(low),
                    readable(high),
                    set[0].1
                )
            })
        })
        .collect();
    for (d, note) in list.iter_mut().zip(notes) {
        if note.is_some() {
            d.qualifier = note;
        }
    }
}

/// The row's CAS and value, or why the row gives none.
fn dose_of(
    row: &[String],
    c: &Columns,
    src: &SourceDescriptor,
) -> Result<(Cas, DoseValue), &'static str> {
    let cas = field(row, c.cas)
        .and_then(|v| Cas::parse_lenient(v).ok())
        .ok_or("no valid CAS number in the row")?;
    let (kind, unit) =
        kind_of(row, c).ok_or("not a cancer slope factor or unit risk in a known unit")?;
    let value = field(row, c.value)
        .and_then(|v| v.parse::<f64>().ok())
        .ok_or("no numeric value")?;
    let source = field(row, c.source).unwrap_or_default();
    let subsource = field(row, c.subsource).unwrap_or_default();
    let agency = agency_of(source, subsource)
        .ok_or("compiled from a body whose value is not taken (see agency_of)")?;
    let compiled = COMPILATIONS.contains(&source);
    let mut basis = if compiled {
        format!("{source}: {subsource}")
    } else {
        source.to_string()
    };
    if let Some(effect) = field(row, c.critical_effect).filter(|e| *e != "cancer") {
        basis.push_str(&format!("; critical effect: {effect}"));
    }
    // A compilation's year is that of its own table (or, for Wignall, of the key study).
    let year = (!compiled)
        .then(|| field(row, c.year).and_then(|y| y.parse::<i32>().ok()))
        .flatten()
        .filter(|y| (1900..=2100).contains(y));
    let dose = DoseValue {
        year,
        species: field(row, c.species_original)
            .and(field(row, c.common_name))
            .map(String::from),
        basis: Some(basis),
        reference: field(row, c.url)
            .filter(|u| u.starts_with("http") && !u.ends_with("/.pdf"))
            .map(String::from),
        ..dose::stated(src, agency, kind, value, unit)
    };
    Ok((cas, dose))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::tables::testing::descriptor;

    const HEADER: [&str; 16] = [
        "casrn",
        "name",
        "source",
        "subsource",
        "toxval_type",
        "toxval_type_original",
        "toxval_numeric_original",
        "toxval_units",
        "toxval_units_original",
        "exposure_route",
        "species_original",
        "common_name",
        "critical_effect_original",
        "year",
        "url",
        "year",
    ];

    /// A row in HEADER order.
    fn row(cells: [&str; 16]) -> Vec<String> {
        cells.iter().map(|c| c.to_string()).collect()
    }

    const NS: &str = "Not Specified";
    const IRIS_URL: &str =
        "https://cfpub.epa.gov/ncea/iris2/chemicalLanding.cfm?substance_nmbr=276";
    const MOJIBAKE: &str = "(<c4>?<c2>?<c3>?<c2>?<c4>?<c2>?<c3>?XXXg/m3)-1";

    fn table() -> Vec<Vec<String>> {
        vec![
            row(HEADER),
            // Compilation rows come first in the file; the body's own rows win.
            row([
                "71-43-2",
                "Benzene",
                "RSL",
                "IRIS",
                "cancer unit risk",
                "IUR",
                "0.0000078",
                "(mg/m3)-1",
                "(ug/m3)-1",
                NS,
                NS,
                "Human",
                NS,
                NS,
                "https://www.epa.gov/risk/regional-screening-levels-rsls-generic-tables",
                "2021",
            ]),
            row([
                "71-43-2",
                "Benzene",
                "IRIS",
                "EPA NCEA",
                "cancer unit risk",
                "inhalation unit risk",
                "0.0000078",
                MOJIBAKE,
                MOJIBAKE,
                "inhalation",
                NS,
                "Human",
                "leukemia",
                NS,
                IRIS_URL,
                "2020",
            ]),
            row([
                "71-43-2",
                "Benzene",
                "IRIS",
                "EPA NCEA",
                "cancer unit risk",
                "inhalation unit risk",
                "0.0000022",
                MOJIBAKE,
                MOJIBAKE,
                "inhalation",
                NS,
                "Human",
                "leukemia",
                NS,
                IRIS_URL,
                "2020",
            ]),
            row([
                "71-43-2",
                "Benzene",
                "PPRTV (ORNL)",
                "EPA ORD NCEA",
                "cancer unit risk",
                "cancer unit risk",
                "0.0022",
                "(mg/m3)-1",
                "(mg/m3)-1",
                "inhalation",
                "rat",
                "Rat",
                NS,
                NS,
                "https://hhpprtv.ornl.gov/issue_papers/.pdf",
                "2020",
            ]),
            row([
                "71-43-2",
                "Benzene",
                "Cal OEHHA",
                "California DPH",
                "cancer unit risk",
                "oral unit risk",
                "0.1",
                "(mg/kg-day)-1",
                "(mg/kg-day)-1",
                "oral",
                NS,
                "Human",
                NS,
                NS,
                "https://oehha.ca.gov/chemicals/benzene",
                "-",
            ]),
            row([
                "71-43-2",
                "Benzene",
                "Cal OEHHA",
                "California DPH",
                "cancer slope factor",
                "inhalation slope factor",
                "0.1",
                "(mg/kg-day)-1",
                "(mg/kg-day)-1",
                "inhalation",
                NS,
                "Human",
                NS,
                NS,
                "https://oehha.ca.gov/chemicals/benzene",
                "-",
            ]),
            row([
                "71-43-2",
                "Benzene",
                "Health Canada",
                "Health Canada",
                "cancer slope factor",
                "oral SF",
                "0.0834",
                "(mg/kg-day)-1",
                "(mg/kg-d)-1",
                "oral",
                "mice",
                "Mouse",
                "malignant lymphomas",
                "2009",
                "-",
                "2009",
            ]),
            row([
                "71-43-2",
                "Benzene",
                "Alaska DEC",
                "Alaska DEC",
                "cancer slope factor",
                "cancer slope factor",
                "0.055",
                "(mg/kg-day)-1",
                "(mg/kg-day)-1",
                "oral",
                NS,
                "Human",
                "cancer",
                NS,
                "https://dec.alaska.gov/spar/csp/guidance/cleanuplevels.pdf",
                "-",
            ]),
            row([
                "79-34-5",
                "1,1,2,2-Tetrachloroethane",
                "Wignall",
                "CalEPA",
                "cancer slope factor",
                NS,
                "0.27",
                "(mg/kg-day)-1",
                "1/mg/kg-day",
                "oral",
                NS,
                "Human",
                "neoplasia;hepatocellular carcinoma",
                "1978",
                "https://ehp.niehs.nih.gov/doi/10.1289/ehp.1307539",
                "1978",
            ]),
            row([
                "79-34-5",
                "1,1,2,2-Tetrachloroethane",
                "Pennsylvania DEP ToxValues",
                "surrogate",
                "cancer unit risk",
                "IUR",
                "0.000058",
                "ug/m3-1",
                "ug/m3-1",
                NS,
                NS,
                "Human",
                NS,
                "2016",
                "-",
                "2016",
            ]),
            row([
                "98243-83-5",
                "Benalaxyl-M",
                "EPA OPP",
                "OPP",
                "cancer slope factor",
                "cancer_slope_factor",
                "0.0059",
                "(mg/kg-day)-1",
                "(mg/kg-day)-1",
                NS,
                NS,
                "Human",
                "cancer",
                "2018",
                "https://iaspub.epa.gov/apex/pesticides/f?p=HHBP:home",
                "2018",
            ]),
            row([
                "1332-21-4",
                "Asbestos",
                "Cal OEHHA",
                "California DPH",
                "cancer unit risk",
                "oral unit risk",
                "0.5",
                "fibers/l water^-1",
                "(mg/kg-day)-1",
                "oral",
                NS,
                "Human",
                NS,
                NS,
                "-",
                "-",
            ]),
            row([
                "-N/-A",
                "Mixture",
                "IRIS",
                "EPA NCEA",
                "cancer slope factor",
                "oral slope factor",
                "1",
                "(mg/kg-day)-1",
                "(mg/kg-day)-1",
                "oral",
                NS,
                "Human",
                NS,
                NS,
                "-",
                "2020",
            ]),
        ]
    }

    #[test]
    fn slope_factors_and_unit_risks_by_agency() {
        let got = parse(&table(), &descriptor("toxval"))
            .expect("test data")
            .contributions;
        let cas: Vec<&str> = got
            .iter()
            .map(|c| c.cas().expect("test data").as_str())
            .collect();
        assert_eq!(
            cas,
            ["71-43-2", "98243-83-5", "79-34-5"],
            "asbestos, -N/-A out"
        );
        let benzene = got[0].fragment["dose_response"]
            .as_array()
            .expect("test data");
        assert_eq!(got[0].name.as_deref(), Some("Benzene"));
        let range = "one of 2 US EPA values in the table (2.2e-6 to 7.8e-6 (µg/m3)-1), which \
                     does not say which estimate each is";
        assert_eq!(
            benzene[0],
            json!({"kind": "inhalation_unit_risk", "qualifier": range, "value": 7.8e-6,
                   "unit": "(µg/m3)-1", "agency": "US EPA",
                   "basis": "IRIS; critical effect: leukemia",
                   "reference": IRIS_URL, "source": "toxval"})
        );
        assert_eq!(benzene[1]["value"], 2.2e-6);
        assert_eq!(
            benzene[1]["qualifier"], range,
            "both ends of IRIS's range are marked"
        );
        assert!(
            benzene[2].get("qualifier").is_none(),
            "OEHHA's one slope factor is its answer"
        );
        // PPRTV's 0.0022 per mg/m3 is IRIS's 2.2e-6 per µg/m3: the same US EPA value.
        // RSL's copy of IRIS is dropped too; OEHHA's "oral unit risk" is a slope factor.
        assert_eq!(benzene.len(), 4, "{benzene:#?}");
        assert_eq!(benzene[2]["kind"], "oral_slope_factor");
        assert_eq!(benzene[2]["agency"], "OEHHA");
        assert_eq!(benzene[2]["unit"], "(mg/kg-day)-1");
        assert_eq!(benzene[2]["basis"], "Cal OEHHA");
        assert_eq!(benzene[3]["agency"], "Health Canada");
        assert_eq!(benzene[3]["year"], 2009);
        assert_eq!(benzene[3]["species"], "Mouse");
        assert!(benzene[3].get("reference").is_none());
        let opp = &got[1].fragment["dose_response"][0];
        assert_eq!(opp["kind"], "oral_slope_factor");
        assert_eq!(opp["agency"], "US EPA");
        assert_eq!(opp["basis"], "EPA OPP");
        let tetra = got[2].fragment["dose_response"]
            .as_array()
            .expect("test data");
        assert_eq!(tetra.len(), 1, "surrogate value skipped");
        assert_eq!(tetra[0]["agency"], "OEHHA");
        assert_eq!(
            tetra[0]["basis"],
            "Wignall: CalEPA; critical effect: neoplasia;hepatocellular carcinoma"
        );
        assert!(
            tetra[0].get("year").is_none(),
            "Wignall's year is the study's"
        );
    }

    #[test]
    fn a_compilation_s_rounded_copy_is_the_same_value() {
        assert!(same_value(8.8e-6, 9e-6));
        assert!(same_value(0.103, 0.1));
        assert!(same_value(0.0022 / 1000.0, 2.2e-6));
        assert!(
            !same_value(0.72, 0.75),
            "IRIS's two vinyl chloride estimates"
        );
        assert!(!same_value(1.4, 1.5));
        assert!(!same_value(16.0, 20.0), "a distinct one-digit value");
        assert_eq!(readable(0.055), "0.055");
        assert_eq!(readable(7.8e-6), "7.8e-6");
    }

    #[test]
    fn units_and_agencies() {
        assert_eq!(per_concentration("1/XXXg/m3"), Some("(µg/m3)-1"));
        assert_eq!(per_concentration("(mg/l)-1"), None);
        assert!(per_dose("mg/kg-day-1"));
        assert_eq!(agency_of("RSL", "TEF applied"), Some("US EPA"));
        assert_eq!(agency_of("Wignall", "HEAST"), Some("US EPA"));
        assert_eq!(
            agency_of(
                "Pennsylvania DEP ToxValues",
                "California EPA Cancer Potency Factor"
            ),
            Some("OEHHA")
        );
        assert_eq!(
            agency_of(
                "Pennsylvania DEP ToxValues",
                "EPA  Provisional Peer-Reviewed Toxicity Value"
            ),
            Some("US EPA")
        );
        assert_eq!(agency_of("Alaska DEC", "Alaska DEC"), None);
        assert_eq!(agency_of("Wignall", "surrogate"), None);
    }

    #[test]
    fn missing_columns_are_an_error() {
        let rows = vec![row(HEADER).into_iter().skip(1).collect()];
        assert!(parse(&rows, &descriptor("t")).is_err());
    }
}
