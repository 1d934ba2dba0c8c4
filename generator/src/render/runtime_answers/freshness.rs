//! `GET /api/freshness`: how recently the records were reviewed and how old the deploy is
//! (the runtime computes it at start and daily, and keeps it in its store).

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct Summary {
    /// When the served build was made, RFC 3339 (null without a built tree).
    #[schemars(extend("format" = "date-time"))]
    pub snapshot_generated_at: Option<String>,
    /// When this summary was computed, RFC 3339.
    #[schemars(extend("format" = "date-time"))]
    pub last_checked_at: Option<String>,
    pub deploy_age_days: Option<i64>,
    /// The deploy is 7 days old or more.
    pub deploy_stale: Option<bool>,
    pub entities: Entities,
    pub totals: Totals,
    /// Compounds with classifications whose record was reviewed over 6 months ago, or never.
    pub regulatory_stale_count: usize,
    /// build (computed at start) or redis (the daily summary in the store).
    #[schemars(extend("enum" = ["build", "redis"]))]
    pub source: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct Entities {
    pub compounds: Option<Ages>,
    pub materials: Option<Ages>,
    pub products: Option<Ages>,
}

/// Records by the age of their last review (`meta.last_reviewed`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct Ages {
    pub total: usize,
    /// Reviewed within 90 days.
    pub current: usize,
    /// 90 days to 6 months.
    pub aging: usize,
    /// 6 to 12 months.
    pub stale: usize,
    /// Over 12 months.
    pub very_stale: usize,
    /// No review date.
    pub never: usize,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct Totals {
    pub entities: usize,
    pub current: usize,
    /// Older than 6 months or never reviewed.
    pub stale_or_worse: usize,
}

impl Ages {
    /// Counts one record last reviewed on `reviewed` (`YYYY-MM-DD`), as of `today`.
    pub fn add(&mut self, reviewed: &str, today: NaiveDate) {
        self.total += 1;
        let Ok(date) = NaiveDate::parse_from_str(reviewed, "%Y-%m-%d") else {
            self.never += 1;
            return;
        };
        match (today - date).num_days() {
            ..=90 => self.current += 1,
            91..=182 => self.aging += 1,
            183..=365 => self.stale += 1,
            _ => self.very_stale += 1,
        }
    }
}
