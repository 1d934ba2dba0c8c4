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

/// What a delivery's body is: the event as JSON, or a Slack message about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Json,
    Slack,
}

impl Format {
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "json" => Some(Format::Json),
            "slack" => Some(Format::Slack),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Slack => "slack",
        }
    }
}

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
    /// json (the default) or slack; read as a string so a wrong value gets the runtime's own
    /// 400, which names the values.
    #[serde(default)]
    #[schemars(with = "Option<Format>")]
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
    #[schemars(extend("items" = {"type": "string", "enum": EVENTS}))]
    pub events: &'a [String],
    pub compounds: Followed<'a>,
    pub format: Format,
    /// RFC 3339, seconds.
    #[schemars(extend("format" = "date-time"))]
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
    #[schemars(extend("enum" = EVENTS))]
    pub event_type: String,
    /// 1 for the first attempt.
    pub attempt: u32,
    /// RFC 3339.
    #[schemars(extend("format" = "date-time"))]
    pub at: String,
    /// The receiver's HTTP status, when it answered.
    pub status_code: Option<u16>,
    /// Why the attempt failed, when it did.
    pub error: Option<String>,
    pub duration_ms: u64,
    /// delivered, retrying or failed (no attempts left).
    pub outcome: Outcome,
    /// RFC 3339, when the delivery is retrying.
    #[schemars(extend("format" = "date-time"))]
    pub next_retry_at: Option<String>,
}

/// What became of a delivery attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Delivered,
    Retrying,
    Failed,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Delivered => "delivered",
            Outcome::Retrying => "retrying",
            Outcome::Failed => "failed",
        }
    }
}

/// `DELETE /api/webhooks/{id}`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct WebhookDeleted<'a> {
    pub id: &'a str,
    pub deleted: True,
}

/// `true`, and nothing else: an answer that states a done deed.
#[derive(Debug, Clone, Copy)]
pub struct True;

impl Serialize for True {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bool(true)
    }
}

impl schemars::JsonSchema for True {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "True".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "boolean", "const": true })
    }
}

/// `POST /api/webhooks/test/{id}`: a `webhook.test` event queued.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct WebhookTestQueued<'a> {
    pub queued: bool,
    pub webhook_id: &'a str,
    pub event_id: &'a str,
    pub delivery_id: &'a str,
}
