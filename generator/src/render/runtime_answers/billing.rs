//! `POST /api/billing/webhook`: the payment provider's notification and its acknowledgement.

use serde::{Deserialize, Serialize};

/// A payment provider's notification, in the common `{id, type, created, data: {object}}`
/// convention; other fields are allowed and not read.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct BillingEvent {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: String,
    /// When the provider made the event, Unix seconds (the time of receipt when absent).
    #[serde(default)]
    pub created: Option<i64>,
    #[serde(default)]
    pub data: EventData,
}

#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct EventData {
    /// The object the event is about (a checkout session, subscription or invoice).
    #[serde(default)]
    pub object: serde_json::Value,
}

/// The event was received.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct BillingReceived<'a> {
    pub received: bool,
    /// The event's type.
    #[serde(rename = "type")]
    pub kind: &'a str,
    /// What the event did.
    pub result: String,
}
