//! The stored compound record: the raw record `GET /api/compound/{id}/raw` serves, one JSON file per compound.
//!
//! Field order here is the key order on disk, so a release is a readable diff. Every value
//! that came from somewhere names it through a `source` id that resolves in `sources[]`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::cas::Cas;
use super::dating::{DatePrecision, STATED_DATE};
use super::ids::CompoundId;

use super::vocab::{
    DoseKind, ExposureRoute, IarcGroup, LimitKind, NtpListing, Prop65Toxicity, RiskLevel,
    SignalWord, WatchClass,
};

/// One compound, as stored in `data/compounds/<hq_id>.json` (merged with its curated overlay).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CompoundRecord {
    pub hq_id: CompoundId,
    pub name: String,
    /// Source of `name`: a curated list or the table the name was taken from.
    pub name_source: String,
    pub cas: Cas,
    /// Other CAS numbers of the same substance, each with the documents that say so
    /// (`curated/alternate-cas.tsv`): the record holds what the tables file under them too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternate_cas: Vec<AlternateCas>,
    /// Primary use class (the `type_filter` vocabulary), if any is known.
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "type")]
    pub kind: Option<String>,
    /// Broad category (the `category_filter` vocabulary), if any is known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub use_classes: Vec<UseClass>,
    pub identity: Identity,
    pub crossrefs: Crossrefs,
    pub properties: Properties,
    pub safety: Safety,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dose_response: Vec<DoseValue>,
    pub regulatory: Regulatory,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub found_in: Vec<FoundIn>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alternatives: Option<Alternatives>,
    #[serde(default)]
    pub hierarchy: Hierarchy,
    #[serde(default)]
    pub watch_class: WatchClass,
    /// Why `watch_class` is what it is (curated, with its source).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub watch_basis: Option<Sourced<String>>,
    pub sources: Vec<SourceRef>,
    pub meta: Meta,
    #[serde(rename = "_data_gaps", default, skip_serializing_if = "Vec::is_empty")]
    pub data_gaps: Vec<DataGap>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_quality: Option<Vec<DataQualityNote>>,
}

/// A second CAS number of the record's substance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AlternateCas {
    pub cas: Cas,
    /// The documents that give this number and the record's `cas` to one substance.
    pub basis: String,
}

/// A value together with the id of the source it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sourced<T> {
    pub value: T,
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UseClass {
    pub class: String,
    pub source: String,
    /// The wording of the source the class was read from (e.g. an FDA technical effect).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basis: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Identity {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smiles: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inchi: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inchi_key: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iupac_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact_mass: Option<f64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub synonyms: Vec<String>,
    /// Source of the structural identifiers and synonyms above.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Source of `exact_mass` (computed from the formula and an isotope table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact_mass_source: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Crossrefs {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pubchem_cid: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inchi: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ec_number: Option<Sourced<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dtxsid: Option<Sourced<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clp_index_no: Option<Sourced<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Properties {
    pub chemical_properties: ChemicalProperties,
    #[serde(default)]
    pub physical_properties: PhysicalProperties,
    #[serde(default)]
    pub environmental_fate: EnvironmentalFate,
}

/// A polymer or mixture may state its molecular weight in words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum MolecularWeight {
    Number(f64),
    Text(String),
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChemicalProperties {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub molecular_formula: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub molecular_weight: Option<MolecularWeight>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact_mass: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Source of `exact_mass` (computed from the formula), when it differs from `source`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact_mass_source: Option<String>,
}

