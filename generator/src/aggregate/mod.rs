//! The aggregation: a compound's risk tier in each of the 19 contexts, with the evidence that
//! decided it and a confidence. `signals` reads the record, `rules` decides; this module
//! assembles the result that responses render.

pub mod bands;
pub mod coverage;
mod dna_reactive;
pub mod graph;
mod phenol;
pub mod routes;
pub mod rules;
pub mod signals;
mod structure;
pub mod synthesis;

use serde::Serialize;

use crate::model::record::CompoundRecord;
use crate::model::vocab::{DoseKind, RiskLevel};
use rules::{Exposure, Finding, Rule};

use crate::model::contexts::Context;
use signals::{Hazard, Signal};

/// One piece of evidence behind a context's tier.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct EvidenceItem {
    /// The rule applied, by its id (METHODOLOGY.md's heading).
    pub rule: Rule,
    pub tier: RiskLevel,
    pub finding: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agency: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year: Option<i32>,
    pub source: String,
    /// Whether this item gave the context its tier.
    pub decisive: bool,
    /// A laboratory-mammal classification standing in for an animal without data of its own
    /// (METHODOLOGY.md, "species").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub surrogate: bool,
}

/// The aggregated answer for one context.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ContextResult {
    pub context: &'static str,
    pub risk_level: RiskLevel,
    pub confidence: f64,
    pub summary: String,
    pub evidence: Vec<EvidenceItem>,
}

/// Two or more agencies' differing positions on one question.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Disagreement {
    pub topic: &'static str,
    pub positions: Vec<Position>,
    pub resolution: &'static str,
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Position {
    pub agency: String,
    pub position: String,
    pub tier: RiskLevel,
    pub source: String,
}

/// Which response shape a compound gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Schema {
    /// The aggregated record.
    V2,
    /// Contexts can be answered but there is no normalizable regulatory data: raw safety data.
    Legacy,
    /// No context can be answered (422).
    V2Research,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Assessment {
    /// Available contexts, in the order of `Context::ALL`.
    pub contexts: Vec<ContextResult>,
    pub disagreements: Vec<Disagreement>,
    pub schema: Schema,
}

impl Assessment {
    pub fn get(&self, context: &str) -> Option<&ContextResult> {
        self.contexts.iter().find(|c| c.context == context)
    }

    pub fn available(&self) -> Vec<&'static str> {
        self.contexts.iter().map(|c| c.context).collect()
    }

    /// The mean confidence over the available contexts.
    pub fn mean_confidence(&self) -> f64 {
        if self.contexts.is_empty() {
            return 0.0;
        }
        round2(self.contexts.iter().map(|c| c.confidence).sum::<f64>() / self.contexts.len() as f64)
    }

    /// The context a request without `context` gets: adults when answerable, else the first.
    pub fn primary_context(&self) -> Option<&'static str> {
        self.get("human_adult")
            .map(|c| c.context)
            .or_else(|| self.contexts.first().map(|c| c.context))
    }
}

/// Assesses a compound in every context.
pub fn assess(record: &CompoundRecord) -> Assessment {
    let signals = signals::signals(record);
    let exposure = exposure(record, &signals);
    let disagreements = carcinogenicity_disagreement(&signals)
        .into_iter()
        .collect::<Vec<_>>();
    let contexts: Vec<ContextResult> = Context::ALL
        .into_iter()
        .filter_map(|context| {
            let found = rules::findings(context, &signals, exposure);
            result(context.name(), &found, !disagreements.is_empty())
        })
        .collect();
    let regulatory = !record.regulatory.classifications.is_empty() || !record.safety.ghs.is_empty();
    let schema = if contexts.is_empty() {
        Schema::V2Research
    } else if !regulatory {
        Schema::Legacy
    } else {
        Schema::V2
    };
    Assessment {
        contexts,
        disagreements,
        schema,
    }
}

fn exposure(record: &CompoundRecord, signals: &[Signal]) -> Exposure {
    let volatile = record
        .properties
        .physical_properties
        .boiling_point
        .as_ref()
        .is_some_and(|b| b.unit == "°C" && b.value <= 250.0);
    let agent = routes::inhaled_agent(record.cas.as_str());
    let inhaled_form = agent.is_some_and(|a| a.form.is_airborne_as_named());
    let medicine = routes::not_absorbed_by_mouth(record.cas.as_str());
    let air_evidence = signals.iter().any(|s| {
        matches!(
            s.hazard,
            Hazard::OccupationalLimit
                | Hazard::InhalationReference
                | Hazard::AcuteInhalation
                | Hazard::CarcinogenInhalation
                | Hazard::RespiratoryIrritation
        )
    });
    Exposure {
        reaches_air: volatile
            || air_evidence
            || agent.is_some()
            || breathed_value(record)
            || routes::on_exhaust_particles(record)
            || routes::dust_element(record).is_some()
            || routes::drug_dust(record.cas.as_str()).is_some(),
        inhaled_form,
        digested: medicine.is_some(),
        injected_medicine: medicine == Some(routes::Given::Injected),
        gas: record
            .properties
            .physical_properties
            .boiling_point
            .as_ref()
            .is_some_and(|b| b.unit == "°C" && b.value < 20.0),
    }
}

