//! Controlled vocabularies of the dataset. An unknown value is a `check` error, not a guess.

use serde::{Deserialize, Serialize};

/// Compound risk tiers, ordered: a higher tier is a greater risk.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum RiskLevel {
    Low,
    Moderate,
    High,
    VeryHigh,
    Critical,
}

impl RiskLevel {
    pub const ALL: [RiskLevel; 5] = [
        RiskLevel::Low,
        RiskLevel::Moderate,
        RiskLevel::High,
        RiskLevel::VeryHigh,
        RiskLevel::Critical,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            RiskLevel::Low => "low",
            RiskLevel::Moderate => "moderate",
            RiskLevel::High => "high",
            RiskLevel::VeryHigh => "very_high",
            RiskLevel::Critical => "critical",
        }
    }

    /// Words for summaries ("very high").
    pub fn words(self) -> &'static str {
        match self {
            RiskLevel::VeryHigh => "very high",
            other => other.as_str(),
        }
    }

    /// One tier up, capped at `cap`.
    pub fn raised(self, cap: RiskLevel) -> RiskLevel {
        let next = match self {
            RiskLevel::Low => RiskLevel::Moderate,
            RiskLevel::Moderate => RiskLevel::High,
            RiskLevel::High => RiskLevel::VeryHigh,
            RiskLevel::VeryHigh | RiskLevel::Critical => RiskLevel::Critical,
        };
        if next > cap { self.max(cap) } else { next }
    }

    pub fn parse(s: &str) -> Option<RiskLevel> {
        RiskLevel::ALL.into_iter().find(|r| r.as_str() == s)
    }
}

/// Watched classes: served privately, or refused when critical.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum WatchClass {
    #[default]
    None,
    Precursor,
    AcuteToxin,
    CriticalThreat,
}

impl WatchClass {
    pub fn is_none(&self) -> bool {
        *self == WatchClass::None
    }
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
pub enum IarcGroup {
    #[serde(rename = "1")]
    G1,
    #[serde(rename = "2A")]
    G2A,
    #[serde(rename = "2B")]
    G2B,
    #[serde(rename = "3")]
    G3,
    #[serde(rename = "4")]
    G4,
}

impl IarcGroup {
    pub fn label(self) -> &'static str {
        match self {
            IarcGroup::G1 => "1",
            IarcGroup::G2A => "2A",
            IarcGroup::G2B => "2B",
            IarcGroup::G3 => "3",
            IarcGroup::G4 => "4",
        }
    }

