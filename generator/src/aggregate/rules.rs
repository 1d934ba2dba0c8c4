//! The risk rules: every rule that turns signals into a context's tier lives here, and each
//! `Rule` is written in METHODOLOGY.md under its id in the same words (a test holds this).
//!
//! A context's tier is the highest tier any rule gives it, so adding evidence never lowers a
//! tier (monotone by construction). Life-stage rules raise a finding one tier, never above
//! very high; only the watch lists give `critical`.

use serde::{Serialize, Serializer};

use self::Rule as R;
use super::routes::Route;
use super::signals::{
    CHRONIC_1, CHRONIC_1_M1, Hazard, Hazard as H, PBT, SCREENED_PBT, Signal, VPVB,
};
use crate::model::contexts::{Context, Context as C, ContextKind as Kind};
use crate::model::vocab::RiskLevel::{self, Critical, High, Low, Moderate, VeryHigh};

/// A rule of the aggregation. The variants are METHODOLOGY.md's rules in its order (a test
/// holds this): `id` is the rule's heading there and its name in an answer's
/// `evidence[].rule`, `text` its words there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    Carcinogenicity,
    Mutagenicity,
    ReproductiveToxicity,
    OrganToxicity,
    AcuteToxicity,
    EndocrineDisruption,
    Sensitisation,
    LocalEffects,
    Potency,
    RouteRelevance,
    WatchLists,
    LowConcern,
    LifeStage,
    Species,
    Environment,
    Aquatic,
    Wildlife,
    Pollinators,
    Confidence,
    Disagreement,
}

