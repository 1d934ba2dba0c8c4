//! Reads a stored record into hazard signals: normalized facts (a hazard class, a potency,
//! a listing) each with the evidence it rests on. The rules (`rules.rs`) decide tiers from
//! signals only, so every tier can name what decided it.

use serde::Serialize;

use super::bands;
use super::phenol;
use super::routes::Route;
use crate::model::record::{CompoundRecord, DoseValue, Listings, MolecularWeight};
use crate::model::vocab::{
    DoseKind, EcotoxGroup, ExposureRoute, IarcGroup, LimitKind, NtpListing, Prop65Toxicity,
    WatchClass,
};

/// What a signal says. Route-specific variants carry the route in their name.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Hazard {
    /// Carcinogenicity; strength 3 = known (IARC 1, Carc. 1A, NTP known), 2 = presumed or
    /// probable, 1 = suspected or possible, 0 = evaluated and not classifiable / not likely.
    Carcinogen,
    /// Carcinogenic by inhalation only (H350i).
    CarcinogenInhalation,
    /// Carcinogenic by injection only (`routes.rs`' injected agents).
    CarcinogenInjected,
    Mutagen,
    /// Reproductive toxicity (fertility or unspecified).
    Reproductive,
    /// Developmental toxicity (H360D/H361d, Prop 65 developmental).
    Developmental,
    /// Effects on or via lactation (H362).
    Lactation,
    EndocrineHuman,
    EndocrineEnvironment,
    AcuteOral,
    AcuteDermal,
    AcuteInhalation,
    OrganRepeated,
    OrganSingle,
    RespiratoryIrritation,
    Narcotic,
    Corrosive,
    SkinIrritant,
    EyeDamage,
    EyeIrritant,
    SkinSensitiser,
    RespiratorySensitiser,
    Aspiration,
    AquaticAcute,
    AquaticChronic,
    /// Strength 3 = PBT (ECHA SVHC), `VPVB` = vPvB (SVHC: persistence and bioaccumulation,
    /// no toxicity criterion), 1 = a persistent bioaccumulative toxicant list (Minnesota).
    PersistentBioaccumulative,
    /// An SVHC listing for an equivalent level of concern for the environment (REACH Article
    /// 57(f)): a persistent substance whose probable serious effects are not those of a PBT
    /// (HFPO-DA: very persistent and mobile in water).
    EquivalentConcernEnvironment,
    OzoneDepleting,
    ClimateForcing,
    /// A tolerable/acceptable intake (ADI, TDI, TWI), in mg/kg bw/day.
    OralReferenceDose,
    /// An occupational limit (TWA), in mg/m3.
    OccupationalLimit,
    /// A chronic inhalation reference concentration, in µg/m3.
    InhalationReference,
    SkinNotation,
    /// A curated everyday substance.
    EverydaySubstance,
    WatchedCritical,
    WatchedAcute,
    Neonicotinoid,
    Insecticide,
    /// A mite killer that is not also an insecticide: bees are insects, mites are not, so its
    /// use class says nothing of its toxicity to bees.
    Acaricide,
    Rodenticide,
    OtherPesticide,
    /// A curated note about a species or environmental context (`species` key in `context`).
    SpeciesNote,
    /// A curated poisoning of people that the acute classes understate, on one context (the
    /// context's name in `context`, the curator's tier in `severity`).
    HumanPoisoning,
    /// A listing under the Stockholm Convention on Persistent Organic Pollutants: a curated
    /// environmental finding citing one of its texts or decisions (a `stockholm-` source).
    PersistentOrganicPollutant,
    /// The most sensitive honey bee acute LD50 (`bands.rs`); strength 2 high to 0 low.
    BeeLd50,
    /// The most sensitive aquatic acute LC50 or EC50; strength 3 very high to 0 low.
    AquaticLc50,
    /// The most sensitive bird acute oral LD50; strength 3 very high to 0 low.
    BirdLd50,
    /// The most sensitive rat or mouse acute oral LD50 (the laboratory mammal); strength 3
    /// very high to 0 low.
    RodentLd50,
}

/// The strength of a PBT listing (`Hazard::PersistentBioaccumulative`).
pub const PBT: u8 = 3;
/// The strength of a vPvB listing (`Hazard::PersistentBioaccumulative`).
pub const VPVB: u8 = 2;

/// The strength of Minnesota's persistent bioaccumulative toxicant flag
/// (`Hazard::PersistentBioaccumulative`): a screening list, not a PBT assessment.
pub const SCREENED_PBT: u8 = 1;

/// The strengths of chronic aquatic category 1 (`Hazard::AquaticChronic`; 2 is category 2,
/// 1 categories 3 and 4): as such, and where its entry states M-factors of 1 only.
pub const CHRONIC_1: u8 = 4;
pub const CHRONIC_1_M1: u8 = 3;

/// One signal: the hazard, its strength (hazard-specific scale, higher is worse), an optional
/// magnitude (dose values), and the evidence.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Signal {
    pub hazard: Hazard,
    pub strength: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub magnitude: Option<f64>,
    /// For species notes: the species or context key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    /// For species notes: the curator's tier.
    #[serde(skip)]
    pub severity: Option<crate::model::vocab::RiskLevel>,
    pub finding: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agency: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year: Option<i32>,
    pub source: String,
    /// How much the source is trusted as stated (0..1): harmonised or agency evaluations high,
    /// fallback tables and table-derived classes lower.
    #[serde(skip)]
    pub weight: f64,
    /// A call limited to intake by mouth: of a drink or food it names (ethanol "in alcoholic
    /// beverages"), or a position whose evidence is by the oral route only (chromium(VI) in
    /// drinking water): it counts for people and ingestion only.
    #[serde(skip)]
    pub by_mouth_only: bool,
    /// For an organ toxicity class: the routes its classification states (`routes.rs`);
    /// `None` where no route is stated, so that every route counts.
    #[serde(skip)]
    pub routes: Option<Vec<Route>>,
    /// For a rodent LD50 in the low band: the record's structure is a phenol (`phenol.rs`),
    /// which the cat rule does not take as evidence of low hazard.
    #[serde(skip)]
    pub phenol: bool,
    /// A Proposition 65 listing carried into the list from another body's identification
    /// (OEHHA mechanisms AB, authoritative bodies, and LC, the Labor Code), not the State's own
    /// evaluation (SQE) or a labelling requirement (FR).
    #[serde(skip)]
    pub carried: bool,
    /// A carried listing made through the Labor Code only (LC): the IARC or NTP call it names.
    #[serde(skip)]
    pub labor_code: bool,
    /// A Proposition 65 listing made only by a formal labelling requirement (FR): a medicine's
    /// label warns of it.
    #[serde(skip)]
    pub labelling: bool,
    /// For a skin corrosive: its class is sub-category 1B (tissue destroyed within an hour),
    /// which children and infants meet by swallowing (METHODOLOGY.md, local_effects).
    #[serde(skip)]
    pub corrosive_1b: bool,
    /// For a human poisoning on a life stage: its document speaks of that stage and not of
    /// adults at large, so it finds the stage more sensitive (rule life_stage).
    #[serde(skip)]
    pub stage_only: bool,
    /// For a probable or known cancer call of the agent's own evaluation: the structure is of
    /// a class IARC finds DNA-reactive (`dna_reactive.rs`), a carcinogen with a mutagenic mode
    /// of action, to which the young are more sensitive (rule life_stage).
    #[serde(skip)]
    pub dna_reactive: bool,
}

