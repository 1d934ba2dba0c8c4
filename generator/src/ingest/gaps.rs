//! `_data_gaps`: the fields a compound of its kind should have that no source supplied.
//! Nothing is invented to fill them; the list says which tables were consulted.

use crate::model::catalog::Catalog;
use crate::model::ids::CompoundKind;
use crate::model::record::{CompoundRecord, DataGap};

struct Expected {
    field: &'static str,
    /// Catalogue `table` kinds that carry the field.
    tables: &'static [&'static str],
    kinds: &'static [CompoundKind],
    present: fn(&CompoundRecord) -> bool,
}

const STRUCTURED: &[CompoundKind] = &[CompoundKind::Org, CompoundKind::Ino];
const ALL: &[CompoundKind] = &[CompoundKind::Org, CompoundKind::Ino, CompoundKind::Mix];
const IDENTIFIERS: &[&str] = &["identifiers", "identifiers_inorganic"];

const EXPECTED: &[Expected] = &[
    Expected {
        field: "crossrefs.pubchem_cid",
        tables: IDENTIFIERS,
        kinds: ALL,
        present: |r| r.crossrefs.pubchem_cid.is_some(),
    },
    Expected {
        field: "identity.smiles",
        tables: IDENTIFIERS,
        kinds: STRUCTURED,
        present: |r| r.identity.smiles.is_some(),
    },
    Expected {
        field: "identity.inchi",
        tables: IDENTIFIERS,
        kinds: STRUCTURED,
        present: |r| r.identity.inchi.is_some(),
    },
    Expected {
        field: "identity.inchi_key",
        tables: IDENTIFIERS,
        kinds: STRUCTURED,
        present: |r| r.identity.inchi_key.is_some(),
    },
    Expected {
        field: "identity.iupac_name",
        tables: IDENTIFIERS,
        kinds: &[CompoundKind::Org],
        present: |r| r.identity.iupac_name.is_some(),
    },
    Expected {
        field: "identity.exact_mass",
        tables: &["isotopes"],
        kinds: STRUCTURED,
        present: |r| r.identity.exact_mass.is_some(),
    },
    Expected {
        field: "properties.chemical_properties.molecular_formula",
        tables: &["identifiers", "identifiers_inorganic", "efsa_openfoodtox"],
        kinds: STRUCTURED,
        present: |r| r.properties.chemical_properties.molecular_formula.is_some(),
    },
    Expected {
        field: "properties.chemical_properties.molecular_weight",
        tables: IDENTIFIERS,
        kinds: ALL,
        present: |r| r.properties.chemical_properties.molecular_weight.is_some(),
    },
    Expected {
        field: "properties.physical_properties.melting_point",
        tables: &["physical_constants"],
        kinds: STRUCTURED,
        present: |r| r.properties.physical_properties.melting_point.is_some(),
    },
    Expected {
        field: "properties.physical_properties.boiling_point",
        tables: &["physical_constants"],
        kinds: STRUCTURED,
        present: |r| r.properties.physical_properties.boiling_point.is_some(),
    },
    Expected {
        field: "properties.physical_properties.density",
        tables: &["physical_constants"],
        kinds: STRUCTURED,
        present: |r| r.properties.physical_properties.density.is_some(),
    },
    Expected {
        field: "properties.environmental_fate.log_kow",
        tables: &["logp"],
        kinds: &[CompoundKind::Org],
        present: |r| r.properties.environmental_fate.log_kow.is_some(),
    },
];

pub fn data_gaps(record: &CompoundRecord, catalog: &Catalog) -> Vec<DataGap> {
    let kind = record.hq_id.kind;
    EXPECTED
        .iter()
        .filter(|e| e.kinds.contains(&kind) && !(e.present)(record))
        .map(|e| {
            let consulted: Vec<&str> = catalog
                .sources
                .iter()
                .filter(|s| e.tables.contains(&s.table.as_str()))
                .map(|s| s.id.as_str())
                .collect();
            DataGap {
                field: e.field.to_string(),
                reason: if consulted.is_empty() {
                    "no ingested table carries this value; curate it with a citation".into()
                } else {
                    format!("not found in {}", consulted.join(", "))
                },
            }
        })
        .collect()
}
