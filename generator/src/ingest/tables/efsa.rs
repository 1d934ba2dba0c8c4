//! EFSA OpenFoodTox, a folder of CSVs: `oft_reference_values.csv` (Substance, Author, Year,
//! OutputID, Assessment, qualfier, value, unit, Population), joined to CAS through the "as such"
//! rows of `oft_substance_characterisation.csv` (Substance, component_type, Component,
//! CASNumber, ECRefNo, MolecularFormula, smiles), with each opinion's DOI from
//! `oft_efsa_outputs.csv` (Substance, OutputID, LegalBasis, Panel, Published, Title,
//! OutputType, DOI, URL). Only health-based guidance values are kept (ADI, TDI, TWI, ARfD,
//! UL, AOEL and their "(group)" / "(provisional)" forms). The acute LD50, LC50 and EC50 of
//! `oft_reference_points.csv` are read by `efsa_points.rs` through the same joins.

use std::collections::HashMap;
use std::path::Path;

use serde_json::json;

use super::dose;
use super::efsa_points;
use super::ledger::Ledger;
use super::text::{cell, csv_error, read_utf8, reader};
use super::{Parsed, TableError};
use crate::ingest::contribution::{Contribution, Subject, to_json};
use crate::ingest::set_aside::{self, RowKey, SetAside};
use crate::model::cas::Cas;
use crate::model::catalog::SourceDescriptor;
use crate::model::record::DoseValue;
use crate::model::vocab::DoseKind;

const VALUES: &str = "oft_reference_values.csv";
const SUBSTANCES: &str = "oft_substance_characterisation.csv";
const OUTPUTS: &str = "oft_efsa_outputs.csv";

/// The ledger accounts for the reference-value rows (the facts); the substance table only
/// supplies identities and structures.
pub fn read(
    dir: &Path,
    src: &SourceDescriptor,
    set_aside: &SetAside,
) -> Result<Parsed, TableError> {
    let load = |name: &str| {
        let path = dir.join(name);
        read_utf8(&path).map(|text| (path.display().to_string(), text))
    };
    let (substances_path, substances) = load(SUBSTANCES)?;
    let cas = substance_cas(&substances).map_err(|e| csv_error(&substances_path, e))?;
    let (outputs_path, outputs) = load(OUTPUTS)?;
    let references = output_references(&outputs).map_err(|e| csv_error(&outputs_path, e))?;
    let (values_path, values) = load(VALUES)?;
    let mut parsed = parse(&values, &cas, &references, src, set_aside)
        .map_err(|e| csv_error(&values_path, e))?;
    let (points_path, points) = load(efsa_points::FILE)?;
    let (acute, ledger) = efsa_points::parse(&points, &cas, &references, src, agency_of)
        .map_err(|e| csv_error(&points_path, e))?;
    parsed.contributions.extend(acute);
    parsed.ledger.extend(ledger);
    parsed
        .contributions
        .extend(identities(&substances, src).map_err(|e| csv_error(&substances_path, e))?);
    Ok(parsed)
}

/// Structure from the "as such" rows: SMILES and, when written as plain element counts, the
/// molecular formula (EFSA also writes forms like "C2-H4-O3.x-Na.x-Unspecified", which are
/// not formulas). These rank below the PubChem tables, so they only fill in where PubChem has
/// no row for the CAS.
fn identities(text: &str, src: &SourceDescriptor) -> Result<Vec<Contribution>, csv::Error> {
    let mut out: Vec<Contribution> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for row in reader(text, b',', true).records() {
        let row = row?;
        if cell(&row, 1) != Some("as such") {
            continue;
        }
        let Some(cas) =
            cell(&row, 3).and_then(|c| Cas::parse_lenient(&c.replace('\u{2013}', "-")).ok())
        else {
            continue;
        };
        let formula = cell(&row, 5).filter(|f| is_plain_formula(f));
        let smiles = cell(&row, 6);
        if (formula.is_none() && smiles.is_none()) || !seen.insert(cas.clone()) {
            continue;
        }
        let mut fragment = json!({});
        if let Some(smiles) = smiles {
            fragment["identity"] = json!({"smiles": smiles, "source": src.id});
        }
        if let Some(formula) = formula {
            fragment["properties"] =
                json!({"chemical_properties": {"molecular_formula": formula, "source": src.id}});
        }
        let mut c = Contribution::new(cas, fragment);
        if let Some(formula) = formula {
            c = c.kind(super::identifiers::kind_of_formula(formula));
        }
        out.push(c);
    }
    Ok(out)
}