    /// The words IARC uses for each group.
    pub fn description(self) -> &'static str {
        match self {
            IarcGroup::G1 => "Carcinogenic to humans",
            IarcGroup::G2A => "Probably carcinogenic to humans",
            IarcGroup::G2B => "Possibly carcinogenic to humans",
            IarcGroup::G3 => "Not classifiable as to its carcinogenicity to humans",
            IarcGroup::G4 => "Probably not carcinogenic to humans",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NtpListing {
    Known,
    ReasonablyAnticipated,
}

impl NtpListing {
    pub fn description(self) -> &'static str {
        match self {
            NtpListing::Known => "Known to be a human carcinogen",
            NtpListing::ReasonablyAnticipated => "Reasonably anticipated to be a human carcinogen",
        }
    }
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Prop65Toxicity {
    Cancer,
    Developmental,
    /// Female reproductive toxicity.
    Female,
    /// Male reproductive toxicity.
    Male,
}

/// A route of exposure an authority states beside a hazard code (EU CLP Annex VI's
/// "H372 (lungs) (Inhalation)", Safe Work Australia's "... if swallowed").
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum ExposureRoute {
    Inhalation,
    Oral,
    Dermal,
}

impl ExposureRoute {
    /// The route in the words of a finding.
    pub fn words(self) -> &'static str {
        match self {
            ExposureRoute::Inhalation => "inhalation",
            ExposureRoute::Oral => "ingestion",
            ExposureRoute::Dermal => "skin contact",
        }
    }

    /// The routes a source's words name ("Inhalation", "oral, inhalation", "if swallowed or
    /// in contact with skin"), in the enum's order.
    pub fn named_in(words: &str) -> Vec<ExposureRoute> {
        let w = words.to_lowercase();
        let mut out = Vec::new();
        if w.contains("inhal") {
            out.push(ExposureRoute::Inhalation);
        }
        if ["oral", "swallow", "ingest"].iter().any(|k| w.contains(k)) {
            out.push(ExposureRoute::Oral);
        }
        if ["dermal", "skin"].iter().any(|k| w.contains(k)) {
            out.push(ExposureRoute::Dermal);
        }
        out
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum SignalWord {
    Danger,
    Warning,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LimitKind {
    Twa,
    Stel,
    Ceiling,
}

/// Kinds of quantitative toxicity values in `dose_response`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum DoseKind {
    /// Acceptable daily intake.
    Adi,
    /// Tolerable daily intake.
    Tdi,
    /// Tolerable weekly intake.
    Twi,
    /// Acute reference dose.
    Arfd,
    /// Tolerable upper intake level (nutrients).
    Ul,
    /// Acceptable operator exposure level.
    Aoel,
    /// Oral reference dose (US EPA).
    Rfd,
    /// Inhalation reference concentration, acute.
    RfcAcute,
    /// Inhalation reference concentration, subchronic.
    RfcSubchronic,
    /// Inhalation reference concentration, chronic.
    RfcChronic,
    /// Air concentration at a lifetime cancer risk of 1 in 100,000.
    AirConcentrationCancerRisk1e5,
    /// Oral cancer slope factor.
    OralSlopeFactor,
    /// Inhalation unit risk.
    InhalationUnitRisk,
    NoaelReference,
    /// Median lethal dose: per kg of body weight, or per bee.
    Ld50,
    /// Median lethal concentration (aquatic: in water).
    Lc50,
    /// Median effect concentration (aquatic: immobilisation, growth inhibition).
    Ec50,
}

/// The group an acute median lethal or effect value informs (`dose_response[].population`
/// of the EFSA reference points; data/README.md): honey bees for pollinators, aquatic
/// organisms, birds, and the laboratory rodent that stands in for other mammals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EcotoxGroup {
    Pollinators,
    AquaticLife,
    Birds,
    LaboratoryMammals,
}

impl EcotoxGroup {
    pub const ALL: [EcotoxGroup; 4] = [
        EcotoxGroup::Pollinators,
        EcotoxGroup::AquaticLife,
        EcotoxGroup::Birds,
        EcotoxGroup::LaboratoryMammals,
    ];

    /// As written in `population`.
    pub fn label(self) -> &'static str {
        match self {
            EcotoxGroup::Pollinators => "pollinators",
            EcotoxGroup::AquaticLife => "aquatic life",
            EcotoxGroup::Birds => "birds",
            EcotoxGroup::LaboratoryMammals => "laboratory mammals",
        }
    }

    pub fn from_label(label: &str) -> Option<EcotoxGroup> {
        EcotoxGroup::ALL.into_iter().find(|g| g.label() == label)
    }
}

/// The compound use classes (the `type_filter` / `category_filter` examples and the
/// classes the corpus is chosen by).
pub const USE_CLASSES: &[&str] = &[
    "acaricide",
    "antimicrobial",
    "antioxidant",
    "bisphenol",
    "chemical_warfare_agent",
    "chemical_weapon_precursor",
    "colorant",
    "cosmetic_ingredient",
    "dietary_supplement",
    "dye",
    "emulsifier",
    "everyday_substance",
    "flame_retardant",
    "flavoring",
    "food_additive",
    "food_contact_substance",
    "fragrance_allergen",
    "fragrance_ingredient",
    "fungicide",
    "heavy_metal",
    "herbicide",
    "industrial_chemical",
    "insecticide",
    "monomer",
    "mycotoxin",
    "natural_toxin",
    "neonicotinoid",
    "organophosphate",
    "pesticide",
    "pfas",
    "pharmaceutical",
    "phthalate",
    "plasticizer",
    "pollutant",
    "preservative",
    "rodenticide",
    "solvent",
    "species_toxicant",
    "stabilizer",
    "surfactant",
    "sweetener",
    "thickener",
    "uv_filter",
];

/// Use classes from most to least specific: the first one a compound has is its `type`.
const TYPE_PREFERENCE: &[&str] = &[
    "neonicotinoid",
    "organophosphate",
    "herbicide",
    "insecticide",
    "acaricide",
    "fungicide",
    "rodenticide",
    "pesticide",
    "chemical_warfare_agent",
    "chemical_weapon_precursor",
    "phthalate",
    "bisphenol",
    "pfas",
    "flame_retardant",
    "plasticizer",
    "uv_filter",
    "fragrance_allergen",
    "fragrance_ingredient",
    "preservative",
    "sweetener",
    "colorant",
    "dye",
    "antioxidant",
    "emulsifier",
    "thickener",
    "flavoring",
    "surfactant",
    "solvent",
    "heavy_metal",
    "pharmaceutical",
    "mycotoxin",
    "natural_toxin",
    "species_toxicant",
    "dietary_supplement",
    "food_additive",
    "food_contact_substance",
    "monomer",
    "stabilizer",
    "antimicrobial",
    "cosmetic_ingredient",
    "pollutant",
    "industrial_chemical",
    "everyday_substance",
];

/// Use classes a table may decide `type` with. Tables report functional uses broadly (CPDat
/// lists "Fragrance" for benzene, FDA lists talc as a sweetener), so only classes that say
/// what a substance *is* for are trusted from a table; the rest stay evidence in
/// `use_classes[]`, and a curated class always decides.
const TYPEABLE_FROM_TABLES: &[&str] = &[
    "neonicotinoid",
    "organophosphate",
    "herbicide",
    "insecticide",
    "fungicide",
    "rodenticide",
    "pesticide",
    "plasticizer",
    "flame_retardant",
    "solvent",
    "pharmaceutical",
];

/// The compound's `type`: the most specific curated class, else the most specific class a
/// table may decide it with.
pub fn primary_use_class(curated: &[String], from_tables: &[String]) -> Option<&'static str> {
    let most_specific = |classes: &[String], allowed: &dyn Fn(&str) -> bool| {
        TYPE_PREFERENCE
            .iter()
            .find(|t| allowed(t) && classes.iter().any(|c| c == *t))
            .copied()
    };
    most_specific(curated, &|_| true)
        .or_else(|| most_specific(from_tables, &|t| TYPEABLE_FROM_TABLES.contains(&t)))
}