/// A measured quantity in the unit its source states.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Measured {
    pub value: f64,
    pub unit: String,
    pub source: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PhysicalProperties {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub melting_point: Option<Measured>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boiling_point: Option<Measured>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub density: Option<Measured>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flash_point: Option<Measured>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub autoignition_temperature: Option<Measured>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lower_flammability_limit: Option<Measured>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upper_flammability_limit: Option<Measured>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EnvironmentalFate {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log_kow: Option<Measured>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gwp_100yr: Option<Measured>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub odp: Option<Measured>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub atmospheric_lifetime: Option<Measured>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub persistent_bioaccumulative: Option<Sourced<bool>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Safety {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ghs: Vec<GhsClassification>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carcinogenicity: Option<Carcinogenicity>,
    /// Agencies' carcinogenicity conclusions beyond the listings (curated), e.g. an agency
    /// concluding a substance is not likely to be carcinogenic.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cancer_positions: Vec<CancerPosition>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub endocrine_disruption: Vec<EndocrineNote>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exposure_limits: Vec<ExposureLimit>,
    /// Species-specific toxicity notes (curated), keyed by species or context name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub species: BTreeMap<String, Vec<SpeciesNote>>,
    /// Poisonings of people that the acute classes understate (curated,
    /// `curated/human-poisoning.json`), each for the contexts its document speaks of.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub human_poisoning: Vec<HumanPoisoning>,
}

/// A GHS classification from one authority (EU CLP Annex VI, or Safe Work Australia HCIS).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GhsClassification {
    pub jurisdiction: String,
    /// Hazard class and category codes as written by the authority ("Carc. 1B").
    pub hazard_classes: Vec<String>,
    pub h_codes: Vec<String>,
    /// The hazard codes whose route of exposure the entry states, with its words.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<StatedRoute>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pictograms: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal_word: Option<SignalWord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub specific_concentration_limits: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// The entry's edition (e.g. the ATP that last amended a CLP entry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edition: Option<String>,
    /// The Annex VI group entry the compound has this classification through ("lead
    /// compounds with the exception of those specified elsewhere in this Annex"), when it has
    /// no entry of its own (data/curated/group-rows.tsv).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// The grade of the substance the entry is for, as Annex VI states it ("containing ≥ 0.1 %
    /// 4-chloroaniline"): two entries for one substance apply to different grades.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qualifier: Option<String>,
    pub source: String,
    /// The date an adopted entry applies from (an ATP's application date), when it is later
    /// than the data: such an entry is `pending` until then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("format" = "date"))]
    pub applies_from: Option<String>,
    /// Set by the lifecycle (`load::lifecycle`): a later ATP's entry supersedes it, or a court
    /// annulled it; `pending` (curated) until `applies_from`. Absent means current.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Lifecycle>,
    /// The source that superseded or annulled the entry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub superseded_by: Option<String>,
    /// When the value came into force, from its instrument (`model::dating`; set when the
    /// dataset is loaded, never stored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(pattern(STATED_DATE))]
    pub effective_from: Option<String>,
    /// How much of `effective_from` the source states.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date_precision: Option<DatePrecision>,
    /// When the value stopped being in force: its replacement's `effective_from`, or the day a
    /// judgment annulling it took effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(pattern(STATED_DATE))]
    pub effective_until: Option<String>,
}

/// A hazard code of a GHS entry and the routes of exposure the entry states for it: EU CLP
/// Annex VI's "(Inhalation)" beside the code, Safe Work Australia's "if inhaled", "if
/// swallowed", "in contact with skin" in the hazard statement. `words` are the source's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatedRoute {
    pub code: String,
    pub routes: Vec<ExposureRoute>,
    pub words: String,
    /// The fallback source whose statement this is, when its own entry was left out because
    /// the compound has an entry in the primary source (`fallback_for` in data/sources.json):
    /// the route it states for the same code still holds (data/README.md "Groups").
    // Also a curated document's statement of the route of a class the entry gives without
    // one (`stated_routes`, data/README.md "Routes stated beside a class").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// The IARC evaluation, mirrored from `regulatory.listings.iarc_group`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Carcinogenicity {
    pub iarc_group: IarcGroup,
    pub iarc_monograph: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iarc_year: Option<i32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cancer_sites: Vec<String>,
    /// The circumstance the call is for, when the agent evaluated is qualified ("in alcoholic
    /// beverages", "as strong inorganic acid mists"): the call is not about the substance in
    /// every use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qualifier: Option<String>,
    pub source: String,
}

/// One agency's carcinogenicity conclusion, in its own words, with the call it amounts to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CancerPosition {
    pub agency: String,
    pub position: String,
    pub call: CancerCall,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<i32>,
    /// The one route the position's evidence is by (chromium(VI) in drinking water: oral).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<ExposureRoute>,
    pub source: String,
}

/// Carcinogenicity calls on one scale across agencies' vocabularies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CancerCall {
    Known,
    Probable,
    Possible,
    NotClassifiable,
    NotLikely,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EndocrineNote {
    pub agency: String,
    pub finding: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<i32>,
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExposureLimit {
    pub agency: String,
    pub jurisdiction: String,
    pub kind: LimitKind,
    pub value: f64,
    pub unit: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub skin: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notation: Option<String>,
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpeciesNote {
    pub finding: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toxic_dose: Option<String>,
    /// The curator's reading of the reference as a risk tier for this species or context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub severity: Option<RiskLevel>,
    pub source: String,
}

/// A poisoning of people a document records: the groups of people and routes of exposure
/// (context names) it speaks of, what it found, the dose it states, and the curator's tier
/// on METHODOLOGY.md's rubric for people (rule acute_toxicity).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HumanPoisoning {
    pub contexts: Vec<String>,
    pub finding: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toxic_dose: Option<String>,
    pub severity: RiskLevel,
    pub source: String,
}

/// Safer alternatives to the compound for its main uses (curated, alternatives).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Alternatives {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<Alternative>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mitigation_strategies: Vec<Sourced<String>>,
    /// Why no substitute exists, where none does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_substitute_reason: Option<Sourced<String>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Alternative {
    pub name: String,
    /// CAS of the alternative, when it is a single substance (linked to a compound id when
    /// the corpus holds it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cas: Option<String>,
    /// For which use the alternative substitutes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub use_case: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effectiveness: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tradeoffs: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relative_cost: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regulatory_status: Option<String>,
    pub source: String,
}

