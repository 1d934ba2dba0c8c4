//! Real identifiers picked from the dataset for the pages' examples: a well-known compound
//! (looked up by CAS), a second one to compare with, a material and a product. Picks are
//! deterministic, so a page is the same bytes for the same data.

use crate::aggregate::{Schema, assess};
use crate::model::Dataset;
use crate::model::record::CompoundRecord;
use crate::model::vocab::WatchClass;

/// Compounds most readers know, tried in order; the first one whose tier differs between
/// contexts wins, so switching context in an example shows a different answer.
const PREFERRED_CAS: [&str; 6] = [
    "71-43-2",   // benzene
    "50-00-0",   // formaldehyde
    "80-05-7",   // bisphenol A
    "7439-92-1", // lead
    "1912-24-9", // atrazine
    "117-81-7",  // DEHP
];

#[derive(Debug, Clone)]
pub struct Samples {
    pub compound_id: String,
    pub compound_name: String,
    pub cas: String,
    /// A context where the compound's tier differs from `human_adult` (or another available one).
    pub other_context: String,
    /// A second compound for comparisons.
    pub second_id: String,
    pub material_id: Option<String>,
    pub product_id: Option<String>,
}

fn usable(r: &CompoundRecord) -> bool {
    r.watch_class == WatchClass::None
}

/// The available context whose tier differs most plainly from `human_adult`'s, if any.
fn contrasting_context(r: &CompoundRecord) -> Option<&'static str> {
    let a = assess(r);
    if a.schema != Schema::V2 {
        return None;
    }
    let base = a.get("human_adult")?.risk_level;
    a.contexts
        .iter()
        .find(|c| c.risk_level != base)
        .map(|c| c.context)
}

impl Samples {
    /// `None` only for a dataset without a single ordinary compound.
    pub fn pick(d: &Dataset) -> Option<Samples> {
        let preferred = PREFERRED_CAS
            .iter()
            .filter_map(|cas| d.by_cas(cas))
            .filter(|r| usable(r))
            .find_map(|r| contrasting_context(r).map(|c| (r, c)));
        let (compound, other) = match preferred {
            Some(p) => p,
            None => d
                .compounds
                .values()
                .filter(|r| usable(r))
                .find_map(|r| contrasting_context(r).map(|c| (r, c)))?,
        };
        let second = PREFERRED_CAS
            .iter()
            .filter_map(|cas| d.by_cas(cas))
            .chain(d.compounds.values())
            .find(|r| usable(r) && r.hq_id != compound.hq_id)?;
        Some(Samples {
            compound_id: compound.hq_id.to_string(),
            compound_name: compound.name.clone(),
            cas: compound.cas.to_string(),
            other_context: other.to_string(),
            second_id: second.hq_id.to_string(),
            material_id: d.materials.keys().next().cloned(),
            product_id: d.products.keys().next().cloned(),
        })
    }
}
