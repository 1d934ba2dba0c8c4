//! Material and product responses: references resolved to ids and names, the
//! product's risk synthesis, and `compound_traces` for Developer tier and above only.

use std::borrow::Cow;

use serde::Serialize;

use super::compound::{KeyedLinks, View};
use super::{Cache, Rendered};
use crate::aggregate::synthesis::{self, ProductRisk, Synthesis, Synthesized, Trace};
use crate::model::Dataset;
use crate::model::ids::CompoundId;
use crate::model::material::{
    Behavior, BrandExample, Component, EntityMeta, Exposure, Material, MaterialUse, Product,
    Regulation, ShareKind, Statement,
};
use crate::model::record::SourceRef;
use crate::render::error::ApiError;

/// A component with its compound id resolved.
#[derive(Serialize, schemars::JsonSchema)]
struct ComponentOut<'a> {
    compound_id: Option<&'a CompoundId>,
    name: &'a str,
    cas: &'a str,
    role: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    share: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    share_kind: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'a str>,
    source: &'a str,
}

fn components<'a>(dataset: &'a Dataset, list: &'a [Component]) -> Vec<ComponentOut<'a>> {
    list.iter()
        .map(|c| ComponentOut {
            compound_id: dataset.by_cas(&c.cas).map(|r| &r.hq_id),
            name: &c.name,
            cas: &c.cas,
            role: &c.role,
            share: c.share.as_deref(),
            share_kind: c.share_kind.map(ShareKind::as_str),
            note: c.note.as_deref(),
            source: &c.source,
        })
        .collect()
}

#[derive(Serialize, schemars::JsonSchema)]
struct CompositionOut<'a> {
    base: Vec<ComponentOut<'a>>,
    additives: Vec<ComponentOut<'a>>,
    contaminants: Vec<ComponentOut<'a>>,
}

#[derive(Serialize, schemars::JsonSchema)]
struct MaterialRef<'a> {
    material_id: Option<&'a str>,
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    role: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    source: &'a str,
}

/// The material a slug names (products and materials refer to materials by slug).
pub(crate) fn material_by_slug<'a>(dataset: &'a Dataset, slug: &str) -> Option<&'a Material> {
    dataset.materials.values().find(|m| m.slug == slug)
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct MaterialOut<'a> {
    id: &'a str,
    hq_id: &'a str,
    name: &'a str,
    slug: &'a str,
    family: &'a str,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    synonyms: &'a [String],
    description: &'a Statement,
    composition: CompositionOut<'a>,
    behavior: &'a Behavior,
    safety_summary: &'a Statement,
    alternatives: Vec<MaterialRef<'a>>,
    sources: &'a [SourceRef],
    meta: &'a EntityMeta,
}

/// A 400 unless `id` has the shape of a `letter` entity's id (`hq-m-...`, `hq-p-...`).
pub(crate) fn check_id(id: &str, letter: char, what: &str) -> Result<(), ApiError> {
    let ok = id.len() == 15
        && id.starts_with(&format!("hq-{letter}-"))
        && id[5..8].bytes().all(|b| b.is_ascii_lowercase())
        && &id[8..9] == "-"
        && id[9..].bytes().all(|b| b.is_ascii_digit());
    if ok {
        Ok(())
    } else {
        Err(ApiError::bad_request(format!(
            "malformed {what} id {id:?}: expected hq-{letter}-<3 letters>-<6 digits>"
        )))
    }
}

/// The material `id` names: a 400 for a malformed id, a 404 for an unknown one. The JSON and
/// the page look a material up here.
pub(crate) fn material_of<'d>(dataset: &'d Dataset, id: &str) -> Result<&'d Material, ApiError> {
    check_id(id, 'm', "material")?;
    dataset
        .materials
        .get(id)
        .ok_or_else(|| ApiError::not_found(format!("material {id} not found")))
}

/// The product `id` names, as `material_of` a material.
pub(crate) fn product_of<'d>(dataset: &'d Dataset, id: &str) -> Result<&'d Product, ApiError> {
    check_id(id, 'p', "product")?;
    dataset
        .products
        .get(id)
        .ok_or_else(|| ApiError::not_found(format!("product {id} not found")))
}

/// The product's synthesis: `synthesized` when the caller has made it already (the build
/// renders all of a product's responses from one), else made here. Every renderer of a
/// product (its JSON, page and badges) takes it from here.
pub(crate) fn synthesis_of<'a>(
    dataset: &Dataset,
    product: &Product,
    synthesized: Option<&'a Synthesized>,
) -> Cow<'a, Synthesized> {
    synthesized.map_or_else(
        || Cow::Owned(synthesis::synthesize(dataset, product)),
        Cow::Borrowed,
    )
}