/// "C10H11ClN4": element symbols each with an optional count, nothing else.
fn is_plain_formula(f: &str) -> bool {
    let mut chars = f.chars().peekable();
    let mut any = false;
    while let Some(c) = chars.next() {
        if !c.is_ascii_uppercase() {
            return false;
        }
        any = true;
        while chars.peek().is_some_and(char::is_ascii_lowercase) {
            chars.next();
        }
        while chars.peek().is_some_and(char::is_ascii_digit) {
            chars.next();
        }
    }
    any
}

/// Substance name -> CAS, from the rows describing the substance "as such" (the other rows
/// are its constituents, metabolites or group members, each with its own CAS).
fn substance_cas(text: &str) -> Result<HashMap<String, Cas>, csv::Error> {
    let mut out = HashMap::new();
    for row in reader(text, b',', true).records() {
        let row = row?;
        if cell(&row, 1) != Some("as such") {
            continue;
        }
        let (Some(substance), Some(raw)) = (cell(&row, 0), cell(&row, 3)) else {
            continue;
        };
        // A few numbers are typed with en dashes ("10025–77–1").
        if let Ok(cas) = Cas::parse_lenient(&raw.replace('\u{2013}', "-")) {
            out.entry(substance.to_string()).or_insert(cas);
        }
    }
    Ok(out)
}

/// OutputID -> the opinion's address: `https://doi.org/<DOI>`, or the page itself when EFSA
/// gives a web address instead of a DOI. The table's URL column is a "http://dx.doi.org/"
/// prefix pasted onto the DOI column minus four characters, which breaks where the DOI
/// column is not written "doi:10.…", so the DOI column is read instead. Pseudo-DOIs made up
/// for Scientific Committee on Food PDFs ("10.2903/sci-com_scf_out80k_en.pdf") resolve
/// nowhere and are left out.
fn output_references(text: &str) -> Result<HashMap<String, String>, csv::Error> {
    let mut out = HashMap::new();
    for row in reader(text, b',', true).records() {
        let row = row?;
        let (Some(id), Some(doi)) = (cell(&row, 1), cell(&row, 7)) else {
            continue;
        };
        if let Some(url) = reference_url(doi) {
            out.entry(id.to_string()).or_insert(url);
        }
    }
    Ok(out)
}

fn reference_url(doi: &str) -> Option<String> {
    if doi.starts_with("https://") || doi.starts_with("http://") {
        return Some(doi.to_string());
    }
    let bare = ["doi:", "doi.org/", "doi"]
        .iter()
        .find_map(|p| doi.strip_prefix(p))
        .unwrap_or(doi)
        .trim();
    let (prefix, suffix) = bare.split_once('/')?;
    let real = prefix.starts_with("10.")
        && prefix.len() > 3
        && prefix[3..].bytes().all(|b| b.is_ascii_digit())
        && !suffix.is_empty()
        && !suffix.ends_with(".pdf");
    real.then(|| format!("https://doi.org/{bare}"))
}

/// "ADI" -> (Adi, None); "TWI (provisional)" -> (Twi, Some("provisional")).
fn assessment(raw: &str) -> Option<(DoseKind, Option<&'static str>)> {
    let (base, label) = match raw.split_once(" (") {
        Some((base, "group)")) => (base, Some("group")),
        Some((base, "provisional)")) => (base, Some("provisional")),
        Some(_) => return None,
        None => (raw, None),
    };
    let kind = match base {
        "ADI" => DoseKind::Adi,
        "TDI" => DoseKind::Tdi,
        "TWI" => DoseKind::Twi,
        "ARfD" => DoseKind::Arfd,
        "UL" => DoseKind::Ul,
        "AOEL" => DoseKind::Aoel,
        _ => return None,
    };
    Some((kind, label))
}

