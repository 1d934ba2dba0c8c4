//! What a delivery carries: the event (`{id: "evt_...", type, created, data}`) as JSON, or
//! for `format=slack` a Slack Block Kit message about it (`slack.rs`). Either body is signed
//! the same way.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The event kinds; release loading emits the first four (stated with the registration body,
/// whose OpenAPI schema lists them).
pub use saferef_generator::render::runtime_answers::webhooks::{EVENTS, Format};

/// What a webhook receives when it names no events: every data change.
pub const DEFAULT_EVENTS: [&str; 4] = [
    "compound.added",
    "compound.updated",
    "compound.risk_changed",
    "regulatory.updated",
];

/// The wire shape of an event.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Event {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: String,
    /// Unix seconds.
    pub created: i64,
    pub data: Value,
}

impl Event {
    pub fn new(kind: &str, data: Value) -> Event {
        Event {
            id: format!("evt_{}", crate::keys::random_base62(20)),
            kind: kind.to_string(),
            created: chrono::Utc::now().timestamp(),
            data,
        }
    }
}

/// The body sent for `event` in `format`: the exact bytes that are signed.
pub fn body(event: &Event, format: Format) -> String {
    match format {
        Format::Json => serde_json::to_string(event),
        Format::Slack => serde_json::to_string(&super::slack::message(event)),
    }
    .expect("JSON values serialize")
}