impl Rule {
    /// Every rule, in METHODOLOGY.md's order.
    pub const ALL: [Rule; 20] = [
        Rule::Carcinogenicity,
        Rule::Mutagenicity,
        Rule::ReproductiveToxicity,
        Rule::OrganToxicity,
        Rule::AcuteToxicity,
        Rule::EndocrineDisruption,
        Rule::Sensitisation,
        Rule::LocalEffects,
        Rule::Potency,
        Rule::RouteRelevance,
        Rule::WatchLists,
        Rule::LowConcern,
        Rule::LifeStage,
        Rule::Species,
        Rule::Environment,
        Rule::Aquatic,
        Rule::Wildlife,
        Rule::Pollinators,
        Rule::Confidence,
        Rule::Disagreement,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Rule::Carcinogenicity => "carcinogenicity",
            Rule::Mutagenicity => "mutagenicity",
            Rule::ReproductiveToxicity => "reproductive_toxicity",
            Rule::OrganToxicity => "organ_toxicity",
            Rule::AcuteToxicity => "acute_toxicity",
            Rule::EndocrineDisruption => "endocrine_disruption",
            Rule::Sensitisation => "sensitisation",
            Rule::LocalEffects => "local_effects",
            Rule::Potency => "potency",
            Rule::RouteRelevance => "route_relevance",
            Rule::WatchLists => "watch_lists",
            Rule::LowConcern => "low_concern",
            Rule::LifeStage => "life_stage",
            Rule::Species => "species",
            Rule::Environment => "environment",
            Rule::Aquatic => "aquatic",
            Rule::Wildlife => "wildlife",
            Rule::Pollinators => "pollinators",
            Rule::Confidence => "confidence",
            Rule::Disagreement => "disagreement",
        }
    }

    pub fn text(self) -> &'static str {
        match self {
            Rule::Carcinogenicity => {
                "A known human carcinogen (IARC Group 1, EU CLP Carc. 1A, NTP known) is very high; a probable or presumed one (IARC 2A, Carc. 1B, NTP reasonably anticipated, Proposition 65 cancer, OSHA regulated carcinogen) is high; a possible or suspected one (IARC 2B, Carc. 2) is moderate. A cancer hazard by inhalation only (H350i, a listing of airborne particles, fibres or mists, or an agent whose cancer evidence is by inhaled fibres, dust, powder or workplace aerosols: asbestos, refractory ceramic fibres, crystalline silica, beryllium and the members of the EU CLP group entry for beryllium compounds, titanium dioxide, talc, nickel compounds) counts at that strength for inhalation and the workplace, and for people where the agent is inhaled in its ordinary form (asbestos and refractory ceramic fibres, crystalline silica dust), one step below for people otherwise, at least moderate (a known carcinogen high, a probable or possible one moderate), and not for ingestion or the skin; where a substance's own EU CLP entry is by inhalation only (H350i), the route-free calls of IARC, NTP and Proposition 65 on it count as by inhalation too. A cancer hazard by injection only (an agent whose evidence is tumours at the injection site: iron dextran) is at most moderate for people and counts for no route of exposure. A position whose evidence is by the oral route only (chromium(VI) in drinking water, NTP Technical Report 546) counts for people and ingestion only, whatever the route of the substance's EU CLP entry. A Proposition 65 cancer listing made through the Labor Code or by an authoritative body (OEHHA mechanisms LC and AB) carries another body's identification into the list: where the record's other calls weigh the agent as possible or suspected, or IARC evaluated it as Group 3, and none weighs it as probable or known, it counts as possible, unless the agent is a germ cell mutagen (H340, H341) or of a class IARC finds DNA-reactive by mechanism, read from its structure (an N-nitroso compound, a nitro or primary amino group on a fused polycyclic aromatic, a nitrogen mustard, a short alkyl ester of a sulfonic or sulfuric acid or a sultone): a Labor Code listing beside IARC 2B or Carc. 2, an authoritative-body listing only beside the EU's harmonised Carc. 2, either beside IARC Group 3; a listing by the State's Qualified Experts (SQE) or by a formal labelling requirement (FR) stays probable. IARC Group 3 means the evidence is inadequate, not that it is negative, and gives no finding; so does Group 4."
            }
            Rule::Mutagenicity => {
                "Germ cell mutagens of category 1 (H340) are high and of category 2 (H341) moderate."
            }
            Rule::ReproductiveToxicity => {
                "Reproductive or developmental toxicants of category 1 (H360) and Proposition 65 reproductive or developmental listings are high; category 2 (H361) is moderate; effects via lactation (H362) are moderate. In a code's letters an upper case F or D is the code's own category and a lower case f or d category 2 (CLP Annex VI, Table 3: H360Fd is fertility 1B and development 2), so Lilial's H360Fd is a suspected, not a known, developmental toxicant."
            }
            Rule::OrganToxicity => {
                "Specific target organ toxicity of category 1 (H370, H372) is high and of category 2 (H371, H373) moderate. Where the classification states its route (EU CLP Annex VI \"(Inhalation)\" beside the code; Safe Work Australia's \"if inhaled\", \"if swallowed\", \"in contact with skin\"), it counts only for that route, for the workplace when the route is inhalation or the skin, and for people, at most moderate where inhalation is its only route unless the agent is inhaled in its ordinary form."
            }
            Rule::AcuteToxicity => {
                "Acute toxicity by the context's routes: fatal (H300, H310, H330) is very high, toxic (H301, H311, H331) high, harmful (H302, H312, H332) moderate. An EU CLP Annex VI category marked * is a minimum classification: it gives its category's tier as a floor, and its finding says \"at least\". A poisoning of people that the classes understate (`data/curated/human-poisoning.json`, each citing the document that records it) counts at the curator's tier for the groups of people and the routes its document speaks of, and for the workplace where that route is inhalation or the skin: very high where people die of it at the doses or concentrations they meet, high where it injures an organ seriously or kills after an accidental or deliberate ingestion or a contaminated product and needs hospital treatment, or at a toxic dose of about 50 to 300 mg/kg."
            }
            Rule::EndocrineDisruption => {
                "An endocrine disruptor for human health (ECHA SVHC Article 57(f)) is moderate for adults."
            }
            Rule::Sensitisation => {
                "Respiratory sensitisers (H334) are high where the air is the route and moderate otherwise; skin sensitisers (H317) are moderate where the skin is exposed: skin contact, the workplace and every group of people, whose skin meets the substance in products."
            }
            Rule::LocalEffects => {
                "Corrosion (H314) is high for skin, eye, ingestion and workplace exposure, and for inhalation where the substance reaches the air; for every group of people it is high for skin corrosion sub-category 1A, for children and infants also for 1B, and moderate otherwise for 1B, 1C or an unstated sub-category; serious eye damage (H318) is high for the eye and moderate for ingestion; skin irritation (H315), eye irritation (H319), respiratory irritation (H335), drowsiness (H336) and aspiration (H304) are moderate where their route applies. A corrosive that is also fatal in contact with skin (H314 with H310) is very high for the eye, and a curated injury of the eye or skin that its classes understate (`data/curated/local-injuries.json`, each citing the document that records it) counts for that route at the curator's tier."
            }
            Rule::Potency => {
                "Potency bands: a tolerable or acceptable daily intake below 0.0001 mg/kg bw/day is high, below 0.01 moderate, otherwise low; a chronic inhalation reference concentration below 1 µg/m3 is high, below 10 µg/m3 moderate, otherwise low; an occupational 8-hour limit below 0.01 mg/m3 is very high, below 0.1 high, below 1 moderate, otherwise low."
            }
            Rule::RouteRelevance => {
                "Systemic hazards count for inhalation only when the substance reaches the air (boiling point at or below 250 °C, a fibre, dust or powder among the agents inhaled as particles, a compound of cadmium, nickel or beryllium (groups IARC evaluated on inhaled dust and fume), an inhalation limit, reference value or unit risk or an air concentration at a stated cancer risk, an agent IARC evaluated with engine exhausts, a medicine a document shows met as dust where it is formulated, or an inhalation classification), otherwise at most moderate; they count for the skin only when it is absorbed (a skin notation or a dermal acute toxicity class), and a cancer hazard only on a skin notation. A peptide or protein medicine given by injection, implant or nasal spray (`aggregate/routes.rs`, each with its prescribing information) counts for ingestion with none of its systemic hazards, since the gut digests it; given only by injection or implant, its Proposition 65 listings made by a formal labelling requirement (FR) count at most moderate for people and the workplace, which meet it only as patients under its label, so that pregnancy, raised one tier, is at most high. A gas at room temperature (boiling point below 20 °C) counts for ingestion with none of its systemic hazards either, as it is not swallowed, and is not low for ingestion."
            }
            Rule::WatchLists => {
                "Chemical Weapons Convention Schedule 1 agents, the Schedule 2A nerve agent amiton and other critical threats are critical; curated acute toxins are very high, for people and animals alike, except for eye contact, where only critical threats count, for skin contact where the substance has no dermal acute toxicity class of category 1 to 3 (H310, H311), and for a dog or cat whose curated finding states its own dose, which decides it (rule species)."
            }
            Rule::LowConcern => {
                "Low needs positive evidence of low hazard: a reference value in the lowest potency band, an acute LD50, LC50 or EC50 above the top band of the severity rubric (a bound such as \">2000 mg/kg bw\" only when every value it allows is above it), or the curator's call of an everyday substance, which is low for people other than infants and for ingestion; a reference value in the lowest band is not low for infants either. The absence of a hazard class is no such evidence: an EU CLP Annex VI entry harmonises only the classes it lists (and * marks a minimum classification), Safe Work Australia's HCIS carries no environmental classes, and an FDA food listing authorises a use, it does not find the substance harmless. A context without any finding is not answered."
            }
            Rule::LifeStage => {
                "Life stages raise the findings they are sensitive to by one tier, never above very high: pregnancy for developmental and human-health endocrine hazards, except a Proposition 65 developmental listing carried from an authoritative body or the Labor Code (AB, LC) or one that a later evaluation for pregnancy, curated for that stage, did not uphold, which stays at its own tier; infants and children for endocrine hazards, for category 1 mutagens (H340, not H341) that the record also calls probable or known carcinogens, other than by a listing carried from another body, for such a cancer call on an agent of a class IARC finds DNA-reactive (rule carcinogenicity), and for developmental hazards only where H362 shows that the substance reaches the child after birth; teenagers for endocrine hazards; breastfeeding for effects on or via lactation (H362) and, where H362 shows that the substance reaches the breast-fed child, for developmental hazards, which without it count at most moderate for breastfeeding. Older adults take the adults' findings, reproductive, developmental and lactation ones at most moderate, a cap that lowers no other finding for them. An acute toxicity class raises no life stage, a fertility class does not raise pregnancy, and a developmental class or listing without H362 (H360D, H361d, Proposition 65 developmental toxicity) does not raise infants or children. A curated finding of an assessment for a life stage (EFSA's developmental neurotoxicity of lead in young children) counts for that stage at the curator's tier, and so does a curated poisoning whose document speaks of older adults apart from adults at large (rule acute_toxicity)."
            }
            Rule::Species => {
                "Dogs and cats take curated species findings at the curator's tier (high if none is given), over the acute-toxin watch list where the finding states the species' dose; without a finding of their own, the laboratory mammal stands in: its most sensitive rat or mouse oral LD50 in the rubric's bands (at most 50 mg/kg bw very high, at most 300 high, at most 2000 moderate, above 2000 low, but not for cats when the compound is a phenol, which cats glucuronidate poorly) or, where no such LD50 counts, its acute oral classification at its tier (fatal very high, toxic high, harmful moderate), and a corrosive (H314) at high, marked surrogate in the evidence and at 0.7 of its source's trust, as regulators use rodent data for mammals; rodenticides are high."
            }
            Rule::Environment => {
                "The environment: PBT or vPvB substances (ECHA SVHC) are very high, and a substance on Minnesota's screening list of persistent bioaccumulative toxicants, which is no PBT assessment, moderate; environmental endocrine disruptors, substances listed for an equivalent level of concern for the environment (ECHA SVHC Article 57(f): HFPO-DA) and ozone-depleting substances are high; a 100-year GWP of 1000 or more is high and of 150 or more moderate; chronic aquatic category 1 is high and category 2 moderate; a curated finding counts at the curator's tier, a listing under the Stockholm Convention on Persistent Organic Pollutants very high, as a PBT listing is."
            }
            Rule::Aquatic => {
                "Aquatic life: chronic category 1 (H410), and acute category 1 with an M-factor of 10 or more (an L(E)C50 at most 0.1 mg/l), are very high, acute category 1 (H400), chronic category 1 whose entry states M-factors of 1 only, and chronic category 2 (H411) high, chronic categories 3 and 4 (H412, H413) moderate; PBT substances, persistent organic pollutants (a curated Stockholm Convention listing) unless the EU identified them vPvB only, and environmental endocrine disruptors are high, and a vPvB listing without a PBT one, or Minnesota's screening list of persistent bioaccumulative toxicants, moderate; the most sensitive acute fish, invertebrate or algal LC50 or EC50 (at most 4 days) is very high below 0.1 mg/l, high up to 1 mg/l, moderate up to 100 mg/l and low above."
            }
            Rule::Wildlife => {
                "Terrestrial wildlife: rodenticides are very high (secondary poisoning); PBT substances (ECHA SVHC) and persistent organic pollutants (a curated Stockholm Convention listing) high, and a vPvB listing without a PBT one, or Minnesota's screening list of persistent bioaccumulative toxicants, moderate; the most sensitive bird acute oral LD50 in the rubric's bands (at most 50 mg/kg bw very high, at most 300 high, at most 2000 moderate, above 2000 low); insecticides and acaricides without a bird or rodent LD50 moderate; without a curated wildlife finding, the laboratory mammal's rat or mouse oral LD50, or without one its acute oral classification, stands in at its tier, marked surrogate in the evidence and at 0.6 of its source's trust."
            }
            Rule::Pollinators => {
                "Pollinators: neonicotinoids are very high; the most sensitive honey bee acute LD50, contact or oral, is high below 2 µg/bee, moderate below 11 and low from 11 (US EPA's categories); other insecticides are high whatever their LD50, an acaricide only by its own LD50; curated pollinator findings count at the curator's tier."
            }
            Rule::Confidence => {
                "Confidence is the trust in the deciding evidence (0.9 for harmonised classifications and agency evaluations, 0.85 for listings and reference values, 0.8 for fallback classifications and curated findings, 0.7 for use classes, 0.6 or less for stand-ins and low-concern findings), plus 0.03 for each further agency that agrees, at most 0.97, and 0.1 less where agencies disagree on carcinogenicity."
            }
            Rule::Disagreement => {
                "Where agencies' carcinogenicity calls differ by two steps or more (for example IARC Group 2A against another agency's \"not likely\"), each position is kept in the evidence and the tier follows the strongest call of an authoritative body."
            }
        }
    }
}

