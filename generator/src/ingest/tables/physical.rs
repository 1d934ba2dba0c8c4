//! Physical, flammability and environmental-fate tables shipped in the `chemicals` package.
//! All are tab-separated (whatever their file name says) with a header row; columns are found
//! by header name. Empty cells are no value; when a CAS appears twice, the first row is kept.
//!
//! - `read_constants`: Misc/"Physical Constants of Organic Compounds.csv" (CAS, Name, Tm, Tb,
//!   rho, RI) and "... Inorganic Compounds.csv" (CAS, Chemical, Tm, Tb, rho). Tm and Tb in K
//!   become melting/boiling point in °C; rho in kg/m3 is density as given. Three rows have
//!   Tm above Tb (alpha-phellandrene, tin(IV) iodide, silicon monosulfide): one of the two is
//!   wrong or a sublimation point, and neither is kept.
//! - `read_logp`: Environment/"CRC logP table.tsv" (CAS, Name, logP) and "Syrres logP
//!   data.csv.gz" (gzip; tab-separated despite .csv: CAS, Chemical, logP) -> log Kow.
//! - `read_flammability`: Safety/"IS IEC 60079-20-1 2010.tsv" and "NFPA 497 2008.tsv" (CAS,
//!   Names or Name, T_flash and T_autoignition in K, LFL and UFL as volume fractions) -> flash
//!   point and autoignition temperature in °C, flammability limits in % v/v (fraction x 100,
//!   shifted in decimal so 0.07 gives 7, not 7.000000000000001). A limit outside 0..1 (IEC
//!   prints 1-octanol's LFL as -0.009) is dropped; so are both limits of a row whose LFL
//!   exceeds its UFL (IEC's sec-amyl acetate, 0.11 and 0.075). IEC's "Names" cell is a list of
//!   synonyms and formulae, so IEC rows give no name hint.
//! - `read_gwp`: Environment/"Official Global Warming Potentials 2021.tsv" (IPCC AR6: Name,
//!   CAS, Acronym, Formula, "Lifetime, years", ..., "100yr GWP", ...) -> GWP-100 and
//!   atmospheric lifetime. A lifetime printed as 0 (short-lived species rounded to whole
//!   years' precision) is not a lifetime and is dropped; a GWP of 0 is kept as printed.
//! - `read_odp`: Environment/"Ozone Depletion Potentials.tsv" (CAS, ODP2 Max, ODP1 Max, ODP1,
//!   Name, ODP2, Lifetime, ODP2 Min, ODP1 Min, ODP2 Design, ODP1 Design). The package documents
//!   ODP1 as "the original values of ODP as defined in the Montreal Protocol" and ODP2 as those
//!   of the WMO Scientific Assessment of Ozone Depletion: 2010 (all via US EPA's
//!   ozone-depleting substances page). The `ODP1` column (the Montreal Protocol annex value as
//!   printed) is read; where the Protocol gives a range for a group of isomers ("0.02 - 0.06")
//!   there is no single value and none is kept (Max/Min/Design are ends or geometric means of
//!   that range, not the Protocol's value).
//!
//! Kelvin becomes °C with `kelvin_to_celsius` (0.01 precision, the tables' usual); the few
//! values printed with more decimals (helium's 4.222 K) keep their own precision.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::Path;

use serde_json::{Map, Value, json};

use super::ledger::{Ledger, RowId};
use super::text::{cell, csv_error, kelvin_to_celsius, read_bytes, read_utf8, reader};
use super::{Parsed, TableError};
use crate::ingest::contribution::{Contribution, Subject, to_json};
use crate::model::cas::Cas;
use crate::model::catalog::SourceDescriptor;
use crate::model::record::Measured;

pub fn read_constants(path: &Path, src: &SourceDescriptor) -> Result<Parsed, TableError> {
    parse_constants(&read_utf8(path)?, src, &shown(path))
}

pub fn read_logp(path: &Path, src: &SourceDescriptor) -> Result<Parsed, TableError> {
    parse_logp(&read_text(path)?, src, &shown(path))
}

pub fn read_flammability(path: &Path, src: &SourceDescriptor) -> Result<Parsed, TableError> {
    parse_flammability(&read_utf8(path)?, src, &shown(path))
}

pub fn read_gwp(path: &Path, src: &SourceDescriptor) -> Result<Parsed, TableError> {
    parse_gwp(&read_utf8(path)?, src, &shown(path))
}

