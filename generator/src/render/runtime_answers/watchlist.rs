//! `GET /api/watchlist`, `POST /api/watchlist`, `POST /api/watchlist/check` and
//! `DELETE /api/watchlist/{id}`: the body the two POSTs take and the answers.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::model::changelog::EventType;
use crate::model::vocab::RiskLevel;
use crate::render::paging;

/// Most inputs one add or check request names.
pub const MAX_INPUTS: usize = 100;

/// `{compounds}`: compound ids or CAS numbers, like batch.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CompoundsBody {
    #[schemars(length(min = 1, max = MAX_INPUTS))]
    pub compounds: Vec<String>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Entry<'a> {
    pub id: &'a str,
    pub hq_id: &'a str,
    pub name: &'a str,
    pub cas: &'a str,
    /// When the compound was added, RFC 3339.
    #[schemars(extend("format" = "date-time"))]
    pub added: String,
    /// The tier in every available context (as in `GET /api/compounds`).
    pub risk_levels: BTreeMap<&'static str, RiskLevel>,
    /// The newest changelog entry about the compound (`GET /api/changelog`), if any.
    pub last_change: Option<LastChange<'a>>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct LastChange<'a> {
    pub id: &'a str,
    #[schemars(extend("format" = "date"))]
    pub date: &'a str,
    #[serde(rename = "type")]
    #[schemars(with = "EventType")]
    pub kind: &'a str,
    pub summary: &'a str,
}

/// `GET /api/watchlist`: one page of the account's watchlist.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Watchlist<'a> {
    pub watchlist: Vec<Entry<'a>>,
    pub pagination: Pagination,
}

/// The list's `pagination`, with the account's cap.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Pagination {
    #[serde(flatten)]
    pub page: paging::Pagination,
    /// Compounds the account's tier may watch.
    pub cap: usize,
}

/// `POST /api/watchlist`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Added {
    pub added: usize,
    pub total: usize,
    pub cap: usize,
    /// The ids added.
    pub compounds: Vec<String>,
}

/// `POST /api/watchlist/check`: per input whether it is watched, or why it names no compound.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct CheckedList {
    pub results: Vec<Checked>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Checked {
    pub input: String,
    /// Absent when the input names no compound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Absent with `error`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_watchlist: Option<bool>,
    /// Why the input names no compound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `DELETE /api/watchlist/{id}`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Removed<'a> {
    pub removed: &'a str,
    pub total: usize,
}