/// A rule is written as its id, as answers always gave it.
impl Serialize for Rule {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

/// Published as the strings it is serialised as: the ids of `Rule::ALL`, METHODOLOGY.md's
/// headings.
impl schemars::JsonSchema for Rule {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Rule".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let ids = Rule::ALL.map(Rule::id);
        schemars::json_schema!({ "type": "string", "enum": ids })
    }
}

/// One finding: a rule applied to a signal, with the tier it gives in this context.
#[derive(Debug, Clone)]
pub struct Finding<'s> {
    pub rule: Rule,
    pub tier: RiskLevel,
    pub signal: &'s Signal,
    /// Confidence factor of this application (stand-ins and escalations trust less).
    pub factor: f64,
}

fn by_strength3(s: u8) -> RiskLevel {
    match s {
        0 => Low,
        1 => Moderate,
        2 => High,
        _ => VeryHigh,
    }
}

fn by_strength2(s: u8) -> RiskLevel {
    if s >= 2 { High } else { Moderate }
}

/// Facts about the substance that route rules need beyond signals.
#[derive(Debug, Clone, Copy, Default)]
pub struct Exposure {
    /// Boiling point at or below 250 °C, or an inhalation limit or reference value.
    pub reaches_air: bool,
    /// An agent inhaled as fibres or dust in its ordinary form (`routes.rs`).
    pub inhaled_form: bool,
    /// A peptide or protein medicine the gut digests (`routes.rs`).
    pub digested: bool,
    /// Such a medicine given only by injection or implant (`routes.rs`).
    pub injected_medicine: bool,
    /// A gas at room temperature (boiling point below 20 °C): not swallowed.
    pub gas: bool,
}

/// A rule applied to a signal: the rule, the tier it gives and the confidence factor of this
/// application.
type Applied = (Rule, RiskLevel, f64);