impl Signal {
    fn new(
        hazard: Hazard,
        strength: u8,
        finding: impl Into<String>,
        source: &str,
        weight: f64,
    ) -> Signal {
        Signal {
            hazard,
            strength,
            magnitude: None,
            context: None,
            severity: None,
            finding: finding.into(),
            agency: None,
            year: None,
            source: source.to_string(),
            weight,
            by_mouth_only: false,
            routes: None,
            phenol: false,
            carried: false,
            labor_code: false,
            labelling: false,
            corrosive_1b: false,
            stage_only: false,
            dna_reactive: false,
        }
    }

    fn by(mut self, agency: &str, year: Option<i32>) -> Signal {
        self.agency = Some(agency.to_string());
        self.year = year;
        self
    }

    /// Marks a Proposition 65 listing whose mechanisms are only AB and LC (`carried`), or only
    /// FR (`labelling`).
    fn carried_by(mut self, mechanism: &str) -> Signal {
        let mut parts = mechanism.split_whitespace().peekable();
        let mechanisms: Vec<&str> = parts.by_ref().collect();
        self.carried =
            !mechanisms.is_empty() && mechanisms.iter().all(|m| matches!(*m, "AB" | "LC"));
        self.labor_code = !mechanisms.is_empty() && mechanisms.iter().all(|m| *m == "LC");
        self.labelling = !mechanisms.is_empty() && mechanisms.iter().all(|m| *m == "FR");
        self
    }

    /// Marks a call its qualifier limits to a drink (`Scope::Drunk`).
    fn within(mut self, qualifier: Option<&str>) -> Signal {
        self.by_mouth_only = scope(qualifier) == Scope::Drunk;
        self
    }
}

/// GHS hazard statement codes and what each says, by strength.
const H_CODES: &[(&str, Hazard, u8, &str)] = &[
    ("H300", Hazard::AcuteOral, 3, "fatal if swallowed (H300)"),
    ("H301", Hazard::AcuteOral, 2, "toxic if swallowed (H301)"),
    ("H302", Hazard::AcuteOral, 1, "harmful if swallowed (H302)"),
    (
        "H310",
        Hazard::AcuteDermal,
        3,
        "fatal in contact with skin (H310)",
    ),
    (
        "H311",
        Hazard::AcuteDermal,
        2,
        "toxic in contact with skin (H311)",
    ),
    (
        "H312",
        Hazard::AcuteDermal,
        1,
        "harmful in contact with skin (H312)",
    ),
    (
        "H330",
        Hazard::AcuteInhalation,
        3,
        "fatal if inhaled (H330)",
    ),
    (
        "H331",
        Hazard::AcuteInhalation,
        2,
        "toxic if inhaled (H331)",
    ),
    (
        "H332",
        Hazard::AcuteInhalation,
        1,
        "harmful if inhaled (H332)",
    ),
    (
        "H340",
        Hazard::Mutagen,
        2,
        "may cause genetic defects (H340)",
    ),
    (
        "H341",
        Hazard::Mutagen,
        1,
        "suspected of causing genetic defects (H341)",
    ),
    ("H350", Hazard::Carcinogen, 2, "may cause cancer (H350)"),
    (
        "H350i",
        Hazard::CarcinogenInhalation,
        2,
        "may cause cancer by inhalation (H350i)",
    ),
    (
        "H351",
        Hazard::Carcinogen,
        1,
        "suspected of causing cancer (H351)",
    ),
    (
        "H362",
        Hazard::Lactation,
        1,
        "may cause harm to breast-fed children (H362)",
    ),
    (
        "H370",
        Hazard::OrganSingle,
        2,
        "causes damage to organs (H370)",
    ),
    (
        "H371",
        Hazard::OrganSingle,
        1,
        "may cause damage to organs (H371)",
    ),
    (
        "H372",
        Hazard::OrganRepeated,
        2,
        "causes damage to organs through prolonged or repeated exposure (H372)",
    ),
    (
        "H373",
        Hazard::OrganRepeated,
        1,
        "may cause damage to organs through prolonged or repeated exposure (H373)",
    ),
    (
        "H335",
        Hazard::RespiratoryIrritation,
        1,
        "may cause respiratory irritation (H335)",
    ),
    (
        "H336",
        Hazard::Narcotic,
        1,
        "may cause drowsiness or dizziness (H336)",
    ),
    (
        "H314",
        Hazard::Corrosive,
        1,
        "causes severe skin burns and eye damage (H314)",
    ),
    (
        "H315",
        Hazard::SkinIrritant,
        1,
        "causes skin irritation (H315)",
    ),
    (
        "H318",
        Hazard::EyeDamage,
        2,
        "causes serious eye damage (H318)",
    ),
    (
        "H319",
        Hazard::EyeIrritant,
        1,
        "causes serious eye irritation (H319)",
    ),
    (
        "H317",
        Hazard::SkinSensitiser,
        1,
        "may cause an allergic skin reaction (H317)",
    ),
    (
        "H334",
        Hazard::RespiratorySensitiser,
        2,
        "may cause allergy or asthma symptoms or breathing difficulties if inhaled (H334)",
    ),
    (
        "H304",
        Hazard::Aspiration,
        1,
        "may be fatal if swallowed and enters airways (H304)",
    ),
    (
        "H400",
        Hazard::AquaticAcute,
        2,
        "very toxic to aquatic life (H400)",
    ),
    (
        "H410",
        Hazard::AquaticChronic,
        CHRONIC_1,
        "very toxic to aquatic life with long lasting effects (H410)",
    ),
    (
        "H411",
        Hazard::AquaticChronic,
        2,
        "toxic to aquatic life with long lasting effects (H411)",
    ),
    (
        "H412",
        Hazard::AquaticChronic,
        1,
        "harmful to aquatic life with long lasting effects (H412)",
    ),
    (
        "H413",
        Hazard::AquaticChronic,
        1,
        "may cause long lasting harmful effects to aquatic life (H413)",
    ),
    (
        "H420",
        Hazard::OzoneDepleting,
        2,
        "harms public health and the environment by destroying ozone in the upper atmosphere (H420)",
    ),
    (
        "EUH059",
        Hazard::OzoneDepleting,
        2,
        "hazardous to the ozone layer (EUH059)",
    ),
];

