//! The compared compounds and what both modes share: maps in request order, tier cells and
//! ranks, the compounds' identities, context labels and the shared/unique split of sets.

use std::borrow::Cow;

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::value::RawValue;

use super::profile::Profile;
use crate::aggregate::{Assessment, ContextResult};
use crate::model::Dataset;
use crate::model::ids::CompoundId;
use crate::model::record::CompoundRecord;
use crate::model::vocab::RiskLevel;

/// A map that serializes in the order its entries were made (the request's order of
/// compounds and contexts) rather than sorted.
pub(super) struct InOrder<K, V>(pub(super) Vec<(K, V)>);

/// An object whose values are `V` (an object's keys have no order in JSON Schema).
impl<K, V: schemars::JsonSchema> schemars::JsonSchema for InOrder<K, V> {
    fn schema_name() -> Cow<'static, str> {
        format!("InOrder_{}", V::schema_name()).into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "object",
            "additionalProperties": generator.subschema_for::<V>(),
        })
    }
}

impl<K: Serialize, V: Serialize> Serialize for InOrder<K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// One compared compound with its assessment and its written parts: `record` is the stored
/// record, or the record as it stood on the comparison's `as_of` day (`model::as_of`); its
/// identity is the stored one.
pub(super) struct Compared<'d> {
    pub(super) stored: &'d CompoundRecord,
    pub(super) record: Cow<'d, CompoundRecord>,
    pub(super) assessment: Cow<'d, Assessment>,
    pub(super) profile: Cow<'d, Profile>,
}

impl<'d> Compared<'d> {
    pub(super) fn id(&self) -> &'d CompoundId {
        &self.stored.hq_id
    }

    pub(super) fn name(&self) -> &'d str {
        &self.stored.name
    }

    pub(super) fn result(&self, context: &str) -> Option<&ContextResult> {
        self.assessment.get(context)
    }

    /// A value per compound, keyed by id in request order.
    pub(super) fn each<'a, V>(
        all: &'a [Compared<'d>],
        f: impl Fn(&'a Compared<'d>) -> V,
    ) -> InOrder<&'d CompoundId, V> {
        InOrder(all.iter().map(|c| (c.id(), f(c))).collect())
    }
}

/// Tier rank: low 1 to critical 5.
pub(super) fn rank(level: RiskLevel) -> i8 {
    match level {
        RiskLevel::Low => 1,
        RiskLevel::Moderate => 2,
        RiskLevel::High => 3,
        RiskLevel::VeryHigh => 4,
        RiskLevel::Critical => 5,
    }
}

#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct Ident<'a> {
    id: &'a CompoundId,
    hq_id: &'a CompoundId,
    name: &'a str,
    cas: &'a str,
}

impl<'a> Ident<'a> {
    pub(super) fn of(stored: &'a CompoundRecord) -> Self {
        Ident {
            id: &stored.hq_id,
            hq_id: &stored.hq_id,
            name: &stored.name,
            cas: stored.cas.as_str(),
        }
    }
}

/// The compounds' identities, in request order.
pub(super) fn idents<'a>(all: &'a [Compared<'_>]) -> Vec<&'a RawValue> {
    all.iter().map(|c| &*c.profile.ident).collect()
}

pub(super) fn label<'d>(dataset: &'d Dataset, context: &'d str) -> &'d str {
    dataset
        .contexts
        .get(context)
        .map_or(context, |c| c.label.as_str())
}

#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct TierCell<'a> {
    risk_level: RiskLevel,
    tier_rank: i8,
    confidence: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    summary: Option<&'a str>,
}

pub(super) fn cell(r: &ContextResult, with_summary: bool) -> TierCell<'_> {
    TierCell {
        risk_level: r.risk_level,
        tier_rank: rank(r.risk_level),
        confidence: r.confidence,
        summary: with_summary.then_some(r.summary.as_str()),
    }
}

/// What every set (distinct and ascending) holds, and what only one of them does, each
/// ascending.
pub(super) fn split<'a>(sets: &[&'a [String]]) -> (Vec<&'a str>, Vec<Vec<&'a str>>) {
    let holds = |set: &[String], x: &str| set.binary_search_by(|s| s.as_str().cmp(x)).is_ok();
    let shared = sets
        .first()
        .map(|first| {
            first
                .iter()
                .map(String::as_str)
                .filter(|x| sets.iter().all(|s| holds(s, x)))
                .collect()
        })
        .unwrap_or_default();
    let unique = sets
        .iter()
        .enumerate()
        .map(|(i, set)| {
            set.iter()
                .map(String::as_str)
                .filter(|x| sets.iter().enumerate().all(|(j, s)| j == i || !holds(s, x)))
                .collect()
        })
        .collect();
    (shared, unique)
}
