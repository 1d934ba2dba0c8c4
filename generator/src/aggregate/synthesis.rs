//! Product risk synthesis: a product's tier from the tiers of its compounds in the contexts
//! its exposure names, adjusted by route, duration and frequency multipliers; the multipliers
//! are calibrated heuristics, not regulatory consensus, and the response says so. The
//! dog and cat contexts, where one exposure poisons, take the route factor alone. Each
//! compound's share is reported with its basis: a typical or specified content is the
//! exposure, a legal or advisory limit only its upper bound (METHODOLOGY.md, "Product
//! synthesis"). A product's own curated finding for a pet (a syndrome whose cause no compound
//! of the composition is established as) is scored beside the compounds.

use serde::Serialize;

use super::{Assessment, ContextResult, assess};
use crate::model::Dataset;
use crate::model::contexts::{Context, ContextKind};
use crate::model::material::{Component, Product, ProductFinding, ShareKind};
use crate::model::record::CompoundRecord;
use crate::model::vocab::RiskLevel;

pub const METHOD: &str = "max_adjusted_compound_tier";
pub const VERSION: &str = "1.6";
pub const METHODOLOGY_NOTE: &str = "Each compound's tier in the contexts the product's users and routes name is scored (low 1 to critical 5) and multiplied by route, duration and frequency factors; the product takes the highest adjusted score; a compound of tier high or above scores at least moderate (1.8), since exposure heuristics are no evidence of low hazard. A dog or cat tier is scored with the route factor alone: a pet is poisoned by one exposure, which how often or how long people use the product does not lessen. A product's own finding for a dog or cat, a syndrome a veterinary reference documents where no compound is its established cause, is scored the same way. The multipliers are calibrated heuristics, not regulatory consensus. A compound's typical or specified share is its exposure; a legal or advisory maximum is only an upper bound on it, never the content.";

/// What a compound's share tells about its exposure in the product.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ShareBasis {
    /// A typical or specified content: the exposure itself.
    Content,
    /// A legal or advisory maximum: the content is at most this, in a compliant product.
    UpperBound,
    /// No share stated: the compound's presence only.
    Presence,
}

impl ShareBasis {
    fn of(c: &Component) -> ShareBasis {
        match c.share_kind {
            Some(k) if k.is_content() => ShareBasis::Content,
            Some(_) => ShareBasis::UpperBound,
            None => ShareBasis::Presence,
        }
    }
}

/// Product risk levels, lowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProductRisk {
    Negligible,
    Low,
    Moderate,
    ModerateToHigh,
    High,
    Severe,
    Extreme,
}

impl ProductRisk {
    pub const ALL: [ProductRisk; 7] = [
        ProductRisk::Negligible,
        ProductRisk::Low,
        ProductRisk::Moderate,
        ProductRisk::ModerateToHigh,
        ProductRisk::High,
        ProductRisk::Severe,
        ProductRisk::Extreme,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ProductRisk::Negligible => "negligible",
            ProductRisk::Low => "low",
            ProductRisk::Moderate => "moderate",
            ProductRisk::ModerateToHigh => "moderate_to_high",
            ProductRisk::High => "high",
            ProductRisk::Severe => "severe",
            ProductRisk::Extreme => "extreme",
        }
    }

    /// Score bands: at or above the threshold.
    fn from_score(score: f64) -> ProductRisk {
        match score {
            s if s >= 4.9 => ProductRisk::Extreme,
            s if s >= 3.8 => ProductRisk::Severe,
            s if s >= 3.0 => ProductRisk::High,
            s if s >= 2.5 => ProductRisk::ModerateToHigh,
            s if s >= 1.8 => ProductRisk::Moderate,
            s if s >= 1.0 => ProductRisk::Low,
            _ => ProductRisk::Negligible,
        }
    }
}

