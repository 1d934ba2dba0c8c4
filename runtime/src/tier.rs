//! Tiers and their limits (and 8), and the marketplace plans that map onto them.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
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

/// A marketplace subscription plan (`X-Marketplace-Subscription`). Decision: BASIC maps to
/// the developer tier, PRO to pro, ULTRA to pro with the largest batch; the plan's own batch
/// cap (Basic 10, Pro 50, Ultra 100) replaces the tier's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    Basic,
    Pro,
    Ultra,
}

impl Plan {
    pub fn parse(s: &str) -> Option<Plan> {
        match s.trim().to_ascii_uppercase().as_str() {
            "BASIC" => Some(Plan::Basic),
            "PRO" => Some(Plan::Pro),
            "ULTRA" => Some(Plan::Ultra),
            _ => None,
        }
    }

    pub fn tier(self) -> Tier {
        match self {
            Plan::Basic => Tier::Developer,
            Plan::Pro | Plan::Ultra => Tier::Pro,
        }
    }

    pub fn batch_cap(self) -> usize {
        match self {
            Plan::Basic => 10,
            Plan::Pro => 50,
            Plan::Ultra => 100,
        }
    }
}
