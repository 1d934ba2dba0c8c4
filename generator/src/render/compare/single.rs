//! One-context comparison: the compounds' tiers and their differences, with the regulatory,
//! dose-response, hazard, fate, exposure and summary sections side by side.

use serde::Serialize;
use serde_json::value::RawValue;

use super::compared::{Compared, Ident, InOrder, TierCell, idents, rank, split};
use super::dose::{DoseComparison, dose_response};
use super::fate::Fate;
use super::hazards::{HazardComparison, hazards};
use super::regulatory::{RegulatoryComparison, regulatory};
use super::summary::{Summary, summarise};
use crate::model::Dataset;
use crate::model::ids::CompoundId;

/// Tier-rank difference of a pair: positive when the first is the higher tier; null when
/// either has no tier in the context.
#[derive(Serialize, schemars::JsonSchema)]
struct Delta<'a> {
    first: &'a CompoundId,
    second: &'a CompoundId,
    tier_difference: Option<i8>,
}

#[derive(Serialize, schemars::JsonSchema)]
struct RiskProfiles<'a> {
    /// Per compound: its tier in the context, or null when the context has no evidence.
    #[schemars(with = "InOrder<&'a str, Option<TierCell<'a>>>")]
    profiles: InOrder<&'a CompoundId, Option<&'a RawValue>>,
    deltas: Vec<Delta<'a>>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct ExposureSources<'a> {
    #[schemars(with = "InOrder<&'a str, Vec<&'a str>>")]
    categories: InOrder<&'a CompoundId, &'a [String]>,
    pub(super) shared: Vec<&'a str>,
    pub(super) unique: InOrder<&'a CompoundId, Vec<&'a str>>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct InContext<'a> {
    #[schemars(with = "Vec<Ident<'a>>")]
    compounds: Vec<&'a RawValue>,
    context: &'a str,
    risk_profiles: RiskProfiles<'a>,
    regulatory: RegulatoryComparison<'a>,
    dose_response: DoseComparison<'a>,
    hazard_profiles: HazardComparison<'a>,
    #[schemars(with = "InOrder<&'a str, Fate<'a>>")]
    environmental_fate: InOrder<&'a CompoundId, &'a RawValue>,
    exposure_sources: ExposureSources<'a>,
    summary: Summary,
}

/// Every unordered pair, in request order.
fn pairs<T>(items: &[T]) -> impl Iterator<Item = (&T, &T)> {
    items
        .iter()
        .enumerate()
        .flat_map(move |(i, a)| items[i + 1..].iter().map(move |b| (a, b)))
}

pub(super) fn in_context<'a>(
    dataset: &'a Dataset,
    all: &'a [Compared<'a>],
    context: &'a str,
) -> InContext<'a> {
    let risk_profiles = RiskProfiles {
        profiles: Compared::each(all, |c| c.cell(context)),
        deltas: pairs(all)
            .map(|(a, b)| Delta {
                first: a.id(),
                second: b.id(),
                tier_difference: a
                    .result(context)
                    .zip(b.result(context))
                    .map(|(x, y)| rank(x.risk_level) - rank(y.risk_level)),
            })
            .collect(),
    };
    let regulatory = regulatory(all);
    let dose_response = dose_response(all);
    let hazard_profiles = hazards(all, context);
    let environmental_fate = Compared::each(all, |c| &*c.profile.fate);
    let found: Vec<&[String]> = all.iter().map(|c| c.profile.found_in.as_slice()).collect();
    let (shared, unique) = split(&found);
    let exposure_sources = ExposureSources {
        categories: Compared::each(all, |c| c.profile.found_in.as_slice()),
        shared,
        unique: InOrder(all.iter().map(Compared::id).zip(unique).collect()),
    };
    let summary = summarise(
        dataset,
        all,
        context,
        &regulatory,
        &hazard_profiles,
        &exposure_sources,
        &dose_response,
    );
    InContext {
        compounds: idents(all),
        context,
        risk_profiles,
        regulatory,
        dose_response,
        hazard_profiles,
        environmental_fate,
        exposure_sources,
        summary,
    }
}