/// The least a compound of tier high or above scores, the lower bound of `moderate`: the
/// duration and frequency heuristics can lower its weight, but "low" and "negligible" claim low
/// concern, which only evidence of low hazard supports (METHODOLOGY.md, "Product synthesis").
const SERIOUS_HAZARD_FLOOR: f64 = 1.8;

/// A compound's adjusted score: its tier's score times the product's exposure factor, never
/// below the floor for a tier of high or above.
fn adjusted_score(tier: RiskLevel, factor: f64) -> f64 {
    let score = round2(tier_score(tier) * factor);
    if tier >= RiskLevel::High {
        score.max(SERIOUS_HAZARD_FLOOR)
    } else {
        score
    }
}

/// Whether a context is a pet's. A dog or cat tier says what a single dose a pet meets does
/// (METHODOLOGY.md, "Severity rubric for animals and the environment": an LD50 or a lowest
/// lethal dose), and a pet is poisoned by one exposure (getting into the product, or one
/// application of a product meant for it), so the duration and frequency of people's use,
/// which the product's exposure states, do not lower it (METHODOLOGY.md, "Pets meet a product
/// once").
fn is_pet(context: &str) -> bool {
    matches!(context, "dog" | "cat")
}

fn tier_score(t: RiskLevel) -> f64 {
    match t {
        RiskLevel::Low => 1.0,
        RiskLevel::Moderate => 2.0,
        RiskLevel::High => 3.0,
        RiskLevel::VeryHigh => 4.0,
        RiskLevel::Critical => 5.0,
    }
}

/// Route factor: the largest over the product's routes.
pub fn route_factor(routes: &[String]) -> f64 {
    routes
        .iter()
        .map(|r| match r.as_str() {
            "ingestion" | "inhalation" => 1.0,
            "dermal" => 0.8,
            "ocular" => 0.6,
            _ => 0.5,
        })
        .fold(0.5, f64::max)
}

pub fn duration_factor(d: &str) -> f64 {
    match d {
        "momentary" => 0.6,
        "short" => 0.8,
        "continuous" => 1.1,
        _ => 1.0,
    }
}

pub fn frequency_factor(f: &str) -> f64 {
    match f {
        "occasional" => 0.7,
        "weekly" => 0.85,
        "continuous" => 1.1,
        _ => 1.0,
    }
}

/// The contexts a product's exposure names, most specific first.
pub fn contexts_for(product: &Product) -> Vec<&'static str> {
    let mut out = Vec::new();
    for u in &product.exposure.users {
        out.extend(match u.as_str() {
            "adults" => &["human_adult"][..],
            "children" => &["human_child"],
            "infants" => &["human_infant"],
            "pregnant" => &["human_pregnant"],
            "workers" => &["occupational_exposure"],
            "pets" => &["dog", "cat"],
            _ => &[],
        });
    }
    for r in &product.exposure.routes {
        out.extend(match r.as_str() {
            "dermal" => &["exposure_dermal"][..],
            "ingestion" => &["exposure_ingestion"],
            "inhalation" => &["exposure_inhalation"],
            "ocular" => &["exposure_ocular"],
            _ => &[],
        });
    }
    out.dedup();
    out
}

/// One compound's contribution (`compound_traces`, Developer+ only).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Trace {
    pub compound_id: String,
    pub name: String,
    pub cas: String,
    pub role: String,
    #[schemars(with = "Option<Context>")]
    pub context_used: Option<&'static str>,
    pub tier: Option<RiskLevel>,
    pub confidence: Option<f64>,
    pub adjusted_score: f64,
    /// The product's contexts had no answer for this compound: a context of the same subjects
    /// was used.
    pub fallback: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share_kind: Option<ShareKind>,
    pub share_basis: ShareBasis,
}

/// A product finding's contribution: the syndrome, its tier in the pet's context and its
/// score (METHODOLOGY.md, "A syndrome without an established cause").
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct FindingTrace {
    #[schemars(with = "Context")]
    pub context: &'static str,
    pub tier: RiskLevel,
    pub adjusted_score: f64,
    pub finding: String,
    pub source: String,
}