/// "µg/kg bw" for a TDI -> "µg/kg bw/day": OpenFoodTox leaves the period out of some units
/// (nickel's 2020 TDI, the dioxin TWIs), which the kind states (a tolerable *daily* intake, a
/// *weekly* one). An acute reference dose is the reverse: an amount eaten at one meal or
/// within one day, per kg bw, so OpenFoodTox's "mg/kg bw/day" for some ARfDs is served as
/// "mg/kg bw", as the rest of its ARfDs are (data/README.md, "Acute values are single
/// doses"). Other units are kept as written.
fn per_period(kind: DoseKind, unit: &str) -> String {
    let period = match kind {
        DoseKind::Adi | DoseKind::Tdi => "day",
        DoseKind::Twi => "week",
        DoseKind::Arfd => return efsa_points::single_dose(unit).to_string(),
        _ => return unit.to_string(),
    };
    if unit.ends_with("kg bw") {
        format!("{unit}/{period}")
    } else {
        unit.to_string()
    }
}

/// Whether the unit says the opposite period of the value's kind: an ADI or TDI is per day, a
/// TWI per week ("TDI 0.1 ng/kg bw/week" is a typo of the source, not a fact).
fn contradicts(kind: DoseKind, unit: &str) -> bool {
    match kind {
        DoseKind::Adi | DoseKind::Tdi => unit.contains("week"),
        DoseKind::Twi => unit.contains("/day"),
        _ => false,
    }
}

/// Whether the unit is a content of food or feed ("mg/kg", "IU/g") rather than an intake per
/// kg of body weight or per person: 1,3-dichloropropene's "ARfD 0.1 mg/kg" (the 2009
/// conclusion's ARfD is 0.2 mg/kg bw, the row beside it) and vitamin A's "UL 16 000 000 IU/g"
/// for piglets (a feed content) are no intake values.
fn is_concentration(unit: &str) -> bool {
    !unit.contains("bw") && (unit.ends_with("/kg") || unit.ends_with("/g"))
}

/// The body behind an author string: EFSA and its panels ("EFSA CONTAM"), the EU Scientific
/// Committee on Food (a European Commission committee), or the FAO/WHO expert committees.
fn agency_of(author: &str) -> Option<&'static str> {
    if author.starts_with("EFSA") {
        Some("EFSA")
    } else if author == "SCF" {
        Some("European Commission")
    } else if author.starts_with("JECFA") || author.starts_with("JMPR") {
        Some("WHO")
    } else {
        None
    }
}

/// One contribution per substance, in the order a table first names it, each
/// dose once. Both EFSA tables (reference values and reference points) build it.
#[derive(Default)]
pub(super) struct SubstanceDoses {
    order: Vec<(String, Subject)>,
    values: HashMap<String, Vec<DoseValue>>,
}

impl SubstanceDoses {
    pub(super) fn add(&mut self, substance: &str, subject: Subject, dose: DoseValue) {
        let list = self.values.entry(substance.to_string()).or_insert_with(|| {
            self.order.push((substance.to_string(), subject));
            Vec::new()
        });
        if !list.contains(&dose) {
            list.push(dose);
        }
    }

    pub(super) fn into_contributions(self) -> Vec<Contribution> {
        let SubstanceDoses { order, values } = self;
        order
            .into_iter()
            .map(|(substance, subject)| {
                let doses: Vec<_> = values[&substance].iter().map(to_json).collect();
                Contribution::about(subject, json!({"dose_response": doses})).named(substance)
            })
            .collect()
    }
}