/// All signals of a record.
pub fn signals(r: &CompoundRecord) -> Vec<Signal> {
    let mut out = Vec::new();
    ghs(r, &mut out);
    listings(r, &mut out);
    doses(r, &mut out);
    properties(r, &mut out);
    uses_and_watch(r, &mut out);
    species(r, &mut out);
    human_poisoning(r, &mut out);
    acute_values(r, &mut out);
    weigh_carried_cancer_listings(r, &mut out);
    mark_dna_reactive(r, &mut out);
    by_route(r, &mut out);
    out
}

/// Marks the probable and known cancer calls of the agent's own evaluation (not a listing
/// carried from another body) on a structure of a DNA-reactive class: with it the call is one
/// of a carcinogen with a mutagenic mode of action, as H340 beside it says (METHODOLOGY.md,
/// life_stage).
fn mark_dna_reactive(r: &CompoundRecord, out: &mut [Signal]) {
    let reactive = r
        .identity
        .smiles
        .as_deref()
        .and_then(super::dna_reactive::dna_reactive_class)
        .is_some();
    if !reactive {
        return;
    }
    for s in out
        .iter_mut()
        .filter(|s| s.hazard == Hazard::Carcinogen && s.strength >= 2 && !s.carried)
    {
        s.dna_reactive = true;
    }
}

/// A Proposition 65 cancer listing carried from another body's identification counts as
/// possible where the record's own calls weigh the same agent as possible or suspected and
/// none as probable or known, unless the agent is a germ cell mutagen or of a DNA-reactive
/// class (`dna_reactive.rs`): a Labor Code listing beside any such call (it names IARC's or the
/// NTP's), an authoritative-body listing only beside the EU's harmonised Carc. 2, since the
/// body it rests on may be one whose grade the record does not hold (US EPA's "probable"); and
/// either beside IARC's Group 3 where nothing grades the agent higher, since IARC found the
/// animal evidence at most limited (METHODOLOGY.md, carcinogenicity).
fn weigh_carried_cancer_listings(r: &CompoundRecord, out: &mut [Signal]) {
    let is_cancer = |s: &Signal| {
        matches!(
            s.hazard,
            Hazard::Carcinogen | Hazard::CarcinogenInhalation | Hazard::CarcinogenInjected
        )
    };
    let others = || out.iter().filter(|s| is_cancer(s) && !s.carried);
    let possible = others().any(|s| s.strength == 1);
    let suspected_in_eu =
        others().any(|s| s.strength == 1 && s.agency.as_deref() == Some("European Commission"));
    let stronger = others().any(|s| s.strength >= 2);
    let mutagen = out.iter().any(|s| s.hazard == Hazard::Mutagen);
    let iarc_group_3 = r
        .regulatory
        .listings
        .iarc_group
        .as_ref()
        .filter(|i| i.group == IarcGroup::G3 && i.qualifier.is_none());
    let dna_reactive = r
        .identity
        .smiles
        .as_deref()
        .and_then(super::dna_reactive::dna_reactive_class);
    if stronger || mutagen || dna_reactive.is_some() || !(possible || iarc_group_3.is_some()) {
        return;
    }
    for s in out.iter_mut().filter(|s| {
        s.carried
            && matches!(s.hazard, Hazard::Carcinogen | Hazard::CarcinogenInhalation)
            && s.strength == 2
            && ((possible && (s.labor_code || suspected_in_eu)) || iarc_group_3.is_some())
    }) {
        s.strength = 1;
        s.finding = match iarc_group_3 {
            Some(iarc) if !possible || !(s.labor_code || suspected_in_eu) => format!(
                "{}; counted as possible: a listing carried from another body's identification of an agent IARC evaluated as Group 3 (Monographs {}), the evidence in animals at most limited",
                s.finding, iarc.volumes
            ),
            _ => format!(
                "{}; counted as possible: a listing carried from another body's identification, which the record's own calls weigh as possible (IARC Group 2B or Carc. 2)",
                s.finding
            ),
        };
    }
}

/// Cancer calls on an agent whose evidence is by one route (METHODOLOGY.md,
/// carcinogenicity): every call of a cancer hazard is one by inhalation for an agent inhaled
/// as particles (`routes.rs`) and for a substance whose own EU CLP entry (not a group entry,
/// whose members' evidence may differ) is by inhalation only (H350i), the same agent the
/// route-free lists name; every call is one by injection for an
/// agent whose evidence is by injection only.
fn by_route(r: &CompoundRecord, out: &mut [Signal]) {
    let (hazard, how) = if let Some(agent) = super::routes::inhaled_agent(r.cas.as_str()) {
        (
            Hazard::CarcinogenInhalation,
            format!("by inhaled {} ({})", agent.form.words(), agent.basis),
        )
    } else if let Some(agent) = super::routes::injected_agent(r.cas.as_str()) {
        (
            Hazard::CarcinogenInjected,
            format!("by injection only ({})", agent.basis),
        )
    } else if let Some(group) = r
        .safety
        .ghs
        .iter()
        .filter(|g| g.is_current() && g.jurisdiction == "EU")
        .filter_map(|g| g.via.as_deref())
        .find_map(super::routes::inhaled_group)
    {
        (
            Hazard::CarcinogenInhalation,
            format!(
                "by inhaled dust and fume, as a member of the EU CLP group entry for {} ({})",
                group.entry, group.basis
            ),
        )
    } else if r.safety.ghs.iter().any(|g| {
        g.is_current()
            && g.jurisdiction == "EU"
            && g.via.is_none()
            && g.h_codes.iter().any(|c| c == "H350i")
    }) {
        (
            Hazard::CarcinogenInhalation,
            "by inhalation, the only route of the substance's own EU CLP entry (H350i)".to_string(),
        )
    } else {
        return;
    };
    // A call by mouth (a drink, an oral study) states its own route.
    for s in out
        .iter_mut()
        .filter(|s| s.hazard == Hazard::Carcinogen && s.strength > 0 && !s.by_mouth_only)
    {
        s.hazard = hazard;
        s.finding = format!("{}; {how}", s.finding);
    }
}

