//! Identifier rows that do not describe the substance their CAS names
//! (`data/curated/structure-mismatch.tsv`): a PubChem record of the parent acid filed under a
//! platinum complex's CAS, a hydrate with the wrong number of waters. The ingest leaves such a
//! row out, so the record's structure is absent (a `_data_gaps` entry) rather than another
//! substance's. A line that names fields (`fields`, the optional fifth column) sets aside only
//! those of the row, so a row right about the formula but wrong about the SMILES keeps its
//! formula.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::Context;

use crate::ingest::contribution::Contribution;
use crate::model::cas::Cas;

/// Where the list lives, relative to the data directory.
pub const FILE: &str = "curated/structure-mismatch.tsv";

/// The structure fields a line may set aside, each with where the identifier tables write it.
const FIELDS: [(&str, &[&str]); 6] = [
    (
        "molecular_formula",
        &["/properties/chemical_properties/molecular_formula"],
    ),
    (
        "molecular_weight",
        &["/properties/chemical_properties/molecular_weight"],
    ),
    ("smiles", &["/identity/smiles"]),
    ("inchi", &["/identity/inchi", "/crossrefs/inchi"]),
    ("inchi_key", &["/identity/inchi_key"]),
    ("iupac_name", &["/identity/iupac_name"]),
];

/// What a line sets aside of the row of one source about one CAS.
#[derive(Debug, PartialEq)]
enum SetAside {
    /// The whole row: it describes another substance.
    Row,
    /// These fields (names of `FIELDS`); the rest of the row describes the CAS.
    Fields(BTreeSet<&'static str>),
}

/// (CAS, source id) of the identifier rows left out, whole or in part.
#[derive(Debug, Default)]
pub struct Mismatches(BTreeMap<(Cas, String), SetAside>);

impl Mismatches {
    /// Reads the list; a data directory without it (a test corpus) leaves nothing out.
    pub fn read(data_dir: &Path) -> anyhow::Result<Mismatches> {
        let path = data_dir.join(FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Mismatches::default()),
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        Mismatches::parse(&text).with_context(|| format!("reading {}", path.display()))
    }