/// All findings for one context: each signal meets the watch lists, then the rules of the
/// context's family (people, a route of exposure, an animal, the environment); the life-stage
/// rules then raise what the context is sensitive to.
pub fn findings<'s>(
    context: Context,
    signals: &'s [Signal],
    exposure: Exposure,
) -> Vec<Finding<'s>> {
    let mut out: Vec<Finding<'s>> = signals
        .iter()
        .filter(|s| !s.by_mouth_only || counts_by_mouth(context))
        .filter_map(|s| {
            let (rule, tier, factor) =
                watch_list(context, s, signals).or_else(|| match context.kind() {
                    Kind::Human => people(context, s, signals, exposure),
                    Kind::Route => route(context, s, signals, exposure),
                    Kind::Animal => animal(context, s, signals),
                    Kind::Environmental => environment(context, s, signals),
                })?;
            Some(Finding {
                rule,
                tier,
                signal: s,
                factor,
            })
        })
        .collect();
    life_stage(context, &mut out);
    out
}

/// A call on the substance as drunk (ethanol in beverages) or by the oral route only counts for
/// people and for ingestion only.
fn counts_by_mouth(context: Context) -> bool {
    context.kind() == Kind::Human || context == C::ExposureIngestion
}

/// The watch lists (rule "watch_lists"): people, animals and every route of exposure.
fn watch_list(context: Context, s: &Signal, signals: &[Signal]) -> Option<Applied> {
    if context.kind() == Kind::Environmental {
        return None;
    }
    match s.hazard {
        H::WatchedCritical => Some((R::WatchLists, Critical, 1.0)),
        // Only critical threats count for eye contact; the acute-toxin list names a class, so
        // a curated dose of the species' own decides that species (rule "species").
        H::WatchedAcute
            if context != C::ExposureOcular
                && !(context.kind() == Kind::Animal && has_own_dose(signals, context))
                && watched_acute_reaches_skin(context, signals) =>
        {
            Some((R::WatchLists, VeryHigh, 1.0))
        }
        _ => None,
    }
}

/// The acute-toxin watch list names a lethal class, which for most of its members is by mouth
/// or by inhalation: on the skin it counts only where a dermal acute class of category 1 to 3
/// says that a lethal amount crosses it; category 4 (H312) puts the dermal LD50 above
/// 1000 mg/kg (METHODOLOGY.md, watch_lists).
fn watched_acute_reaches_skin(context: Context, signals: &[Signal]) -> bool {
    context != C::ExposureDermal
        || signals
            .iter()
            .any(|s| s.hazard == H::AcuteDermal && s.strength >= 2)
}

/// A group of people (`human_*`): every systemic and acute hazard counts; sensitisers and
/// local effects at most moderate, as people meet the substance in products.
fn people(context: Context, s: &Signal, signals: &[Signal], exposure: Exposure) -> Option<Applied> {
    let applied = match s.hazard {
        // A labelling listing of a medicine given only by injection reaches people as patients
        // under its label (METHODOLOGY.md, route_relevance).
        H::Carcinogen | H::Reproductive | H::Developmental
            if s.labelling && exposure.injected_medicine =>
        {
            (R::RouteRelevance, systemic(s).min(Moderate), 1.0)
        }
        H::Carcinogen => carcinogen(s),
        H::CarcinogenInhalation if s.strength == 0 => return None,
        H::CarcinogenInhalation => {
            // People meet an agent inhaled in its ordinary form (asbestos fibres) as inhaled
            // particles; a mist, a powder or a dust of an otherwise bulk substance only where
            // it is made airborne, which some of a group do (METHODOLOGY.md, carcinogenicity).
            let tier = by_strength3(s.strength);
            let tier = if exposure.inhaled_form {
                tier
            } else if s.strength >= 3 {
                High
            } else {
                tier.min(Moderate)
            };
            (R::Carcinogenicity, tier, 1.0)
        }
        // Evidence by injection only speaks to no way people meet the substance.
        H::CarcinogenInjected => (
            R::Carcinogenicity,
            by_strength3(s.strength).min(Moderate),
            1.0,
        ),
        H::OrganRepeated | H::OrganSingle if s.routes.is_some() => {
            return organ_by_stated_route(context, s, exposure);
        }
        H::OrganRepeated | H::OrganSingle => (R::OrganToxicity, by_strength2(s.strength), 1.0),
        H::Mutagen => (R::Mutagenicity, by_strength2(s.strength), 1.0),
        // Older adults neither bear nor nurse children; what is left to them, a father's
        // fertility and his exposure before conception, is at most moderate (METHODOLOGY.md,
        // life_stage).
        H::Reproductive | H::Developmental | H::Lactation if context == C::HumanElderly => {
            (R::LifeStage, by_strength2(s.strength).min(Moderate), 1.0)
        }
        // Harm to the offspring reaches a breast-fed child only through milk: without H362, what
        // is left is exposure before a later conception (METHODOLOGY.md, life_stage).
        H::Developmental if context == C::HumanNursing && !has(signals, &[H::Lactation]) => {
            (R::LifeStage, by_strength2(s.strength).min(Moderate), 1.0)
        }
        H::Reproductive | H::Developmental => {
            (R::ReproductiveToxicity, by_strength2(s.strength), 1.0)
        }
        H::Lactation => (R::ReproductiveToxicity, Moderate, 1.0),
        H::EndocrineHuman => (R::EndocrineDisruption, Moderate, 1.0),
        H::AcuteOral | H::AcuteDermal | H::AcuteInhalation => {
            (R::AcuteToxicity, by_strength3(s.strength), 1.0)
        }
        H::RespiratorySensitiser => (R::Sensitisation, Moderate, 1.0),
        H::SkinSensitiser => (R::Sensitisation, Moderate, 0.9),
        // Skin Corr. 1A destroys tissue within a contact as brief as a person's with a product;
        // 1B and 1C need longer, but a child who swallows a 1B corrosive holds it against the
        // gullet for that long (METHODOLOGY.md, local_effects).
        H::Corrosive if s.corrosive_1b && matches!(context, C::HumanChild | C::HumanInfant) => {
            (R::LocalEffects, High, 1.0)
        }
        H::Corrosive => (R::LocalEffects, by_strength2(s.strength), 1.0),
        H::EyeDamage => (R::LocalEffects, Moderate, 0.9),
        H::Aspiration if matches!(context, C::HumanChild | C::HumanInfant) => {
            (R::LocalEffects, Moderate, 1.0)
        }
        // Guidance values set for the general population do not apply below 16 weeks of age
        // (EFSA Scientific Committee 2017): a low one is no evidence for infants.
        H::OralReferenceDose if context == C::HumanInfant && oral_potency(s).1 == Low => {
            return None;
        }
        H::OralReferenceDose => oral_potency(s),
        H::InhalationReference if context == C::HumanAdult => inhalation_potency(s),
        // Low concern: only the curator's everyday call, for the intake it describes, which is
        // not an infant's (rule "low_concern").
        H::EverydaySubstance if context != C::HumanInfant => (R::LowConcern, Low, 0.7),
        // An assessment's finding for a life stage (EFSA: lead's developmental neurotoxicity in
        // young children) counts for that stage at the curator's tier (rule "life_stage").
        H::SpeciesNote if is_note_on(s, context) => (R::LifeStage, s.severity.unwrap_or(High), 1.0),
        // A poisoning of people that the acute classes understate counts at the curator's tier;
        // one whose document speaks of older adults apart from adults at large finds them more
        // sensitive (METHODOLOGY.md, acute_toxicity and life_stage).
        H::HumanPoisoning if is_poisoning_on(s, context) => {
            let rule = if context == C::HumanElderly && s.stage_only {
                R::LifeStage
            } else {
                R::AcuteToxicity
            };
            (rule, s.severity.unwrap_or(High), 1.0)
        }
        _ => return None,
    };
    Some(applied)
}