pub fn read_odp(path: &Path, src: &SourceDescriptor) -> Result<Parsed, TableError> {
    parse_odp(&read_utf8(path)?, src, &shown(path))
}

fn shown(path: &Path) -> String {
    path.display().to_string()
}

/// The file as text, gunzipped when its name ends in `.gz`.
fn read_text(path: &Path) -> Result<String, TableError> {
    if path.extension().is_none_or(|e| e != "gz") {
        return read_utf8(path);
    }
    let bytes = read_bytes(path)?;
    let mut text = String::new();
    flate2::read::GzDecoder::new(bytes.as_slice())
        .read_to_string(&mut text)
        .map_err(|source| TableError::Io {
            path: shown(path),
            source,
        })?;
    Ok(text.strip_prefix('\u{feff}').unwrap_or(&text).to_string())
}

/// A table read with its header: rows, and columns found by name.
struct Table {
    headers: csv::StringRecord,
    rows: Vec<csv::StringRecord>,
    path: String,
}

impl Table {
    /// Tab-separated unless the header row has no tab. Quotes are literal in the TSVs (Syrres
    /// names such as `N(N"-Me-HxOCarbamylthio)methomyl`).
    fn read(text: &str, path: &str) -> Result<Table, TableError> {
        let first = text.lines().next().unwrap_or_default();
        let mut rdr = if first.contains('\t') {
            csv::ReaderBuilder::new()
                .delimiter(b'\t')
                .flexible(true)
                .quoting(false)
                .from_reader(text.as_bytes())
        } else {
            reader(text, b',', true)
        };
        let headers = rdr.headers().map_err(|e| csv_error(path, e))?.clone();
        let rows = rdr
            .records()
            .collect::<Result<_, _>>()
            .map_err(|e| csv_error(path, e))?;
        Ok(Table {
            headers,
            rows,
            path: path.to_string(),
        })
    }

    /// The first column whose header (trimmed) is one of `names`.
    fn column(&self, names: &[&str]) -> Result<usize, TableError> {
        self.headers
            .iter()
            .position(|h| names.contains(&h.trim()))
            .ok_or_else(|| TableError::Format {
                path: self.path.clone(),
                message: format!("no column {}", names.join(" or ")),
            })
    }

    /// Rows with a valid CAS in column `cas`, the first row of each CAS only; the others are
    /// skipped in `ledger`, which gets every row (labelled from column `label`).
    fn by_cas(
        &self,
        cas: usize,
        label: Option<usize>,
        ledger: &mut Ledger,
    ) -> Vec<(RowId, Cas, &csv::StringRecord)> {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for row in &self.rows {
            let id = ledger.row(label.and_then(|l| cell(row, l)).unwrap_or_default());
            match cell(row, cas).map(Cas::parse_lenient) {
                Some(Ok(c)) if seen.insert(c.clone()) => out.push((id, c, row)),
                Some(Ok(_)) => ledger.skip(id, "repeats a CAS number given earlier in the table"),
                _ => ledger.skip(id, "no valid CAS number in the row"),
            }
        }
        out
    }
}

