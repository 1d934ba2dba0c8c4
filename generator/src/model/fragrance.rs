//! The stored shape of `data/fragrance/`: `classes.json` (odour families and chemical
//! classes) and `ingredients.json` (fragrance ingredients keyed by CAS, with their EU allergen
//! labelling, IFRA Standards status, classes and, for extracts, allergen constituents).
//! Every key of the files is modelled and unknown keys are errors, as for compound records.
//! `Fragrance` is the loaded view.

use serde::{Deserialize, Serialize};

use crate::model::record::SourceRef;

/// `classes.json`: the two vocabularies an ingredient is classified with.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClassesFile {
    pub title: String,
    pub description: String,
    pub sources: Vec<SourceRef>,
    /// Odour descriptors of the IFRA Fragrance Ingredient Glossary.
    pub odour_families: Vec<ClassDef>,
    /// Structural classes, assigned from the compound's structure.
    pub chemical_classes: Vec<ClassDef>,
}

/// One odour family or chemical class.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClassDef {
    /// Lowercase id (`floral`, `terpene_alcohols`): the `class` filter value.
    pub id: String,
    pub name: String,
    pub description: String,
    pub source: String,
}

/// `ingredients.json`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IngredientsFile {
    pub title: String,
    pub description: String,
    pub sources: Vec<SourceRef>,
    pub entries: Vec<Ingredient>,
    /// What the curation could not establish, in words (the file's `_data_gaps`).
    #[serde(default)]
    pub gaps: Vec<String>,
}

/// Whether an ingredient is one substance (or a group of isomers) or a natural extract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum IngredientKind {
    Substance,
    /// Essential oils and other extracts: `mix` compounds in the corpus.
    Extract,
}

/// One fragrance ingredient (for allergens: one EU Annex III entry).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ingredient {
    /// The entry's main CAS number: the compound's key in the corpus.
    pub cas: String,
    /// The labelling (INCI) name for allergens, else the ingredient's common name.
    pub name: String,
    /// Further CAS numbers the entry prints (isomers, grades, botanical variants).
    #[serde(default)]
    pub other_cas: Vec<String>,
    pub kind: IngredientKind,
    /// The EU labelling obligation; absent when the ingredient is not a labelled allergen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eu_allergen: Option<EuAllergen>,
    /// The IFRA Standard that applies; absent when none was found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ifra: Option<Ifra>,
    #[serde(default)]
    pub odour_families: Vec<String>,
    /// Citation of `odour_families`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub odour_source: Option<String>,
    #[serde(default)]
    pub chemical_classes: Vec<String>,
    /// Extracts only: the EU-allergen constituents a composition source names, by the main
    /// CAS of their own entry. Empty where no source was verified.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constituents: Vec<String>,
    /// Citation of `constituents`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constituents_source: Option<String>,
    /// The entry's main citation.
    pub source: String,
}

/// The regulation an EU labelling obligation comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum EuRegulation {
    /// The 26 labelled allergens of Regulation (EC) No 1223/2009, Annex III (entries 67-92,
    /// benzyl alcohol now under entry 45).
    #[serde(rename = "(EC) No 1223/2009 Annex III")]
    Annex26,
    /// Entries added or made labelled allergens by Regulation (EU) 2023/1545.
    #[serde(rename = "(EU) 2023/1545")]
    Amendment2023,
}

/// An EU labelled fragrance allergen: named in the ingredient list above the thresholds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EuAllergen {
    pub regulation: EuRegulation,
    /// Annex III entry (reference) number, as printed.
    pub entry: String,
    /// Concentration above which leave-on products must label it (0.001 %).
    pub leave_on_threshold_pct: f64,
    /// Concentration above which rinse-off products must label it (0.01 %).
    pub rinse_off_threshold_pct: f64,
    /// YYYY-MM-DD from which the obligation applies.
    #[schemars(extend("format" = "date"))]
    pub applies_from: String,
    pub source: String,
}

/// The type of IFRA Standard that applies to an ingredient.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum IfraStatus {
    Prohibited,
    /// Use limits per product category (also standards that restrict some grades and
    /// prohibit others).
    Restricted,
    /// Purity or composition criteria only.
    Specification,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ifra {
    pub status: IfraStatus,
    /// Which Standard, in words (name, number, amendment of last publication).
    pub standard: String,
    pub source: String,
}

/// The fragrance view's data: the class vocabularies and the ingredients.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Fragrance {
    pub classes: ClassesFile,
    pub ingredients: IngredientsFile,
}

/// Which vocabulary a class belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassFamily {
    Odour,
    Chemical,
}

impl Fragrance {
    /// Every class of both vocabularies, odour families first, in file order.
    pub fn all_classes(&self) -> impl Iterator<Item = (ClassFamily, &ClassDef)> {
        let odour = self.classes.odour_families.iter();
        let chemical = self.classes.chemical_classes.iter();
        odour
            .map(|c| (ClassFamily::Odour, c))
            .chain(chemical.map(|c| (ClassFamily::Chemical, c)))
    }

    pub fn class(&self, id: &str) -> Option<(ClassFamily, &ClassDef)> {
        self.all_classes().find(|(_, c)| c.id == id)
    }
}

/// The files of `data/fragrance/`, relative to the data directory.
pub const CLASSES_FILE: &str = "fragrance/classes.json";
pub const INGREDIENTS_FILE: &str = "fragrance/ingredients.json";