/// A quantitative toxicity value: reference dose, health-based guidance value or potency.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DoseValue {
    pub kind: DoseKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qualifier: Option<String>,
    pub value: f64,
    pub unit: String,
    pub agency: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub population: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub species: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basis: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    pub source: String,
    /// Absent while the value is current; `superseded` once the same agency set a newer value
    /// for the same question and population (set when the dataset is loaded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Lifecycle>,
    /// The reference (or source) of the value that replaced this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub superseded_by: Option<String>,
    /// When the value came into force, from its instrument (`model::dating`; set when the
    /// dataset is loaded, never stored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(pattern(STATED_DATE))]
    pub effective_from: Option<String>,
    /// How much of `effective_from` the source states.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date_precision: Option<DatePrecision>,
    /// When the value stopped being in force: its replacement's `effective_from`, or the day a
    /// judgment annulling it took effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(pattern(STATED_DATE))]
    pub effective_until: Option<String>,
}

impl DoseValue {
    /// Whether the value is in force (no status, or `current`).
    pub fn is_current(&self) -> bool {
        matches!(self.status, None | Some(Lifecycle::Current))
    }

    /// The question and population an EFSA guidance value answers; values of one key replace
    /// one another by date (data/README.md "Lifecycle"). The questions: chronic intake (ADI,
    /// TDI and TWI together), the acute reference dose, the upper level. The general
    /// population goes by two names ("Consumers" in OpenFoodTox, "general population" in the
    /// curated opinions), made one. Other agencies' values and other kinds have none.
    pub fn efsa_question(&self) -> Option<(&'static str, String)> {
        use crate::model::vocab::DoseKind;
        if self.agency != "EFSA" {
            return None;
        }
        let question = match self.kind {
            DoseKind::Adi | DoseKind::Tdi | DoseKind::Twi => "chronic intake",
            DoseKind::Arfd => "acute reference dose",
            DoseKind::Ul => "upper level",
            _ => return None,
        };
        let population = match self.population.as_deref().map(str::to_lowercase) {
            None => "consumers".into(),
            Some(p) if p == "general population" => "consumers".into(),
            Some(p) => p,
        };
        Some((question, population))
    }
}

impl GhsClassification {
    /// Whether the entry is in force (no status, or `current`).
    pub fn is_current(&self) -> bool {
        matches!(self.status, None | Some(Lifecycle::Current))
    }
}

impl Classification {
    /// Whether the call is in force (no status, or `current`).
    pub fn is_current(&self) -> bool {
        matches!(self.status, None | Some(Lifecycle::Current))
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Regulatory {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classifications: Vec<Classification>,
    #[serde(default)]
    pub listings: Listings,
}

/// One agency's call on the compound, with its attribution string (see `data/agencies.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Classification {
    pub agency: String,
    pub attribution: String,
    pub classification: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("format" = "date"))]
    pub date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basis: Option<String>,
    /// The circumstance the call is for, when the agent evaluated is qualified ("in alcoholic
    /// beverages", a drug combination): such a call is about another agent and never replaces,
    /// or is replaced by, the substance's own call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qualifier: Option<String>,
    pub source_url: String,
    pub source: String,
    /// The date an adopted call applies from, when later than the data (see
    /// `GhsClassification::applies_from`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("format" = "date"))]
    pub applies_from: Option<String>,
    /// Absent while the call is current; `superseded` once a later call of the same agency
    /// replaced it (set when the dataset is loaded: `load::lifecycle`); `pending` (curated)
    /// until `applies_from`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Lifecycle>,
    /// The source of the call that replaced this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub superseded_by: Option<String>,
    /// When the value came into force, from its instrument (`model::dating`; set when the
    /// dataset is loaded, never stored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(pattern(STATED_DATE))]
    pub effective_from: Option<String>,
    /// How much of `effective_from` the source states.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date_precision: Option<DatePrecision>,
    /// When the value stopped being in force: its replacement's `effective_from`, or the day a
    /// judgment annulling it took effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(pattern(STATED_DATE))]
    pub effective_until: Option<String>,
}