/// How many assessed compounds have each share basis.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ShareBases {
    pub content: usize,
    pub upper_bound: usize,
    pub presence: usize,
}

impl ShareBases {
    fn of(traces: &[Trace]) -> ShareBases {
        let mut bases = ShareBases::default();
        for t in traces {
            *match t.share_basis {
                ShareBasis::Content => &mut bases.content,
                ShareBasis::UpperBound => &mut bases.upper_bound,
                ShareBasis::Presence => &mut bases.presence,
            } += 1;
        }
        bases
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Synthesis {
    pub risk_level: Option<ProductRisk>,
    pub score: f64,
    #[schemars(with = "Vec<Context>")]
    pub contexts: Vec<&'static str>,
    pub multipliers: Multipliers,
    pub compounds_assessed: usize,
    /// The product's own findings that count in its contexts; absent when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub product_findings: Vec<FindingTrace>,
    pub share_bases: ShareBases,
    pub synthesis_method: &'static str,
    pub synthesis_version: &'static str,
    pub methodology_note: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Multipliers {
    pub route: f64,
    pub duration: f64,
    pub frequency: f64,
}

/// A product's synthesis and each compound's trace, as `synthesize` returns them.
pub type Synthesized = (Synthesis, Vec<Trace>);

/// Synthesises a product's risk; returns the synthesis and each compound's trace.
pub fn synthesize(dataset: &Dataset, product: &Product) -> Synthesized {
    let contexts = contexts_for(product);
    let m = Multipliers {
        route: route_factor(&product.exposure.routes),
        duration: duration_factor(&product.exposure.duration),
        frequency: frequency_factor(&product.exposure.frequency),
    };
    let factor = m.route * m.duration * m.frequency;
    let factor_in = |ctx: &str| if is_pet(ctx) { m.route } else { factor };
    let traces: Vec<Trace> = product
        .composition
        .iter()
        .filter_map(|c| {
            let record = dataset.by_cas(&c.cas)?;
            Some(compound_trace(record, c, &contexts, factor, factor_in))
        })
        .collect();
    let findings = finding_traces(&product.findings, &contexts, factor_in);
    let score = traces
        .iter()
        .map(|t| t.adjusted_score)
        .chain(findings.iter().map(|f| f.adjusted_score))
        .fold(0.0, f64::max);
    // A compound without a tier in any context is evidence of nothing: a product none of whose
    // compounds is assessed, and with no finding of its own, has no level, never "negligible"
    // (METHODOLOGY.md, "Product synthesis").
    let assessed = traces.iter().any(|t| t.tier.is_some()) || !findings.is_empty();
    let synthesis = Synthesis {
        risk_level: assessed.then(|| ProductRisk::from_score(score)),
        score,
        contexts,
        multipliers: m,
        compounds_assessed: traces.len(),
        product_findings: findings,
        share_bases: ShareBases::of(&traces),
        synthesis_method: METHOD,
        synthesis_version: VERSION,
        methodology_note: METHODOLOGY_NOTE,
    };
    (synthesis, traces)
}

/// A compound's trace: its best-scoring tier among the product's contexts or, when it has none
/// of them, among the contexts of the same subjects as a fallback; `factor` is the product's
/// whole exposure factor, `factor_in` the one a context takes.
fn compound_trace(
    record: &CompoundRecord,
    c: &Component,
    contexts: &[&'static str],
    factor: f64,
    factor_in: impl Fn(&str) -> f64,
) -> Trace {
    let a = assess(record);
    let scored = |r: &ContextResult| adjusted_score(r.risk_level, factor_in(r.context));
    // A fallback answers for a context the product does not name: the product's own
    // exposure, all three factors, applies to it.
    let whole = |r: &ContextResult| adjusted_score(r.risk_level, factor);
    let (used, fallback) = match best(&a, contexts.iter().copied(), scored) {
        Some(r) => (Some(r), false),
        None => {
            let r = best(&a, same_subjects(contexts), whole);
            (r, r.is_some())
        }
    };
    let score = used.map_or(0.0, |r| if fallback { whole(r) } else { scored(r) });
    Trace {
        compound_id: record.hq_id.to_string(),
        name: record.name.clone(),
        cas: record.cas.to_string(),
        role: c.role.clone(),
        context_used: used.map(|r| r.context),
        tier: used.map(|r| r.risk_level),
        confidence: used.map(|r| r.confidence),
        adjusted_score: score,
        fallback,
        share: c.share.clone(),
        share_kind: c.share_kind,
        share_basis: ShareBasis::of(c),
    }
}

/// The compound's best-scoring result among these contexts: highest score, then tier, then
/// confidence.
fn best(
    a: &Assessment,
    among: impl Iterator<Item = &'static str>,
    score: impl Fn(&ContextResult) -> f64,
) -> Option<&ContextResult> {
    among.filter_map(|ctx| a.get(ctx)).max_by(|x, y| {
        score(x)
            .total_cmp(&score(y))
            .then(x.risk_level.cmp(&y.risk_level))
            .then(x.confidence.total_cmp(&y.confidence))
    })
}

/// The contexts whose subjects are those of the product's contexts, where a compound without a
/// tier in any of them may fall back: a product's risk is for its users, so people's contexts
/// (the life stages, the routes and the workplace) when it names one of them, a dog's or a
/// cat's when it names that species, and the environment's (environmental, aquatic life,
/// terrestrial wildlife, pollinators) only when it names one of them (METHODOLOGY.md,
/// "Product synthesis").
fn same_subjects(contexts: &[&'static str]) -> impl Iterator<Item = &'static str> {
    let subjects = |c: Context| match c.kind() {
        ContextKind::Human | ContextKind::Route => ContextKind::Human,
        kind => kind,
    };
    let named: Vec<Context> = contexts
        .iter()
        .filter_map(|c| Context::from_name(c))
        .collect();
    Context::ALL
        .into_iter()
        .filter(move |c| {
            named.iter().any(|n| match c.kind() {
                ContextKind::Animal => n == c,
                _ => subjects(*n) == subjects(*c),
            })
        })
        .map(Context::name)
}

/// The product's findings in the contexts its exposure names, each scored; a finding for a
/// species the product's users do not bring in says nothing of this product's exposure.
fn finding_traces(
    findings: &[ProductFinding],
    contexts: &[&'static str],
    factor_in: impl Fn(&str) -> f64,
) -> Vec<FindingTrace> {
    findings
        .iter()
        .filter_map(|f| {
            let ctx = *contexts.iter().find(|c| **c == f.context)?;
            Some(FindingTrace {
                context: ctx,
                tier: f.severity,
                adjusted_score: adjusted_score(f.severity, factor_in(ctx)),
                finding: f.finding.clone(),
                source: f.source.clone(),
            })
        })
        .collect()
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A product with no compound composition and one documented syndrome for dogs (grapes
    /// and raisins, METHODOLOGY.md, "A syndrome without an established cause").
    fn syndrome_product(users: &[&str]) -> Product {
        serde_json::from_value(serde_json::json!({
            "id": "hq-p-pet-999999",
            "name": "Fruit",
            "tier": "PET",
            "categories": ["foods"],
            "description": {"text": "t", "source": "s"},
            "findings": [{"context": "dog", "severity": "high", "finding": "acute kidney injury", "source": "s"}],
            "hazard_summary": {"text": "t", "source": "s"},
            "exposure": {"routes": ["ingestion"], "users": users, "duration": "momentary",
                "frequency": "occasional", "source": "s"},
            "sources": [],
            "meta": {"created": "2026-11-27", "last_reviewed": "2026-11-27", "version": 1}
        }))
        .unwrap()
    }

    /// The syndrome alone assesses the product: high for dogs, one exposure, the route factor
    /// alone (3 x 1.0), not the people's momentary and occasional use (3 x 0.42).
    #[test]
    fn a_product_finding_for_a_pet_decides_without_a_compound() {
        let d = &Dataset::default();
        let (s, traces) = synthesize(d, &syndrome_product(&["pets"]));
        assert!(traces.is_empty());
        assert_eq!(s.risk_level, Some(ProductRisk::High));
        assert_eq!(s.score, 3.0);
        assert_eq!(s.product_findings.len(), 1);
        assert_eq!(s.product_findings[0].context, "dog");
    }

    /// A dog finding says nothing of a product no dog meets.
    #[test]
    fn a_product_finding_counts_only_where_its_users_bring_the_species_in() {
        let d = &Dataset::default();
        let (s, _) = synthesize(d, &syndrome_product(&["adults"]));
        assert_eq!(s.risk_level, None);
        assert!(s.product_findings.is_empty());
    }

    #[test]
    fn score_bands_are_ordered_and_cover_the_scale() {
        let levels: Vec<ProductRisk> = [0.5, 1.0, 1.8, 2.5, 3.0, 3.8, 4.9, 5.5]
            .iter()
            .map(|s| ProductRisk::from_score(*s))
            .collect();
        assert!(levels.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(levels[0], ProductRisk::Negligible);
        assert_eq!(levels[7], ProductRisk::Extreme);
    }

    /// A compound record with the given parts (no source list: synthesis does not read it).
    fn compound(parts: serde_json::Value) -> CompoundRecord {
        let mut v = serde_json::json!({
            "hq_id": "hq-c-ino-000001", "name": "Test", "name_source": "t", "cas": "1314-13-2",
            "identity": {}, "crossrefs": {}, "properties": {"chemical_properties": {}},
            "safety": {}, "regulatory": {}, "hierarchy": {},
            "sources": [], "meta": {"created": "2026-01-01", "last_reviewed": "2026-01-01", "version": 1}
        });
        crate::model::merge::merge(&mut v, parts, &|_: &str| 0);
        serde_json::from_value(v).unwrap()
    }

    fn line() -> Component {
        Component {
            cas: "1314-13-2".into(),
            name: "Test".into(),
            role: "uv_filter".into(),
            share: None,
            share_kind: None,
            note: None,
            source: "s".into(),
        }
    }

    /// A body-care product (adults, on the skin): a compound tiered only for the environment
    /// (Aquatic Acute 1, Aquatic Chronic 1) says nothing of the product's users, so it takes no
    /// tier and no score and is no fallback; one tiered only for the workplace (an 8-hour limit
    /// of 0.005 mg/m3, very high) falls back to it, people being the product's subjects.
    #[test]
    fn a_fallback_stays_with_the_products_subjects() {
        let contexts = ["human_adult", "exposure_dermal"];
        let factor = 0.8;
        let aquatic = compound(serde_json::json!({"safety": {"ghs": [{"jurisdiction": "EU",
            "hazard_classes": ["Aquatic Acute 1", "Aquatic Chronic 1"], "h_codes": ["H400", "H410"],
            "source": "clp"}]}}));
        let a = assess(&aquatic);
        assert!(a.get("aquatic_life").is_some());
        assert!(contexts.iter().all(|c| a.get(c).is_none()));
        let t = compound_trace(&aquatic, &line(), &contexts, factor, |_| factor);
        assert_eq!((t.context_used, t.tier, t.fallback), (None, None, false));
        assert_eq!(t.adjusted_score, 0.0);
        let workplace = compound(serde_json::json!({"safety": {"exposure_limits": [{
            "agency": "Ontario Ministry of Labour", "jurisdiction": "CA-ON", "kind": "twa",
            "value": 0.005, "unit": "mg/m3", "source": "on"}]}}));
        let t = compound_trace(&workplace, &line(), &contexts, factor, |_| factor);
        assert_eq!(
            (t.context_used, t.tier, t.fallback),
            (
                Some("occupational_exposure"),
                Some(RiskLevel::VeryHigh),
                true
            )
        );
        assert_eq!(t.adjusted_score, 3.2);
    }

    #[test]
    fn multipliers() {
        assert_eq!(route_factor(&["dermal".into(), "ingestion".into()]), 1.0);
        assert_eq!(route_factor(&["ocular".into()]), 0.6);
        assert!(duration_factor("momentary") < duration_factor("prolonged"));
        assert!(frequency_factor("occasional") < frequency_factor("daily"));
    }

    #[test]
    fn a_legal_maximum_is_an_upper_bound_never_the_content() {
        let line = |kind: Option<ShareKind>| Component {
            cas: "131-57-7".into(),
            name: "Oxybenzone".into(),
            role: "uv_filter".into(),
            share: kind.map(|_| "6 %".into()),
            share_kind: kind,
            note: None,
            source: "s".into(),
        };
        assert_eq!(
            ShareBasis::of(&line(Some(ShareKind::LegalLimit))),
            ShareBasis::UpperBound
        );
        assert_eq!(
            ShareBasis::of(&line(Some(ShareKind::AdvisoryLimit))),
            ShareBasis::UpperBound
        );
        assert_eq!(
            ShareBasis::of(&line(Some(ShareKind::Typical))),
            ShareBasis::Content
        );
        assert_eq!(
            ShareBasis::of(&line(Some(ShareKind::Specification))),
            ShareBasis::Content
        );
        assert_eq!(ShareBasis::of(&line(None)), ShareBasis::Presence);
    }

    #[test]
    fn a_very_high_compound_in_daily_prolonged_ingestion_is_severe() {
        // 4 (very high) x 1.0 x 1.0 x 1.0 = 4.0 -> severe; occasional short skin contact brings
        // the same compound to 4 x 0.8 x 0.8 x 0.7 = 1.79, which the floor holds at moderate.
        let daily = adjusted_score(RiskLevel::VeryHigh, 1.0);
        assert_eq!(ProductRisk::from_score(daily), ProductRisk::Severe);
        let factor = route_factor(&["dermal".into()])
            * duration_factor("short")
            * frequency_factor("occasional");
        assert_eq!(round2(4.0 * factor), 1.79);
        let casual = adjusted_score(RiskLevel::VeryHigh, factor);
        assert_eq!(ProductRisk::from_score(casual), ProductRisk::Moderate);
    }

    /// Boric acid dusts (METHODOLOGY.md, "Product synthesis"): a reproductive toxicant of
    /// category 1B is high; used short and occasionally (3 x 1.0 x 0.8 x 0.7 = 1.68) it stays
    /// moderate, never low. A moderate compound is not held up: 2 x 0.56 = 1.12 is low.
    #[test]
    fn exposure_heuristics_never_make_a_serious_hazard_low() {
        let factor = route_factor(&["inhalation".into()])
            * duration_factor("short")
            * frequency_factor("occasional");
        assert_eq!(adjusted_score(RiskLevel::High, factor), 1.8);
        assert_eq!(
            ProductRisk::from_score(adjusted_score(RiskLevel::High, factor)),
            ProductRisk::Moderate
        );
        let least = 0.6 * duration_factor("momentary") * frequency_factor("occasional");
        assert_eq!(
            ProductRisk::from_score(adjusted_score(RiskLevel::Critical, least)),
            ProductRisk::Moderate
        );
        assert_eq!(adjusted_score(RiskLevel::Moderate, factor), 1.12);
        assert_eq!(adjusted_score(RiskLevel::High, 1.0), 3.0);
    }
}
