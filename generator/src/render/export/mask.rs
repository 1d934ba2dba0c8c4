//! while a record's structure is under data-quality review, bulk export shows the
//! literal sentinel instead of its six structural values. Only the export calls this.

use serde_json::Value;

use crate::model::record::CompoundRecord;

pub const SENTINEL: &str = "[under-review:SCI-DAT-01]";

/// Where the six structural fields live in the stored record (InChI is also a crossref).
const STRUCTURAL: &[&str] = &[
    "/identity/smiles",
    "/identity/inchi",
    "/identity/inchi_key",
    "/identity/exact_mass",
    "/crossrefs/inchi",
    "/properties/chemical_properties/molecular_formula",
    "/properties/chemical_properties/molecular_weight",
    "/properties/chemical_properties/exact_mass",
];

/// Whether the record carries a data-quality finding under review.
pub(super) fn under_review(r: &CompoundRecord) -> bool {
    r.data_quality
        .as_ref()
        .is_some_and(|q| q.iter().any(|n| n.status == "under_review"))
}

/// The stored record as exported: structural fields masked when under review, and no
/// `data_quality` key on a clean record.
pub(super) fn full_record(r: &CompoundRecord) -> Value {
    let mut v = serde_json::to_value(r).expect("records serialize");
    if under_review(r) {
        for path in STRUCTURAL {
            let (parent, key) = path.rsplit_once('/').expect("paths have a parent");
            if let Some(obj) = v.pointer_mut(parent).and_then(Value::as_object_mut) {
                obj.insert(key[..].to_string(), Value::from(SENTINEL));
            }
        }
    } else if let Some(obj) = v.as_object_mut() {
        obj.remove("data_quality");
    }
    v
}

/// The six structural values of the index, in the index's column order, masked when under review.
pub(super) fn structural(r: &CompoundRecord) -> [(&'static str, Value); 6] {
    let masked = under_review(r);
    let value = |v: Option<Value>| {
        if masked {
            Value::from(SENTINEL)
        } else {
            v.unwrap_or(Value::Null)
        }
    };
    let id = &r.identity;
    let chem = &r.properties.chemical_properties;
    [
        ("smiles", value(id.smiles.clone().map(Value::from))),
        ("inchi", value(id.inchi.clone().map(Value::from))),
        ("inchi_key", value(id.inchi_key.clone().map(Value::from))),
        (
            "exact_mass",
            value(id.exact_mass.or(chem.exact_mass).map(Value::from)),
        ),
        (
            "molecular_weight",
            value(
                chem.molecular_weight
                    .as_ref()
                    .map(|w| serde_json::to_value(w).unwrap_or_default()),
            ),
        ),
        (
            "molecular_formula",
            value(chem.molecular_formula.clone().map(Value::from)),
        ),
    ]
}
