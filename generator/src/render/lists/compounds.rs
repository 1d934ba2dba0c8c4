//! `GET /api/compounds`: the served compounds, those a filter keeps, and their list items.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::Serialize;

use super::compound_filter::{CategoryQuery, CompoundFilter, HazardQuery};
use super::params::{cas_param, context_param, risk_param, search_param, vocab_param};
use super::risk_index::{Entry, RiskIndex};
use crate::api::{Op, Query};
use crate::model::Dataset;
use crate::model::ids::CompoundId;
use crate::model::record::CompoundRecord;
use crate::model::vocab::{self, RiskLevel, WatchClass};
use crate::render::error::ApiError;
use crate::render::paging::{Pagination, Paging};
use crate::render::{Cache, Rendered};

/// The compounds whose records are served, in id order: critical-threat records are refused
/// everywhere, so no list, count or search shows them.
pub(crate) fn served(dataset: &Dataset) -> impl Iterator<Item = &CompoundRecord> {
    dataset
        .compounds
        .values()
        .filter(|r| r.watch_class != WatchClass::CriticalThreat)
}

/// The served compounds the filter keeps, in id order.
pub(super) fn matching<'d, 'i>(
    dataset: &'d Dataset,
    index: &'i RiskIndex,
    filter: &CompoundFilter,
) -> Vec<(&'d CompoundRecord, Cow<'i, Entry>)> {
    served(dataset)
        .map(|r| (r, index.entry(r)))
        .filter(|(r, e)| filter.matches(r, e))
        .collect()
}

#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct CompoundItem<'a> {
    hq_id: &'a CompoundId,
    name: &'a str,
    cas: &'a str,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    kind: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    category: Option<&'a str>,
    /// The tier in every available context.
    risk_levels: &'a BTreeMap<&'static str, RiskLevel>,
}

pub(super) fn compound_items<'a>(
    page: &'a [(&'a CompoundRecord, Cow<'_, Entry>)],
) -> Vec<CompoundItem<'a>> {
    page.iter()
        .map(|(r, e)| CompoundItem {
            hq_id: &r.hq_id,
            name: &r.name,
            cas: r.cas.as_str(),
            kind: r.kind.as_deref(),
            category: r.category.as_deref(),
            risk_levels: &e.tiers,
        })
        .collect()
}

/// What `GET /api/compounds` is asked for, parsed once: the page and the filter.
#[derive(Debug)]
pub struct CompoundsQuery {
    pub paging: Paging,
    pub(super) filter: CompoundFilter,
}

impl CompoundsQuery {
    pub fn parse(dataset: &Dataset, q: &dyn Query) -> Result<CompoundsQuery, ApiError> {
        Ok(CompoundsQuery {
            paging: Paging::parse(Op::Compounds, q)?,
            filter: compound_filter(dataset, Op::Compounds, q)?,
        })
    }
}

/// The compound filter of `op`'s query (`search`, `cas`, `risk` in `context`, `hazard`,
/// `type_filter`, `category_filter`); the bulk export reads the same.
pub(super) fn compound_filter(
    dataset: &Dataset,
    op: Op,
    q: &dyn Query,
) -> Result<CompoundFilter, ApiError> {
    // A malformed context is a 400 even without `risk`: the caller asked for something.
    let context = context_param(dataset, q.get("context"))?;
    Ok(CompoundFilter {
        search: search_param(op, q)?,
        cas: q.get("cas").map(cas_param).transpose()?,
        risk: q
            .get("risk")
            .map(|r| risk_param(r).map(|r| (r, context)))
            .transpose()?,
        hazard: q.get("hazard").map(HazardQuery::parse).transpose()?,
        kind: q
            .get("type_filter")
            .map(|t| vocab_param("type_filter", t, vocab::USE_CLASSES))
            .transpose()?,
        category: q
            .get("category_filter")
            .map(CategoryQuery::parse)
            .transpose()?,
        ..CompoundFilter::default()
    })
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct CompoundsBody<'a> {
    compounds: Vec<CompoundItem<'a>>,
    pagination: Pagination,
}

/// A page of compounds; `GET /api/filter` adds the filters as applied (untagged: each form
/// has its own fields).
#[derive(Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub(crate) enum CompoundList<'a> {
    /// `GET /api/filter`.
    Filtered(super::filter::FilterBody<'a>),
    /// `GET /api/compounds`.
    Listed(CompoundsBody<'a>),
}

/// `GET /api/compounds` (keyed): one page of the served compounds the filters keep.
pub fn compounds(dataset: &Dataset, index: &RiskIndex, q: &CompoundsQuery) -> Rendered {
    let found = matching(dataset, index, &q.filter);
    let (page, pagination) = q.paging.slice(&found);
    let body = CompoundsBody {
        compounds: compound_items(page),
        pagination,
    };
    Rendered::json(200, &CompoundList::Listed(body), Cache::Private)
}