/// The broad category of a use class.
pub fn category_of(class: &str) -> Option<&'static str> {
    Some(match class {
        "neonicotinoid" | "organophosphate" | "herbicide" | "insecticide" | "acaricide"
        | "fungicide" | "rodenticide" | "pesticide" => "pesticide",
        "chemical_warfare_agent" | "chemical_weapon_precursor" => "warfare",
        "uv_filter" | "fragrance_allergen" | "fragrance_ingredient" | "cosmetic_ingredient" => {
            "cosmetic"
        }
        "preservative"
        | "sweetener"
        | "colorant"
        | "antioxidant"
        | "emulsifier"
        | "thickener"
        | "flavoring"
        | "dietary_supplement"
        | "food_additive"
        | "food_contact_substance" => "food",
        "pharmaceutical" => "pharmaceutical",
        "mycotoxin" | "natural_toxin" => "natural",
        "pfas" | "heavy_metal" | "pollutant" => "environmental_contaminant",
        "species_toxicant" | "everyday_substance" => "consumer_product",
        "phthalate"
        | "bisphenol"
        | "flame_retardant"
        | "plasticizer"
        | "dye"
        | "surfactant"
        | "solvent"
        | "monomer"
        | "stabilizer"
        | "antimicrobial"
        | "industrial_chemical" => "industrial",
        _ => return None,
    })
}

/// Broad categories for `category` (the `category_filter`).
pub const CATEGORIES: &[&str] = &[
    "consumer_product",
    "cosmetic",
    "environmental_contaminant",
    "food",
    "industrial",
    "natural",
    "pesticide",
    "pharmaceutical",
    "warfare",
];

/// Material family codes (the middle part of a material id), documented in data/README.md.
pub const MATERIAL_FAMILIES: &[&str] = &[
    "adh", "cer", "coa", "com", "foa", "met", "min", "oth", "ply", "rub", "tex", "woo",
];

/// Product tier codes, upper case as the spec writes them.
pub const PRODUCT_TIERS: &[&str] = &["BDY", "CHD", "FOD", "HOM", "OUT", "PET", "SPE", "WER"];