fn parse(
    text: &str,
    cas_of: &HashMap<String, Cas>,
    references: &HashMap<String, String>,
    src: &SourceDescriptor,
    set_aside: &SetAside,
) -> Result<Parsed, csv::Error> {
    let mut doses = SubstanceDoses::default();
    let mut ledger = Ledger::default();
    for row in reader(text, b',', true).records() {
        let row = row?;
        let id = ledger.row(cell(&row, 0).unwrap_or_default());
        let g = match guidance_value(&row, set_aside) {
            Ok(g) => g,
            Err(reason) => {
                ledger.skip(id, reason);
                continue;
            }
        };
        // EFSA gives no CAS for some substances ("Cadmium (total)"): the name is resolved
        // through data/curated/groups.json.
        let subject = match cas_of.get(g.substance) {
            Some(cas) => Subject::Cas(cas.clone()),
            None => Subject::Named(g.substance.to_string()),
        };
        ledger.about(id, [subject.clone()]);
        doses.add(g.substance, subject, dose_of(&row, &g, references, src));
    }
    let contributions = doses.into_contributions();
    Ok(Parsed {
        contributions,
        ledger,
    })
}

/// A reference-value row that is a health-based guidance value this service serves.
struct Guidance<'r> {
    substance: &'r str,
    kind: DoseKind,
    label: Option<&'static str>,
    value: f64,
    unit: &'r str,
    agency: &'static str,
}

/// The row as a guidance value, or the reason the ledger gives for skipping it.
fn guidance_value<'r>(
    row: &'r csv::StringRecord,
    set_aside: &SetAside,
) -> Result<Guidance<'r>, &'static str> {
    let substance = cell(row, 0).ok_or("no substance name")?;
    let (kind, label) = cell(row, 4)
        .and_then(assessment)
        .ok_or("not a health-based guidance value (ADI, TDI, TWI, ARfD, UL, AOEL)")?;
    let (Some(value), Some(unit)) = (
        cell(row, 6).and_then(|v| v.parse::<f64>().ok()),
        cell(row, 7),
    ) else {
        return Err("no numeric value with a unit (not established, or not allocated)");
    };
    if is_concentration(unit) {
        return Err(
            "unit is a content (per kg or per g of food or feed, not of body weight): a \
             maximum content or a source error, not an intake",
        );
    }
    if set_aside.excludes(&RowKey {
        substance: substance.to_string(),
        output_id: cell(row, 3).unwrap_or_default().to_string(),
        assessment: cell(row, 4).unwrap_or_default().to_string(),
        value: cell(row, 6).unwrap_or_default().to_string(),
        unit: unit.to_string(),
        population: cell(row, 8).unwrap_or_default().to_string(),
    }) {
        return Err(set_aside::REASON);
    }
    if contradicts(kind, unit) {
        return Err(
            "unit contradicts the kind of value (a daily intake given per week, or the \
             reverse): a source error, listed in curated/data-quality.json",
        );
    }
    let agency = cell(row, 1)
        .and_then(agency_of)
        .ok_or("author is not EFSA, the SCF or a FAO/WHO committee")?;
    Ok(Guidance {
        substance,
        kind,
        label,
        value,
        unit,
        agency,
    })
}

/// The served value of a kept row: its qualifier and label, year, population, author and the
/// opinion's address.
fn dose_of(
    row: &csv::StringRecord,
    g: &Guidance<'_>,
    references: &HashMap<String, String>,
    src: &SourceDescriptor,
) -> DoseValue {
    let qualifier: Vec<&str> = cell(row, 5)
        .filter(|q| *q != "=")
        .into_iter()
        .chain(g.label)
        .collect();
    DoseValue {
        qualifier: (!qualifier.is_empty()).then(|| qualifier.join("; ")),
        year: cell(row, 2).and_then(|y| y.parse().ok()),
        population: cell(row, 8).map(String::from),
        basis: Some(cell(row, 1).unwrap_or_default().to_string()),
        reference: cell(row, 3).and_then(|id| references.get(id)).cloned(),
        ..dose::stated(src, g.agency, g.kind, g.value, per_period(g.kind, g.unit))
    }
}