/// Whether an agency states a value for the substance in air: a reference concentration, an
/// inhalation unit risk or the air concentration at a stated cancer risk (METHODOLOGY.md,
/// route_relevance).
fn breathed_value(record: &CompoundRecord) -> bool {
    record.dose_response.iter().any(|d| {
        d.is_current()
            && matches!(
                d.kind,
                DoseKind::RfcAcute
                    | DoseKind::RfcSubchronic
                    | DoseKind::RfcChronic
                    | DoseKind::InhalationUnitRisk
                    | DoseKind::AirConcentrationCancerRisk1e5
            )
    })
}

fn result(context: &'static str, found: &[Finding<'_>], disputed: bool) -> Option<ContextResult> {
    let tier = found.iter().map(|f| f.tier).max()?;
    let decisive: Vec<&Finding<'_>> = found.iter().filter(|f| f.tier == tier).collect();
    let best = decisive
        .iter()
        .map(|f| f.signal.weight * f.factor)
        .fold(0.0, f64::max);
    let mut agencies: Vec<&str> = decisive
        .iter()
        .filter_map(|f| f.signal.agency.as_deref())
        .collect();
    agencies.sort_unstable();
    agencies.dedup();
    let mut confidence = (best + 0.03 * agencies.len().saturating_sub(1) as f64).min(0.97);
    if disputed && decisive.iter().any(|f| f.rule == Rule::Carcinogenicity) {
        confidence -= 0.1;
    }
    let mut evidence: Vec<EvidenceItem> = found
        .iter()
        .map(|f| EvidenceItem {
            rule: f.rule,
            tier: f.tier,
            finding: f.signal.finding.clone(),
            agency: f.signal.agency.clone(),
            year: f.signal.year,
            source: f.signal.source.clone(),
            decisive: f.tier == tier,
            surrogate: f.is_surrogate(),
        })
        .collect();
    // Strongest first, then by rule id; a finding raised by a life stage replaces nothing,
    // both are shown.
    evidence.sort_by(|a, b| b.tier.cmp(&a.tier).then(a.rule.id().cmp(b.rule.id())));
    evidence.dedup();
    let lead: Vec<String> = evidence
        .iter()
        .filter(|e| e.decisive)
        .take(2)
        .map(|e| match (&e.agency, e.year) {
            (Some(a), Some(y)) if !e.finding.starts_with(a.as_str()) => {
                format!("{} ({a}, {y})", e.finding)
            }
            _ => e.finding.clone(),
        })
        .collect();
    let more = evidence.len().saturating_sub(lead.len());
    // A finding written as a sentence brings its own full stop.
    let lead = lead.join("; ");
    let mut summary = format!(
        "{} risk: {}.",
        capitalise(tier.words()),
        lead.strip_suffix('.').unwrap_or(&lead)
    );
    if more > 0 {
        summary.push_str(&format!(
            " {more} further finding{} in the evidence.",
            if more == 1 { "" } else { "s" }
        ));
    }
    Some(ContextResult {
        context,
        risk_level: tier,
        confidence: round2(confidence.max(0.05)),
        summary,
        evidence,
    })
}

fn carcinogenicity_disagreement(signals: &[Signal]) -> Option<Disagreement> {
    let calls: Vec<&Signal> = signals
        .iter()
        .filter(|s| s.hazard == Hazard::Carcinogen)
        .collect();
    let max = calls.iter().map(|s| s.strength).max()?;
    let min = calls.iter().map(|s| s.strength).min()?;
    (max - min >= 2).then(|| Disagreement {
        topic: "carcinogenicity",
        positions: calls
            .iter()
            .map(|s| Position {
                agency: s.agency.clone().unwrap_or_default(),
                position: s.finding.clone(),
                tier: match s.strength {
                    0 => RiskLevel::Low,
                    1 => RiskLevel::Moderate,
                    2 => RiskLevel::High,
                    _ => RiskLevel::VeryHigh,
                },
                source: s.source.clone(),
            })
            .collect(),
        resolution: "the tier follows the strongest call of an authoritative body; confidence is lowered by 0.1",
    })
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}

#[cfg(test)]
mod tests;