/// Roles of a compound in a material or product.
pub const COMPONENT_ROLES: &[&str] = &[
    "active_ingredient",
    "alloying_element",
    "antioxidant",
    "base_polymer",
    "catalyst_residue",
    "coating",
    "colorant",
    "contaminant",
    "crosslinker",
    "emulsifier",
    "fiber",
    "filler",
    "flame_retardant",
    "fragrance",
    "metal",
    "mineral",
    "monomer_residue",
    "other",
    "pigment",
    "plasticizer",
    "preservative",
    "processing_aid",
    "propellant",
    "repeating_unit",
    "solvent",
    "stabilizer",
    "surfactant",
    "sweetener",
    "uv_filter",
];

/// Exposure vocabularies of products.
pub const EXPOSURE_ROUTES: &[&str] = &["dermal", "ingestion", "inhalation", "ocular"];
pub const EXPOSURE_USERS: &[&str] = &[
    "adults", "children", "infants", "pets", "pregnant", "workers",
];
pub const EXPOSURE_DURATIONS: &[&str] = &["continuous", "momentary", "prolonged", "short"];
pub const EXPOSURE_FREQUENCIES: &[&str] = &["continuous", "daily", "occasional", "weekly"];

/// GHS pictogram codes.
pub const PICTOGRAMS: &[&str] = &[
    "GHS01", "GHS02", "GHS03", "GHS04", "GHS05", "GHS06", "GHS07", "GHS08", "GHS09",
];

/// Whether `code` has the shape of a GHS hazard statement code (H350, H360FD), or of the EU
/// and Australian supplementary statements (EUH032, AUH029).
pub fn is_h_code(code: &str) -> bool {
    let rest = if let Some(r) = code
        .strip_prefix("EUH")
        .or_else(|| code.strip_prefix("AUH"))
    {
        r
    } else if let Some(r) = code.strip_prefix('H') {
        r
    } else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits == 3 && rest[digits..].chars().all(|c| c.is_ascii_alphabetic())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h_codes() {
        for ok in [
            "H350", "H360FD", "H361fd", "EUH032", "AUH029", "H350i", "H300",
        ] {
            assert!(is_h_code(ok), "{ok}");
        }
        for bad in ["", "H35", "350", "H3500", "X350", "H35O", "H350 "] {
            assert!(!is_h_code(bad), "{bad}");
        }
    }

    #[test]
    fn every_use_class_has_a_type_rank_and_category() {
        for class in USE_CLASSES {
            assert!(TYPE_PREFERENCE.contains(class), "{class} has no type rank");
            let cat = category_of(class).unwrap_or_else(|| panic!("{class} has no category"));
            assert!(CATEGORIES.contains(&cat), "{cat}");
        }
        assert_eq!(TYPE_PREFERENCE.len(), USE_CLASSES.len());
    }

    #[test]
    fn primary_class_is_most_specific_and_curated_first() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let classes = s(&["insecticide", "neonicotinoid"]);
        assert_eq!(primary_use_class(&classes, &[]), Some("neonicotinoid"));
        assert_eq!(primary_use_class(&[], &classes), Some("neonicotinoid"));
        assert_eq!(
            primary_use_class(&s(&["solvent"]), &classes),
            Some("solvent")
        );
        // A table's broad functional use does not decide the type.
        assert_eq!(
            primary_use_class(&[], &s(&["fragrance_ingredient", "colorant"])),
            None
        );
        assert_eq!(
            primary_use_class(&[], &s(&["fragrance_ingredient", "solvent"])),
            Some("solvent")
        );
        assert_eq!(primary_use_class(&[], &[]), None);
    }

    #[test]
    fn vocabularies_are_sorted_and_unique() {
        for list in [
            USE_CLASSES,
            CATEGORIES,
            PICTOGRAMS,
            MATERIAL_FAMILIES,
            PRODUCT_TIERS,
            COMPONENT_ROLES,
            EXPOSURE_ROUTES,
            EXPOSURE_USERS,
            EXPOSURE_DURATIONS,
            EXPOSURE_FREQUENCIES,
        ] {
            assert!(list.windows(2).all(|w| w[0] < w[1]));
        }
    }
}