#[cfg(test)]
mod identity_tests {
    use super::*;
    use crate::ingest::tables::testing::descriptor;
    use crate::model::ids::CompoundKind;

    #[test]
    fn structure_from_as_such_rows() {
        let text = "Substance,component_type,Component,CASNumber,ECRefNo,MolecularFormula,smiles\n\
            Acetamiprid,as such,Acetamiprid,135410-20-7,,C10H11ClN4,CC(=NC#N)N(C)CC1=CN=C(C=C1)Cl\n\
            Acetamiprid,metabolite,IM-2-1,101-00-0,,C9H9ClN4,C\n\
            Sodium carboxymethylcellulose,as such,CMC,9004-32-4,,C2-H4-O3.x-Na.x-Unspecified,\n\
            Calcium silicate,as such,x,13983-17-0,,CaSiO3,\n";
        let got = identities(text, &descriptor("efsa")).unwrap();
        assert_eq!(
            got.len(),
            2,
            "metabolite rows and non-formulas without SMILES are skipped"
        );
        assert_eq!(got[0].kind, Some(CompoundKind::Org));
        assert_eq!(
            got[0].fragment["identity"]["smiles"],
            "CC(=NC#N)N(C)CC1=CN=C(C=C1)Cl"
        );
        assert_eq!(
            got[0].fragment["properties"]["chemical_properties"]["molecular_formula"],
            "C10H11ClN4"
        );
        assert_eq!(got[1].kind, Some(CompoundKind::Ino));
        assert!(got[1].fragment.get("identity").is_none());
    }