/// Where a classification or reference value stands. A value without a status is current;
/// only current values reach a tier. `pending`: adopted but not yet applicable (an ATP before
/// its application date), neither current nor superseded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Lifecycle {
    Current,
    Superseded,
    Withdrawn,
    Annulled,
    Pending,
}

/// Membership of the compound in each list of record, with the list's own details.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Listings {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iarc_group: Option<IarcListing>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ntp_roc: Option<NtpRocListing>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prop65: Vec<Prop65Listing>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eu_svhc: Option<SvhcListing>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rcra: Vec<RcraListing>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub osha_carcinogen: Option<Sourced<bool>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eu_cosmetics_prohibited: Option<CosingListing>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fda_food_additive: Option<FdaFoodListing>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fda_food_contact: Option<FdaFoodListing>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwc_schedule: Option<CwcListing>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IarcListing {
    pub group: IarcGroup,
    pub volumes: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<i32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cancer_sites: Vec<String>,
    /// The group the call was made for ("Chromium (VI) compounds"), when the compound has it
    /// as a member of that group rather than by its own evaluation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// The circumstance the call is for (see `Carcinogenicity::qualifier`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qualifier: Option<String>,
    pub source: String,
    /// When the value came into force, from its instrument (`model::dating`; set when the
    /// dataset is loaded, never stored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(pattern(STATED_DATE))]
    pub effective_from: Option<String>,
    /// How much of `effective_from` the source states.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date_precision: Option<DatePrecision>,
    /// When the value stopped being in force: its replacement's `effective_from`, or the day a
    /// judgment annulling it took effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(pattern(STATED_DATE))]
    pub effective_until: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NtpRocListing {
    pub listing: NtpListing,
    pub edition: String,
    /// The group listing this compound is a member of ("Lead and Lead Compounds").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// The circumstance the listing is for ("technical grade", "as a fission product").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qualifier: Option<String>,
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Prop65Listing {
    pub toxicity: Prop65Toxicity,
    pub listing_mechanism: String,
    pub date_listed: String,
    /// NSRL (cancer) or MADL (reproductive), as OEHHA prints it, with its unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub safe_harbor_level: Option<String>,
    /// The list row that names a group this compound belongs to ("Lead and lead compounds"),
    /// when the listing reaches it through the group rather than by its own CAS number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// The circumstance the listing is for ("in alcoholic beverages", "airborne, unbound
    /// particles of respirable size").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qualifier: Option<String>,
    pub source: String,
    /// When the listing came into force (`model::dating`; set when the dataset is loaded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(pattern(STATED_DATE))]
    pub effective_from: Option<String>,
    /// How much of `effective_from` the source states.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date_precision: Option<DatePrecision>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SvhcListing {
    pub reasons: Vec<String>,
    pub date_of_inclusion: String,
    pub source: String,
    /// When the listing came into force (`model::dating`; set when the dataset is loaded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(pattern(STATED_DATE))]
    pub effective_from: Option<String>,
    /// How much of `effective_from` the source states.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date_precision: Option<DatePrecision>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RcraListing {
    pub code: String,
    pub list: String,
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CosingListing {
    pub annex: String,
    pub reference_number: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cmr: Option<String>,
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FdaFoodListing {
    pub listed_name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub technical_effects: Vec<String>,
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CwcListing {
    pub schedule: String,
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FoundIn {
    pub category: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    pub source: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Hierarchy {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    #[serde(default)]
    pub inherits_safety: bool,
}

/// A source a record's values point at: a public table (with edition) or a citation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SourceRef {
    pub id: String,
    pub title: String,
    pub publisher: String,
    pub edition: String,
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("format" = "date"))]
    pub accessed: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Meta {
    #[schemars(extend("format" = "date"))]
    pub created: String,
    #[schemars(extend("format" = "date"))]
    pub last_reviewed: String,
    pub version: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub revision_history: Vec<Revision>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Revision {
    pub version: u32,
    #[schemars(extend("format" = "date"))]
    pub date: String,
    pub summary: String,
}

/// A field no source supplied, and why (nothing is invented to fill it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DataGap {
    pub field: String,
    pub reason: String,
}

/// data-quality annotation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DataQualityNote {
    pub field: String,
    pub status: String,
    pub finding: String,
    pub reference: String,
}
