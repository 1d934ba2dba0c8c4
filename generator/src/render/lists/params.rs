//! Query parameter parsing of the lists: paging, `search`, fixed vocabularies, `risk`,
//! `context` and `cas`, each to its value or to the 400 naming what is valid.

use std::ops::RangeInclusive;

use serde::Serialize;

use crate::model::Dataset;
use crate::model::cas::{Cas, CasError};
use crate::model::contexts::Context;
use crate::model::vocab::RiskLevel;
use crate::render::Rendered;
use crate::render::error::ApiError;

/// Default and largest page size of the lists.
const DEFAULT_LIMIT: usize = 20;
const MAX_LIMIT: usize = 100;
/// Longest accepted `search` text, in characters.
const MAX_SEARCH: usize = 200;

pub use crate::model::quoted;

/// A whole-number query parameter in `range`, `default` when absent.
pub fn number_param(
    name: &str,
    raw: Option<&str>,
    default: usize,
    range: RangeInclusive<usize>,
) -> Result<usize, ApiError> {
    let Some(raw) = raw else {
        return Ok(default);
    };
    match raw.parse::<usize>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ if *range.end() == usize::MAX => Err(ApiError::bad_request(format!(
            "{name} must be a whole number of at least {}, not {}",
            range.start(),
            quoted(raw)
        ))),
        _ => Err(ApiError::bad_request(format!(
            "{name} must be a whole number from {} to {}, not {}",
            range.start(),
            range.end(),
            quoted(raw)
        ))),
    }
}

/// Which page of a list.
#[derive(Clone, Copy)]
pub(super) struct Paging {
    page: usize,
    limit: usize,
}

#[derive(Serialize)]
pub(super) struct Pagination {
    page: usize,
    limit: usize,
    total: usize,
    total_pages: usize,
}

impl Paging {
    pub(super) fn parse(page: Option<&str>, limit: Option<&str>) -> Result<Paging, Rendered> {
        Ok(Paging {
            page: number_param("page", page, 1, 1..=usize::MAX)?,
            limit: number_param("limit", limit, DEFAULT_LIMIT, 1..=MAX_LIMIT)?,
        })
    }

    /// The page's items; a page past the end is empty, not an error.
    pub(super) fn slice<T>(self, items: &[T]) -> (&[T], Pagination) {
        let start = (self.page - 1).saturating_mul(self.limit).min(items.len());
        let end = start.saturating_add(self.limit).min(items.len());
        let pagination = Pagination {
            page: self.page,
            limit: self.limit,
            total: items.len(),
            total_pages: items.len().div_ceil(self.limit),
        };
        (&items[start..end], pagination)
    }
}

/// `search`: at least 2 characters once trimmed, lowercased for substring matching.
pub(super) fn search_param(raw: Option<&str>) -> Result<Option<String>, Rendered> {
    let Some(raw) = raw else {
        return Ok(None);
    };
    let text = raw.trim();
    let chars = text.chars().count();
    if !(2..=MAX_SEARCH).contains(&chars) {
        return Err(Rendered::from(ApiError::bad_request(format!(
            "search must be 2 to {MAX_SEARCH} characters, not {}",
            quoted(raw)
        ))));
    }
    Ok(Some(text.to_lowercase()))
}

pub(super) fn contains_text<'a>(
    mut fields: impl Iterator<Item = &'a String>,
    needle: &str,
) -> bool {
    fields.any(|f| f.to_lowercase().contains(needle))
}

/// A value of a fixed vocabulary, case-insensitive, or the 400 naming the valid values.
pub(super) fn vocab_param(
    name: &str,
    raw: &str,
    valid: &'static [&'static str],
) -> Result<&'static str, Rendered> {
    valid
        .iter()
        .find(|v| v.eq_ignore_ascii_case(raw))
        .copied()
        .ok_or_else(|| {
            Rendered::from(ApiError::bad_request(format!(
                "unknown {name} {}; valid values: {}",
                quoted(raw),
                valid.join(", ")
            )))
        })
}

pub(super) fn risk_param(raw: &str) -> Result<RiskLevel, Rendered> {
    RiskLevel::ALL
        .into_iter()
        .find(|r| r.as_str().eq_ignore_ascii_case(raw))
        .ok_or_else(|| {
            Rendered::from(ApiError::bad_request(format!(
                "unknown risk {}; valid values: {}",
                quoted(raw),
                RiskLevel::ALL.map(RiskLevel::as_str).join(", ")
            )))
        })
}

/// The context `risk` is read in: the requested one (aliases resolve) or the default of
/// `data/contexts.json`, which names one of the contexts the enum holds (a test in
/// `model::contexts` keeps the file and the enum equal).
pub(super) fn context_param(dataset: &Dataset, raw: Option<&str>) -> Result<Context, Rendered> {
    match raw {
        None => Ok(Context::from_name(&dataset.contexts.default).unwrap_or(Context::HumanAdult)),
        Some(c) => dataset
            .contexts
            .parse(c)
            .map_err(|e| Rendered::from(ApiError::bad_request(e.to_string()))),
    }
}

pub(super) fn cas_param(raw: &str) -> Result<String, Rendered> {
    match Cas::parse(raw) {
        Ok(c) => Ok(c.as_str().to_string()),
        Err(e @ CasError::CheckDigit { .. }) => Err(Rendered::from(ApiError::bad_request(
            format!("malformed CAS number: {e}"),
        ))),
        Err(CasError::Shape(_)) => Err(Rendered::from(ApiError::bad_request(format!(
            "malformed CAS number {}: expected digits-dd-d, e.g. 80-05-7",
            quoted(raw)
        )))),
    }
}