/// A route of exposure (`exposure_*`) or the workplace: a hazard counts where its route meets
/// the substance, and a systemic one by inhalation or the skin only as far as the substance
/// reaches the air or is absorbed (rule "route_relevance").
fn route(context: Context, s: &Signal, signals: &[Signal], exposure: Exposure) -> Option<Applied> {
    let absorbed = || {
        signals
            .iter()
            .any(|x| matches!(x.hazard, H::SkinNotation | H::AcuteDermal))
    };
    // An acute dermal class is death after one large dose held on the skin, not proof that a
    // carcinogen crosses it in use: cancer needs a skin notation (METHODOLOGY.md,
    // route_relevance).
    let noted = || signals.iter().any(|x| x.hazard == H::SkinNotation);
    let applied = match (context, s.hazard) {
        (_, H::CarcinogenInhalation) if s.strength == 0 => return None,
        // A peptide or protein medicine is digested when swallowed, and a gas is not swallowed
        // (METHODOLOGY.md, route_relevance).
        (
            C::ExposureIngestion,
            H::Carcinogen
            | H::Mutagen
            | H::Reproductive
            | H::Developmental
            | H::OrganRepeated
            | H::OrganSingle
            | H::Lactation
            | H::EndocrineHuman,
        ) if exposure.digested || exposure.gas => return None,
        (_, H::OrganRepeated | H::OrganSingle) if s.routes.is_some() => {
            return organ_by_stated_route(context, s, exposure);
        }
        (C::OccupationalExposure, H::Carcinogen | H::Reproductive | H::Developmental)
            if s.labelling && exposure.injected_medicine =>
        {
            (R::RouteRelevance, systemic(s).min(Moderate), 1.0)
        }
        (
            C::ExposureInhalation,
            H::Carcinogen | H::Mutagen | H::Reproductive | H::Developmental | H::OrganRepeated,
        ) => {
            let tier = systemic(s);
            if exposure.reaches_air {
                (R::RouteRelevance, tier, 0.95)
            } else {
                (R::RouteRelevance, tier.min(Moderate), 0.8)
            }
        }
        (C::ExposureDermal, H::Carcinogen) if noted() => (R::RouteRelevance, systemic(s), 0.9),
        (C::ExposureDermal, H::Mutagen | H::Reproductive | H::Developmental | H::OrganRepeated)
            if absorbed() =>
        {
            (R::RouteRelevance, systemic(s), 0.9)
        }
        (C::ExposureIngestion | C::OccupationalExposure, H::Carcinogen) => carcinogen(s),
        (C::ExposureInhalation | C::OccupationalExposure, H::CarcinogenInhalation) => {
            (R::Carcinogenicity, by_strength3(s.strength), 1.0)
        }
        (C::ExposureIngestion | C::OccupationalExposure, H::Mutagen) => {
            (R::Mutagenicity, by_strength2(s.strength), 1.0)
        }
        (C::ExposureIngestion | C::OccupationalExposure, H::Reproductive | H::Developmental) => {
            (R::ReproductiveToxicity, by_strength2(s.strength), 1.0)
        }
        (C::ExposureIngestion | C::OccupationalExposure, H::OrganRepeated | H::OrganSingle) => {
            (R::OrganToxicity, by_strength2(s.strength), 1.0)
        }
        (C::ExposureIngestion, H::Lactation) => (R::ReproductiveToxicity, Moderate, 1.0),
        (C::ExposureIngestion, H::EndocrineHuman) => (R::EndocrineDisruption, Moderate, 1.0),
        (C::ExposureIngestion | C::OccupationalExposure, H::AcuteOral)
        | (C::ExposureDermal | C::OccupationalExposure, H::AcuteDermal)
        | (C::ExposureInhalation | C::OccupationalExposure, H::AcuteInhalation) => {
            (R::AcuteToxicity, by_strength3(s.strength), 1.0)
        }
        (C::ExposureInhalation | C::OccupationalExposure, H::RespiratorySensitiser) => {
            (R::Sensitisation, High, 1.0)
        }
        (C::ExposureDermal | C::OccupationalExposure, H::SkinSensitiser) => {
            (R::Sensitisation, Moderate, 1.0)
        }
        // A corrosive that kills through the skin penetrates the eye it burns and poisons
        // through it (METHODOLOGY.md, local_effects).
        (C::ExposureOcular, H::Corrosive) if fatal_by_skin(signals) => {
            (R::LocalEffects, VeryHigh, 1.0)
        }
        // A poisoning of people by the route that its acute class understates, and by the
        // workplace's routes, the air and the skin, at work (METHODOLOGY.md, acute_toxicity).
        (_, H::HumanPoisoning)
            if is_poisoning_on(s, context)
                || (context == C::OccupationalExposure
                    && (is_poisoning_on(s, C::ExposureInhalation)
                        || is_poisoning_on(s, C::ExposureDermal))) =>
        {
            (R::AcuteToxicity, s.severity.unwrap_or(High), 1.0)
        }
        // A curated injury of the eye or skin beyond its class (METHODOLOGY.md, local_effects).
        (C::ExposureOcular | C::ExposureDermal, H::SpeciesNote) if is_note_on(s, context) => {
            (R::LocalEffects, s.severity.unwrap_or(High), 1.0)
        }
        (
            C::ExposureDermal | C::ExposureOcular | C::ExposureIngestion | C::OccupationalExposure,
            H::Corrosive,
        )
        | (C::ExposureOcular | C::OccupationalExposure, H::EyeDamage) => {
            (R::LocalEffects, High, 1.0)
        }
        // What destroys the eye's surface injures the lining of the mouth and gullet swallowed
        // neat (METHODOLOGY.md, local_effects).
        (C::ExposureIngestion, H::EyeDamage) => (R::LocalEffects, Moderate, 0.8),
        (C::ExposureOcular, H::EyeIrritant)
        | (C::ExposureDermal, H::SkinIrritant)
        | (
            C::ExposureInhalation | C::OccupationalExposure,
            H::RespiratoryIrritation | H::Narcotic,
        )
        | (C::ExposureIngestion, H::Aspiration) => (R::LocalEffects, Moderate, 1.0),
        // A skin corrosive in the air is corrosive to the airways (METHODOLOGY.md, local_effects).
        (C::ExposureInhalation, H::Corrosive) if exposure.reaches_air => {
            (R::LocalEffects, High, 0.9)
        }
        (C::ExposureDermal, H::SkinNotation) => (R::RouteRelevance, Moderate, 0.9),
        (C::ExposureIngestion, H::OralReferenceDose) => oral_potency(s),
        (C::ExposureInhalation, H::InhalationReference) => inhalation_potency(s),
        (C::OccupationalExposure, H::OccupationalLimit) => {
            (R::Potency, by_strength3(s.strength), 0.9)
        }
        (C::ExposureIngestion, H::EverydaySubstance) if !exposure.gas => (R::LowConcern, Low, 0.7),
        _ => return None,
    };
    Some(applied)
}

