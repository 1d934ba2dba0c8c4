//! A changelog entry as stored, one JSON object per line of `data/changelog.jsonl`, and as
//! `GET /api/changelog` serves it.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::dating::STATED_DATE;

/// The changelog's file name inside a data directory.
pub const FILE: &str = "changelog.jsonl";

/// What changed. The names are the webhook event kinds (plus removal, which
/// ids never undergo in practice but a diff can still see).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
pub enum EventType {
    #[serde(rename = "compound.added")]
    CompoundAdded,
    #[serde(rename = "compound.removed")]
    CompoundRemoved,
    #[serde(rename = "compound.updated")]
    CompoundUpdated,
    #[serde(rename = "compound.risk_changed")]
    CompoundRiskChanged,
    #[serde(rename = "regulatory.updated")]
    RegulatoryUpdated,
}

impl EventType {
    pub const ALL: [EventType; 5] = [
        EventType::CompoundAdded,
        EventType::CompoundRemoved,
        EventType::CompoundUpdated,
        EventType::CompoundRiskChanged,
        EventType::RegulatoryUpdated,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EventType::CompoundAdded => "compound.added",
            EventType::CompoundRemoved => "compound.removed",
            EventType::CompoundUpdated => "compound.updated",
            EventType::CompoundRiskChanged => "compound.risk_changed",
            EventType::RegulatoryUpdated => "regulatory.updated",
        }
    }

    pub fn parse(s: &str) -> Option<EventType> {
        EventType::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

/// One field-level change: the JSON path inside the record (or cell) and both values
/// (`null` where the field was absent).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Change {
    pub path: String,
    pub old: Value,
    pub new: Value,
    /// The day the new value takes effect, beside the entry's release date, when the value
    /// carries one (`effective_from`, data/README.md "Dates").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(pattern(STATED_DATE))]
    pub effective: Option<String>,
}

/// One change of one release to one compound or regulatory-status cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// `chg_` + 16 hex digits derived from release, type, compound and name (`Entry::id_for`),
    /// so re-running a diff finds its entries already written.
    pub id: String,
    pub release: String,
    /// The release's data date (YYYY-MM-DD: the newest review date of NEW).
    #[schemars(extend("format" = "date"))]
    pub date: String,
    #[serde(rename = "type")]
    pub kind: EventType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compound_id: Option<String>,
    /// The compound's name, or the cell (`analyte / matrix / jurisdiction`).
    pub name: String,
    pub summary: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<Change>,
    /// A unified diff of the changed sections, for people reading the feed.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text_diff: String,
}

impl Entry {
    pub fn id_for(release: &str, kind: EventType, compound_id: Option<&str>, name: &str) -> String {
        let mut h = Sha256::new();
        for part in [release, kind.as_str(), compound_id.unwrap_or(""), name] {
            h.update(part.as_bytes());
            // A separator no part contains, so ("ab", "c") and ("a", "bc") differ.
            h.update([0]);
        }
        let hex: String = h.finalize()[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        format!("chg_{hex}")
    }

    /// The id this entry's fields derive.
    pub fn expected_id(&self) -> String {
        Entry::id_for(
            &self.release,
            self.kind,
            self.compound_id.as_deref(),
            &self.name,
        )
    }
}
