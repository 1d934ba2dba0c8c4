//! Compound comparison: 2 to 5 compounds side by side in one context (tiers,
//! regulatory matrix, dose-response values, hazard profiles, environmental fate, exposure
//! sources and a summary), or across 2 to 5 contexts as a risk matrix. Everything is read from
//! the records and their assessment (`aggregate::assess`, made once per dataset in the
//! runtime's `RiskIndex`); a value no record holds is null, never estimated.

mod compared;
mod dose;
mod fate;
mod hazards;
mod matrix;
mod params;
mod regulatory;
mod single;
mod summary;
#[cfg(test)]
mod tests;

use serde::Serialize;

use crate::model::Dataset;
use crate::render::error::ApiError;
use crate::render::lists::RiskIndex;
use crate::render::{Cache, Rendered};
use matrix::across_contexts;
use params::{compounds, contexts};
use single::in_context;

/// Compounds per comparison, and contexts per multi-context comparison.
const MIN: usize = 2;
const MAX: usize = 5;
/// The context of a comparison that names none.
const DEFAULT_CONTEXT: &str = "human_adult";

#[derive(Serialize)]
struct Meta<'a> {
    compared: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    context: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    contexts: Option<Vec<&'a str>>,
    generated_from: &'static str,
}

#[derive(Serialize)]
struct Body<'a, C> {
    comparison: C,
    meta: Meta<'a>,
}

/// `GET /api/compounds/compare?ids=&context=` or `?ids=&contexts=` (Developer+).
pub fn compare(
    dataset: &Dataset,
    ids: Option<&str>,
    context: Option<&str>,
    contexts: Option<&str>,
) -> Rendered {
    compare_indexed(dataset, &RiskIndex::default(), ids, context, contexts)
}

/// `compare` with the compounds' assessments read from `index` (the runtime's, built once)
/// instead of made per request.
pub fn compare_indexed(
    dataset: &Dataset,
    index: &RiskIndex,
    ids: Option<&str>,
    context: Option<&str>,
    contexts: Option<&str>,
) -> Rendered {
    match respond(dataset, index, ids, context, contexts) {
        Ok(r) | Err(r) => r,
    }
}

fn respond(
    dataset: &Dataset,
    index: &RiskIndex,
    ids: Option<&str>,
    context: Option<&str>,
    several: Option<&str>,
) -> Result<Rendered, Rendered> {
    let Some(ids) = ids else {
        return Err(Rendered::from(ApiError::bad_request(
            "ids is required: 2 to 5 comma-separated compound ids or CAS numbers",
        )));
    };
    if context.is_some() && several.is_some() {
        return Err(Rendered::from(ApiError::bad_request(
            "use either context (one context) or contexts (2 to 5), not both",
        )));
    }
    if let Some(raw) = several {
        let names = contexts(dataset, raw)?;
        let all = compounds(dataset, index, ids)?;
        let body = Body {
            meta: Meta {
                compared: all.len(),
                context: None,
                contexts: Some(names.clone()),
                generated_from: "dataset",
            },
            comparison: across_contexts(dataset, &all, &names),
        };
        return Ok(Rendered::json(200, &body, Cache::Private));
    }
    let name = match context {
        None => DEFAULT_CONTEXT,
        Some(c) => dataset
            .contexts
            .resolve(c)
            .map_err(|e| Rendered::from(ApiError::bad_request(e.to_string())))?
            .name
            .as_str(),
    };
    let all = compounds(dataset, index, ids)?;
    let body = Body {
        meta: Meta {
            compared: all.len(),
            context: Some(name),
            contexts: None,
            generated_from: "dataset",
        },
        comparison: in_context(dataset, &all, name),
    };
    Ok(Rendered::json(200, &body, Cache::Private))
}
