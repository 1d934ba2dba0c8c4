//! Where a compound is found, derived from the compositions (METHODOLOGY.md, "Found in"): each
//! material whose composition lists it (category: the material's family), each product whose
//! composition lists it, and each product made of such a material (categories: the product's
//! own). Every entry names the entities it comes from with the component's role and share, and
//! is marked derived beside the categories the source tables give. A monomer bound in the chain
//! (`repeating_unit`) is no exposure and derives nothing.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::model::Dataset;
use crate::model::ids::CompoundId;
use crate::model::material::{Component, Material, ShareKind};

/// The found-in category of a material family (data/README.md, "Materials").
pub fn family_category(family: &str) -> &'static str {
    match family {
        "adh" => "adhesives_and_sealants",
        "cer" => "glass_and_ceramics",
        "coa" => "coatings_and_finishes",
        "com" => "composites",
        "foa" => "foams",
        "met" => "metals_and_alloys",
        "min" => "minerals_and_construction_materials",
        "ply" => "plastics",
        "rub" => "rubbers_and_elastomers",
        "tex" => "textiles_fibres_and_leather",
        "woo" => "wood_and_paper",
        _ => "other_materials",
    }
}

/// A product category as a found-in category: lower case, runs of other characters as `_`.
pub fn category_slug(category: &str) -> String {
    let mut out = String::new();
    for c in category.trim().chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_string()
}

/// One entity a derived entry comes from.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Via {
    pub id: String,
    pub name: String,
    /// `material` or `product`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub role: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share_kind: Option<&'static str>,
    /// For a product: the material that brings the compound in, when it is not listed in the
    /// product's own composition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub material: Option<String>,
}

/// A derived found-in category with the entities behind it, in id order.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Derived {
    pub category: String,
    pub via: Vec<Via>,
}

/// Derived found-in entries per compound id, categories in name order.
pub type DerivedFoundIn = BTreeMap<CompoundId, Vec<Derived>>;

/// The dataset's derived found-in entries: worked out at the first call and kept with the
/// dataset, which never changes once loaded (every found-in answer reads them).
pub fn derived(dataset: &Dataset) -> &DerivedFoundIn {
    dataset.derived_found_in.get_or_init(|| derive(dataset))
}

fn derive(dataset: &Dataset) -> DerivedFoundIn {
    let mut by: Entries<'_> = BTreeMap::new();
    let by_slug: BTreeMap<&str, &Material> = dataset
        .materials
        .values()
        .map(|m| (m.slug.as_str(), m))
        .collect();
    for m in dataset.materials.values() {
        for c in components(m) {
            if let Some(r) = dataset.by_cas(&c.cas) {
                let v = via(&m.id, &m.name, "material", c, None);
                add(&mut by, &r.hq_id, family_category(&m.family).to_string(), v);
            }
        }
    }
    for p in dataset.products.values() {
        let categories: Vec<String> = p.categories.iter().map(|c| category_slug(c)).collect();
        let mut lines: Vec<(&Component, Option<&str>)> =
            p.composition.iter().map(|c| (c, None)).collect();
        for u in p.materials.common.iter().chain(&p.materials.concerning) {
            if let Some(m) = by_slug.get(u.slug.as_str()) {
                lines.extend(components(m).map(|c| (c, Some(m.name.as_str()))));
            }
        }
        for (c, material) in lines {
            let Some(r) = dataset.by_cas(&c.cas) else {
                continue;
            };
            for cat in &categories {
                let v = via(&p.id, &p.name, "product", c, material);
                add(&mut by, &r.hq_id, cat.clone(), v);
            }
        }
    }
    by.into_iter()
        .map(|(id, cats)| {
            let list = cats
                .into_iter()
                .map(|(category, mut via)| {
                    via.sort_by(|a, b| a.id.cmp(b.id).then(a.material.cmp(&b.material)));
                    Derived {
                        category,
                        via: via.into_iter().map(ViaRef::owned).collect(),
                    }
                })
                .collect();
            (*id, list)
        })
        .collect()
}

/// A `Via` while the entries are gathered, borrowing from the dataset.
#[derive(Debug, Clone, Copy)]
struct ViaRef<'a> {
    id: &'a str,
    name: &'a str,
    kind: &'static str,
    role: &'a str,
    share: Option<&'a str>,
    share_kind: Option<&'static str>,
    material: Option<&'a str>,
}

impl ViaRef<'_> {
    fn owned(self) -> Via {
        Via {
            id: self.id.to_string(),
            name: self.name.to_string(),
            kind: self.kind,
            role: self.role.to_string(),
            share: self.share.map(str::to_string),
            share_kind: self.share_kind,
            material: self.material.map(str::to_string),
        }
    }
}

type Entries<'a> = BTreeMap<&'a CompoundId, BTreeMap<String, Vec<ViaRef<'a>>>>;

/// Adds `v` under the compound and category unless that entity (through the same material)
/// is already there: a product lists each way it holds the compound once.
fn add<'a>(by: &mut Entries<'a>, compound: &'a CompoundId, category: String, v: ViaRef<'a>) {
    let list = by.entry(compound).or_default().entry(category).or_default();
    if !list
        .iter()
        .any(|x| x.id == v.id && x.material == v.material)
    {
        list.push(v);
    }
}

/// The material's lines that can expose anyone: a monomer bound as repeating units is not
/// free substance (METHODOLOGY.md, "Found in, derived from compositions").
fn components(m: &Material) -> impl Iterator<Item = &Component> {
    let c = &m.composition;
    c.base
        .iter()
        .chain(&c.additives)
        .chain(&c.contaminants)
        .filter(|c| !c.is_repeating_unit())
}

fn via<'a>(
    id: &'a str,
    name: &'a str,
    kind: &'static str,
    c: &'a Component,
    material: Option<&'a str>,
) -> ViaRef<'a> {
    ViaRef {
        id,
        name,
        kind,
        role: &c.role,
        share: c.share.as_deref(),
        share_kind: c.share_kind.map(ShareKind::as_str),
        material,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn product_categories_become_slugs() {
        assert_eq!(
            category_slug("pet poisoning hazards"),
            "pet_poisoning_hazards"
        );
        assert_eq!(category_slug(" DIY "), "diy");
        assert_eq!(category_slug("food_contact"), "food_contact");
        assert_eq!(category_slug("arts & crafts"), "arts_crafts");
    }
}