fn ghs(r: &CompoundRecord, out: &mut Vec<Signal>) {
    for g in r
        .safety
        .ghs
        .iter()
        .filter(|g| g.is_current() && !impurity_grade(g.qualifier.as_deref()))
    {
        let (agency, weight, who) = match g.jurisdiction.as_str() {
            "EU" => (
                "European Commission",
                0.9,
                "EU CLP harmonised classification",
            ),
            _ => (
                "Safe Work Australia",
                0.8,
                "Safe Work Australia HCIS classification",
            ),
        };
        // An entry for one grade of the substance says so in every finding it gives.
        let graded = g.qualifier.as_ref().map(|q| format!("{who} ({q})"));
        let who = graded.as_deref().unwrap_or(who);
        // An Annex VI entry harmonises only the classes it lists and HCIS carries no
        // environmental classes, so a class's absence is no finding (METHODOLOGY.md).
        let classes = g.hazard_classes.join(" | ");
        for code in &g.h_codes {
            if reproductive(code, &g.source, (agency, weight, who), out) {
                continue;
            }
            let Some((_, hazard, strength, words)) = H_CODES.iter().find(|(c, ..)| c == code)
            else {
                continue;
            };
            // Carc. 1A is "known" (3), 1B "presumed" (2); Skin Corr. 1A (2) acts within 3
            // minutes, 1B and 1C (1) need longer: the code is the same, the class says.
            let mut strength = match hazard {
                Hazard::Carcinogen if classes.contains("Carc. 1A") => 3,
                Hazard::Corrosive if g.hazard_classes.iter().any(|c| skin_corrosion_1a(c)) => 2,
                _ => *strength,
            };
            let mut finding = format!("{who}: {words}");
            if matches!(
                hazard,
                Hazard::AcuteOral | Hazard::AcuteDermal | Hazard::AcuteInhalation
            ) {
                finding.push_str(minimum(&g.hazard_classes, strength));
            }
            // An M-factor of 10 or more on an acute category 1 entry puts its L(E)C50 at or
            // below 0.1 mg/l (CLP Annex I, Table 4.1.3); the rubric's very high band.
            if *hazard == Hazard::AquaticAcute
                && let Some(m) = g
                    .specific_concentration_limits
                    .as_deref()
                    .and_then(acute_m_factor)
                    .filter(|m| *m >= 10)
            {
                strength = 3;
                finding = format!(
                    "{finding}; M-factor {m}: acute L(E)C50 at most {} mg/l",
                    fmt_num(1.0 / f64::from(m))
                );
            }
            // An entry whose M-factors are all 1 puts chronic category 1's values within ten
            // times its limits, the rubric's high band (CLP Annex I, Table 4.1.3); where Annex
            // VI states none, suppliers set it (CLP Article 10(4)), so none is not 1.
            if *hazard == Hazard::AquaticChronic
                && strength == CHRONIC_1
                && g.specific_concentration_limits
                    .as_deref()
                    .and_then(largest_m_factor)
                    == Some(1)
            {
                strength = CHRONIC_1_M1;
                finding.push_str("; M-factor 1: its values within ten times the category's limits");
            }
            let mut s = Signal::new(*hazard, strength, finding, &g.source, weight).by(agency, None);
            s.corrosive_1b = *hazard == Hazard::Corrosive
                && strength < 2
                && g.hazard_classes.iter().any(|c| skin_corrosion(c, "1b"));
            if matches!(*hazard, Hazard::OrganRepeated | Hazard::OrganSingle)
                && let Some((routes, basis)) = super::routes::stated_routes(r, code)
            {
                let words: Vec<&str> = routes.iter().map(|r| r.words()).collect();
                s.finding = format!("{}, by {} ({basis})", s.finding, words.join(" and "));
                s.routes = Some(routes);
            }
            out.push(s);
        }
    }
}

/// Whether a hazard class is skin corrosion sub-category 1A (Annex VI "Skin Corr. 1A", HCIS
/// "Skin corrosion – category 1A").
fn skin_corrosion_1a(class: &str) -> bool {
    skin_corrosion(class, "1a")
}

/// Whether a hazard class is skin corrosion of this sub-category ("1a", "1b").
fn skin_corrosion(class: &str, sub_category: &str) -> bool {
    let class = class.to_lowercase();
    class.starts_with("skin corr") && class.ends_with(sub_category)
}

/// ", at least (Annex VI minimum classification)" where the entry marks the acute toxicity
/// category of this strength with `*`: a more severe category is not excluded, so the tier it
/// gives is a floor (METHODOLOGY.md, acute_toxicity).
fn minimum(classes: &[String], strength: u8) -> &'static str {
    let category = match strength {
        3 => "Acute Tox. 2 *",
        2 => "Acute Tox. 3 *",
        _ => "Acute Tox. 4 *",
    };
    if classes.iter().any(|c| c == category) {
        ", at least (Annex VI minimum classification)"
    } else {
        ""
    }
}

/// Who made a GHS classification: the agency, the trust in it and how a finding names it.
type Classifier<'a> = (&'a str, f64, &'a str);

