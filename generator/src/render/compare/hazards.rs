//! The hazard section of a one-context comparison: each compound's deciding hazard,
//! carcinogenicity listings and GHS codes, and the codes shared or unique.

use serde::Serialize;
use serde_json::value::RawValue;

use super::compared::{Compared, InOrder, split};
use crate::aggregate::ContextResult;
use crate::aggregate::rules::Rule;
use crate::model::ids::CompoundId;
use crate::model::record::CompoundRecord;
use crate::model::vocab::RiskLevel;

#[derive(Serialize, schemars::JsonSchema)]
struct Carcinogenicity {
    iarc_group: Option<&'static str>,
    iarc_description: Option<&'static str>,
    ntp: Option<&'static str>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct HazardProfile<'a> {
    /// The rule of the decisive evidence in the context, and its words.
    hazard_class: Option<Rule>,
    pub(super) hazard_label: Option<&'static str>,
    risk_level: Option<RiskLevel>,
    decisive_findings: Vec<&'a str>,
    carcinogenicity: Option<Carcinogenicity>,
    h_codes: Vec<&'a str>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct Shared<'a> {
    pub(super) shared: Vec<&'a str>,
    pub(super) unique: InOrder<&'a CompoundId, Vec<&'a str>>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct HazardComparison<'a> {
    #[schemars(with = "InOrder<&'a str, HazardProfile<'a>>")]
    profiles: InOrder<&'a CompoundId, &'a RawValue>,
    pub(super) ghs: Shared<'a>,
}

/// The words of a rule of the aggregation (`aggregate::rules`), as a hazard label.
pub(super) fn hazard_label(rule: Rule) -> &'static str {
    match rule {
        Rule::Carcinogenicity => "Carcinogenicity",
        Rule::Mutagenicity => "Germ cell mutagenicity",
        Rule::ReproductiveToxicity => "Reproductive or developmental toxicity",
        Rule::OrganToxicity => "Specific target organ toxicity",
        Rule::AcuteToxicity => "Acute toxicity",
        Rule::EndocrineDisruption => "Endocrine disruption",
        Rule::Sensitisation => "Sensitisation",
        Rule::LocalEffects => "Local effects (corrosion, irritation)",
        Rule::Potency => "Potency (reference values and limits)",
        Rule::RouteRelevance => "Systemic hazard by this route",
        Rule::WatchLists => "Watch-listed toxicant",
        Rule::LowConcern => "Low concern",
        Rule::LifeStage => "Life-stage sensitivity",
        Rule::Species => "Species-specific toxicity",
        Rule::Environment => "Environmental hazard",
        Rule::Aquatic => "Aquatic toxicity",
        Rule::Wildlife => "Wildlife toxicity",
        Rule::Pollinators => "Pollinator toxicity",
        // The two rules of how findings combine; they never decide a hazard class.
        Rule::Confidence => "Confidence",
        Rule::Disagreement => "Disagreement between agencies",
    }
}

/// The hazard statements of the record's current GHS classifications (repeats included).
pub(super) fn h_codes(record: &CompoundRecord) -> impl Iterator<Item = &str> {
    record
        .safety
        .ghs
        .iter()
        .filter(|g| g.is_current())
        .flat_map(|g| g.h_codes.iter().map(String::as_str))
}

/// The IARC group the record is listed in, as its label.
pub(super) fn iarc_label(record: &CompoundRecord) -> Option<&'static str> {
    record
        .regulatory
        .listings
        .iarc_group
        .as_ref()
        .map(|l| l.group.label())
}

/// A compound's hazard profile in a context, from its result there (`None`: no evidence) and
/// its current hazard statements (distinct, ascending).
pub(super) fn profile<'a>(
    record: &'a CompoundRecord,
    result: Option<&'a ContextResult>,
    h_codes: &'a [String],
) -> HazardProfile<'a> {
    let decisive: Vec<_> = result
        .map(|r| r.evidence.iter().filter(|e| e.decisive).collect())
        .unwrap_or_default();
    // Of the decisive rules, the first in the methodology's order: the hazard classes come
    // before potency, route and life-stage adjustments.
    let rule = decisive
        .iter()
        .map(|e| e.rule)
        .min_by_key(|rule| Rule::ALL.iter().position(|r| r == rule));
    let mut findings: Vec<&str> = Vec::new();
    for e in &decisive {
        if !findings.contains(&e.finding.as_str()) {
            findings.push(&e.finding);
        }
    }
    let listings = &record.regulatory.listings;
    let iarc = listings.iarc_group.as_ref().map(|l| l.group);
    let ntp = listings.ntp_roc.as_ref().map(|l| l.listing.description());
    let carcinogenicity = (iarc.is_some() || ntp.is_some()).then(|| Carcinogenicity {
        iarc_group: iarc.map(|g| g.label()),
        iarc_description: iarc.map(|g| g.description()),
        ntp,
    });
    HazardProfile {
        hazard_class: rule,
        hazard_label: rule.map(hazard_label),
        risk_level: result.map(|r| r.risk_level),
        decisive_findings: findings,
        carcinogenicity,
        h_codes: h_codes.iter().map(String::as_str).collect(),
    }
}

pub(super) fn hazards<'a>(all: &'a [Compared<'a>], context: &str) -> HazardComparison<'a> {
    let codes: Vec<&[String]> = all.iter().map(|c| c.profile.h_codes.as_slice()).collect();
    let (shared, unique) = split(&codes);
    HazardComparison {
        profiles: Compared::each(all, |c| c.hazard(context)),
        ghs: Shared {
            shared,
            unique: InOrder(all.iter().map(Compared::id).zip(unique).collect()),
        },
    }
}
