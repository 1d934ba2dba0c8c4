//! The account tiers and their limits: a key's tier is named in the key answers and the
//! `X-API-Tier` header, and `saferef-runtime` enforces the limits (its `tier` module adds the
//! marketplace plans that map onto them).

use serde::{Deserialize, Serialize};

/// An account tier; `public` is a caller without a key.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    Public,
    Developer,
    Pro,
    Enterprise,
}

impl Tier {
    pub fn name(self) -> &'static str {
        match self {
            Tier::Public => "public",
            Tier::Developer => "developer",
            Tier::Pro => "pro",
            Tier::Enterprise => "enterprise",
        }
    }

    pub fn parse(s: &str) -> Option<Tier> {
        match s {
            "public" => Some(Tier::Public),
            "developer" => Some(Tier::Developer),
            "pro" => Some(Tier::Pro),
            "enterprise" => Some(Tier::Enterprise),
            _ => None,
        }
    }

    /// Requests per UTC day; `None` is unlimited (enterprise).
    pub fn daily_limit(self) -> Option<u64> {
        match self {
            Tier::Public => Some(500),
            Tier::Developer => Some(10_000),
            Tier::Pro => Some(100_000),
            Tier::Enterprise => None,
        }
    }

    /// Compounds per batch request.
    pub fn batch_cap(self) -> usize {
        match self {
            Tier::Public => 10,
            Tier::Developer => 50,
            Tier::Pro | Tier::Enterprise => 100,
        }
    }

    /// Developer or higher: the keyed endpoints (`api::Access::Developer`).
    pub fn is_keyed(self) -> bool {
        self >= Tier::Developer
    }
}