/// An H360 or H361 code's signals, by its effect letters: F fertility, D development. An upper
/// case letter is the code's own category, a lower case one category 2 (H360Fd: fertility 1B,
/// development 2; CLP Annex VI, Table 3.1 notes); a code without letters is both. Whether
/// `code` is one.
fn reproductive(
    code: &str,
    source: &str,
    (agency, weight, who): Classifier<'_>,
    out: &mut Vec<Signal>,
) -> bool {
    let Some(letters) = code
        .strip_prefix("H360")
        .or_else(|| code.strip_prefix("H361"))
    else {
        return false;
    };
    let cat1 = code.starts_with("H360");
    // Whether the effect is named, and then whether in category 1.
    let effect = |upper: char, lower: char| {
        if letters.is_empty() || letters.contains(upper) {
            Some(cat1)
        } else {
            letters.contains(lower).then_some(false)
        }
    };
    for (named, hazard, harmed) in [
        (effect('D', 'd'), Hazard::Developmental, "the unborn child"),
        (effect('F', 'f'), Hazard::Reproductive, "fertility"),
    ] {
        let Some(category1) = named else { continue };
        let (strength, what) = if category1 {
            (2, "may damage")
        } else {
            (1, "suspected of damaging")
        };
        out.push(
            Signal::new(
                hazard,
                strength,
                format!("{who}: {what} {harmed} ({code})"),
                source,
                weight,
            )
            .by(agency, None),
        );
    }
    true
}

/// The M-factors an entry states, each with whether its label names acute toxicity: the
/// Annex VI table's bare cells ("M=100 | M=10", no label) and the curated later ATPs'
/// labelled ones ("Aquatic Acute 1: M = 10; Aquatic Chronic 1: M = 1").
fn m_factors(cell: &str) -> Vec<(Option<bool>, u32)> {
    cell.split(['|', ';'])
        .filter_map(|part| {
            let part = part.trim();
            let (label, m) = match part.rsplit_once(':') {
                Some((label, m)) => (Some(label.contains("Acute")), m.trim()),
                None => (None, part),
            };
            let value = m.strip_prefix('M')?.trim_start().strip_prefix('=')?;
            let value = value.trim().trim_end_matches('"').parse::<u32>().ok()?;
            Some((label, value))
        })
        .collect()
}

/// The M-factor an entry states for acute aquatic toxicity: the one labelled acute, else the
/// smaller of the unlabelled ones ("M=100 | M=10"), which bounds the acute one from below.
fn acute_m_factor(cell: &str) -> Option<u32> {
    let factors = m_factors(cell);
    factors
        .iter()
        .find(|(acute, _)| *acute == Some(true))
        .map(|&(_, m)| m)
        .or_else(|| {
            factors
                .iter()
                .filter(|(label, _)| label.is_none())
                .map(|&(_, m)| m)
                .min()
        })
}

/// The largest M-factor an entry states, acute or chronic ("M=1 | M=10" gives 10).
fn largest_m_factor(cell: &str) -> Option<u32> {
    m_factors(cell).into_iter().map(|(_, m)| m).max()
}

/// An Annex VI entry for a grade holding at least so much of another substance ("containing
/// ≥ 0,1 % butadiene (203-450-8)" beside butane's own entry): its classes are that impurity's,
/// so, as a listing qualified by another agent, it gives no finding about the substance
/// (METHODOLOGY.md). A grade by particle size is the substance's own form and counts.
fn impurity_grade(qualifier: Option<&str>) -> bool {
    qualifier.is_some_and(|q| {
        (q.starts_with("containing ≥") || q.starts_with("containing >")) && !q.contains("particles")
    })
}

/// ", only in alcoholic beverages": a finding says when its listing holds only under a
/// qualifier, so that it is never read as a finding about the substance in every use.
fn qualified(qualifier: Option<&str>) -> String {
    qualifier.map_or_else(String::new, |q| format!(", only {q}"))
}

/// What a listing's qualifier leaves of it for the substance itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// No qualifier, or one that names the substance's own form, grade, route of intake or
    /// radiation ("technical grade", "ingested", "as a radioiodine"): the listing holds.
    Substance,
    /// Airborne particles, dusts, fibres or mists ("respirable size", "acid mists",
    /// "asbestiform habit"): a hazard by inhalation.
    Inhaled,
    /// The substance as drunk in a beverage ("in alcoholic beverages"): a hazard for people
    /// who drink it, by ingestion, not by inhalation, skin or at work.
    Drunk,
    /// Another agent or circumstance (a drug combination, a use, an occupation): the listing
    /// says nothing of the substance on its own.
    Other,
}

/// Words of qualifiers that name a drink the substance is consumed in.
const DRUNK: [&str; 1] = ["alcoholic beverage"];

/// Words of qualifiers that name another agent or circumstance; checked before the airborne
/// words ("talc containing asbestiform fibres" is talc contaminated with asbestos).
const OTHER_AGENT: [&str; 12] = [
    "combination",
    "analgesic mixture",
    "ultraviolet",
    "fumigant",
    "daily doses",
    "perineal",
    "containing asbestiform",
    "occupational exposure",
    "in plants",
    "combined exposures",
    "metabolized to",
    "drinking-water",
];
const AIRBORNE: [&str; 7] = [
    "airborne",
    "respirable",
    "mist",
    "dust",
    "fibre",
    "fiber",
    "asbestiform",
];

fn scope(qualifier: Option<&str>) -> Scope {
    let Some(q) = qualifier.map(str::to_lowercase) else {
        return Scope::Substance;
    };
    if DRUNK.iter().any(|w| q.contains(w)) {
        Scope::Drunk
    } else if OTHER_AGENT.iter().any(|w| q.contains(w)) {
        Scope::Other
    } else if AIRBORNE.iter().any(|w| q.contains(w)) {
        Scope::Inhaled
    } else {
        Scope::Substance
    }
}

/// The cancer hazard a listing gives, by its qualifier's scope (METHODOLOGY.md).
fn cancer_hazard(qualifier: Option<&str>) -> Option<Hazard> {
    match scope(qualifier) {
        Scope::Substance | Scope::Drunk => Some(Hazard::Carcinogen),
        Scope::Inhaled => Some(Hazard::CarcinogenInhalation),
        Scope::Other => None,
    }
}

