//! Query parameter parsing of the lists: `search`, fixed vocabularies, `risk`,
//! `context` and `cas`, each to its value or to the 400 naming what is valid.

use crate::api::{Op, Query};
use crate::model::Dataset;
use crate::model::cas::{Cas, CasError};
use crate::model::contexts::Context;
use crate::model::vocab::RiskLevel;
use crate::render::declared;
use crate::render::error::ApiError;

pub use crate::model::quoted;

/// `search` of `op`'s list, of the length the catalogue declares once trimmed, lowercased for
/// substring matching.
pub(super) fn search_param(op: Op, q: &dyn Query) -> Result<Option<String>, ApiError> {
    Ok(declared::text(op, "search", q)?.map(str::to_lowercase))
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
) -> Result<&'static str, ApiError> {
    valid
        .iter()
        .find(|v| v.eq_ignore_ascii_case(raw))
        .copied()
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "unknown {name} {}; valid values: {}",
                quoted(raw),
                valid.join(", ")
            ))
        })
}

pub(super) fn risk_param(raw: &str) -> Result<RiskLevel, ApiError> {
    RiskLevel::ALL
        .into_iter()
        .find(|r| r.as_str().eq_ignore_ascii_case(raw))
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "unknown risk {}; valid values: {}",
                quoted(raw),
                RiskLevel::ALL.map(RiskLevel::as_str).join(", ")
            ))
        })
}

/// The context `risk` is read in: the requested one (aliases resolve) or the default of
/// `data/contexts.json`, which names one of the contexts the enum holds (a test in
/// `model::contexts` keeps the file and the enum equal).
pub(super) fn context_param(dataset: &Dataset, raw: Option<&str>) -> Result<Context, ApiError> {
    match raw {
        None => Ok(Context::from_name(&dataset.contexts.default).unwrap_or(Context::HumanAdult)),
        Some(c) => dataset
            .contexts
            .parse(c)
            .map_err(|e| ApiError::bad_request(e.to_string())),
    }
}

pub(super) fn cas_param(raw: &str) -> Result<Cas, ApiError> {
    Cas::parse(raw).map_err(|e| match e {
        CasError::CheckDigit { .. } => ApiError::bad_request(format!("malformed CAS number: {e}")),
        CasError::Shape(_) => ApiError::bad_request(format!(
            "malformed CAS number {}: expected digits-dd-d, e.g. 80-05-7",
            quoted(raw)
        )),
    })
}
