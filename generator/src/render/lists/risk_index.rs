//! `RiskIndex`: every compound's assessment, tiers, hazards and search terms and every
//! product's synthesised risk, computed once per dataset and read by every list, batch and
//! compare, and each compound's written parts of a comparison, kept from its first.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use rayon::prelude::*;

use crate::aggregate::signals::{self, Hazard};
use crate::aggregate::synthesis::{self, ProductRisk};
use crate::aggregate::{self, Assessment};
use crate::model::Dataset;
use crate::model::ids::CompoundId;
use crate::model::material::Product;
use crate::model::record::CompoundRecord;
use crate::model::vocab::RiskLevel;
use crate::render::compare::Profile;

/// What the index knows of one compound.
#[derive(Debug, Clone)]
pub(super) struct Entry {
    /// Kept whole for the responses that show more than tiers (batch, compare).
    pub(super) assessment: Assessment,
    pub(super) tiers: BTreeMap<&'static str, RiskLevel>,
    /// Hazards of at least suspected strength (an evaluated "not classifiable" is none).
    pub(super) hazards: Vec<Hazard>,
    /// Lowercased name, CAS and synonyms, for `search`.
    pub(super) terms: Vec<String>,
    /// Its parts of a comparison, written at its first comparison.
    compare: OnceLock<Profile>,
}

impl Entry {
    fn of(record: &CompoundRecord) -> Entry {
        let assessment = aggregate::assess(record);
        let tiers = assessment
            .contexts
            .iter()
            .map(|c| (c.context, c.risk_level))
            .collect();
        let mut hazards: Vec<Hazard> = signals::signals(record)
            .into_iter()
            .filter(|s| s.strength >= 1)
            .map(|s| s.hazard)
            .collect();
        hazards.sort_unstable();
        hazards.dedup();
        let terms = [record.name.as_str(), record.cas.as_str()]
            .into_iter()
            .chain(record.identity.synonyms.iter().map(String::as_str))
            .map(|t| t.to_lowercase())
            .collect();
        Entry {
            assessment,
            tiers,
            hazards,
            terms,
            compare: OnceLock::new(),
        }
    }
}

/// Per compound its assessment and its tier in every available context (with its hazards and
/// search terms), and per product its synthesised risk: built once from a dataset, read by
/// every list, batch and compare. The default (empty) index computes each on demand.
#[derive(Debug, Default)]
pub struct RiskIndex {
    pub(super) compounds: HashMap<CompoundId, Entry>,
    pub(super) products: HashMap<String, Option<ProductRisk>>,
}

impl RiskIndex {
    pub fn build(dataset: &Dataset) -> RiskIndex {
        let compounds = dataset
            .compounds
            .par_iter()
            .map(|(id, r)| (*id, Entry::of(r)))
            .collect();
        let products = dataset
            .products
            .par_iter()
            .map(|(id, p)| (id.clone(), synthesis::synthesize(dataset, p).0.risk_level))
            .collect();
        RiskIndex {
            compounds,
            products,
        }
    }

    /// The compound's entry; one the index lacks (an index of another dataset) is computed,
    /// so a stale index is slow rather than wrong.
    pub(super) fn entry(&self, record: &CompoundRecord) -> Cow<'_, Entry> {
        match self.compounds.get(&record.hq_id) {
            Some(e) => Cow::Borrowed(e),
            None => Cow::Owned(Entry::of(record)),
        }
    }

    /// The compound's assessment (`aggregate::assess`), made once per dataset rather than
    /// per request.
    pub fn assessment(&self, record: &CompoundRecord) -> Cow<'_, Assessment> {
        match self.compounds.get(&record.hq_id) {
            Some(e) => Cow::Borrowed(&e.assessment),
            None => Cow::Owned(aggregate::assess(record)),
        }
    }

    /// The compound's parts of a comparison (`compare::Profile`), made at its first
    /// comparison and kept with the index; `assessment` is what `assessment` gave for it.
    pub(crate) fn compare_profile<'a>(
        &'a self,
        record: &CompoundRecord,
        assessment: &Assessment,
    ) -> Cow<'a, Profile> {
        match self.compounds.get(&record.hq_id) {
            Some(e) => Cow::Borrowed(
                e.compare
                    .get_or_init(|| Profile::of(record, record, &e.assessment)),
            ),
            None => Cow::Owned(Profile::of(record, record, assessment)),
        }
    }

    /// The compound's tier in every available context.
    pub fn tiers(&self, record: &CompoundRecord) -> BTreeMap<&'static str, RiskLevel> {
        self.entry(record).tiers.clone()
    }

    pub(super) fn product_risk(&self, dataset: &Dataset, product: &Product) -> Option<ProductRisk> {
        match self.products.get(&product.id) {
            Some(r) => *r,
            None => synthesis::synthesize(dataset, product).0.risk_level,
        }
    }
}