    #[test]
    fn plain_formulas() {
        assert!(is_plain_formula("C10H11ClN4"));
        assert!(is_plain_formula("CaSiO3"));
        assert!(!is_plain_formula("C2-H4-O3.x-Na.x-Unspecified"));
        assert!(!is_plain_formula("(C6H10O5)n"));
        assert!(!is_plain_formula(""));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::tables::testing::descriptor;

    const SUBSTANCES: &str = "Substance,component_type,Component,CASNumber,ECRefNo,MolecularFormula,smiles\n\
        Acephate,as such,Acephate,30560-19-1,250-241-2,C4H10NO3PS,CC(=O)NP(=O)(OC)SC\n\
        Acephate,metabolite,Methamidophos,10265-92-6,,C2H8NO2PS,COP(N)(=O)SC\n\
        Barium sulphate,as such,Barium sulphate,7727-43-7,,BaO4S,\n\
        Cadmium chloride,as such,Cadmium chloride,10108–64–2,,CdCl2,\n\
        Bad number,as such,Bad number,53383-2-7,,,\n\
        No number,as such,No number,,,,\n";

    const OUTPUTS: &str = "Substance,OutputID,LegalBasis,Panel,Published,Title,OutputType,DOI,URL\n\
        Acephate,100,x,EFSA,1.0,t,o,doi:10.2903/j.efsa.2018.5164,http://dx.doi.org/10.2903/j.efsa.2018.5164\n\
        Acephate,101,x,SCF,1.0,t,o,https://ec.europa.eu/food/scf_out80_en.pdf,http://dx.doi.org/s://ec.europa.eu/food/scf_out80_en.pdf\n\
        Barium sulphate,102,x,EFSA,1.0,t,o,doi:10.2903/sci-com_scf_out93_en.pdf,http://dx.doi.org/10.2903/sci-com_scf_out93_en.pdf\n\
        Barium sulphate,103,x,EFSA,1.0,t,o,doi10.2903/j.efsa.2021.6986,http://dx.doi.org/0.2903/j.efsa.2021.6986\n";

    fn run(values: &str) -> Vec<Contribution> {
        let cas = substance_cas(SUBSTANCES).expect("test data");
        let refs = output_references(OUTPUTS).expect("test data");
        parse(
            values,
            &cas,
            &refs,
            &descriptor("efsa"),
            &SetAside::default(),
        )
        .expect("test data")
        .contributions
    }

    #[test]
    fn units_without_their_period_get_the_kind_s_period() {
        assert_eq!(per_period(DoseKind::Tdi, "µg/kg bw"), "µg/kg bw/day");
        assert_eq!(per_period(DoseKind::Twi, "pg/kg bw"), "pg/kg bw/week");
        assert_eq!(per_period(DoseKind::Arfd, "mg/kg bw"), "mg/kg bw");
        assert_eq!(per_period(DoseKind::Arfd, "mg/kg bw/day"), "mg/kg bw");
        assert_eq!(per_period(DoseKind::Arfd, "µg/kg bw/day"), "µg/kg bw");
        assert_eq!(per_period(DoseKind::Adi, "mg/person/day"), "mg/person/day");
    }

    #[test]
    fn substances_join_through_as_such_rows() {
        let cas = substance_cas(SUBSTANCES).expect("test data");
        assert_eq!(cas["Acephate"].as_str(), "30560-19-1");
        assert_eq!(cas["Cadmium chloride"].as_str(), "10108-64-2");
        assert!(!cas.contains_key("Bad number"));
        assert!(!cas.contains_key("No number"));
        assert_eq!(cas.len(), 3);
    }

    #[test]
    fn references_come_from_the_doi_column() {
        let refs = output_references(OUTPUTS).expect("test data");
        assert_eq!(refs["100"], "https://doi.org/10.2903/j.efsa.2018.5164");
        assert_eq!(refs["101"], "https://ec.europa.eu/food/scf_out80_en.pdf");
        assert!(!refs.contains_key("102"), "pseudo-DOI of a PDF");
        assert_eq!(refs["103"], "https://doi.org/10.2903/j.efsa.2021.6986");
    }

    #[test]
    fn guidance_values_are_kept_with_their_qualifiers() {
        let values = "Substance,Author,Year,OutputID,Assessment,qualfier,value,unit,Population\n\
            Acephate,EFSA,2018,100,ADI,=,0.0012,mg/kg bw/day,Consumers\n\
            Acephate,EFSA,2018,100,ADI,=,0.0012,mg/kg bw/day,Consumers\n\
            Acephate,SCF,1997,101,ADI (group),<=,0.03,mg/kg bw/day,Consumers\n\
            Acephate,EFSA,2018,100,AOEL (provisional),=,0.0012,mg/m³,Workers\n\
            Acephate,EFSA,2018,100,TTC Cramer Class III,=,1.5,µg/kg bw/day,Consumers\n\
            Acephate,EFSA,2018,100,MTDI (provisional),=,1,mg/kg bw/day,Consumers\n\
            Acephate,EFSA,2018,100,ARfD,=,,mg/kg bw,Consumers\n\
            Acephate,Someone,2018,100,ARfD,=,0.1,mg/kg bw,Consumers\n\
            Barium sulphate,EFSA CONTAM,2012,102,TWI,=,2.5,µg/kg bw/week,\n\
            Cadmium chloride,EFSA CEF,2009,999,TDI,ca.,0.36,µg/kg bw/day,Consumers - Adults\n\
            Bad number,EFSA,2010,100,ADI,=,1,mg/kg bw/day,Consumers\n\
            Methamidophos,EFSA,2010,100,ADI,=,1,mg/kg bw/day,Consumers\n\
            Acephate,EFSA ANS,2010,100,TDI (group),=,0.1,ng/kg bw/week,Consumers\n\
            Acephate,EFSA,2009,100,ARfD,=,0.1,mg/kg,Consumers\n\
            Acephate,EFSA FEEDAP,2009,100,UL,=,16000000.0,IU/g,Pigs\n";
        let all = run(values);
        let named: Vec<_> = all.iter().filter(|c| c.cas().is_none()).collect();
        assert_eq!(
            named.iter().map(|c| &c.subject).collect::<Vec<_>>(),
            [
                &Subject::Named("Bad number".into()),
                &Subject::Named("Methamidophos".into())
            ],
            "substances without a CAS are left to the reconciliation"
        );
        let got: Vec<_> = all.into_iter().filter(|c| c.cas().is_some()).collect();
        assert_eq!(got.len(), 3);
        assert_eq!(got[0].name.as_deref(), Some("Acephate"));
        let acephate = got[0].fragment["dose_response"]
            .as_array()
            .expect("test data");
        assert_eq!(
            acephate.len(),
            3,
            "duplicate, TTC, MTDI, empty, unknown author, a TDI per week and contents per kg \
             or per g of food dropped"
        );
        assert_eq!(
            acephate[0],
            json!({"kind": "adi", "value": 0.0012, "unit": "mg/kg bw/day", "agency": "EFSA",
                   "year": 2018, "population": "Consumers", "basis": "EFSA",
                   "reference": "https://doi.org/10.2903/j.efsa.2018.5164", "source": "efsa"})
        );
        assert_eq!(acephate[1]["agency"], "European Commission");
        assert_eq!(acephate[1]["qualifier"], "<=; group");
        assert_eq!(
            acephate[1]["reference"],
            "https://ec.europa.eu/food/scf_out80_en.pdf"
        );
        assert_eq!(acephate[2]["kind"], "aoel");
        assert_eq!(acephate[2]["qualifier"], "provisional");
        assert_eq!(acephate[2]["unit"], "mg/m³");
        let barium = &got[1].fragment["dose_response"][0];
        assert_eq!(barium["kind"], "twi");
        assert_eq!(barium["basis"], "EFSA CONTAM");
        assert!(barium.get("population").is_none());
        assert!(barium.get("reference").is_none());
        let cadmium = &got[2].fragment["dose_response"][0];
        assert_eq!(got[2].cas().expect("test data").as_str(), "10108-64-2");
        assert_eq!(cadmium["qualifier"], "ca.");
        assert!(cadmium.get("reference").is_none(), "unknown output id");
    }

    #[test]
    fn a_row_curation_sets_aside_is_not_served_and_the_ledger_says_why() {
        let values = "Substance,Author,Year,OutputID,Assessment,qualfier,value,unit,Population\n\
            Acephate,EFSA,2009,100,ARfD,=,0.3,mg/kg bw,Consumers\n\
            Acephate,EFSA,2009,100,ARfD,=,1.5,mg/kg bw,Consumers\n";
        let list = SetAside::parse(
            "substance\toutput_id\tassessment\tvalue\tunit\tpopulation\tlive\treason\n\
             Acephate\t100\tARfD\t1.5\tmg/kg bw\tConsumers\t0.3 mg/kg bw\tthe adopted value is 0.3\n",
        )
        .expect("test data");
        let cas = substance_cas(SUBSTANCES).expect("test data");
        let refs = output_references(OUTPUTS).expect("test data");
        let parsed = parse(values, &cas, &refs, &descriptor("efsa"), &list).expect("test data");
        let doses = &parsed.contributions[0].fragment["dose_response"];
        assert_eq!(doses.as_array().map(Vec::len), Some(1));
        assert_eq!(doses[0]["value"], 0.3);
        assert!(list.unmet().is_empty());
        assert_eq!(
            parsed.ledger.rows()[1].fate,
            super::super::ledger::Fate::Skipped(set_aside::REASON.into()),
            "the ledger says why the row is not served"
        );
    }

    #[test]
    fn assessments() {
        assert_eq!(assessment("ARfD"), Some((DoseKind::Arfd, None)));
        assert_eq!(
            assessment("TDI (group)"),
            Some((DoseKind::Tdi, Some("group")))
        );
        assert_eq!(
            assessment("UL (provisional)"),
            Some((DoseKind::Ul, Some("provisional")))
        );
        assert_eq!(assessment("AAOEL"), None);
        assert_eq!(assessment("MTDI (provisional)"), None);
        assert_eq!(assessment("ADI (other)"), None);
    }
}