/// Dogs and cats (rule "species").
fn animal(context: Context, s: &Signal, signals: &[Signal]) -> Option<Applied> {
    match s.hazard {
        H::SpeciesNote if is_note_on(s, context) => {
            Some((R::Species, s.severity.unwrap_or(High), 1.0))
        }
        // Cats glucuronidate phenols poorly (UGT1A6 is a pseudogene in cats; METHODOLOGY.md,
        // "species"): a rodent LD50 above the top band is no evidence of low hazard for them.
        H::RodentLd50 if context == C::Cat && s.phenol && s.strength == 0 => None,
        // The laboratory mammal stands in where the species has no finding of its own: its
        // measured LD50 where one is read, its classification otherwise.
        H::RodentLd50 if !has_own_note(signals, context) => {
            Some((R::Species, by_strength3(s.strength), 0.7))
        }
        H::AcuteOral
            if !has_own_note(signals, context) && !rodent_ld50_counts(context, signals) =>
        {
            Some((R::Species, by_strength3(s.strength), 0.7))
        }
        // A corrosive burns a pet's mouth and gullet as it burns any tissue it meets.
        H::Corrosive if !has_own_note(signals, context) => Some((R::Species, High, 0.7)),
        H::Rodenticide => Some((R::Species, High, 0.8)),
        _ => None,
    }
}