/// `GET /api/material/{id}`.
pub fn material(dataset: &Dataset, id: &str) -> Rendered {
    let m = match material_of(dataset, id) {
        Ok(m) => m,
        Err(e) => return Rendered::from(e),
    };
    let body = MaterialOut {
        id: &m.id,
        hq_id: &m.id,
        name: &m.name,
        slug: &m.slug,
        family: &m.family,
        synonyms: &m.synonyms,
        description: &m.description,
        composition: CompositionOut {
            base: components(dataset, &m.composition.base),
            additives: components(dataset, &m.composition.additives),
            contaminants: components(dataset, &m.composition.contaminants),
        },
        behavior: &m.behavior,
        safety_summary: &m.safety_summary,
        alternatives: m
            .alternatives
            .iter()
            .map(|a| MaterialRef {
                material_id: a
                    .slug
                    .as_deref()
                    .and_then(|s| material_by_slug(dataset, s))
                    .map(|m| m.id.as_str()),
                name: &a.name,
                role: None,
                reason: Some(&a.reason),
                source: &a.source,
            })
            .collect(),
        sources: &m.sources,
        meta: &m.meta,
    };
    Rendered::json(200, &body, Cache::PublicCompound).keyed(&m.id)
}

#[derive(Serialize, schemars::JsonSchema)]
struct MaterialsOut<'a> {
    common: Vec<MaterialRef<'a>>,
    concerning: Vec<MaterialRef<'a>>,
    preferred: Vec<MaterialRef<'a>>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct ProductOut<'a> {
    id: &'a str,
    hq_id: &'a str,
    name: &'a str,
    tier: &'a str,
    #[schemars(with = "Option<ProductRisk>")]
    risk_level: Option<&'static str>,
    categories: &'a [String],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    tags: &'a [String],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    common_names: &'a [String],
    description: &'a Statement,
    composition: Vec<ComponentOut<'a>>,
    materials: MaterialsOut<'a>,
    hazard_summary: &'a Statement,
    exposure: &'a Exposure,
    regulatory_status: &'a [Regulation],
    handling: &'a [Statement],
    lifecycle: &'a [Statement],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    brand_examples: &'a [BrandExample],
    #[serde(skip_serializing_if = "Option::is_none")]
    brand_examples_disclaimer: Option<&'a str>,
    synthesis: &'a Synthesis,
    #[serde(skip_serializing_if = "Option::is_none")]
    compound_traces: Option<&'a [Trace]>,
    sources: &'a [SourceRef],
    meta: &'a EntityMeta,
    _links: KeyedLinks,
}

fn uses<'a>(dataset: &'a Dataset, list: &'a [MaterialUse]) -> Vec<MaterialRef<'a>> {
    list.iter()
        .map(|u| {
            let m = material_by_slug(dataset, &u.slug);
            MaterialRef {
                material_id: m.map(|m| m.id.as_str()),
                name: m.map_or(u.slug.as_str(), |m| m.name.as_str()),
                role: u.role.as_deref(),
                reason: u.reason.as_deref(),
                source: &u.source,
            }
        })
        .collect()
}

/// `GET /api/product/{id}`: the profile; `compound_traces` only with `View::Full`.
pub fn product(dataset: &Dataset, id: &str, view: View) -> Rendered {
    product_synthesized(dataset, id, view, None)
}

/// `product`, with the synthesis as `synthesis_of` takes it.
pub fn product_synthesized(
    dataset: &Dataset,
    id: &str,
    view: View,
    synthesized: Option<&Synthesized>,
) -> Rendered {
    let p = match product_of(dataset, id) {
        Ok(p) => p,
        Err(e) => return Rendered::from(e),
    };
    let made = synthesis_of(dataset, p, synthesized);
    let (synthesis, traces) = &*made;
    let body = ProductOut {
        id: &p.id,
        hq_id: &p.id,
        name: &p.name,
        tier: &p.tier,
        risk_level: synthesis.risk_level.map(|r| r.as_str()),
        categories: &p.categories,
        tags: &p.tags,
        common_names: &p.common_names,
        description: &p.description,
        composition: components(dataset, &p.composition),
        materials: MaterialsOut {
            common: uses(dataset, &p.materials.common),
            concerning: uses(dataset, &p.materials.concerning),
            preferred: uses(dataset, &p.materials.preferred),
        },
        hazard_summary: &p.hazard_summary,
        exposure: &p.exposure,
        regulatory_status: &p.regulatory_status,
        handling: &p.handling,
        lifecycle: &p.lifecycle,
        brand_examples: &p.brand_examples,
        brand_examples_disclaimer: p.brand_examples_disclaimer.as_deref(),
        synthesis,
        compound_traces: (view == View::Full).then_some(traces.as_slice()),
        sources: &p.sources,
        meta: &p.meta,
        _links: KeyedLinks::of(&format!("/api/product/{}", p.id)),
    };
    Rendered::json(200, &body, Cache::PublicCompound).keyed(&p.id)
}

/// `GET /api/product/{id}/raw`: the stored product, without shaping or tier gating.
pub fn product_raw(dataset: &Dataset, id: &str) -> Rendered {
    match product_of(dataset, id) {
        Ok(p) => Rendered::json(200, p, Cache::PublicCompound).keyed(&p.id),
        Err(e) => Rendered::from(e),
    }
}
