//! `GET /api/filter`: its parameters, the filters as applied, and the response.

use std::collections::BTreeSet;
use std::ops::RangeInclusive;

use serde::Serialize;

use super::compound_filter::{ClassificationQuery, CompoundFilter, HazardQuery};
use super::compounds::{CompoundItem, CompoundList, compound_items, matching, served};
use super::params::{context_param, quoted, risk_param, vocab_param};
use super::risk_index::RiskIndex;
use crate::api::{Op, Query};
use crate::model::Dataset;
use crate::model::vocab::{self, RiskLevel};
use crate::render::declared;
use crate::render::error::ApiError;
use crate::render::paging::{Pagination, Paging};
use crate::render::regulatory;
use crate::render::{Cache, Rendered};

/// What `GET /api/filter` is asked for, parsed once: the page and the filters.
#[derive(Debug)]
pub struct FilterQuery {
    pub paging: Paging,
    filter: CompoundFilter,
}

/// A classification year, within the catalogue's bounds.
fn year_param(name: &str, q: &dyn Query) -> Result<Option<i32>, ApiError> {
    Ok(declared::int(Op::Filter, name, q)?.and_then(|y| i32::try_from(y).ok()))
}

fn cas_prefix_param(raw: &str) -> Result<String, ApiError> {
    let ok = (1..=12).contains(&raw.len()) && raw.bytes().all(|b| b.is_ascii_digit() || b == b'-');
    if ok {
        Ok(raw.to_string())
    } else {
        Err(ApiError::bad_request(format!(
            "cas_prefix must be the start of a CAS number (digits and hyphens, e.g. 80-05), not {}",
            quoted(raw)
        )))
    }
}

/// `exposure`: a found-in category of the corpus, case-insensitive.
fn exposure_param(dataset: &Dataset, raw: &str) -> Result<String, ApiError> {
    let known: BTreeSet<&str> = served(dataset)
        .flat_map(|r| r.found_in.iter().map(|f| f.category.as_str()))
        .collect();
    known
        .iter()
        .find(|k| k.eq_ignore_ascii_case(raw))
        .map(|k| k.to_string())
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "unknown exposure {}; valid values (found-in categories): {}",
                quoted(raw),
                known.into_iter().collect::<Vec<_>>().join(", ")
            ))
        })
}

fn agency_param(dataset: &Dataset, raw: &str) -> Result<String, ApiError> {
    regulatory::find_agency(dataset, raw)
        .map(|a| a.name.clone())
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "unknown agency {}; valid values: {}",
                quoted(raw),
                regulatory::agency_names(dataset)
            ))
        })
}

/// The classification years of `year`, or of `year_min` and `year_max`.
fn years(q: &dyn Query) -> Result<Option<RangeInclusive<i32>>, ApiError> {
    let year = year_param("year", q)?;
    let min = year_param("year_min", q)?;
    let max = year_param("year_max", q)?;
    match (year, min, max) {
        (Some(_), Some(_), _) | (Some(_), _, Some(_)) => Err(ApiError::bad_request(
            "year cannot be combined with year_min or year_max",
        )),
        (Some(y), None, None) => Ok(Some(y..=y)),
        (None, Some(lo), Some(hi)) if lo > hi => Err(ApiError::bad_request(format!(
            "year_min {lo} is after year_max {hi}"
        ))),
        (None, None, None) => Ok(None),
        (None, lo, hi) => Ok(Some(lo.unwrap_or(i32::MIN)..=hi.unwrap_or(i32::MAX))),
    }
}

impl FilterQuery {
    pub fn parse(dataset: &Dataset, q: &dyn Query) -> Result<FilterQuery, ApiError> {
        let paging = Paging::parse(Op::Filter, q)?;
        let context = context_param(dataset, q.get("context"))?;
        let agency = q
            .get("agency")
            .map(|a| agency_param(dataset, a))
            .transpose()?;
        let years = years(q)?;
        let classification =
            (agency.is_some() || years.is_some()).then_some(ClassificationQuery { agency, years });
        let filter = CompoundFilter {
            risk: q
                .get("risk")
                .map(|r| risk_param(r).map(|r| (r, context)))
                .transpose()?,
            kind: q
                .get("type")
                .map(|t| vocab_param("type", t, vocab::USE_CLASSES))
                .transpose()?,
            hazard: q.get("hazard").map(HazardQuery::parse).transpose()?,
            cas_prefix: q.get("cas_prefix").map(cas_prefix_param).transpose()?,
            exposure: q
                .get("exposure")
                .map(|e| exposure_param(dataset, e))
                .transpose()?,
            functional_use: q
                .get("functional_use")
                .map(|u| vocab_param("functional_use", u, vocab::USE_CLASSES))
                .transpose()?,
            classification,
            ..CompoundFilter::default()
        };
        Ok(FilterQuery { paging, filter })
    }
}

/// The filters as applied (names resolved, aliases and case normalized).
#[derive(Serialize, schemars::JsonSchema)]
struct Applied<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    risk: Option<RiskLevel>,
    #[serde(skip_serializing_if = "Option::is_none")]
    context: Option<&'a str>,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    kind: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    agency: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hazard: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cas_prefix: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    exposure: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    functional_use: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    year_min: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    year_max: Option<i32>,
}

fn applied(f: &CompoundFilter) -> Applied<'_> {
    let years = f.classification.as_ref().and_then(|c| c.years.as_ref());
    let bound = |y: i32| (y != i32::MIN && y != i32::MAX).then_some(y);
    Applied {
        risk: f.risk.as_ref().map(|(r, _)| *r),
        context: f.risk.as_ref().map(|(_, c)| c.name()),
        kind: f.kind,
        agency: f.classification.as_ref().and_then(|c| c.agency.as_deref()),
        hazard: f.hazard.as_ref().map(HazardQuery::name),
        cas_prefix: f.cas_prefix.as_deref(),
        exposure: f.exposure.as_deref(),
        functional_use: f.functional_use,
        year_min: years.and_then(|y| bound(*y.start())),
        year_max: years.and_then(|y| bound(*y.end())),
    }
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct FilterBody<'a> {
    filters: Applied<'a>,
    compounds: Vec<CompoundItem<'a>>,
    pagination: Pagination,
}

/// `GET /api/filter` (keyed): the AND of the given compound filters, paginated.
/// `agency` and the year filters must hold for one and the same classification.
pub fn filter(dataset: &Dataset, index: &RiskIndex, q: &FilterQuery) -> Rendered {
    let found = matching(dataset, index, &q.filter);
    let (page, pagination) = q.paging.slice(&found);
    let body = FilterBody {
        filters: applied(&q.filter),
        compounds: compound_items(page),
        pagination,
    };
    Rendered::json(200, &CompoundList::Filtered(body), Cache::Private)
}