/// The lists of record and the agencies' own calls, in this order: IARC, the NTP Report on
/// Carcinogens, Proposition 65, the SVHC Candidate List's reasons, curated cancer positions,
/// OSHA's regulated carcinogens and endocrine findings (one is left out where an earlier
/// signal gave the same hazard from the same source).
fn listings(r: &CompoundRecord, out: &mut Vec<Signal>) {
    let l = &r.regulatory.listings;
    iarc(l, out);
    ntp(l, out);
    prop65(l, out);
    svhc(l, out);
    cancer_positions(r, out);
    osha(l, out);
    endocrine(r, out);
}

fn iarc(l: &Listings, out: &mut Vec<Signal>) {
    // IARC Group 3 means the evidence is inadequate, not negative: no signal (METHODOLOGY.md).
    let iarc_strength = |group: IarcGroup| match group {
        IarcGroup::G1 => Some(3),
        IarcGroup::G2A => Some(2),
        IarcGroup::G2B => Some(1),
        IarcGroup::G3 | IarcGroup::G4 => None,
    };
    if let Some(iarc) = &l.iarc_group
        && let Some(hazard) = cancer_hazard(iarc.qualifier.as_deref())
        && let Some(strength) = iarc_strength(iarc.group)
    {
        out.push(
            Signal::new(
                hazard,
                strength,
                format!(
                    "IARC Group {}: {}{} (Monographs {})",
                    iarc.group.label(),
                    iarc.group.description().to_lowercase(),
                    qualified(iarc.qualifier.as_deref()),
                    iarc.volumes
                ),
                &iarc.source,
                0.9,
            )
            .by("IARC", iarc.year)
            .within(iarc.qualifier.as_deref()),
        );
    }
}

fn ntp(l: &Listings, out: &mut Vec<Signal>) {
    if let Some(ntp) = &l.ntp_roc
        && let Some(hazard) = cancer_hazard(ntp.qualifier.as_deref())
    {
        let strength = match ntp.listing {
            NtpListing::Known => 3,
            NtpListing::ReasonablyAnticipated => 2,
        };
        out.push(
            Signal::new(
                hazard,
                strength,
                format!(
                    "NTP Report on Carcinogens ({}): {}{}",
                    ntp.edition,
                    ntp.listing.description().to_lowercase(),
                    qualified(ntp.qualifier.as_deref())
                ),
                &ntp.source,
                0.9,
            )
            .by("NTP", Some(2021))
            .within(ntp.qualifier.as_deref()),
        );
    }
}

fn prop65(l: &Listings, out: &mut Vec<Signal>) {
    for p in &l.prop65 {
        let year = p.date_listed.get(..4).and_then(|y| y.parse().ok());
        let (hazard, what) = match p.toxicity {
            Prop65Toxicity::Cancer => (cancer_hazard(p.qualifier.as_deref()), "cancer"),
            _ if scope(p.qualifier.as_deref()) == Scope::Other => (None, ""),
            Prop65Toxicity::Developmental => {
                (Some(Hazard::Developmental), "developmental toxicity")
            }
            Prop65Toxicity::Female => (Some(Hazard::Reproductive), "female reproductive toxicity"),
            Prop65Toxicity::Male => (Some(Hazard::Reproductive), "male reproductive toxicity"),
        };
        let Some(hazard) = hazard else { continue };
        out.push(
            Signal::new(
                hazard,
                2,
                format!(
                    "California Proposition 65: known to the State to cause {what}{}",
                    qualified(p.qualifier.as_deref())
                ),
                &p.source,
                0.85,
            )
            .by("OEHHA", year)
            .within(p.qualifier.as_deref())
            .carried_by(&p.listing_mechanism),
        );
    }
}

fn svhc(l: &Listings, out: &mut Vec<Signal>) {
    if let Some(svhc) = &l.eu_svhc {
        let year = svhc.date_of_inclusion.get(..4).and_then(|y| y.parse().ok());
        for reason in &svhc.reasons {
            let (hazard, strength) = if reason.starts_with("PBT") {
                (Hazard::PersistentBioaccumulative, PBT)
            } else if reason.starts_with("vPvB") {
                (Hazard::PersistentBioaccumulative, VPVB)
            } else if reason.starts_with("Endocrine disrupting") && reason.contains("human health")
            {
                (Hazard::EndocrineHuman, 2)
            } else if reason.starts_with("Endocrine disrupting") {
                (Hazard::EndocrineEnvironment, 2)
            } else if reason.starts_with("Respiratory sensitising") {
                (Hazard::RespiratorySensitiser, 2)
            } else if reason.starts_with("Equivalent level of concern")
                && reason.contains("57(f) - environment")
            {
                (Hazard::EquivalentConcernEnvironment, 2)
            } else {
                continue;
            };
            out.push(
                Signal::new(
                    hazard,
                    strength,
                    format!("ECHA SVHC Candidate List: {reason}"),
                    &svhc.source,
                    0.85,
                )
                .by("ECHA", year),
            );
        }
    }
}

fn cancer_positions(r: &CompoundRecord, out: &mut Vec<Signal>) {
    for p in &r.safety.cancer_positions {
        use crate::model::record::CancerCall;
        let strength = match p.call {
            CancerCall::Known => 3,
            CancerCall::Probable => 2,
            CancerCall::Possible => 1,
            CancerCall::NotClassifiable | CancerCall::NotLikely => 0,
        };
        let mut s = Signal::new(
            Hazard::Carcinogen,
            strength,
            format!("{}: {}", p.agency, p.position),
            &p.source,
            0.9,
        )
        .by(&p.agency, p.year);
        if p.route == Some(ExposureRoute::Oral) {
            s.by_mouth_only = true;
            s.finding = format!("{}; by ingestion", s.finding);
        }
        out.push(s);
    }
}

fn osha(l: &Listings, out: &mut Vec<Signal>) {
    if let Some(osha) = &l.osha_carcinogen
        && osha.value
    {
        out.push(
            Signal::new(
                Hazard::Carcinogen,
                2,
                "OSHA regulated carcinogen (29 CFR 1910.1003)",
                &osha.source,
                0.85,
            )
            .by("OSHA", None),
        );
    }
}

