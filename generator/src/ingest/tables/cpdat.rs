//! EPA CPDat / ChemExpo functional uses and product-use categories of carcinogen-listed
//! substances (CSV: DTXSID, NAME, CASRN, PUBCHEMCID, list flags (IARC1...MMDBV1),
//! Function_count, Functions ("; "-separated), PUC_count, PUCs ("; "-separated), PatentCount,
//! LiteratureCount). Columns are found by header name.
//!
//! Emitted: `crossrefs.dtxsid`, one `found_in` per PUC (category: a snake_case slug of the
//! PUC), and `use_classes` from Functions through `FUNCTION_CLASSES`, unless EPA also reports
//! the substance with no function of its own (`NO_FUNCTION`): then the functions pool those of
//! the products it turns up in (ethylene oxide "Surfactant", 1,4-dioxane "Fragrance") and none
//! says what it is for. The list flags are not read (the lists themselves are ingested from
//! their publishers). One CASRN carries a stray space ("34465-46- 8"), which the lenient CAS
//! parse accepts.

use std::path::Path;

use serde_json::{Value, json};

use super::ledger::Ledger;
use super::text::{cell, csv_error, read_utf8, reader};
use super::{Parsed, TableError};
use crate::ingest::contribution::{Contribution, Subject, to_json};
use crate::model::cas::Cas;
use crate::model::catalog::SourceDescriptor;
use crate::model::record::{FoundIn, Sourced, UseClass};

pub fn read(path: &Path, src: &SourceDescriptor) -> Result<Parsed, TableError> {
    parse(&read_utf8(path)?, src, &path.display().to_string())
}

/// CPDat functional uses (as the 2024-04 table writes them) and the use class each names.
///
/// Not mapped, on purpose: "Biocide" (it covers both pesticides such as lindane and
/// disinfectants such as ethanol, so neither `pesticide` nor `antimicrobial` fits all),
/// "Pigment" (no pigment class; `colorant` is the food-colour class), "Flavouring and
/// nutrient" (two things at once), "Antioxidant", "Emulsifier" and "Thickening agent" (the
/// vocabulary's classes are food-additive ones, while CPDat reports them for carbon black,
/// quartz or urethane in consumer products), and the technical functions with no class:
/// Abrasive, Absorbent, Adhesion/cohesion promoter, Alloying element, Anti-adhesive/cohesive,
/// Anti-caking agent, Anti-dandruff (EPA), Anti-stain agent, Anti-static agent, Astringent
/// (EPA), Binder, Brightener, Catalyst, Chelating agent, Chemical reaction regulator, Cleaning
/// agent, Coalescing agent, Conductive agent, Corrosion inhibitor, Crystal growth modifiers
/// (nucleating agents), Defoamer, Degradant/impurity (EPA), Deodorizer, Diluent, Dispersing
/// agent, Drier, Filler, Film former, Flow promoter, Flux agent, Foamant, Hair fixative (EPA),
/// Hardener, Heat transferring agent, Humectant, Insulators, Intermediate, Leavening agent
/// (EPA), Lubricating agent, No specific technical function, Opacifer, Oxidizing agent,
/// Photosensitizers, Plating agent, Processing aids not otherwise specified, Propellants,
/// non-motive (blowing agents), Sealant (barrier), Softener and conditioner, Solubility
/// enhancer, Surface modifier, Tracer, Viscosity modifier, Waterproofing agent, Wetting agent
/// (non-aqueous), pH regulating agent.
const FUNCTION_CLASSES: &[(&str, &str)] = &[
    ("Dye", "dye"),
    ("Flame retardant", "flame_retardant"),
    ("Food preservative (EPA)", "preservative"),
    ("Fragrance", "fragrance_ingredient"),
    ("Heat stabilizer", "stabilizer"),
    ("Monomers", "monomer"),
    ("Pharmaceutical (EPA)", "pharmaceutical"),
    ("Plasticizer", "plasticizer"),
    ("Preservative", "preservative"),
    ("Solvent", "solvent"),
    ("Stabilizing agent", "stabilizer"),
    ("Surfactant (surface active agent)", "surfactant"),
    ("UV stabilizer", "stabilizer"),
];

