//! `GET /api/filter`: its parameters, the filters as applied, and the response.

use std::collections::BTreeSet;
use std::ops::RangeInclusive;

use serde::Serialize;

use super::compound_filter::{ClassificationQuery, CompoundFilter, HazardQuery};
use super::compounds::{CompoundItem, compound_items, matching, served};
use super::params::{Pagination, Paging, context_param, quoted, risk_param, vocab_param};
use super::risk_index::RiskIndex;
use crate::model::Dataset;
use crate::model::vocab::{self, RiskLevel};
use crate::render::error::ApiError;
use crate::render::regulatory;
use crate::render::{Cache, Rendered};

/// Raw query values of `GET /api/filter`.
#[derive(Debug, Clone, Copy, Default)]
pub struct FilterQuery<'a> {
    pub risk: Option<&'a str>,
    pub context: Option<&'a str>,
    /// `type`: the compound's primary use class.
    pub kind: Option<&'a str>,
    pub agency: Option<&'a str>,
    pub hazard: Option<&'a str>,
    pub cas_prefix: Option<&'a str>,
    /// A found-in category.
    pub exposure: Option<&'a str>,
    /// Any of the compound's use classes.
    pub functional_use: Option<&'a str>,
    pub year: Option<&'a str>,
    pub year_min: Option<&'a str>,
    pub year_max: Option<&'a str>,
    pub page: Option<&'a str>,
    pub limit: Option<&'a str>,
}

fn year_param(name: &str, raw: Option<&str>) -> Result<Option<i32>, Rendered> {
    raw.map(|y| match y.parse::<i32>() {
        Ok(n) if (1000..=9999).contains(&n) => Ok(n),
        _ => Err(Rendered::from(ApiError::bad_request(format!(
            "{name} must be a four-digit year, not {}",
            quoted(y)
        )))),
    })
    .transpose()
}

fn cas_prefix_param(raw: &str) -> Result<String, Rendered> {
    let ok = (1..=12).contains(&raw.len()) && raw.bytes().all(|b| b.is_ascii_digit() || b == b'-');
    if ok {
        Ok(raw.to_string())
    } else {
        Err(Rendered::from(ApiError::bad_request(format!(
            "cas_prefix must be the start of a CAS number (digits and hyphens, e.g. 80-05), not {}",
            quoted(raw)
        ))))
    }
}

/// `exposure`: a found-in category of the corpus, case-insensitive.
fn exposure_param(dataset: &Dataset, raw: &str) -> Result<String, Rendered> {
    let known: BTreeSet<&str> = served(dataset)
        .flat_map(|r| r.found_in.iter().map(|f| f.category.as_str()))
        .collect();
    known
        .iter()
        .find(|k| k.eq_ignore_ascii_case(raw))
        .map(|k| k.to_string())
        .ok_or_else(|| {
            Rendered::from(ApiError::bad_request(format!(
                "unknown exposure {}; valid values (found-in categories): {}",
                quoted(raw),
                known.into_iter().collect::<Vec<_>>().join(", ")
            )))
        })
}

fn agency_param(dataset: &Dataset, raw: &str) -> Result<String, Rendered> {
    regulatory::find_agency(dataset, raw)
        .map(|a| a.name.clone())
        .ok_or_else(|| {
            Rendered::from(ApiError::bad_request(format!(
                "unknown agency {}; valid values: {}",
                quoted(raw),
                regulatory::agency_names(dataset)
            )))
        })
}

impl FilterQuery<'_> {
    fn years(&self) -> Result<Option<RangeInclusive<i32>>, Rendered> {
        let year = year_param("year", self.year)?;
        let min = year_param("year_min", self.year_min)?;
        let max = year_param("year_max", self.year_max)?;
        match (year, min, max) {
            (Some(_), Some(_), _) | (Some(_), _, Some(_)) => Err(Rendered::from(
                ApiError::bad_request("year cannot be combined with year_min or year_max"),
            )),
            (Some(y), None, None) => Ok(Some(y..=y)),
            (None, Some(lo), Some(hi)) if lo > hi => Err(Rendered::from(ApiError::bad_request(
                format!("year_min {lo} is after year_max {hi}"),
            ))),
            (None, None, None) => Ok(None),
            (None, lo, hi) => Ok(Some(lo.unwrap_or(i32::MIN)..=hi.unwrap_or(i32::MAX))),
        }
    }

    fn filter(&self, dataset: &Dataset) -> Result<CompoundFilter, Rendered> {
        let context = context_param(dataset, self.context)?;
        let agency = self.agency.map(|a| agency_param(dataset, a)).transpose()?;
        let years = self.years()?;
        let classification =
            (agency.is_some() || years.is_some()).then_some(ClassificationQuery { agency, years });
        Ok(CompoundFilter {
            risk: self
                .risk
                .map(|r| risk_param(r).map(|r| (r, context)))
                .transpose()?,
            kind: self
                .kind
                .map(|t| vocab_param("type", t, vocab::USE_CLASSES))
                .transpose()?,
            hazard: self.hazard.map(HazardQuery::parse).transpose()?,
            cas_prefix: self.cas_prefix.map(cas_prefix_param).transpose()?,
            exposure: self
                .exposure
                .map(|e| exposure_param(dataset, e))
                .transpose()?,
            functional_use: self
                .functional_use
                .map(|u| vocab_param("functional_use", u, vocab::USE_CLASSES))
                .transpose()?,
            classification,
            ..CompoundFilter::default()
        })
    }
}

/// The filters as applied (names resolved, aliases and case normalized).
#[derive(Serialize)]
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

#[derive(Serialize)]
struct FilterBody<'a> {
    filters: Applied<'a>,
    compounds: Vec<CompoundItem<'a>>,
    pagination: Pagination,
}

/// `GET /api/filter` (keyed): the AND of the given compound filters, paginated.
/// `agency` and the year filters must hold for one and the same classification.
pub fn filter(dataset: &Dataset, index: &RiskIndex, q: &FilterQuery) -> Rendered {
    let (paging, filter) =
        match Paging::parse(q.page, q.limit).and_then(|p| q.filter(dataset).map(|f| (p, f))) {
            Ok(v) => v,
            Err(e) => return e,
        };
    let found = matching(dataset, index, &filter);
    let (page, pagination) = paging.slice(&found);
    let body = FilterBody {
        filters: applied(&filter),
        compounds: compound_items(page),
        pagination,
    };
    Rendered::json(200, &body, Cache::Private)
}
