//! The real responses behind the reference's examples: each catalogue example request is
//! answered through `render::dispatch`, the same dispatch the service answers with, over the
//! same dataset and indexes. Responses that depend on the moment or on an account, and the
//! pages themselves, are not excerpted; the page shows their request only.

use chrono::NaiveDate;

use crate::api::{self, Endpoint, Op};
use crate::model::Dataset;
use crate::render::Rendered;
use crate::render::dispatch::{self, Call, Indexes, Viewer};

/// The response `example` (path and query) gets from `endpoint`, as a caller without a key
/// would see it, or `None` when it is not excerpted.
pub fn render(
    d: &Dataset,
    ix: Indexes<'_>,
    endpoint: &Endpoint,
    example: &str,
) -> Option<Rendered> {
    if matches!(
        endpoint.op,
        Op::OpenApi | Op::Badge | Op::Changelog | Op::Playground | Op::Dashboard | Op::Compliance
    ) {
        return None;
    }
    let (path, query) = example.split_once('?').unwrap_or((example, ""));
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).ok()?;
    let segments: Vec<&str> = path
        .strip_prefix("/api")?
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    let captured = api::resolve(&segments)
        .into_iter()
        .find(|(e, _)| e.name == endpoint.name)?
        .1;
    // The day the data was released stands in for "today", so a page is the same bytes
    // whenever it is rendered. The release date carries a time after its day.
    let release = d.release_date();
    let today = NaiveDate::parse_from_str(release.get(..10).unwrap_or_default(), "%Y-%m-%d").ok();
    if today.is_none() && matches!(endpoint.op, Op::RegulatoryStatus | Op::Timeline) {
        return None;
    }
    let call = Call {
        params: &captured,
        query: &pairs,
        batch: None,
        today: today.unwrap_or_default(),
        prepared: None,
    };
    dispatch::render(d, ix, endpoint.op, call, Viewer::PUBLIC)
}

/// The first `lines` lines of `r`'s body, pretty-printed when it is JSON, and whether more
/// followed.
pub fn excerpt(r: &Rendered, lines: usize) -> (String, bool) {
    let text = match serde_json::from_slice::<serde_json::Value>(&r.body) {
        Ok(v) => serde_json::to_string_pretty(&v).expect("a JSON value serializes"),
        Err(_) => String::from_utf8_lossy(&r.body).into_owned(),
    };
    let mut out: Vec<&str> = text.lines().take(lines + 1).collect();
    let more = out.len() > lines;
    out.truncate(lines);
    (out.join("\n"), more)
}