fn number(raw: &str) -> Option<f64> {
    raw.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Digits after the decimal point of a plainly written number.
fn decimals(raw: &str) -> Option<usize> {
    if raw.contains(['e', 'E']) {
        return None;
    }
    Some(raw.split_once('.').map_or(0, |(_, frac)| frac.len()))
}

fn round_to(value: f64, places: usize) -> f64 {
    let scale = 10f64.powi(places as i32);
    (value * scale).round() / scale
}

/// A temperature printed in K, in °C.
fn celsius(raw: &str) -> Option<f64> {
    let k = number(raw)?;
    Some(match decimals(raw) {
        Some(d) if d > 2 => round_to(k - 273.15, d),
        _ => kelvin_to_celsius(k),
    })
}

/// A volume fraction (0..1) as a percentage, exact to the digits printed.
fn percent(raw: &str) -> Option<f64> {
    let fraction = number(raw).filter(|f| (0.0..=1.0).contains(f))?;
    Some(match decimals(raw) {
        Some(d) => round_to(fraction * 100.0, d.saturating_sub(2)),
        None => fraction * 100.0,
    })
}

fn measured(value: f64, unit: &str, src: &SourceDescriptor) -> Value {
    to_json(&Measured {
        value,
        unit: unit.into(),
        source: src.id.clone(),
    })
}

/// A contribution setting `values` under `properties.<section>`, if there are any; the row
/// is settled in `ledger` either way.
fn contribution(
    ledger: &mut Ledger,
    row: RowId,
    cas: Cas,
    section: &str,
    values: Map<String, Value>,
) -> Option<Contribution> {
    if values.is_empty() {
        ledger.skip(row, "no value in a readable form");
        return None;
    }
    ledger.about(row, [Subject::Cas(cas.clone())]);
    Some(Contribution::new(
        cas,
        json!({"properties": {section: values}}),
    ))
}

fn named(c: Contribution, name: Option<&str>) -> Contribution {
    match name {
        Some(n) => c.named(n),
        None => c,
    }
}

fn parse_constants(text: &str, src: &SourceDescriptor, path: &str) -> Result<Parsed, TableError> {
    let t = Table::read(text, path)?;
    let (cas, name) = (t.column(&["CAS"])?, t.column(&["Name", "Chemical"])?);
    let (tm, tb, rho) = (t.column(&["Tm"])?, t.column(&["Tb"])?, t.column(&["rho"])?);
    let mut out = Vec::new();
    let mut ledger = Ledger::default();
    for (rid, id, row) in t.by_cas(cas, Some(name), &mut ledger) {
        let mut values = Map::new();
        let (melt, boil) = (cell(row, tm), cell(row, tb));
        let consistent = match (melt.and_then(number), boil.and_then(number)) {
            (Some(m), Some(b)) => m <= b,
            _ => true,
        };
        if consistent {
            if let Some(c) = melt.and_then(celsius) {
                values.insert("melting_point".into(), measured(c, "°C", src));
            }
            if let Some(c) = boil.and_then(celsius) {
                values.insert("boiling_point".into(), measured(c, "°C", src));
            }
        }
        if let Some(d) = cell(row, rho).and_then(number) {
            values.insert("density".into(), measured(d, "kg/m3", src));
        }
        if let Some(c) = contribution(&mut ledger, rid, id, "physical_properties", values) {
            out.push(named(c, cell(row, name)));
        }
    }
    Ok(Parsed {
        contributions: out,
        ledger,
    })
}

fn parse_logp(text: &str, src: &SourceDescriptor, path: &str) -> Result<Parsed, TableError> {
    let t = Table::read(text, path)?;
    let (cas, name) = (t.column(&["CAS"])?, t.column(&["Name", "Chemical"])?);
    let logp = t.column(&["logP"])?;
    let mut out = Vec::new();
    let mut ledger = Ledger::default();
    for (rid, id, row) in t.by_cas(cas, Some(name), &mut ledger) {
        let mut values = Map::new();
        if let Some(v) = cell(row, logp).and_then(number) {
            values.insert("log_kow".into(), measured(v, "log10", src));
        }
        if let Some(c) = contribution(&mut ledger, rid, id, "environmental_fate", values) {
            out.push(named(c, cell(row, name)));
        }
    }
    Ok(Parsed {
        contributions: out,
        ledger,
    })
}

fn parse_flammability(
    text: &str,
    src: &SourceDescriptor,
    path: &str,
) -> Result<Parsed, TableError> {
    let t = Table::read(text, path)?;
    let cas = t.column(&["CAS"])?;
    // NFPA has one name per row; IEC's "Names" is a synonym list, not a name.
    let name = t.column(&["Name"]).ok();
    let (flash, auto) = (t.column(&["T_flash"])?, t.column(&["T_autoignition"])?);
    let (lfl, ufl) = (t.column(&["LFL"])?, t.column(&["UFL"])?);
    let mut out = Vec::new();
    let mut ledger = Ledger::default();
    for (rid, id, row) in t.by_cas(cas, name, &mut ledger) {
        let mut values = Map::new();
        if let Some(c) = cell(row, flash).and_then(celsius) {
            values.insert("flash_point".into(), measured(c, "°C", src));
        }
        if let Some(c) = cell(row, auto).and_then(celsius) {
            values.insert("autoignition_temperature".into(), measured(c, "°C", src));
        }
        let (lower, upper) = (
            cell(row, lfl).and_then(percent),
            cell(row, ufl).and_then(percent),
        );
        if !matches!((lower, upper), (Some(l), Some(u)) if l > u) {
            if let Some(l) = lower {
                values.insert("lower_flammability_limit".into(), measured(l, "% v/v", src));
            }
            if let Some(u) = upper {
                values.insert("upper_flammability_limit".into(), measured(u, "% v/v", src));
            }
        }
        if let Some(c) = contribution(&mut ledger, rid, id, "physical_properties", values) {
            out.push(named(c, name.and_then(|n| cell(row, n))));
        }
    }
    Ok(Parsed {
        contributions: out,
        ledger,
    })
}

fn parse_gwp(text: &str, src: &SourceDescriptor, path: &str) -> Result<Parsed, TableError> {
    let t = Table::read(text, path)?;
    let (cas, name) = (t.column(&["CAS"])?, t.column(&["Name"])?);
    let (lifetime, gwp) = (t.column(&["Lifetime, years"])?, t.column(&["100yr GWP"])?);
    let mut out = Vec::new();
    let mut ledger = Ledger::default();
    for (rid, id, row) in t.by_cas(cas, Some(name), &mut ledger) {
        let mut values = Map::new();
        if let Some(v) = cell(row, gwp).and_then(number) {
            values.insert("gwp_100yr".into(), measured(v, "CO2-eq (100 yr)", src));
        }
        if let Some(v) = cell(row, lifetime).and_then(number).filter(|v| *v > 0.0) {
            values.insert("atmospheric_lifetime".into(), measured(v, "years", src));
        }
        if let Some(c) = contribution(&mut ledger, rid, id, "environmental_fate", values) {
            out.push(named(c, cell(row, name)));
        }
    }
    Ok(Parsed {
        contributions: out,
        ledger,
    })
}

fn parse_odp(text: &str, src: &SourceDescriptor, path: &str) -> Result<Parsed, TableError> {
    let t = Table::read(text, path)?;
    let (cas, odp) = (t.column(&["CAS"])?, t.column(&["ODP1"])?);
    let mut out = Vec::new();
    let mut ledger = Ledger::default();
    for (rid, id, row) in t.by_cas(cas, None, &mut ledger) {
        let mut values = Map::new();
        // A range ("0.02 - 0.06") does not parse as a number and gives no value.
        if let Some(v) = cell(row, odp).and_then(number) {
            values.insert("odp".into(), measured(v, "CFC-11-eq", src));
        }
        // The Name cell mixes codes and formulae ("HCFC-22 (CHF2Cl) ..."): no name hint.
        out.extend(contribution(
            &mut ledger,
            rid,
            id,
            "environmental_fate",
            values,
        ));
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

    fn value(c: &Contribution, pointer: &str) -> Value {
        c.fragment.pointer(pointer).cloned().unwrap_or(Value::Null)
    }

    #[test]
    fn conversions() {
        assert_eq!(celsius("373.15"), Some(100.0));
        assert_eq!(celsius("181.15"), Some(-92.0));
        assert_eq!(celsius("259.86"), Some(-13.29));
        assert_eq!(celsius("4.222"), Some(-268.928));
        assert_eq!(celsius("abc"), None);
        assert_eq!(percent("0.07"), Some(7.0));
        assert_eq!(percent("0.0161"), Some(1.61));
        assert_eq!(percent("0.009"), Some(0.9));
        assert_eq!(percent("1"), Some(100.0));
        assert_eq!(percent("1.0"), Some(100.0));
        assert_eq!(percent("-0.009"), None);
        assert_eq!(percent("1.5"), None);
    }

    #[test]
    fn constants_from_both_tables() {
        let organic = "CAS\tName\tTm\tTb\trho\tRI\n\
            50-00-0\tFormaldehyde\t181.15\t254.05\t\t\n\
            50-01-1\tGuanidine monohydrochloride\t457.15\t\t1354.2\t\n\
            99-83-2\tα-Phellandrene\t511.15\t448.05\t841.02\t1.47125\n\
            50-00-0\tFormaldehyde again\t1\t2\t3\t\n\
            50-02-2\tNothing known\t\t\t\t\n";
        let got = parse_constants(organic, &descriptor("crc"), "t")
            .expect("table parses")
            .contributions;
        assert_eq!(got.len(), 3);
        assert_eq!(
            value(&got[0], "/properties/physical_properties"),
            json!({
                "melting_point": {"value": -92.0, "unit": "°C", "source": "crc"},
                "boiling_point": {"value": -19.1, "unit": "°C", "source": "crc"},
            })
        );
        assert_eq!(
            value(&got[1], "/properties/physical_properties/density"),
            json!({"value": 1354.2, "unit": "kg/m3", "source": "crc"})
        );
        assert_eq!(
            value(&got[2], "/properties/physical_properties"),
            json!({"density": {"value": 841.02, "unit": "kg/m3", "source": "crc"}}),
            "Tm above Tb: neither kept"
        );
        assert_eq!(got[0].name.as_deref(), Some("Formaldehyde"));

        let inorganic = "CAS\tChemical\tTm\tTb\trho\n\
            7440-59-7\tHelium\t0.95\t4.222\t0.164\n";
        let got = parse_constants(inorganic, &descriptor("crc"), "t")
            .expect("table parses")
            .contributions;
        assert_eq!(
            value(
                &got[0],
                "/properties/physical_properties/boiling_point/value"
            ),
            json!(-268.928)
        );
        assert_eq!(got[0].name.as_deref(), Some("Helium"));
    }

    #[test]
    fn logp_tables() {
        let crc =
            "CAS\tName \tlogP\n50-00-0\tFormaldehyde\t0.35\n56-23-5\tTetrachloromethane\t2.64\n";
        let got = parse_logp(crc, &descriptor("crc-logp"), "t")
            .expect("table parses")
            .contributions;
        assert_eq!(
            value(&got[0], "/properties/environmental_fate/log_kow"),
            json!({"value": 0.35, "unit": "log10", "source": "crc-logp"})
        );
        let syrres = "CAS\tChemical\tlogP\n\
            66381-49-5\tN-(N\"-Me-HxOCarbamylthio)methomyl\t4.2\n\
            929-77-1\tDocosanoic acid, methyl ester\t10.2\n\
            67-56-1\tMethanol\t-0.77\n";
        let got = parse_logp(syrres, &descriptor("syrres"), "t")
            .expect("table parses")
            .contributions;
        assert_eq!(got.len(), 3);
        assert_eq!(
            got[0].name.as_deref(),
            Some("N-(N\"-Me-HxOCarbamylthio)methomyl")
        );
        assert_eq!(
            value(&got[2], "/properties/environmental_fate/log_kow/value"),
            json!(-0.77)
        );
    }

    #[test]
    fn gzipped_table_is_read() {
        use std::io::Write;
        let dir = std::env::temp_dir().join(format!("saferef-logp-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("test setup");
        let path = dir.join("logp.csv.gz");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(b"CAS\tChemical\tlogP\n71-43-2\tBenzene\t2.13\n")
            .expect("test setup");
        std::fs::write(&path, gz.finish().expect("test setup")).expect("test setup");
        let got = read_logp(&path, &descriptor("syrres"))
            .expect("table parses")
            .contributions;
        std::fs::remove_dir_all(&dir).expect("test setup");
        assert_eq!(
            value(&got[0], "/properties/environmental_fate/log_kow/value"),
            json!(2.13)
        );
    }

    #[test]
    fn flammability_tables() {
        let iec = "CAS\tNames\tT_flash\tT_autoignition\tLFL\tUFL\n\
            50-00-0\tFormaldehyde; (Methanal); HCHO\t333.15\t697.15\t0.07\t0.73\n\
            111-87-5\t1-Octanol; (Caprylic alcohol)\t354.15\t543.15\t-0.009\t0.07\n\
            626-38-0\tAcetic acid 1-methylbutyl ester\t296.15\t\t0.11\t0.075\n\
            51-80-9\tN,N,N1,N1-Tetramethyl; methanediamine\t260.15\t453.15\t0.0161\t\n";
        let got = parse_flammability(iec, &descriptor("iec"), "t")
            .expect("table parses")
            .contributions;
        assert_eq!(
            value(&got[0], "/properties/physical_properties"),
            json!({
                "flash_point": {"value": 60.0, "unit": "°C", "source": "iec"},
                "autoignition_temperature": {"value": 424.0, "unit": "°C", "source": "iec"},
                "lower_flammability_limit": {"value": 7.0, "unit": "% v/v", "source": "iec"},
                "upper_flammability_limit": {"value": 73.0, "unit": "% v/v", "source": "iec"},
            })
        );
        assert_eq!(got[0].name, None, "IEC names are synonym lists");
        let octanol = value(&got[1], "/properties/physical_properties");
        assert!(octanol.get("lower_flammability_limit").is_none());
        assert_eq!(octanol["upper_flammability_limit"]["value"], json!(7.0));
        let amyl = value(&got[2], "/properties/physical_properties");
        assert!(amyl.get("lower_flammability_limit").is_none());
        assert!(amyl.get("upper_flammability_limit").is_none());
        assert_eq!(amyl["flash_point"]["value"], json!(23.0));
        assert_eq!(
            value(
                &got[3],
                "/properties/physical_properties/lower_flammability_limit/value"
            ),
            json!(1.61)
        );

        let nfpa = "CAS\tName\tT_flash\tT_autoignition\tLFL\tUFL\n\
            50-00-0\tFormaldehyde (Gas) \t\t703.15\t0.07\t0.73\n\
            57-57-8\tPropiolactone \t\t\t\t\n";
        let got = parse_flammability(nfpa, &descriptor("nfpa"), "t")
            .expect("table parses")
            .contributions;
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].name.as_deref(), Some("Formaldehyde (Gas)"));
    }

    #[test]
    fn gwp_and_lifetime() {
        let text = "Name\tCAS\tAcronym\tFormula\tLifetime, years\tRadiative efficiency, W/m^2/ppb\t20yr AGWP\t20yr GWP\t100yr AGWP\t100yr GWP\t500yr AGWP\t500yr GWP\n\
            Carbon dioxide\t124-38-9\t\tCO2\t\t0.0000133\t2.43E-14\t1\t8.95E-14\t1\t3.14E-13\t1\n\
            Methane\t74-82-8\t\tCH4\t11.8\t0.000388\t1.98E-12\t81.2\t2.49E-12\t27.9\t2.5E-12\t7.95\n\
            Allyl ether\t557-40-4\tAE\t(CH2=CHCH2)2O\t0\t0.01\t0\t0\t0\t0\t0\t0\n";
        let got = parse_gwp(text, &descriptor("ipcc"), "t")
            .expect("table parses")
            .contributions;
        assert_eq!(
            value(&got[0], "/properties/environmental_fate"),
            json!({"gwp_100yr": {"value": 1.0, "unit": "CO2-eq (100 yr)", "source": "ipcc"}})
        );
        assert_eq!(
            value(
                &got[1],
                "/properties/environmental_fate/atmospheric_lifetime"
            ),
            json!({"value": 11.8, "unit": "years", "source": "ipcc"})
        );
        assert_eq!(
            value(&got[1], "/properties/environmental_fate/gwp_100yr/value"),
            json!(27.9)
        );
        let allyl = value(&got[2], "/properties/environmental_fate");
        assert_eq!(allyl["gwp_100yr"]["value"], json!(0.0));
        assert!(allyl.get("atmospheric_lifetime").is_none());
        assert_eq!(got[1].name.as_deref(), Some("Methane"));
    }

    #[test]
    fn odp_montreal_protocol_values() {
        let text = "CAS\tODP2 Max\tODP1 Max\tODP1\tName\tODP2\tLifetime\tODP2 Min\tODP1 Min\tODP2 Design\tODP1 Design\n\
            76-14-2\t0.58\t1.0\t1.0\tCFC-114 (C2F4Cl2) Dichlorotetrafluoroethane\t0.58\t190.0\t0.58\t1.0\t0.58\t1.0\n\
            75-88-7\t\t0.06\t0.02 - 0.06\tHCFC-133a (C2H2F3Cl) Monochlorotrifluoroethane\t\t\t\t0.02\t\t0.0346410161514\n\
            75-45-6\t0.04\t0.055\t0.055\tHCFC-22 (CHF2Cl) Monochlorodifluoromethane\t0.04\t11.9\t0.04\t0.055\t0.04\t0.055\n";
        let got = parse_odp(text, &descriptor("odp"), "t")
            .expect("table parses")
            .contributions;
        assert_eq!(got.len(), 2, "a range gives no value");
        assert_eq!(
            value(&got[0], "/properties/environmental_fate/odp"),
            json!({"value": 1.0, "unit": "CFC-11-eq", "source": "odp"})
        );
        assert_eq!(got[1].cas().expect("keyed by CAS").as_str(), "75-45-6");
        assert_eq!(
            value(&got[1], "/properties/environmental_fate/odp/value"),
            json!(0.055)
        );
        assert_eq!(got[0].name, None);
    }

    #[test]
    fn missing_column_is_an_error() {
        let err = parse_odp("CAS\tName\n76-14-2\tx\n", &descriptor("odp"), "t");
        assert!(matches!(err, Err(TableError::Format { .. })));
    }
}
