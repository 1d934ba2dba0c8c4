//! Whole selections for the bulk export (`render::export`): the same query parsing and the
//! same filters as the lists, so a parameter means (and fails) alike in both, but every match
//! rather than one page.

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::compounds::{compound_filter, matching};
use super::params::{contains_text, search_param};
use super::products::ProductFilter;
use super::risk_index::RiskIndex;
use crate::aggregate::synthesis::ProductRisk;
use crate::api::Op;
use crate::model::Dataset;
use crate::model::material::Product;
use crate::model::record::CompoundRecord;
use crate::model::vocab::RiskLevel;
use crate::render::error::ApiError;

/// The export's parameters as a query the lists' parsers read.
fn query(pairs: &[(&str, Option<&str>)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .filter_map(|(name, value)| value.map(|v| (name.to_string(), v.to_string())))
        .collect()
}

/// Ids of the served compounds that `search`, `risk` and `context` keep, in id order.
pub(crate) fn compound_ids(
    dataset: &Dataset,
    index: &RiskIndex,
    search: Option<&str>,
    risk: Option<&str>,
    context: Option<&str>,
) -> Result<Vec<String>, ApiError> {
    let q = query(&[("search", search), ("risk", risk), ("context", context)]);
    let filter = compound_filter(dataset, Op::Export, &q)?;
    Ok(matching(dataset, index, &filter)
        .into_iter()
        .map(|(r, _)| r.hq_id.to_string())
        .collect())
}

/// Ids of the products that `search` and `risk` (a product risk level) keep, in id order.
pub(crate) fn product_ids(
    dataset: &Dataset,
    index: &RiskIndex,
    search: Option<&str>,
    risk: Option<&str>,
) -> Result<Vec<String>, ApiError> {
    let q = query(&[("search", search), ("risk", risk)]);
    let filter = ProductFilter::parse(dataset, Op::Export, &q)?;
    Ok(dataset
        .products
        .values()
        .filter(|p| filter.matches(p))
        .filter(|p| {
            filter
                .risk
                .is_none_or(|r| index.product_risk(dataset, p) == Some(r))
        })
        .map(|p| p.id.clone())
        .collect())
}

/// Ids of the materials whose name or synonyms hold `search`, in id order.
pub(crate) fn material_ids(
    dataset: &Dataset,
    search: Option<&str>,
) -> Result<Vec<String>, ApiError> {
    let search = search_param(Op::Export, &query(&[("search", search)]))?;
    Ok(dataset
        .materials
        .values()
        .filter(|m| {
            search
                .as_ref()
                .is_none_or(|s| contains_text(std::iter::once(&m.name).chain(&m.synonyms), s))
        })
        .map(|m| m.id.clone())
        .collect())
}

/// A compound's tier in every available context, as the compound list reports it.
pub(crate) fn tiers<'i>(
    index: &'i RiskIndex,
    record: &CompoundRecord,
) -> Cow<'i, BTreeMap<&'static str, RiskLevel>> {
    match index.entry(record) {
        Cow::Borrowed(e) => Cow::Borrowed(&e.tiers),
        Cow::Owned(e) => Cow::Owned(e.tiers),
    }
}

/// A product's synthesised risk, as the product list reports it.
pub(crate) fn product_risk(
    dataset: &Dataset,
    index: &RiskIndex,
    product: &Product,
) -> Option<ProductRisk> {
    index.product_risk(dataset, product)
}
