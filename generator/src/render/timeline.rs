//! `GET /api/compound/{id}/timeline` (keyed): every dated change of a compound's
//! classifications and reference values, oldest first, with its source (`model::timeline`).

use chrono::NaiveDate;
use serde::Serialize;

use super::compound::lookup;
use super::error::ApiError;
use super::{Cache, Rendered};
use crate::model::Dataset;
use crate::model::ids::CompoundId;
use crate::model::timeline::{Event, timeline as events};

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct Body<'a> {
    hq_id: &'a CompoundId,
    name: &'a str,
    cas: &'a str,
    /// The day that tells a past change from a scheduled one.
    #[schemars(extend("format" = "date"))]
    today: String,
    count: usize,
    /// Values of the record no source dates (not on the timeline).
    undated: usize,
    events: &'a [Event],
}

pub fn timeline(dataset: &Dataset, id: &str, today: NaiveDate) -> Result<Rendered, ApiError> {
    let record = lookup(dataset, id)?;
    let t = events(record, today);
    let body = Body {
        hq_id: &record.hq_id,
        name: &record.name,
        cas: record.cas.as_str(),
        today: today.format("%Y-%m-%d").to_string(),
        count: t.events.len(),
        undated: t.undated,
        events: &t.events,
    };
    Ok(Rendered::json(200, &body, Cache::Private).keyed(&record.hq_id))
}
