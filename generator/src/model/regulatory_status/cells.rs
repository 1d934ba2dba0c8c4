//! The stored regulatory-status layer: `data/regulatory-status/vocabulary.json`
//! (analytes and matrices) and one file per jurisdiction whose cells carry a governance
//! timeline of cited values. Field order is key order on disk.
//!
//! Enumerated fields (jurisdiction, status, confidence, legal status, change type) and dates
//! are kept as the strings the file holds, so that one bad value is a `check` problem with its
//! JSON path (see `validate.rs`) rather than a file that fails to load.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// The jurisdictions a cell may belong to.
pub const JURISDICTIONS: [&str; 3] = ["US", "EU", "CA_AB899"];

/// What a matrix is: a food or drink, a material or article, a drug product (the values of the
/// `matrix` filter), or a hazard listing or classification, which sets no concentration limit
/// (the values of the `listing` filter).
pub const MATRIX_KINDS: [&str; 4] = ["food", "article", "drug", LISTING];

/// The kind of the matrices that are listings and classifications.
pub const LISTING: &str = "listing";

/// The lifecycle of a value, in the order the interface lists it.
pub const STATUSES: [&str; 6] = [
    "proposed",
    "draft",
    "adopted",
    "in_force",
    "superseded",
    "withdrawn",
];

/// How certain the curator is of a value: `confirmed` (read in the published instrument),
/// `announced` (stated by the issuer, e.g. a proposal or a draft, not yet law), `uncertain`
/// (planned, with no text or number yet). Only `confirmed` values can be current.
pub const CONFIDENCES: [&str; 3] = ["confirmed", "announced", "uncertain"];

/// The confidence a value needs to be current.
pub const CONFIRMED: &str = "confirmed";

/// `legal_status`.
pub const LEGAL_STATUSES: [&str; 4] = [
    "binding_maximum",
    "action_level_guidance",
    "disclosure_mandate",
    "none",
];

/// The legal status of a confirmed absence: no governing threshold.
pub const NO_LEGAL_STATUS: &str = "none";

/// `change_type` of carcinogen classification and listing cells.
pub const CHANGE_TYPES: [&str; 2] = ["classification", "listing"];

impl Matrix {
    /// A hazard listing or classification rather than a food, article or drug.
    pub fn is_listing(&self) -> bool {
        self.kind == LISTING
    }
}

/// `vocabulary.json`: the controlled vocabularies cells are written in.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Vocabulary {
    /// By id (the `analyte` filter value).
    pub analytes: BTreeMap<String, Analyte>,
    /// By id (the `matrix` filter value).
    pub matrices: BTreeMap<String, Matrix>,
}

/// A substance or defined group of substances limits are set for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Analyte {
    pub name: String,
    /// What is measured (species, sum, salts), as the instruments define it.
    pub description: String,
    /// CAS numbers of the substances covered; empty for groups of species with no single one.
    pub cas: Vec<String>,
}

/// A food or product category limits apply to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Matrix {
    pub name: String,
    /// One of `MATRIX_KINDS`.
    pub kind: String,
    /// The category as each jurisdiction's instrument defines it.
    pub description: String,
}

/// One jurisdiction file (`us.json`, `eu.json`, `ca_ab899.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JurisdictionFile {
    /// The jurisdiction every cell of the file belongs to.
    pub jurisdiction: String,
    /// The instruments and publications values cite by id.
    pub sources: Vec<Source>,
    pub cells: Vec<Cell>,
    /// What the curator looked for and could not verify, so it is absent on purpose.
    pub gaps: Vec<String>,
}

/// A cited publication: a regulation, a guidance document, a list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Source {
    pub id: String,
    pub title: String,
    pub publisher: String,
    pub url: String,
    /// Publication date, YYYY-MM-DD.
    #[schemars(extend("format" = "date"))]
    pub date: String,
}

/// One (analyte, matrix, jurisdiction) cell as stored. Its threshold, legal status and
/// coverage gap depend on the date asked about, so they are computed (`governance.rs`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Cell {
    pub analyte: String,
    pub matrix: String,
    pub jurisdiction: String,
    /// The curator's note on scope, the legal nature of the values and their transitions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal_status_note: Option<String>,
    /// Every past, in-force, scheduled and pending value.
    pub governance_timeline: Vec<Value>,
}

impl Cell {
    /// `classification` or `listing` for carcinogen classification and listing cells: the
    /// first value of the timeline that says so.
    pub fn change_type(&self) -> Option<&str> {
        self.governance_timeline
            .iter()
            .find_map(|v| v.change_type.as_deref())
    }
}

/// One value of a governance timeline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Value {
    /// The limit in parts per billion (µg/kg, µg/l); null where the value has no number
    /// (a prohibition, a disclosure duty, a listing, an absence).
    pub threshold_ppb: Option<f64>,
    /// The value as the instrument states it, unit included.
    pub stated: Option<String>,
    pub legal_status: String,
    /// Lifecycle status as of curation.
    pub status: String,
    /// YYYY-MM-DD; none while the date is not fixed (pending proposals).
    #[schemars(extend("format" = "date"))]
    pub effective_from: Option<String>,
    /// YYYY-MM-DD by which the regulated party must comply, where it differs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("format" = "date"))]
    pub compliance_deadline: Option<String>,
    pub confidence: String,
    /// The instrument's name.
    pub instrument: String,
    /// The article, section or entry of the instrument the value is read from.
    pub source_ref: Option<String>,
    /// Id of an entry of the file's `sources`.
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change_type: Option<String>,
    /// The listing or classifying body (`US_NTP`, `CA_Prop65`, `IARC`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issuer: Option<String>,
    /// The IARC Monographs volume a classification is cited from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub monograph: Option<String>,
}

impl Value {
    /// `effective_from` as a date; none when the value is undated (or the date is malformed,
    /// which `check` refuses).
    pub fn effective_date(&self) -> Option<NaiveDate> {
        self.effective_from.as_deref().and_then(parse_date)
    }

    pub fn is_confirmed(&self) -> bool {
        self.confidence == CONFIRMED
    }
}

/// A strict ISO 8601 calendar date, `YYYY-MM-DD` with exactly those digits, that exists
/// (`2026-02-30` does not). chrono's own parser alone also takes signs and short fields.
pub fn parse_date(s: &str) -> Option<NaiveDate> {
    let b = s.as_bytes();
    let shaped = b.len() == 10
        && b.iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        });
    if !shaped {
        return None;
    }
    let year = s[0..4].parse().ok()?;
    let month = s[5..7].parse().ok()?;
    let day = s[8..10].parse().ok()?;
    NaiveDate::from_ymd_opt(year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_strict_and_real() {
        assert_eq!(
            parse_date("2026-02-28"),
            NaiveDate::from_ymd_opt(2026, 2, 28)
        );
        assert_eq!(
            parse_date("2024-02-29"),
            NaiveDate::from_ymd_opt(2024, 2, 29)
        );
        for bad in [
            "2026-02-30",
            "2025-02-29",
            "2026-13-01",
            "2026-00-10",
            "2026-1-01",
            "+2026-01-01",
            "2026-01-01T00:00:00Z",
            "2026/01/01",
            "",
            "２０２６-01-01",
            "2026-01-０1",
        ] {
            assert_eq!(parse_date(bad), None, "{bad}");
        }
    }
}