/// The environment, aquatic life, terrestrial wildlife and pollinators (rules "environment",
/// "aquatic", "wildlife", "pollinators").
fn environment(context: Context, s: &Signal, signals: &[Signal]) -> Option<Applied> {
    let applied = match (context, s.hazard) {
        (c, H::SpeciesNote) if is_note_on(s, c) => (env_rule(c), s.severity.unwrap_or(High), 1.0),
        // Minnesota's flag is a screening list (it flags n-heptane and ozone), no PBT
        // assessment: a weaker signal than a listing (METHODOLOGY.md, environment).
        (C::Environmental, H::PersistentBioaccumulative) => {
            let tier = if s.strength == SCREENED_PBT {
                Moderate
            } else {
                VeryHigh
            };
            (R::Environment, tier, 1.0)
        }
        (
            C::Environmental,
            H::EndocrineEnvironment | H::OzoneDepleting | H::EquivalentConcernEnvironment,
        ) => (R::Environment, High, 1.0),
        (C::Environmental, H::ClimateForcing) => (R::Environment, by_strength2(s.strength), 1.0),
        (C::Environmental, H::AquaticChronic) if s.strength >= 2 => {
            let tier = if s.strength >= 3 { High } else { Moderate };
            (R::Environment, tier, 0.9)
        }
        // Chronic category 1 is high where its entry's M-factors are all 1 (METHODOLOGY.md,
        // aquatic).
        (C::AquaticLife, H::AquaticChronic) => {
            let tier = match s.strength {
                CHRONIC_1 => VeryHigh,
                CHRONIC_1_M1 | 2 => High,
                _ => Moderate,
            };
            (R::Aquatic, tier, 1.0)
        }
        (C::AquaticLife, H::AquaticAcute) => {
            let tier = if s.strength >= 3 { VeryHigh } else { High };
            (R::Aquatic, tier, 1.0)
        }
        // A vPvB listing meets no toxicity criterion, and Minnesota's screening flag assesses
        // none (METHODOLOGY.md, aquatic).
        (C::AquaticLife, H::PersistentBioaccumulative)
            if matches!(s.strength, VPVB | SCREENED_PBT) =>
        {
            (R::Aquatic, Moderate, 0.9)
        }
        (C::AquaticLife, H::PersistentBioaccumulative | H::EndocrineEnvironment) => {
            (R::Aquatic, High, 0.9)
        }
        // Unless the EU identified the substance vPvB only, finding no toxicity criterion met
        // (METHODOLOGY.md, aquatic).
        (C::AquaticLife, H::PersistentOrganicPollutant) if !vpvb_only(signals) => {
            (R::Aquatic, High, 0.9)
        }
        (C::AquaticLife, H::AquaticLc50) => (R::Aquatic, by_strength3(s.strength), 0.9),
        (C::TerrestrialWildlife, H::Rodenticide) => (R::Wildlife, VeryHigh, 0.8),
        (C::TerrestrialWildlife, H::PersistentBioaccumulative)
            if matches!(s.strength, VPVB | SCREENED_PBT) =>
        {
            (R::Wildlife, Moderate, 0.85)
        }
        (C::TerrestrialWildlife, H::PersistentBioaccumulative | H::PersistentOrganicPollutant) => {
            (R::Wildlife, High, 0.85)
        }
        // A use class stands in only where no measured bird or mammal value does.
        (C::TerrestrialWildlife, H::Insecticide | H::Neonicotinoid | H::Acaricide)
            if !has(signals, &[H::BirdLd50, H::RodentLd50]) =>
        {
            (R::Wildlife, Moderate, 0.7)
        }
        (C::TerrestrialWildlife, H::BirdLd50) => (R::Wildlife, by_strength3(s.strength), 0.9),
        (C::TerrestrialWildlife, H::RodentLd50)
            if !has_own_note(signals, C::TerrestrialWildlife) =>
        {
            (R::Wildlife, by_strength3(s.strength), 0.6)
        }
        (C::TerrestrialWildlife, H::AcuteOral)
            if !has_own_note(signals, C::TerrestrialWildlife)
                && !rodent_ld50_counts(C::TerrestrialWildlife, signals) =>
        {
            (R::Wildlife, by_strength3(s.strength), 0.6)
        }
        (C::Pollinator, H::Neonicotinoid) => (R::Pollinators, VeryHigh, 0.9),
        // Acute adult LD50s miss brood and sublethal effects, so a low one does not lower an
        // insecticide (METHODOLOGY.md, "Acute values").
        (C::Pollinator, H::Insecticide) => (R::Pollinators, High, 0.8),
        (C::Pollinator, H::BeeLd50) => (R::Pollinators, by_strength3(s.strength), 0.9),
        _ => return None,
    };
    Some(applied)
}

/// A cancer classification (rule "carcinogenicity"); an agency's conclusion of no
/// carcinogenicity ("not likely") counts at half trust.
fn carcinogen(s: &Signal) -> Applied {
    let factor = if s.strength == 0 { 0.5 } else { 1.0 };
    (R::Carcinogenicity, by_strength3(s.strength), factor)
}

/// A tolerable or acceptable daily intake's potency band (rule "potency").
fn oral_potency(s: &Signal) -> Applied {
    let tier = match s.strength {
        3 => High,
        2 => Moderate,
        _ => Low,
    };
    (R::Potency, tier, 0.9)
}

/// A chronic inhalation reference concentration's potency band (rule "potency").
fn inhalation_potency(s: &Signal) -> Applied {
    (R::Potency, by_strength3(s.strength).min(High), 0.9)
}
/// An organ toxicity class whose classification states its routes (rule "organ_toxicity"):
/// the rule, tier and confidence factor it gives the context, if it counts there.
fn organ_by_stated_route(context: Context, s: &Signal, exposure: Exposure) -> Option<Applied> {
    let routes = s.routes.as_ref()?;
    let by = |route: Route| routes.contains(&route);
    let tier = by_strength2(s.strength);
    match context {
        C::ExposureInhalation => by(Route::Inhalation).then_some((R::RouteRelevance, tier, 0.95)),
        C::ExposureDermal => by(Route::Dermal).then_some((R::RouteRelevance, tier, 0.9)),
        C::ExposureIngestion => by(Route::Oral).then_some((R::OrganToxicity, tier, 1.0)),
        C::OccupationalExposure => {
            (by(Route::Inhalation) || by(Route::Dermal)).then_some((R::OrganToxicity, tier, 1.0))
        }
        c if c.kind() == Kind::Human => {
            // People swallow and touch what they meet; a class by inhalation only reaches them
            // at full strength only where the agent is airborne as named (silica dust).
            let tier = if by(Route::Oral) || by(Route::Dermal) || exposure.inhaled_form {
                tier
            } else {
                tier.min(Moderate)
            };
            Some((R::OrganToxicity, tier, 1.0))
        }
        _ => None,
    }
}

/// Whether a curated finding of the context's own species is in the record: it replaces the
/// laboratory-mammal stand-in.
fn has_own_note(signals: &[Signal], context: Context) -> bool {
    signals.iter().any(|s| is_note_on(s, context))
}

/// Whether a curated finding of the context's own species states a dose: it decides the
/// species over the acute-toxin watch list.
fn has_own_dose(signals: &[Signal], context: Context) -> bool {
    signals
        .iter()
        .any(|s| is_note_on(s, context) && s.magnitude.is_some())
}

/// Whether a rat or mouse oral LD50 stands in for the animal: then the acute oral class does
/// not, as it may rest on human poisonings rather than on the laboratory mammal (methanol).
fn rodent_ld50_counts(context: Context, signals: &[Signal]) -> bool {
    signals
        .iter()
        .any(|s| s.hazard == H::RodentLd50 && !(context == C::Cat && s.phenol && s.strength == 0))
}

/// Whether the substance is fatal in contact with skin (H310).
fn fatal_by_skin(signals: &[Signal]) -> bool {
    signals
        .iter()
        .any(|s| s.hazard == H::AcuteDermal && s.strength >= 3)
}

/// Whether the record's persistence listings are a vPvB one without a PBT one.
fn vpvb_only(signals: &[Signal]) -> bool {
    let listed = |strength: u8| {
        signals
            .iter()
            .any(|s| s.hazard == H::PersistentBioaccumulative && s.strength == strength)
    };
    listed(VPVB) && !listed(PBT)
}

