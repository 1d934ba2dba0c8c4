//! `POST /api/keys/trial`, `/recover`, `/resend` and `/erasure`: the bodies and the answers.

use serde::{Deserialize, Serialize};

use super::tier::Tier;

/// The longest e-mail address accepted (RFC 5321's path limit).
pub const EMAIL_MAX: usize = 254;

/// `{email}`: a trial, or the first step of recovery (`resend` too) or erasure.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EmailBody {
    #[schemars(email, length(max = EMAIL_MAX))]
    pub email: String,
}

/// `{email}` for the first step, `{email, code}` for the second (recovery, erasure).
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CodeBody {
    #[schemars(email, length(max = EMAIL_MAX))]
    pub email: String,
    /// The six-digit code mailed by the first step.
    #[serde(default)]
    #[schemars(regex(pattern = r"^[0-9]{6}$"))]
    pub code: Option<String>,
}

/// A request accepted for mail: the same answer whether or not an account uses the address.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Accepted {
    pub status: AcceptedStatus,
    pub message: String,
}

#[derive(Debug, Clone, Copy, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AcceptedStatus {
    Accepted,
}

/// A trial request's answer: the same whether or not the address may have a trial, so it
/// names the tier and expiry a key issued now has, not whether one was issued.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct TrialAccepted {
    pub status: AcceptedStatus,
    pub message: String,
    /// The tier a trial key opens.
    pub tier: Tier,
    /// When a key issued by this request expires (RFC 3339).
    #[schemars(extend("format" = "date-time"))]
    pub expires_at: String,
}

/// A key shown once.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct NewKey {
    /// Shown once.
    pub key: String,
    pub prefix: String,
    pub tier: Tier,
    /// RFC 3339; null for a key that does not expire.
    #[schemars(extend("format" = "date-time"))]
    pub expires_at: Option<String>,
}

/// `POST /api/keys/recover`, second step: the replacement keys, shown once.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Recovered {
    pub status: RecoveredStatus,
    pub keys: Vec<NewKey>,
    pub note: &'static str,
}

#[derive(Debug, Clone, Copy, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RecoveredStatus {
    Recovered,
}

/// What an erasure removed.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct Erased {
    pub keys: usize,
    pub usage_days: usize,
    pub watchlist_entries: usize,
    pub webhooks: usize,
    /// deleted, pending (retried hourly) or not_configured, per provider customer.
    pub payment_customers: Vec<Deletion>,
}

/// Whether the payment provider's record of a customer is gone: deleted now, kept pending, or
/// not_configured (a service without paid plans has no provider API).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Deletion {
    Deleted,
    Pending,
    NotConfigured,
}

/// `POST /api/keys/erasure`, second step: what was erased.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ErasedReply {
    pub status: ErasedStatus,
    pub removed: Erased,
}

#[derive(Debug, Clone, Copy, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErasedStatus {
    Erased,
}
