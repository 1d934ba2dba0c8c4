//! The `ids` and `contexts` parameters: compounds by id or CAS number and contexts by name or
//! alias, 2 to 5 distinct of each, or the 400 / 403 / 404 naming what is wrong.

use std::borrow::Cow;

use chrono::NaiveDate;

use super::compared::Compared;
use super::profile::Profile;
use super::{MAX, MIN};
use crate::aggregate;
use crate::model::Dataset;
use crate::model::as_of::as_of as dated;
use crate::model::cas::Cas;
use crate::model::ids::CompoundId;
use crate::model::record::CompoundRecord;
use crate::model::vocab::WatchClass;
use crate::render::error::ApiError;
use crate::render::lists::RiskIndex;

/// A user-supplied value in a message: quoted, and cut short if it is long.
fn shown(input: &str) -> String {
    const MAX_SHOWN: usize = 60;
    match input.char_indices().nth(MAX_SHOWN) {
        Some((cut, _)) => format!("{:?}...", &input[..cut]),
        None => format!("{input:?}"),
    }
}

/// The compound an input names (an id, or a CAS number through the registry), or the
/// 400 / 404 / 403 response naming it.
fn resolve<'d>(dataset: &'d Dataset, input: &str) -> Result<&'d CompoundRecord, ApiError> {
    let id = if let Some(id) = CompoundId::parse(input) {
        id
    } else if let Ok(cas) = Cas::parse(input) {
        match dataset.ids.get(&cas) {
            Some(id) => *id,
            None => {
                return Err(ApiError::not_found(format!(
                    "compound not found: no compound with CAS {input}"
                )));
            }
        }
    } else {
        return Err(ApiError::bad_request(format!(
            "malformed compound {}: expected a compound id (hq-c-org-000001) or a CAS number with a valid check digit (80-05-7)",
            shown(input)
        )));
    };
    let record = dataset
        .compounds
        .get(&id)
        .ok_or_else(|| ApiError::not_found(format!("compound not found: {id}")))?;
    if record.watch_class == WatchClass::CriticalThreat {
        return Err(ApiError::forbidden(format!(
            "compound {id} is on the critical-threat watch list (e.g. Chemical Weapons Convention Schedule 1); it is not compared"
        )));
    }
    Ok(record)
}

/// The distinct non-empty items of a comma-separated list, in order; more than `MAX` is an
/// error as soon as it is certain.
fn distinct_items<'a>(raw: &'a str, what: &str) -> Result<Vec<&'a str>, ApiError> {
    let mut items: Vec<&str> = Vec::new();
    for item in raw.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        if !items.contains(&item) {
            items.push(item);
            if items.len() > MAX {
                return Err(count_error(what, "more than 5"));
            }
        }
    }
    Ok(items)
}

fn count_error(what: &str, got: &str) -> ApiError {
    ApiError::bad_request(format!(
        "compare takes 2 to 5 distinct {what} (comma-separated; duplicates are removed), not {got}"
    ))
}

/// The distinct compound inputs of `ids`, 2 to 5 of them (resolved by `compounds`).
pub(super) fn inputs(raw: &str) -> Result<Vec<&str>, ApiError> {
    let inputs = distinct_items(raw, "compounds")?;
    if inputs.len() < MIN {
        return Err(count_error("compounds", &inputs.len().to_string()));
    }
    Ok(inputs)
}

/// The compounds `inputs` name, each once, with their assessments and written parts: today's
/// from `index`, or as they stood on `as_of`.
pub(super) fn compounds<'d>(
    dataset: &'d Dataset,
    index: &'d RiskIndex,
    inputs: &[&str],
    as_of: Option<NaiveDate>,
) -> Result<Vec<Compared<'d>>, ApiError> {
    let mut records: Vec<&CompoundRecord> = Vec::new();
    for &input in inputs {
        let record = resolve(dataset, input)?;
        // An id and a CAS number may name the same compound.
        if !records.iter().any(|r| r.hq_id == record.hq_id) {
            records.push(record);
        }
    }
    if records.len() < MIN {
        return Err(count_error("compounds", "one compound named twice"));
    }
    Ok(records
        .into_iter()
        .map(|stored| match as_of {
            None => {
                let assessment = index.assessment(stored);
                Compared {
                    stored,
                    record: Cow::Borrowed(stored),
                    profile: index.compare_profile(stored, &assessment),
                    assessment,
                }
            }
            Some(day) => {
                let dated = dated(stored, day);
                let assessment = aggregate::assess(&dated);
                Compared {
                    stored,
                    profile: Cow::Owned(Profile::of(stored, &dated, &assessment)),
                    assessment: Cow::Owned(assessment),
                    record: Cow::Owned(dated),
                }
            }
        })
        .collect())
}

pub(super) fn contexts<'d>(dataset: &'d Dataset, raw: &str) -> Result<Vec<&'d str>, ApiError> {
    let mut names: Vec<&str> = Vec::new();
    for item in distinct_items(raw, "contexts")? {
        let c = dataset
            .contexts
            .resolve(item)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        // An alias and its context name are one context.
        if !names.contains(&c.name.as_str()) {
            names.push(&c.name);
        }
    }
    if names.len() < MIN {
        return Err(count_error("contexts", &names.len().to_string()));
    }
    Ok(names)
}
