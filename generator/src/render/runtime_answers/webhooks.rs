//! `POST /api/webhooks`, `GET /api/webhooks` (with `action=deliveries`, one webhook's
//! delivery log), `DELETE /api/webhooks/{id}` and `POST /api/webhooks/test/{id}`: the
//! registration body, the answers and the delivery log's entries.

use serde::{Deserialize, Serialize};

use crate::render::paging::Pagination;

/// The event kinds; release loading emits the first four.
pub const EVENTS: [&str; 5] = [
    "compound.added",
    "compound.updated",
    "compound.risk_changed",
    "regulatory.updated",
    "webhook.test",
];
/// Compound ids one webhook may list.
pub const MAX_COMPOUNDS: usize = 1000;
/// The bounds of a signing secret the caller chooses.
pub const SECRET_MIN: usize = 16;
pub const SECRET_MAX: usize = 200;

/// `{url, events?, compounds?, format?, signing_secret?}`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WebhookBody {
    /// Where deliveries are POSTed: a public http(s) address.
    #[schemars(url)]
    pub url: String,
    /// The events to receive (every data change when absent).
    #[serde(default)]
    #[schemars(schema_with = "event_names")]
    pub events: Option<Vec<String>>,
    /// Compound ids to follow (1 to 1,000), or `["*"]` for every compound; the account's
    /// watchlist when absent.
    #[serde(default)]
    #[schemars(length(min = 1, max = MAX_COMPOUNDS))]
    pub compounds: Option<Vec<String>>,
    /// json (the default) or slack.
    #[serde(default)]
    pub format: Option<String>,
    /// Printable ASCII without spaces; one is made when absent.
    #[serde(default)]
    #[schemars(length(min = SECRET_MIN, max = SECRET_MAX))]
    pub signing_secret: Option<String>,
}

/// `events`: a list of the event kinds (`EVENTS`).
fn event_names(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": ["array", "null"],
        "items": {"type": "string", "enum": EVENTS},
    })
}

/// What a webhook follows.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Followed<'a> {
    /// The account's watchlist.
    Watchlist(WatchlistWord),
    /// These compound ids, or `["*"]`: every compound.
    Ids(Vec<&'a str>),
}

#[derive(Debug, Clone, Copy, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WatchlistWord {
    Watchlist,
}

/// A webhook as answered (never its secret).
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct WebhookView<'a> {
    pub id: &'a str,
    #[schemars(url)]
    pub url: &'a str,
    pub events: &'a [String],
    pub compounds: Followed<'a>,
    /// json or slack.
    pub format: &'static str,
    /// RFC 3339, seconds.
    pub created: String,
}

/// `POST /api/webhooks`: the webhook and its signing secret, shown once.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct WebhookCreated<'a> {
    #[serde(flatten)]
    pub webhook: WebhookView<'a>,
    /// Shown once.
    pub signing_secret: String,
    pub note: &'static str,
}

/// The account's webhooks, or with `action=deliveries` one webhook's delivery log (untagged:
/// each form has its own fields).
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Webhooks<'a> {
    List(WebhookList<'a>),
    Deliveries(Deliveries<'a>),
}

/// The account's webhooks.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct WebhookList<'a> {
    pub webhooks: Vec<WebhookView<'a>>,
    pub count: usize,
    /// Webhooks the account's tier may register.
    pub limit: usize,
}

/// One webhook's delivery log, newest first.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Deliveries<'a> {
    pub webhook_id: &'a str,
    pub total: usize,
    pub offset: usize,
    pub limit: usize,
    pub deliveries: Vec<Attempt>,
    pub pagination: Pagination,
}

/// One delivery attempt, as the delivery log keeps it.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Attempt {
    pub delivery_id: String,
    pub event_id: String,
    pub event_type: String,
    /// 1 for the first attempt.
    pub attempt: u32,
    /// RFC 3339.
    pub at: String,
    /// The receiver's HTTP status, when it answered.
    pub status_code: Option<u16>,
    /// Why the attempt failed, when it did.
    pub error: Option<String>,
    pub duration_ms: u64,
    /// delivered, retrying or failed (no attempts left).
    pub outcome: String,
    /// RFC 3339, when the delivery is retrying.
    pub next_retry_at: Option<String>,
}

/// `DELETE /api/webhooks/{id}`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct WebhookDeleted<'a> {
    pub id: &'a str,
    pub deleted: bool,
}

/// `POST /api/webhooks/test/{id}`: a `webhook.test` event queued.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct WebhookTestQueued<'a> {
    pub queued: bool,
    pub webhook_id: &'a str,
    pub event_id: &'a str,
    pub delivery_id: &'a str,
}