/// Functions EPA reports for a substance present without a purpose of its own (an impurity,
/// a degradation product, a contaminant of another ingredient).
const NO_FUNCTION: [&str; 2] = ["No specific technical function", "Degradant/impurity (EPA)"];

/// "Cons. electronics, mech. appliances, and machinery" ->
/// "cons_electronics_mech_appliances_and_machinery"; "Toys and children's products" ->
/// "toys_and_childrens_products".
fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().filter(|c| *c != '\'' && *c != '\u{2019}') {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_string()
}

fn items(cell: Option<&str>) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for item in cell.unwrap_or_default().split(';').map(str::trim) {
        if !item.is_empty() && !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

/// The use classes the functions name, one per class, with the functions that named it.
fn use_classes_of(functions: &[&str], source: &str) -> Vec<UseClass> {
    let mut out: Vec<UseClass> = Vec::new();
    if functions.iter().any(|f| NO_FUNCTION.contains(f)) {
        return out;
    }
    for function in functions {
        for (_, class) in FUNCTION_CLASSES.iter().filter(|(f, _)| f == function) {
            match out.iter_mut().find(|u| u.class == *class) {
                Some(u) => {
                    let basis = u.basis.get_or_insert_with(String::new);
                    basis.push_str("; ");
                    basis.push_str(function);
                }
                None => out.push(UseClass {
                    class: class.to_string(),
                    source: source.to_string(),
                    basis: Some(function.to_string()),
                }),
            }
        }
    }
    out
}

fn parse(text: &str, src: &SourceDescriptor, path: &str) -> Result<Parsed, TableError> {
    let mut rdr = reader(text, b',', true);
    let headers = rdr.headers().map_err(|e| csv_error(path, e))?.clone();
    let column = |name: &str| {
        headers
            .iter()
            .position(|h| h.trim() == name)
            .ok_or_else(|| TableError::Format {
                path: path.to_string(),
                message: format!("no column {name:?}"),
            })
    };
    let (dtxsid, name, casrn) = (column("DTXSID")?, column("NAME")?, column("CASRN")?);
    let (functions, pucs) = (column("Functions")?, column("PUCs")?);
    let mut out = Vec::new();
    let mut ledger = Ledger::default();
    for row in rdr.records() {
        let row = row.map_err(|e| csv_error(path, e))?;
        let row_id = ledger.row(cell(&row, name).unwrap_or_default());
        let Some(cas) = cell(&row, casrn).and_then(|c| Cas::parse_lenient(c).ok()) else {
            ledger.skip(row_id, "no valid CAS number in the row");
            continue;
        };
        ledger.about(row_id, [Subject::Cas(cas.clone())]);
        let mut fragment = json!({});
        if let Some(id) = cell(&row, dtxsid) {
            fragment["crossrefs"] = json!({"dtxsid": to_json(&Sourced {
                value: id.to_string(),
                source: src.id.clone(),
            })});
        }
        let found: Vec<Value> = items(cell(&row, pucs))
            .into_iter()
            .map(|puc| {
                to_json(&FoundIn {
                    category: slug(puc),
                    examples: vec![puc.to_string()],
                    detail: Some("EPA CPDat product use category".into()),
                    source: src.id.clone(),
                })
            })
            .collect();
        if !found.is_empty() {
            fragment["found_in"] = Value::Array(found);
        }
        let classes = use_classes_of(&items(cell(&row, functions)), &src.id);
        if !classes.is_empty() {
            fragment["use_classes"] = Value::Array(classes.iter().map(to_json).collect());
        }
        let name = cell(&row, name).unwrap_or_default();
        out.push(Contribution::new(cas, fragment).named(name));
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
    use crate::model::vocab::USE_CLASSES;

    const HEADER: &str = "DTXSID,NAME,CASRN,PUBCHEMCID,IARC1,IARC2A,IARC2B,Prop65,ROC_Known,ROC_RAHC,SVHC_EU,SVHC_UK,CDR2016,CDR2020,TSCA_ACTIVE_NCTI_0823,MMDBV1,Function_count,Functions,PUC_count,PUCs,PatentCount,LiteratureCount\n";

    #[test]
    fn functions_and_product_categories() {
        let text = format!(
            "{HEADER}\
            DTXSID3020596,Ethylbenzene,100-41-4,7500,0,0,1,1,0,0,0,0,1,1,1,1,3,Cleaning agent; Fragrance; Solvent,2,\"Cons. electronics, mech. appliances, and machinery; Toys and children's products\",71444,13414\n\
            DTXSID00872820,Hexachlorodibenzo-p-dioxin,34465-46- 8,,0,0,0,1,0,0,0,0,,,,,,,,,,\n\
            DTXSID5020281,1-Chloro-4-nitrobenzene,100-00-5,7474,0,0,1,1,0,0,0,0,0,0,1,1,2,Heat stabilizer; UV stabilizer,1,Laboratory supplies,10406,1312\n\
            DTXSID0000000,No CAS,,,0,0,0,0,0,0,0,0,,,,,,,,,,\n\
            DTXSID0020600,Ethylene oxide,75-21-8,6354,1,0,0,1,1,0,0,0,1,1,1,1,4,Biocide; Fragrance; No specific technical function; Surfactant (surface active agent),0,,1,1\n"
        );
        let got = parse(&text, &descriptor("cpdat"), "t")
            .expect("table parses")
            .contributions;
        assert_eq!(got.len(), 4);
        assert!(
            got[3].fragment.get("use_classes").is_none(),
            "a substance also reported with no function of its own gets no class"
        );
        let eb = &got[0].fragment;
        assert_eq!(
            eb["crossrefs"]["dtxsid"],
            json!({"value": "DTXSID3020596", "source": "cpdat"})
        );
        assert_eq!(
            eb["found_in"][0],
            json!({
                "category": "cons_electronics_mech_appliances_and_machinery",
                "examples": ["Cons. electronics, mech. appliances, and machinery"],
                "detail": "EPA CPDat product use category",
                "source": "cpdat",
            })
        );
        assert_eq!(eb["found_in"][1]["category"], "toys_and_childrens_products");
        assert_eq!(
            eb["use_classes"],
            json!([
                {"class": "fragrance_ingredient", "source": "cpdat", "basis": "Fragrance"},
                {"class": "solvent", "source": "cpdat", "basis": "Solvent"},
            ])
        );
        assert_eq!(got[0].name.as_deref(), Some("Ethylbenzene"));
        let dioxin = &got[1];
        assert_eq!(dioxin.cas().expect("keyed by CAS").as_str(), "34465-46-8");
        assert!(dioxin.fragment.get("found_in").is_none());
        assert!(dioxin.fragment.get("use_classes").is_none());
        assert_eq!(
            got[2].fragment["use_classes"],
            json!([{"class": "stabilizer", "source": "cpdat", "basis": "Heat stabilizer; UV stabilizer"}])
        );
    }

    #[test]
    fn a_missing_column_is_an_error() {
        let err = parse("DTXSID,NAME,CASRN\n", &descriptor("cpdat"), "t");
        assert!(matches!(err, Err(TableError::Format { .. })));
    }

    #[test]
    fn slugs() {
        assert_eq!(
            slug("Arts and crafts/office supplies"),
            "arts_and_crafts_office_supplies"
        );
        assert_eq!(slug("Pet and animal care"), "pet_and_animal_care");
        assert_eq!(slug("Unknown or Indeterminate"), "unknown_or_indeterminate");
    }

    #[test]
    fn function_table_names_known_classes() {
        for (function, class) in FUNCTION_CLASSES {
            assert!(USE_CLASSES.contains(class), "{function} -> {class}");
        }
        assert!(FUNCTION_CLASSES.windows(2).all(|w| w[0] < w[1]), "sorted");
    }
}
