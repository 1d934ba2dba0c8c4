//! Tiers and their limits (and 8), and the marketplace plans that map onto them. The tier
//! itself is a wire type of the answers (`saferef_generator::render::runtime_answers::tier`),
//! so the OpenAPI document names its values.

pub use saferef_generator::render::runtime_answers::tier::Tier;

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