fn endocrine(r: &CompoundRecord, out: &mut Vec<Signal>) {
    for e in &r.safety.endocrine_disruption {
        let hazard = if e.finding.contains("environment") && !e.finding.contains("human health") {
            Hazard::EndocrineEnvironment
        } else {
            Hazard::EndocrineHuman
        };
        if out
            .iter()
            .any(|s| s.hazard == hazard && s.source == e.source)
        {
            continue;
        }
        out.push(
            Signal::new(
                hazard,
                2,
                format!("{}: {}", e.agency, e.finding),
                &e.source,
                0.85,
            )
            .by(&e.agency, e.year),
        );
    }
}

/// Converts a dose to mg/kg bw/day, if its unit is one of the intake forms.
fn per_day_mg(d: &DoseValue) -> Option<f64> {
    let unit = d
        .unit
        .replace('µ', "u")
        .replace("μ", "u")
        .to_lowercase()
        .replace(' ', "");
    let scale = if unit.starts_with("mg/kgbw") {
        1.0
    } else if unit.starts_with("ug/kgbw") {
        1e-3
    } else if unit.starts_with("ng/kgbw") {
        1e-6
    } else {
        return None;
    };
    let per = if unit.ends_with("/week") {
        1.0 / 7.0
    } else if unit.ends_with("/day") {
        1.0
    } else {
        return None;
    };
    Some(d.value * scale * per)
}

/// Reference values and limits: the lowest current tolerable intake, the lowest chronic
/// inhalation reference concentration and the lowest 8-hour limit, each in its potency band
/// (METHODOLOGY.md, rule "potency"), and a skin notation (rule "route_relevance").
fn doses(r: &CompoundRecord, out: &mut Vec<Signal>) {
    tolerable_intake(r, out);
    inhalation_reference(r, out);
    occupational_limit(r, out);
    skin_notation(r, out);
}

fn tolerable_intake(r: &CompoundRecord, out: &mut Vec<Signal>) {
    // The lowest tolerable intake stands for the substance (precautionary).
    let lowest = r
        .dose_response
        .iter()
        .filter(|d| d.is_current())
        .filter(|d| matches!(d.kind, DoseKind::Adi | DoseKind::Tdi | DoseKind::Twi))
        .filter_map(|d| per_day_mg(d).map(|v| (v, d)))
        .min_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((mg, d)) = lowest {
        let strength = if mg < 1e-4 {
            3
        } else if mg < 1e-2 {
            2
        } else if mg < 1.0 {
            1
        } else {
            0
        };
        let mut s = Signal::new(
            Hazard::OralReferenceDose,
            strength,
            format!(
                "{} {} {} {} ({} mg/kg bw/day)",
                d.agency,
                format!("{:?}", d.kind).to_uppercase(),
                d.value,
                d.unit,
                fmt_num(mg)
            ),
            &d.source,
            0.85,
        )
        .by(&d.agency, d.year);
        s.magnitude = Some(mg);
        out.push(s);
    }
}

fn inhalation_reference(r: &CompoundRecord, out: &mut Vec<Signal>) {
    let rfc = r
        .dose_response
        .iter()
        .filter(|d| d.kind == DoseKind::RfcChronic && d.unit.contains("g/m3"))
        .map(|d| {
            (
                if d.unit.starts_with("mg") {
                    d.value * 1000.0
                } else {
                    d.value
                },
                d,
            )
        })
        .min_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((ug, d)) = rfc {
        let strength = if ug < 1.0 {
            2
        } else if ug < 10.0 {
            1
        } else {
            0
        };
        let mut s = Signal::new(
            Hazard::InhalationReference,
            strength,
            format!(
                "chronic inhalation reference concentration {} µg/m3 ({})",
                fmt_num(ug),
                d.basis.as_deref().unwrap_or(&d.agency)
            ),
            &d.source,
            0.85,
        )
        .by(&d.agency, d.year);
        s.magnitude = Some(ug);
        out.push(s);
    }
}

