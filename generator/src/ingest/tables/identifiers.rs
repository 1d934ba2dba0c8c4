//! PubChem identifier tables as shipped in the `chemicals` package (tab-separated, no
//! header): CID, CAS, formula, MW, SMILES, InChI (without its `InChI=1S/` prefix), InChIKey,
//! IUPAC name, common name, then synonyms.

use std::path::Path;

use serde_json::json;

use super::ledger::Ledger;
use super::text::{display_name, read_utf8, reader};
use super::{Parsed, TableError};
use crate::ingest::contribution::{Contribution, Subject};
use crate::model::cas::Cas;
use crate::model::catalog::SourceDescriptor;
use crate::model::ids::CompoundKind;

/// Synonyms kept per compound: enough to search by, few enough to read.
const MAX_SYNONYMS: usize = 25;

pub fn read(path: &Path, src: &SourceDescriptor, inorganic: bool) -> Result<Parsed, TableError> {
    Ok(parse(&read_utf8(path)?, &src.id, inorganic))
}

fn parse(text: &str, source: &str, inorganic: bool) -> Parsed {
    let mut out = Vec::new();
    let mut ledger = Ledger::default();
    for row in reader(text, b'\t', false).records() {
        let Ok(row) = row else {
            let id = ledger.row("");
            ledger.skip(id, "malformed line");
            continue;
        };
        let get = |i: usize| row.get(i).map(str::trim).filter(|s| !s.is_empty());
        let id = ledger.row(get(8).or(get(7)).unwrap_or_default());
        let Some(cas) = get(1).and_then(|c| Cas::parse(c).ok()) else {
            ledger.skip(id, "no valid CAS number in the row");
            continue;
        };
        ledger.about(id, [Subject::Cas(cas.clone())]);
        let formula = get(2);
        let kind = if inorganic {
            CompoundKind::Ino
        } else {
            formula.map_or(CompoundKind::Mix, kind_of_formula)
        };
        let cid = get(0)
            .and_then(|c| c.parse::<u64>().ok())
            .filter(|c| *c > 0);
        let inchi = get(5).map(|i| format!("InChI=1S/{i}"));
        let name = get(8).or(get(7));
        let mut synonyms: Vec<String> = Vec::new();
        // A CAS number among the synonyms names a registry entry (an isomer, a deprecated
        // or a related number), not the substance: it is no name to search by.
        for s in (8..row.len())
            .filter_map(get)
            .filter(|s| Cas::parse(s).is_err())
        {
            if !synonyms.iter().any(|k| k.eq_ignore_ascii_case(s)) {
                synonyms.push(s.to_string());
            }
            if synonyms.len() == MAX_SYNONYMS {
                break;
            }
        }
        let mut fragment = json!({
            "identity": {
                "smiles": get(4),
                "inchi": inchi,
                "inchi_key": get(6),
                "iupac_name": get(7),
                "synonyms": synonyms,
                "source": source,
            },
            "crossrefs": {"pubchem_cid": cid, "inchi": inchi, "source": source},
            "properties": {"chemical_properties": {
                "molecular_formula": formula,
                "molecular_weight": get(3).and_then(|m| m.parse::<f64>().ok()),
                "source": source,
            }},
        });
        drop_nulls(&mut fragment);
        let mut c = Contribution::new(cas, fragment).kind(kind);
        if let Some(name) = name {
            c = c.named(display_name(name));
        }
        out.push(c);
    }
    Parsed {
        contributions: out,
        ledger,
    }
}

/// Removes `null` members so that absent values stay absent after merging.
pub fn drop_nulls(value: &mut serde_json::Value) {
    if let serde_json::Value::Object(map) = value {
        map.retain(|_, v| !v.is_null());
        for v in map.values_mut() {
            drop_nulls(v);
        }
    }
}

