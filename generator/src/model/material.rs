//! Stored materials (`data/materials/<id>.json`) and products
//! (`data/products/<id>.json`). Compounds are referenced by CAS and materials by
//! slug, so curators never copy ids by hand; the loader resolves both and `check` reports any
//! reference that does not resolve.

use serde::{Deserialize, Serialize};

use super::record::SourceRef;
use super::vocab::RiskLevel;

/// What a component's share says (data/README.md, "Shares"): the content the material or
/// product has, or only a ceiling on it. Synthesis uses the first two as exposure and the
/// last two only as an upper bound (METHODOLOGY.md).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum ShareKind {
    /// Typical or measured content, as a study, monograph or manufacturer reports it.
    Typical,
    /// The range or limit a material standard sets for the grade (EN 10088-1, ASTM B265...).
    Specification,
    /// A maximum (content, migration, release or emission) or permitted range set by law.
    LegalLimit,
    /// A maximum a regulator's guidance or a scientific committee's opinion recommends.
    AdvisoryLimit,
}

impl ShareKind {
    pub const ALL: [ShareKind; 4] = [
        ShareKind::Typical,
        ShareKind::Specification,
        ShareKind::LegalLimit,
        ShareKind::AdvisoryLimit,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ShareKind::Typical => "typical",
            ShareKind::Specification => "specification",
            ShareKind::LegalLimit => "legal_limit",
            ShareKind::AdvisoryLimit => "advisory_limit",
        }
    }

    /// The share states the content itself, not a ceiling on it.
    pub fn is_content(self) -> bool {
        matches!(self, ShareKind::Typical | ShareKind::Specification)
    }
}

/// A compound in a material or product, with its role and share where known.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Component {
    pub cas: String,
    pub name: String,
    /// e.g. base_polymer, repeating_unit, monomer_residue, plasticizer, flame_retardant,
    /// pigment, catalyst residue, contaminant, active_ingredient, preservative, fragrance,
    /// solvent.
    pub role: String,
    /// As the source states it ("10-40 % w/w", "max 0.1 %"); absent when not stated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share: Option<String>,
    /// Required with `share`; `check` reports a share without a kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share_kind: Option<ShareKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub source: String,
}

/// The role of a monomer present only as polymerised units of the material's chain
/// (data/README.md, "Materials").
pub const REPEATING_UNIT: &str = "repeating_unit";

impl Component {
    /// The compound is bound in the polymer chain, not present as free substance, so no
    /// exposure is derived from the line (METHODOLOGY.md, "Found in, derived from
    /// compositions"); residual free monomer is a line of its own.
    pub fn is_repeating_unit(&self) -> bool {
        self.role == REPEATING_UNIT
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Composition {
    #[serde(default)]
    pub base: Vec<Component>,
    #[serde(default)]
    pub additives: Vec<Component>,
    #[serde(default)]
    pub contaminants: Vec<Component>,
}

/// A brand named as an example of a product category, with the source that shows the brand's
/// product belongs to it (data/README.md, "Products").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BrandExample {
    pub name: String,
    pub source: String,
}

/// A curated finding about the product itself for a pet (data/README.md, "Products"): the
/// syndrome a veterinary reference documents for the product where no compound of its
/// composition is an established cause (grapes and raisins in dogs: the toxic principle is
/// unknown). Synthesis scores it as it scores a compound's tier in that context
/// (METHODOLOGY.md, "A syndrome without an established cause").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProductFinding {
    /// `dog` or `cat`, the contexts a product's `pets` users bring in.
    pub context: String,
    pub severity: RiskLevel,
    pub finding: String,
    pub source: String,
}

/// The contexts a product finding may name.
pub const FINDING_CONTEXTS: [&str; 2] = ["dog", "cat"];

/// A sourced statement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Statement {
    pub text: String,
    pub source: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Behavior {
    #[serde(default)]
    pub leaching: Vec<Statement>,
    #[serde(default)]
    pub degradation: Vec<Statement>,
    #[serde(default)]
    pub offgassing: Vec<Statement>,
    #[serde(default)]
    pub thermal: Vec<Statement>,
}

/// A material recommended instead, by slug when the dataset has it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MaterialAlternative {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    pub reason: String,
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EntityMeta {
    #[schemars(extend("format" = "date"))]
    pub created: String,
    #[schemars(extend("format" = "date"))]
    pub last_reviewed: String,
    pub version: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Material {
    pub id: String,
    pub slug: String,
    pub name: String,
    /// Family code: the id's middle part (see data/README.md).
    pub family: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub synonyms: Vec<String>,
    pub description: Statement,
    pub composition: Composition,
    #[serde(default)]
    pub behavior: Behavior,
    pub safety_summary: Statement,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<MaterialAlternative>,
    pub sources: Vec<SourceRef>,
    pub meta: EntityMeta,
}

/// A material in a product: by slug, with why it is there or why it matters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MaterialUse {
    pub slug: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub source: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProductMaterials {
    #[serde(default)]
    pub common: Vec<MaterialUse>,
    #[serde(default)]
    pub concerning: Vec<MaterialUse>,
    #[serde(default)]
    pub preferred: Vec<MaterialUse>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Exposure {
    /// dermal, inhalation, ingestion, ocular.
    pub routes: Vec<String>,
    /// adults, children, infants, pregnant, workers, pets.
    pub users: Vec<String>,
    /// momentary, short, prolonged, continuous.
    pub duration: String,
    /// occasional, weekly, daily, continuous.
    pub frequency: String,
    pub source: String,
    /// Users or routes of the lists above that another document states, each with its source
    /// (data/README.md, "Products"): `source` stands for the rest.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<ExposureStatement>,
}

/// Users and routes one document states for a product's exposure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExposureStatement {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub users: Vec<String>,
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Regulation {
    /// US, EU, CA, UK, AU, International...
    pub jurisdiction: String,
    pub instrument: String,
    pub requirement: String,
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Product {
    pub id: String,
    pub name: String,
    /// Tier code: CHD, BDY, FOD, HOM, OUT, PET, WER, SPE.
    pub tier: String,
    pub categories: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub common_names: Vec<String>,
    pub description: Statement,
    #[serde(default)]
    pub composition: Vec<Component>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<ProductFinding>,
    #[serde(default)]
    pub materials: ProductMaterials,
    pub hazard_summary: Statement,
    pub exposure: Exposure,
    #[serde(default)]
    pub regulatory_status: Vec<Regulation>,
    #[serde(default)]
    pub handling: Vec<Statement>,
    #[serde(default)]
    pub lifecycle: Vec<Statement>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub brand_examples: Vec<BrandExample>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brand_examples_disclaimer: Option<String>,
    pub sources: Vec<SourceRef>,
    pub meta: EntityMeta,
}
