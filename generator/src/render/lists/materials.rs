//! `GET /api/materials`: one page of the materials, `search` over names and synonyms.

use serde::Serialize;

use super::params::{Pagination, Paging, contains_text, search_param};
use crate::model::Dataset;
use crate::model::material::Material;
use crate::render::{Cache, Rendered};

#[derive(Serialize)]
struct MaterialItem<'a> {
    id: &'a str,
    name: &'a str,
    slug: &'a str,
    family: &'a str,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    synonyms: &'a [String],
    safety_summary: &'a str,
    /// Compounds named in the composition (base, additives, contaminants).
    compound_count: usize,
    alternative_count: usize,
}

impl<'a> MaterialItem<'a> {
    fn of(m: &'a Material) -> MaterialItem<'a> {
        let c = &m.composition;
        MaterialItem {
            id: &m.id,
            name: &m.name,
            slug: &m.slug,
            family: &m.family,
            synonyms: &m.synonyms,
            safety_summary: &m.safety_summary.text,
            compound_count: c.base.len() + c.additives.len() + c.contaminants.len(),
            alternative_count: m.alternatives.len(),
        }
    }
}

#[derive(Serialize)]
struct MaterialsBody<'a> {
    materials: Vec<MaterialItem<'a>>,
    pagination: Pagination,
}

/// `GET /api/materials` (keyed): `search` matches the name and synonyms.
pub fn materials(
    dataset: &Dataset,
    page: Option<&str>,
    limit: Option<&str>,
    search: Option<&str>,
) -> Rendered {
    let (paging, search) =
        match Paging::parse(page, limit).and_then(|p| search_param(search).map(|s| (p, s))) {
            Ok(v) => v,
            Err(e) => return e,
        };
    let found: Vec<&Material> = dataset
        .materials
        .values()
        .filter(|m| {
            search
                .as_ref()
                .is_none_or(|s| contains_text(std::iter::once(&m.name).chain(&m.synonyms), s))
        })
        .collect();
    let (page, pagination) = paging.slice(&found);
    let body = MaterialsBody {
        materials: page.iter().map(|m| MaterialItem::of(m)).collect(),
        pagination,
    };
    Rendered::json(200, &body, Cache::Private)
}
