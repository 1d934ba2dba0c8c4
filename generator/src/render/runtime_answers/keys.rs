//! `GET /api/keys/status`, `GET /api/keys/usage` and `POST /api/keys/rotate`, for the key that
//! makes the request; and the billing state a key record keeps, which its status shows.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::tier::Tier;

/// What the payment provider told us about the key's subscription, and whether the key is a
/// trial: kept in the key record and shown, flattened, by its status.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Billing {
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub trial: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customer_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscription_id: Option<String>,
    /// The provider's own subscription status (active, past_due, canceled, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider_status: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cancel_at_period_end: bool,
    /// RFC 3339.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>", extend("format" = "date-time"))]
    pub payment_failed_at: Option<DateTime<Utc>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment_attempts: Option<u32>,
    /// When the provider's last applied event about this subscription was made (its
    /// `created`, RFC 3339): an older event arriving later does not overwrite the state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>", extend("format" = "date-time"))]
    pub provider_event_at: Option<DateTime<Utc>>,
}

/// `GET /api/keys/status`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct KeyStatus<'a> {
    pub prefix: &'a str,
    pub tier: Tier,
    pub active: bool,
    /// RFC 3339.
    #[schemars(extend("format" = "date-time"))]
    pub created: String,
    /// RFC 3339; null for a key that does not expire.
    #[schemars(extend("format" = "date-time"))]
    pub expires_at: Option<String>,
    /// active, past_due or unpaid (absent state: null).
    #[schemars(extend("enum" = ["active", "past_due", "unpaid", null]))]
    pub payment_status: Option<&'a str>,
    #[serde(flatten)]
    pub billing: &'a Billing,
    pub usage_today: Usage,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Usage {
    pub requests: u64,
    /// null: no daily limit (enterprise).
    pub limit: Option<u64>,
    pub remaining: Option<u64>,
}

/// `GET /api/keys/usage`: requests per day, newest first.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct KeyUsage {
    pub prefix: String,
    pub days: Vec<Day>,
    pub total: u64,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Day {
    /// YYYY-MM-DD.
    #[schemars(extend("format" = "date"))]
    pub date: String,
    pub requests: u64,
}

/// `POST /api/keys/rotate`: the new key, shown once.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct KeyRotated<'a> {
    /// Shown once.
    pub key: &'a str,
    pub prefix: &'a str,
    pub tier: Tier,
    /// RFC 3339; null for a key that does not expire.
    #[schemars(extend("format" = "date-time"))]
    pub expires_at: Option<String>,
    /// The prefix of the key that stopped working.
    pub replaced: &'a str,
    pub note: &'static str,
}