fn occupational_limit(r: &CompoundRecord, out: &mut Vec<Signal>) {
    let mw = match &r.properties.chemical_properties.molecular_weight {
        Some(MolecularWeight::Number(mw)) => Some(*mw),
        _ => None,
    };
    let twa = r
        .safety
        .exposure_limits
        .iter()
        .filter(|l| l.kind == LimitKind::Twa)
        .filter_map(|l| {
            let mg = match l.unit.as_str() {
                "mg/m3" => Some(l.value),
                "ppm" => mw.map(|mw| l.value * mw / 24.45),
                _ => None,
            }?;
            Some((mg, l))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((mg, l)) = twa {
        let strength = if mg < 0.01 {
            3
        } else if mg < 0.1 {
            2
        } else if mg < 1.0 {
            1
        } else {
            0
        };
        let mut s = Signal::new(
            Hazard::OccupationalLimit,
            strength,
            format!(
                "{} 8-hour TWA limit {} {} ({} mg/m3)",
                l.agency,
                l.value,
                l.unit,
                fmt_num(mg)
            ),
            &l.source,
            0.85,
        )
        .by(&l.agency, None);
        s.magnitude = Some(mg);
        out.push(s);
    }
}

fn skin_notation(r: &CompoundRecord, out: &mut Vec<Signal>) {
    if let Some(l) = r.safety.exposure_limits.iter().find(|l| l.skin) {
        out.push(
            Signal::new(
                Hazard::SkinNotation,
                1,
                format!("{} skin notation: absorbed through the skin", l.agency),
                &l.source,
                0.85,
            )
            .by(&l.agency, None),
        );
    }
}

fn properties(r: &CompoundRecord, out: &mut Vec<Signal>) {
    let fate = &r.properties.environmental_fate;
    if let Some(odp) = &fate.odp
        && odp.value > 0.0
    {
        out.push(Signal::new(
            Hazard::OzoneDepleting,
            2,
            format!("ozone depletion potential {}", odp.value),
            &odp.source,
            0.85,
        ));
    }
    if let Some(gwp) = &fate.gwp_100yr {
        let strength = if gwp.value >= 1000.0 {
            2
        } else if gwp.value >= 150.0 {
            1
        } else {
            0
        };
        if strength > 0 {
            out.push(Signal::new(
                Hazard::ClimateForcing,
                strength,
                format!("100-year global warming potential {} (IPCC AR6)", gwp.value),
                &gwp.source,
                0.85,
            ));
        }
    }
    if let Some(pb) = &fate.persistent_bioaccumulative
        && pb.value
    {
        out.push(Signal::new(
            Hazard::PersistentBioaccumulative,
            SCREENED_PBT,
            "listed as a persistent bioaccumulative toxicant (Minnesota air toxics)",
            &pb.source,
            0.75,
        ));
    }
}

fn uses_and_watch(r: &CompoundRecord, out: &mut Vec<Signal>) {
    match r.watch_class {
        WatchClass::CriticalThreat | WatchClass::AcuteToxin => {
            let (hazard, what) = if r.watch_class == WatchClass::CriticalThreat {
                (Hazard::WatchedCritical, "watched as a critical threat")
            } else {
                (Hazard::WatchedAcute, "watched as an acute toxin")
            };
            let (basis, source) = r
                .watch_basis
                .as_ref()
                .map_or(("curated watch list".to_string(), String::new()), |b| {
                    (b.value.clone(), b.source.clone())
                });
            out.push(Signal::new(
                hazard,
                3,
                format!("{what}: {basis}"),
                &source,
                0.9,
            ));
        }
        _ => {}
    }
    for u in &r.use_classes {
        let (hazard, words) = match u.class.as_str() {
            "neonicotinoid" => (Hazard::Neonicotinoid, "neonicotinoid insecticide"),
            "insecticide" | "organophosphate" => (Hazard::Insecticide, "insecticide"),
            "acaricide" => (Hazard::Acaricide, "acaricide"),
            "rodenticide" => (Hazard::Rodenticide, "rodenticide"),
            "herbicide" | "fungicide" | "pesticide" => (Hazard::OtherPesticide, "pesticide"),
            "everyday_substance" => (Hazard::EverydaySubstance, "everyday substance"),
            _ => continue,
        };
        if out.iter().any(|s| s.hazard == hazard) {
            continue;
        }
        out.push(Signal::new(
            hazard,
            1,
            format!(
                "used as a {words} ({})",
                u.basis.as_deref().unwrap_or(&u.class)
            ),
            &u.source,
            0.7,
        ));
    }
}

fn species(r: &CompoundRecord, out: &mut Vec<Signal>) {
    for (key, notes) in &r.safety.species {
        for n in notes {
            let mut s = Signal::new(Hazard::SpeciesNote, 1, n.finding.clone(), &n.source, 0.8);
            s.context = Some(key.clone());
            s.severity = n.severity;
            if let Some(dose) = &n.toxic_dose {
                s.finding = format!("{} (toxic dose: {dose})", n.finding);
                s.magnitude = stated_mg_per_kg(dose);
            }
            if key.as_str() == "environmental" && n.source.starts_with(STOCKHOLM) {
                out.push(Signal::new(
                    Hazard::PersistentOrganicPollutant,
                    1,
                    "listed under the Stockholm Convention on Persistent Organic Pollutants: \
                     persistent, bioaccumulative and adverse (Annex D)",
                    &n.source,
                    0.85,
                ));
            }
            out.push(s);
        }
    }
}

/// Curated poisonings of people (`safety.human_poisoning`): one signal per context the
/// finding's document speaks of, at the curator's tier.
fn human_poisoning(r: &CompoundRecord, out: &mut Vec<Signal>) {
    for p in &r.safety.human_poisoning {
        let adults = p.contexts.iter().any(|c| c == "human_adult");
        for context in &p.contexts {
            let mut s = Signal::new(Hazard::HumanPoisoning, 1, p.finding.clone(), &p.source, 0.8);
            if let Some(dose) = &p.toxic_dose {
                s.finding = format!("{} (toxic dose: {dose})", p.finding);
            }
            s.context = Some(context.clone());
            s.severity = Some(p.severity);
            s.stage_only = !adults && context != "human_adult";
            out.push(s);
        }
    }
}

/// The prefix of the curated sources that are texts or decisions of the Stockholm Convention
/// (data/README.md).
const STOCKHOLM: &str = "stockholm-";

/// The dose a curated toxic dose states for the species, in mg/kg ("oral LD50 in cats 100
/// mg/kg"; the lower end of "10-20 mg/kg"), if it states one; an account without a value
/// ("one-tenth of the lowest reported LD50") states none.
fn stated_mg_per_kg(text: &str) -> Option<f64> {
    let (before, _) = text.split_once("mg/kg")?;
    let number = before.split_whitespace().last()?;
    number.split(['-', '–']).next()?.parse().ok()
}

/// Acute median lethal and effect values (the EFSA reference points): per group, the most
/// sensitive value a band can be given to (`bands.rs`; METHODOLOGY.md, "Acute values").
fn acute_values(r: &CompoundRecord, out: &mut Vec<Signal>) {
    for group in EcotoxGroup::ALL {
        let Some((d, strength)) = bands::decisive(group, &r.dose_response) else {
            continue;
        };
        let hazard = match group {
            EcotoxGroup::Pollinators => Hazard::BeeLd50,
            EcotoxGroup::AquaticLife => Hazard::AquaticLc50,
            EcotoxGroup::Birds => Hazard::BirdLd50,
            EcotoxGroup::LaboratoryMammals => Hazard::RodentLd50,
        };
        let kind = match d.kind {
            DoseKind::Lc50 => "LC50",
            DoseKind::Ec50 => "EC50",
            _ => "LD50",
        };
        let what = [d.species.as_deref(), d.route.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
        let bound = d
            .qualifier
            .as_deref()
            .filter(|q| *q != "ca.")
            .map_or(String::new(), |q| format!("{q} "));
        let mut s = Signal::new(
            hazard,
            strength,
            format!(
                "{what} acute {kind} {bound}{} {}{}",
                fmt_num(d.value),
                // OpenFoodTox's "piece" is one bee.
                d.unit.replace("/piece", "/bee"),
                d.reference
                    .as_deref()
                    .map_or(String::new(), |r| format!(" ({r})"))
            ),
            &d.source,
            0.9,
        )
        .by(&d.agency, d.year);
        s.magnitude = Some(d.value);
        s.phenol = hazard == Hazard::RodentLd50
            && strength == 0
            && r.identity.smiles.as_deref().is_some_and(phenol::is_phenol);
        out.push(s);
    }
}

/// Numbers in findings: plain up to 4 significant digits, no float noise.
pub fn fmt_num(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let digits = (4 - 1 - v.abs().log10().floor() as i32).max(0) as usize;
    let s = format!("{v:.digits$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}