    fn parse(text: &str) -> anyhow::Result<Mismatches> {
        let mut out = BTreeMap::new();
        for (n, line) in text.lines().enumerate().skip(1) {
            if line.trim().is_empty() {
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            let (cas, source, describes, reason, fields) = match cols[..] {
                [cas, source, describes, reason] => (cas, source, describes, reason, ""),
                [cas, source, describes, reason, fields] => {
                    (cas, source, describes, reason, fields)
                }
                _ => anyhow::bail!(
                    "line {}: expected 4 or 5 tab-separated columns (cas, source, describes, reason[, fields])",
                    n + 1
                ),
            };
            if describes.trim().is_empty() || reason.trim().is_empty() {
                anyhow::bail!(
                    "line {}: say what the row describes and why it is not the CAS",
                    n + 1
                );
            }
            let cas = Cas::parse(cas).with_context(|| format!("line {}", n + 1))?;
            let set_aside = set_aside(fields).with_context(|| format!("line {}", n + 1))?;
            if out.insert((cas, source.to_string()), set_aside).is_some() {
                anyhow::bail!("line {}: the CAS and source have a line already", n + 1);
            }
        }
        Ok(Mismatches(out))
    }

    /// The row of `source` about `cas` as the ingest keeps it: none when it describes another
    /// substance, without the fields a line names, or as read.
    pub fn keep(&self, cas: &Cas, source: &str, mut c: Contribution) -> Option<Contribution> {
        match self.0.get(&(cas.clone(), source.to_string())) {
            None => Some(c),
            Some(SetAside::Row) => None,
            Some(SetAside::Fields(fields)) => {
                for (_, pointers) in FIELDS.iter().filter(|(f, _)| fields.contains(f)) {
                    for pointer in *pointers {
                        let (parent, key) = pointer.rsplit_once('/').unwrap_or_default();
                        if let Some(map) = c
                            .fragment
                            .pointer_mut(parent)
                            .and_then(|v| v.as_object_mut())
                        {
                            map.remove(key);
                        }
                    }
                }
                // The kind the table read off a formula set aside is not the CAS's either.
                if fields.contains("molecular_formula") {
                    c.kind = None;
                }
                Some(c)
            }
        }
    }
}

/// The `fields` column: empty for the whole row, else comma-separated names of `FIELDS`.
fn set_aside(fields: &str) -> anyhow::Result<SetAside> {
    if fields.trim().is_empty() {
        return Ok(SetAside::Row);
    }
    fields
        .split(',')
        .map(|f| {
            let f = f.trim();
            FIELDS
                .iter()
                .find(|(name, _)| *name == f)
                .map(|(name, _)| *name)
                .with_context(|| {
                    let names: Vec<&str> = FIELDS.iter().map(|(n, _)| *n).collect();
                    format!("{f:?} is not a structure field ({})", names.join(", "))
                })
        })
        .collect::<anyhow::Result<_>>()
        .map(SetAside::Fields)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const HEAD: &str = "cas\tsource\tdescribes\treason\tfields\n";

    fn row(cas: &Cas) -> Contribution {
        Contribution::new(
            cas.clone(),
            json!({
                "identity": {"smiles": "CC", "inchi": "InChI=1S/x", "iupac_name": "x", "source": "p"},
                "crossrefs": {"pubchem_cid": 1, "inchi": "InChI=1S/x", "source": "p"},
                "properties": {"chemical_properties": {
                    "molecular_formula": "C2H6", "molecular_weight": 30.07, "source": "p"
                }},
            }),
        )
        .kind(crate::model::ids::CompoundKind::Org)
    }

    #[test]
    fn rows_are_left_out_by_cas_and_source() {
        let m = Mismatches::parse(&format!(
            "{HEAD}41575-94-4\tpubchem-large\tthe ligand acid\tno ammines\n"
        ))
        .unwrap();
        let carboplatin = Cas::parse("41575-94-4").unwrap();
        assert!(
            m.keep(&carboplatin, "pubchem-large", row(&carboplatin))
                .is_none()
        );
        let other = m.keep(&carboplatin, "pubchem-small", row(&carboplatin));
        assert_eq!(other.map(|c| c.fragment), Some(row(&carboplatin).fragment));
    }

    #[test]
    fn a_line_with_fields_sets_aside_those_fields_alone() {
        let m = Mismatches::parse(&format!(
            "{HEAD}41575-94-4\tp\tone stereoisomer\tthe CAS is the racemate\tsmiles, inchi\n\
             64-17-5\tp\ta wrong formula\tthe name says otherwise\tmolecular_formula\n"
        ))
        .unwrap();
        let cas = Cas::parse("41575-94-4").unwrap();
        let kept = m.keep(&cas, "p", row(&cas)).expect("the row stays");
        assert_eq!(
            kept.fragment,
            json!({
                "identity": {"iupac_name": "x", "source": "p"},
                "crossrefs": {"pubchem_cid": 1, "source": "p"},
                "properties": {"chemical_properties": {
                    "molecular_formula": "C2H6", "molecular_weight": 30.07, "source": "p"
                }},
            })
        );
        assert!(
            kept.kind.is_some(),
            "the formula stays, and the kind it gives"
        );
        let ethanol = Cas::parse("64-17-5").unwrap();
        let kept = m.keep(&ethanol, "p", row(&ethanol)).expect("the row stays");
        let chem = &kept.fragment["properties"]["chemical_properties"];
        assert!(chem.get("molecular_formula").is_none());
        assert_eq!(chem["molecular_weight"], 30.07);
        assert_eq!(kept.fragment["identity"]["smiles"], "CC");
        assert!(kept.kind.is_none(), "no kind from a formula set aside");
    }

    #[test]
    fn a_line_without_its_reason_is_refused() {
        let err = Mismatches::parse("h\n41575-94-4\tp\tthe acid\t\n").unwrap_err();
        assert!(
            format!("{err:#}").contains("say what the row describes"),
            "{err:#}"
        );
    }

    #[test]
    fn a_field_that_is_no_structure_field_is_refused() {
        let err =
            Mismatches::parse(&format!("{HEAD}41575-94-4\tp\tx\ty\tmelting_point\n")).unwrap_err();
        assert!(
            format!("{err:#}").contains("\"melting_point\" is not a structure field"),
            "{err:#}"
        );
        let err = Mismatches::parse(&format!("{HEAD}41575-94-4\tp\tx\ty\n41575-94-4\tp\tx\ty\n"))
            .unwrap_err();
        assert!(format!("{err:#}").contains("a line already"), "{err:#}");
    }
}