/// Organic unless the formula lacks carbon or is one of the carbon species chemists file
/// under inorganic (oxides, carbonates, cyanides, carbides: one carbon and no hydrogen or
/// halogen bonded to it, or hydrogen cyanide).
pub fn kind_of_formula(formula: &str) -> CompoundKind {
    let elements = crate::model::formula::elements(formula);
    let count = |sym: &str| -> u32 {
        elements
            .iter()
            .filter(|(s, _)| *s == sym)
            .map(|(_, n)| n)
            .sum()
    };
    let carbon = count("C");
    if carbon == 0 {
        return CompoundKind::Ino;
    }
    let hydrogen = count("H");
    let halogen = ["F", "Cl", "Br", "I"].iter().map(|h| count(h)).sum::<u32>();
    let only = |allowed: &[&str]| elements.iter().all(|(s, _)| allowed.contains(s));
    if formula == "CHN" || (carbon == 1 && hydrogen == 0 && halogen == 0) {
        return CompoundKind::Ino;
    }
    if carbon == 1 && !only(&["C", "H", "N", "O", "S", "P", "F", "Cl", "Br", "I"]) {
        // One carbon with a metal: carbonates, bicarbonates, cyanides, thiocyanates.
        return CompoundKind::Ino;
    }
    CompoundKind::Org
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROWS: &str = "702\t64-17-5\tC2H6O\t46.06844\tCCO\tC2H6O/c1-2-3/h3H,2H2,1H3\tLFQSCWFLJHTTHZ-UHFFFAOYSA-N\tethanol\tethanol\tethyl alcohol\t64-17-5\talcohol\t36536-46-6\tEthanol\n\
-1\t10022-68-1\tCdH3NO4\t193.43912\tO.O=[N+]([O-])O.[Cd]\tx\tVDBBJZWXWBERRR-UHFFFAOYSA-N\tcadmium nitrate tetrahydrate\tcadmium nitrate tetrahydrate\n\
9\tnot-a-cas\tC\t1\n";

    #[test]
    fn parses_identity_rows() {
        let got = parse(ROWS, "pubchem", false).contributions;
        assert_eq!(got.len(), 2, "the row without a valid CAS is skipped");
        let ethanol = &got[0];
        assert_eq!(ethanol.cas().unwrap().as_str(), "64-17-5");
        assert_eq!(ethanol.name.as_deref(), Some("Ethanol"));
        assert_eq!(ethanol.kind, Some(CompoundKind::Org));
        let f = &ethanol.fragment;
        assert_eq!(f["identity"]["inchi"], "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3");
        assert_eq!(
            f["identity"]["synonyms"],
            json!(["ethanol", "ethyl alcohol", "alcohol"]),
            "the row's own CAS and another CAS number (36536-46-6) are no synonyms"
        );
        assert_eq!(f["crossrefs"]["pubchem_cid"], 702);
        assert_eq!(
            f["properties"]["chemical_properties"]["molecular_weight"],
            46.06844
        );
        // CID -1 means none: absent, not -1.
        assert!(got[1].fragment["crossrefs"].get("pubchem_cid").is_none());
    }

    #[test]
    fn inorganic_table_sets_kind() {
        let got = parse(ROWS, "inorganic", true).contributions;
        assert!(got.iter().all(|c| c.kind == Some(CompoundKind::Ino)));
    }

    #[test]
    fn formula_kinds() {
        for (f, k) in [
            ("C2H6O", CompoundKind::Org),
            ("CCl4", CompoundKind::Org),
            ("CH2O", CompoundKind::Org),
            ("C8HF15O2", CompoundKind::Org),
            ("C7H5NaO2", CompoundKind::Org),
            ("CO2", CompoundKind::Ino),
            ("CHNaO3", CompoundKind::Ino),
            ("CNNa", CompoundKind::Ino),
            ("CHN", CompoundKind::Ino),
            ("CaCO3", CompoundKind::Ino),
            ("ClNa", CompoundKind::Ino),
            ("H2O", CompoundKind::Ino),
        ] {
            assert_eq!(kind_of_formula(f), k, "{f}");
        }
    }
}
