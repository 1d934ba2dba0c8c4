//! `GET /api/changelog` (Developer+; data/README.md "Releases and the changelog"): the entries `saferef-generate
//! diff` wrote into `data/changelog.jsonl`, newest first, filtered and paged.

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;

use super::paging::{Pagination, Paging};
use super::{Cache, Rendered};
use crate::api::{Op, Query};
use crate::model::Dataset;
use crate::model::changelog::{Entry, EventType};
use crate::model::ids::CompoundId;
use crate::render::error::ApiError;

/// An entry without its changes and diff (`summary=true`).
#[derive(Serialize, schemars::JsonSchema)]
struct Compact<'a> {
    id: &'a str,
    release: &'a str,
    #[schemars(extend("format" = "date"))]
    date: &'a str,
    #[serde(rename = "type")]
    #[schemars(with = "EventType")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    compound_id: Option<&'a str>,
    name: &'a str,
    summary: &'a str,
}

#[derive(Serialize, schemars::JsonSchema)]
#[serde(untagged)]
enum Item<'a> {
    Full(&'a Entry),
    Compact(Compact<'a>),
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct Body<'a> {
    entries: Vec<Item<'a>>,
    pagination: Pagination,
}

/// What `GET /api/changelog` is asked for, parsed once.
#[derive(Debug)]
pub struct ChangelogQuery<'q> {
    since: Option<DateTime<Utc>>,
    compound_id: Option<&'q str>,
    kind: Option<EventType>,
    summary: bool,
    pub paging: Paging,
}

impl<'q> ChangelogQuery<'q> {
    pub fn parse(dataset: &Dataset, q: &'q dyn Query) -> Result<ChangelogQuery<'q>, ApiError> {
        let bad = ApiError::bad_request;
        let since = q
        .get("since")
        .map(|s| {
            DateTime::parse_from_rfc3339(s)
                .map(|t| t.with_timezone(&Utc))
                .or_else(|_| {
                    NaiveDate::parse_from_str(s, "%Y-%m-%d").map(|d| d.and_time(Default::default()).and_utc())
                })
                .map_err(|_| {
                    bad(format!(
                        "since must be an ISO date (2026-11-21) or date-time (2026-11-21T08:00:00Z), not {}",
                        shown(s)
                    ))
                })
        })
        .transpose()?;
        let compound_id = match q.get("compound_id") {
            None => None,
            Some(id) if CompoundId::parse(id).is_none() => {
                return Err(bad(format!(
                    "malformed compound_id {}: expected hq-c-<org|ino|mix>-<6 digits>",
                    shown(id)
                )));
            }
            Some(id)
                if dataset.compound(id).is_none()
                    && !dataset
                        .changelog
                        .iter()
                        .any(|e| e.compound_id.as_deref() == Some(id)) =>
            {
                return Err(ApiError::not_found(format!("compound {id} not found")));
            }
            Some(id) => Some(id),
        };
        let kind = q
            .get("type")
            .map(|t| {
                EventType::parse(t).ok_or_else(|| {
                    bad(format!(
                        "unknown type {}; valid values: {}",
                        shown(t),
                        EventType::ALL.map(EventType::as_str).join(", ")
                    ))
                })
            })
            .transpose()?;
        let summary = match q.get("summary").map(|s| (s, crate::api::boolean(s))) {
            None => false,
            Some((_, Some(b))) => b,
            Some((s, None)) => {
                return Err(bad(format!(
                    "summary accepts true or false, not {}",
                    shown(s)
                )));
            }
        };
        Ok(ChangelogQuery {
            since,
            compound_id,
            kind,
            summary,
            paging: Paging::parse(Op::Changelog, q)?,
        })
    }
}

/// `GET /api/changelog?since=&compound_id=&type=&summary=&limit=&offset=`.
pub fn changelog(dataset: &Dataset, f: &ChangelogQuery<'_>) -> Rendered {
    let mut found: Vec<(usize, &Entry)> = dataset
        .changelog
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            f.since.is_none_or(|since| {
                NaiveDate::parse_from_str(&e.date, "%Y-%m-%d")
                    .is_ok_and(|d| d.and_time(Default::default()).and_utc() >= since)
            }) && f
                .compound_id
                .is_none_or(|id| e.compound_id.as_deref() == Some(id))
                && f.kind.is_none_or(|k| e.kind == k)
        })
        .collect();
    // Newest first: by date, and within a date the later-written entry first.
    found.sort_by(|(i, a), (j, b)| b.date.cmp(&a.date).then(j.cmp(i)));
    let (page, pagination) = f.paging.slice(&found);
    let entries = page
        .iter()
        .map(|(_, e)| {
            if f.summary {
                Item::Compact(Compact {
                    id: &e.id,
                    release: &e.release,
                    date: &e.date,
                    kind: e.kind.as_str(),
                    compound_id: e.compound_id.as_deref(),
                    name: &e.name,
                    summary: &e.summary,
                })
            } else {
                Item::Full(e)
            }
        })
        .collect();
    let body = Body {
        entries,
        pagination,
    };
    Rendered::json(200, &body, Cache::Private)
}

/// A query value echoed in an error, quoted and cut short.
fn shown(value: &str) -> String {
    let cut: String = value.chars().take(64).collect();
    format!("{cut:?}")
}
