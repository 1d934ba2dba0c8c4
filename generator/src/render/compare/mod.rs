//! Compound comparison: 2 to 5 compounds side by side in one context (tiers,
//! regulatory matrix, dose-response values, hazard profiles, environmental fate, exposure
//! sources and a summary), or across 2 to 5 contexts as a risk matrix. Everything is read from
//! the records and their assessment (`aggregate::assess`, made once per dataset in the
//! runtime's `RiskIndex`, which also keeps each compound's written parts: `profile.rs`); a
//! value no record holds is null, never estimated.

mod compared;
mod dose;
mod fate;
mod hazards;
mod matrix;
mod params;
mod profile;
mod regulatory;
mod single;
mod summary;
#[cfg(test)]
mod tests;

use chrono::NaiveDate;
use serde::Serialize;

use crate::api::Query;
use crate::model::Dataset;
use crate::model::contexts::Context;
use crate::render::compound::{View, parse_as_of};
use crate::render::error::ApiError;
use crate::render::lists::RiskIndex;
use crate::render::{Cache, Rendered};
use matrix::{AcrossContexts, across_contexts};
use params::{compounds, contexts, inputs};
use single::{InContext, in_context};

pub(crate) use profile::Profile;

/// Compounds per comparison, and contexts per multi-context comparison.
const MIN: usize = 2;
const MAX: usize = 5;
/// The context of a comparison that names none.
const DEFAULT_CONTEXT: &str = "human_adult";

#[derive(Serialize, schemars::JsonSchema)]
struct Meta<'a> {
    compared: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Context>")]
    context: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Vec<Context>>")]
    contexts: Option<Vec<&'a str>>,
    generated_from: &'static str,
    /// The day the comparison stands on (`as_of`), when not today.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(extend("format" = "date"))]
    as_of: Option<String>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct Body<'a, C> {
    comparison: C,
    meta: Meta<'a>,
}

/// The compounds side by side in one context, or with `contexts=` across contexts (untagged:
/// each mode has its own fields).
#[derive(Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub(crate) enum CompareBody<'a> {
    /// One context (`context=`, default `human_adult`).
    InContext(Box<Body<'a, InContext<'a>>>),
    /// Several contexts (`contexts=`): the risk matrix.
    AcrossContexts(Box<Body<'a, AcrossContexts<'a>>>),
}

/// What `GET /api/compounds/compare` is asked for, parsed once: the distinct compound
/// inputs (ids or CAS numbers, resolved when answered), one context or several, and the day
/// the comparison stands on (`as_of`, as `GET /api/compound/{id}` takes it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompareQuery<'q> {
    ids: Vec<&'q str>,
    contexts: Contexts<'q>,
    as_of: Option<NaiveDate>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Contexts<'d> {
    One(&'d str),
    Several(Vec<&'d str>),
}

impl<'q> CompareQuery<'q> {
    pub fn parse(
        dataset: &'q Dataset,
        q: &'q dyn Query,
        view: View,
    ) -> Result<CompareQuery<'q>, ApiError> {
        let Some(ids) = q.get("ids") else {
            return Err(ApiError::bad_request(
                "ids is required: 2 to 5 comma-separated compound ids or CAS numbers",
            ));
        };
        let contexts = match (q.get("context"), q.get("contexts")) {
            (Some(_), Some(_)) => {
                return Err(ApiError::bad_request(
                    "use either context (one context) or contexts (2 to 5), not both",
                ));
            }
            (_, Some(raw)) => Contexts::Several(contexts(dataset, raw)?),
            (None, None) => Contexts::One(DEFAULT_CONTEXT),
            (Some(c), None) => Contexts::One(
                dataset
                    .contexts
                    .resolve(c)
                    .map_err(|e| ApiError::bad_request(e.to_string()))?
                    .name
                    .as_str(),
            ),
        };
        Ok(CompareQuery {
            ids: inputs(ids)?,
            contexts,
            as_of: parse_as_of(q, view)?,
        })
    }
}

/// `GET /api/compounds/compare` with each compound assessed per request.
pub fn compare(dataset: &Dataset, q: &CompareQuery<'_>) -> Result<Rendered, ApiError> {
    compare_indexed(dataset, &RiskIndex::default(), q)
}

/// `GET /api/compounds/compare?ids=&context=` or `?ids=&contexts=` (Developer+), with the
/// compounds' assessments read from `index` (the runtime's, built once) instead of made per
/// request; with `as_of`, each compound is assessed as it stood that day.
pub fn compare_indexed(
    dataset: &Dataset,
    index: &RiskIndex,
    q: &CompareQuery<'_>,
) -> Result<Rendered, ApiError> {
    let all = compounds(dataset, index, &q.ids, q.as_of)?;
    let as_of = q.as_of.map(|d| d.format("%Y-%m-%d").to_string());
    let name = match &q.contexts {
        Contexts::Several(names) => {
            let body = Body {
                meta: Meta {
                    compared: all.len(),
                    context: None,
                    contexts: Some(names.clone()),
                    generated_from: "dataset",
                    as_of,
                },
                comparison: across_contexts(dataset, &all, names),
            };
            return Ok(Rendered::json(
                200,
                &CompareBody::AcrossContexts(Box::new(body)),
                Cache::Private,
            ));
        }
        Contexts::One(name) => *name,
    };
    let body = Body {
        meta: Meta {
            compared: all.len(),
            context: Some(name),
            contexts: None,
            generated_from: "dataset",
            as_of,
        },
        comparison: in_context(dataset, &all, name),
    };
    Ok(Rendered::json(
        200,
        &CompareBody::InContext(Box::new(body)),
        Cache::Private,
    ))
}