/// Whether any signal of these hazards is in the record.
fn has(signals: &[Signal], hazards: &[Hazard]) -> bool {
    signals.iter().any(|s| hazards.contains(&s.hazard))
}

/// Whether the signal is a curated note on this context. A species key that names no context
/// (a curated note on a horse) is a note on no context.
fn is_note_on(s: &Signal, context: Context) -> bool {
    s.hazard == Hazard::SpeciesNote
        && s.context.as_deref().and_then(Context::from_name) == Some(context)
}

/// Whether the signal is a curated poisoning of people on this context.
fn is_poisoning_on(s: &Signal, context: Context) -> bool {
    s.hazard == Hazard::HumanPoisoning
        && s.context.as_deref().and_then(Context::from_name) == Some(context)
}

impl Finding<'_> {
    /// A laboratory-mammal classification standing in for an animal without data of its own.
    pub fn is_surrogate(&self) -> bool {
        matches!(self.rule, R::Species | R::Wildlife)
            && matches!(
                self.signal.hazard,
                Hazard::AcuteOral | Hazard::Corrosive | Hazard::RodentLd50
            )
    }
}

fn env_rule(context: Context) -> Rule {
    match context {
        C::AquaticLife => R::Aquatic,
        C::TerrestrialWildlife => R::Wildlife,
        C::Pollinator => R::Pollinators,
        _ => R::Environment,
    }
}

/// The tier of a systemic hazard signal, as the human rules give it.
fn systemic(s: &Signal) -> RiskLevel {
    match s.hazard {
        Hazard::Carcinogen => by_strength3(s.strength),
        _ => by_strength2(s.strength),
    }
}

/// Findings each life stage is sensitive to (rule "life_stage").
fn sensitive(context: Context, finding: &Finding<'_>, stage: Stage) -> bool {
    let hazard = finding.signal.hazard;
    match context {
        // A developmental class or listing rests on exposure before birth unless H362 shows
        // the substance harming the child after it; an acute class is per kg of body weight.
        // A suspected mutagen (H341) raises neither, nor a category 1 one that the record does
        // not also call a probable or known carcinogen: the young's greater sensitivity is that
        // to carcinogens with a mutagenic mode of action (US EPA 2005), which a DNA-reactive
        // structure beside such a call also says.
        C::HumanInfant | C::HumanChild => {
            hazard == H::EndocrineHuman
                || (hazard == H::Mutagen && finding.signal.strength >= 2 && stage.carcinogen)
                || (hazard == H::Carcinogen && finding.signal.dna_reactive)
                || (stage.to_milk && hazard == H::Developmental)
        }
        C::HumanTeen => hazard == H::EndocrineHuman,
        // A listing carried from an authoritative body, or one a later evaluation for pregnancy
        // did not uphold, stays at its own tier (METHODOLOGY.md, life_stage).
        C::HumanPregnant => {
            hazard == H::EndocrineHuman
                || (hazard == H::Developmental
                    && !finding.signal.carried
                    && !(stage.reviewed && finding.signal.agency.as_deref() == Some("OEHHA")))
        }
        // H362 is the evidence that the substance reaches the breast-fed child.
        C::HumanNursing => hazard == H::Lactation || (stage.to_milk && hazard == H::Developmental),
        _ => false,
    }
}

/// What the findings of a life stage's context say beyond each finding itself.
#[derive(Debug, Clone, Copy)]
struct Stage {
    /// H362: the substance reaches the breast-fed child.
    to_milk: bool,
    /// A curated finding of a later evaluation for this life stage (`is_note_on`).
    reviewed: bool,
    /// A probable or known cancer call of the agent's own evaluation (not a listing carried
    /// from another body): with H340, a carcinogen with a mutagenic mode of action.
    carcinogen: bool,
}

fn life_stage<'s>(context: Context, out: &mut Vec<Finding<'s>>) {
    let stage = Stage {
        to_milk: out.iter().any(|f| f.signal.hazard == Hazard::Lactation),
        reviewed: out.iter().any(|f| f.signal.hazard == Hazard::SpeciesNote),
        carcinogen: out.iter().any(|f| {
            matches!(
                f.signal.hazard,
                Hazard::Carcinogen | Hazard::CarcinogenInhalation
            ) && f.signal.strength >= 2
                && !f.signal.carried
        }),
    };
    let mut raised = Vec::new();
    for f in out.iter() {
        if sensitive(context, f, stage) && f.tier < VeryHigh {
            raised.push(Finding {
                rule: R::LifeStage,
                tier: f.tier.raised(VeryHigh),
                signal: f.signal,
                factor: f.factor * 0.9,
            });
        }
    }
    out.extend(raised);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// METHODOLOGY.md's rule list is the enum: one `### id` section per rule under "The
    /// rules", in the enum's order, each opening with the rule's text.
    #[test]
    fn methodology_lists_every_rule_in_order_in_the_same_words() {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../METHODOLOGY.md"))
                .unwrap();
        let (_, rules) = text.split_once("\n## The rules\n").unwrap();
        let rules = rules.split("\n## ").next().unwrap();
        let sections: Vec<(&str, String)> = rules
            .split("\n### ")
            .skip(1)
            .map(|section| {
                let (heading, body) = section.split_once('\n').unwrap();
                let paragraph = body.trim().split("\n\n").next().unwrap();
                (
                    heading.trim(),
                    paragraph.split_whitespace().collect::<Vec<_>>().join(" "),
                )
            })
            .collect();
        let ids: Vec<&str> = sections.iter().map(|(id, _)| *id).collect();
        assert_eq!(ids, Rule::ALL.map(Rule::id));
        for (rule, (_, paragraph)) in Rule::ALL.iter().zip(&sections) {
            assert_eq!(
                paragraph,
                rule.text(),
                "METHODOLOGY.md's text of rule {}",
                rule.id()
            );
        }
    }

    #[test]
    fn a_rule_is_serialised_as_its_id() {
        for rule in Rule::ALL {
            assert_eq!(serde_json::to_value(rule).unwrap(), rule.id());
        }
        assert_eq!(
            serde_json::to_string(&R::ReproductiveToxicity).unwrap(),
            "\"reproductive_toxicity\""
        );
    }
}
