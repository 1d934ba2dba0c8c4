//! What a comparison shows of one compound whatever it is compared with: its sections' JSON,
//! written once (serde_json's `RawValue`) and copied into every comparison that names it, and
//! the sorted sets the shared/unique splits and the summary read. The runtime's `RiskIndex`
//! keeps one per compound, made at the compound's first comparison; a comparison `as_of` a
//! day makes its own from the record as it stood.

use std::sync::OnceLock;

use serde::Serialize;
use serde_json::value::RawValue;

use super::compared::{Compared, Ident, cell};
use super::dose::Tables;
use super::{fate, hazards, regulatory};
use crate::aggregate::{Assessment, ContextResult};
use crate::model::record::CompoundRecord;

/// `value` as the JSON an answer copies.
pub(super) fn written<T: Serialize>(value: &T) -> Box<RawValue> {
    serde_json::value::to_raw_value(value).expect("comparison parts serialize")
}

/// Distinct and ascending, as a `BTreeSet` iterates them.
fn sorted<'a>(items: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = items.map(str::to_owned).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// A compound's parts in one context with evidence.
#[derive(Debug, Clone)]
struct ContextParts {
    /// Its tier cell, summary included (`risk_profiles.profiles`).
    cell: Box<RawValue>,
    /// Its hazard profile (`hazard_profiles.profiles`).
    hazard: Box<RawValue>,
    /// The deciding hazard's words, for the summary.
    hazard_label: Option<&'static str>,
}

impl ContextParts {
    fn of(record: &CompoundRecord, result: &ContextResult, h_codes: &[String]) -> ContextParts {
        let hazard = hazards::profile(record, Some(result), h_codes);
        ContextParts {
            cell: written(&cell(result, true)),
            hazard_label: hazard.hazard_label,
            hazard: written(&hazard),
        }
    }
}

/// One compound's parts of every comparison naming it. Those of a context are written at the
/// compound's first comparison in it, so the parts kept are those asked for.
#[derive(Debug, Clone)]
pub struct Profile {
    /// Its identity (`compounds`).
    pub(super) ident: Box<RawValue>,
    /// Per context of the assessment it was made with, in that order.
    contexts: Vec<OnceLock<ContextParts>>,
    /// Its hazard profile in a context without evidence.
    no_evidence: OnceLock<Box<RawValue>>,
    /// `environmental_fate`.
    pub(super) fate: Box<RawValue>,
    /// The tables of `dose_response`.
    pub(super) doses: Tables,
    /// Each agency classifying it (ascending) with its classifications by that agency.
    classifications: Vec<(String, Box<RawValue>)>,
    /// Its current GHS hazard statements, found-in categories and the agencies with an
    /// endocrine-disruption finding: each distinct and ascending.
    pub(super) h_codes: Vec<String>,
    pub(super) found_in: Vec<String>,
    pub(super) endocrine: Vec<String>,
}

impl Profile {
    /// The parts of `record` (the stored one, or as it stood on a day), read with
    /// `assessment` (its own); its identity is always the stored record's.
    pub fn of(
        stored: &CompoundRecord,
        record: &CompoundRecord,
        assessment: &Assessment,
    ) -> Profile {
        Profile {
            ident: written(&Ident::of(stored)),
            contexts: assessment
                .contexts
                .iter()
                .map(|_| OnceLock::new())
                .collect(),
            no_evidence: OnceLock::new(),
            fate: written(&fate::of(record)),
            doses: Tables::of(record),
            classifications: regulatory::by_agency(record),
            h_codes: sorted(hazards::h_codes(record)),
            found_in: sorted(record.found_in.iter().map(|f| f.category.as_str())),
            endocrine: sorted(
                record
                    .safety
                    .endocrine_disruption
                    .iter()
                    .map(|e| e.agency.as_str()),
            ),
        }
    }

    /// The agencies classifying it, ascending.
    pub(super) fn agencies(&self) -> impl Iterator<Item = &str> {
        self.classifications.iter().map(|(a, _)| a.as_str())
    }

    /// Its classifications by `agency`, or `None` where the agency has none.
    pub(super) fn classified_by(&self, agency: &str) -> Option<&RawValue> {
        self.classifications
            .binary_search_by(|(a, _)| a.as_str().cmp(agency))
            .ok()
            .map(|i| &*self.classifications[i].1)
    }
}

impl Compared<'_> {
    /// Its parts in `context`, or `None` where the context has no evidence. The profile was
    /// made with this assessment (`params::compounds`), so their contexts line up.
    fn in_context(&self, context: &str) -> Option<&ContextParts> {
        let at = self
            .assessment
            .contexts
            .iter()
            .position(|r| r.context == context)?;
        let result = &self.assessment.contexts[at];
        Some(
            self.profile.contexts[at]
                .get_or_init(|| ContextParts::of(&self.record, result, &self.profile.h_codes)),
        )
    }

    /// Its tier cell in `context`, or `None` where the context has no evidence.
    pub(super) fn cell(&self, context: &str) -> Option<&RawValue> {
        self.in_context(context).map(|c| &*c.cell)
    }

    /// Its hazard profile in `context`.
    pub(super) fn hazard(&self, context: &str) -> &RawValue {
        match self.in_context(context) {
            Some(c) => &c.hazard,
            None => self.profile.no_evidence.get_or_init(|| {
                written(&hazards::profile(&self.record, None, &self.profile.h_codes))
            }),
        }
    }

    /// The deciding hazard's words in `context`, if any.
    pub(super) fn hazard_label(&self, context: &str) -> Option<&'static str> {
        self.in_context(context).and_then(|c| c.hazard_label)
    }
}
