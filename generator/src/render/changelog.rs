//! `GET /api/changelog` (Developer+; data/README.md "Releases and the changelog"): the entries `saferef-generate
//! diff` wrote into `data/changelog.jsonl`, newest first, filtered and paged.

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;

use super::dispatch::Query;
use super::{Cache, Rendered};
use crate::model::Dataset;
use crate::model::changelog::{Entry, EventType};
use crate::model::ids::CompoundId;
use crate::render::error::ApiError;

const DEFAULT_LIMIT: usize = 20;
const MAX_LIMIT: usize = 100;

/// An entry without its changes and diff (`summary=true`).
#[derive(Serialize)]
struct Compact<'a> {
    id: &'a str,
    release: &'a str,
    date: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    compound_id: Option<&'a str>,
    name: &'a str,
    summary: &'a str,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Item<'a> {
    Full(&'a Entry),
    Compact(Compact<'a>),
}

#[derive(Serialize)]
struct Pagination {
    total: usize,
    limit: usize,
    offset: usize,
    has_more: bool,
}

#[derive(Serialize)]
struct Body<'a> {
    entries: Vec<Item<'a>>,
    pagination: Pagination,
}

/// GET /api/changelog?since=&compound_id=&type=&summary=&limit=&offset=
pub fn changelog(dataset: &Dataset, q: &dyn Query) -> Rendered {
    match parse(dataset, q) {
        Ok(f) => render(dataset, &f),
        Err(e) => e,
    }
}

struct Filter<'q> {
    since: Option<DateTime<Utc>>,
    compound_id: Option<&'q str>,
    kind: Option<EventType>,
    summary: bool,
    limit: usize,
    offset: usize,
}

fn parse<'q>(dataset: &Dataset, q: &'q dyn Query) -> Result<Filter<'q>, Rendered> {
    let bad = |m: String| Rendered::from(ApiError::bad_request(m));
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
            if !dataset.compounds.contains_key(id)
                && !dataset
                    .changelog
                    .iter()
                    .any(|e| e.compound_id.as_deref() == Some(id)) =>
        {
            return Err(Rendered::from(ApiError::not_found(format!(
                "compound {id} not found"
            ))));
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
    let number = |name: &str, default: usize, min: usize, max: usize| -> Result<usize, Rendered> {
        match q.get(name) {
            None => Ok(default),
            Some(raw) => match raw.parse::<usize>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                _ if max == usize::MAX => Err(bad(format!(
                    "{name} must be a whole number of at least {min}, not {}",
                    shown(raw)
                ))),
                _ => Err(bad(format!(
                    "{name} must be a whole number from {min} to {max}, not {}",
                    shown(raw)
                ))),
            },
        }
    };
    Ok(Filter {
        since,
        compound_id,
        kind,
        summary,
        limit: number("limit", DEFAULT_LIMIT, 1, MAX_LIMIT)?,
        offset: number("offset", 0, 0, usize::MAX)?,
    })
}

fn render(dataset: &Dataset, f: &Filter<'_>) -> Rendered {
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
    let total = found.len();
    let entries = found
        .into_iter()
        .skip(f.offset)
        .take(f.limit)
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
        pagination: Pagination {
            total,
            limit: f.limit,
            offset: f.offset,
            has_more: f.offset.saturating_add(f.limit) < total,
        },
    };
    Rendered::json(200, &body, Cache::Private)
}

/// A query value echoed in an error, quoted and cut short.
fn shown(value: &str) -> String {
    let cut: String = value.chars().take(64).collect();
    format!("{cut:?}")
}
