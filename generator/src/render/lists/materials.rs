//! `GET /api/materials`: one page of the materials, `search` over names and synonyms.

use serde::Serialize;

use super::params::{contains_text, search_param};
use crate::api::{Op, Query};
use crate::model::Dataset;
use crate::model::material::Material;
use crate::render::error::ApiError;
use crate::render::paging::{Pagination, Paging};
use crate::render::{Cache, Rendered};

#[derive(Serialize, schemars::JsonSchema)]
struct MaterialItem<'a> {
    id: &'a str,
    hq_id: &'a str,
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
            hq_id: &m.id,
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

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct MaterialsBody<'a> {
    materials: Vec<MaterialItem<'a>>,
    pagination: Pagination,
}

/// What `GET /api/materials` is asked for, parsed once: the page and `search`.
#[derive(Debug)]
pub struct MaterialsQuery {
    pub paging: Paging,
    search: Option<String>,
}

impl MaterialsQuery {
    pub fn parse(q: &dyn Query) -> Result<MaterialsQuery, ApiError> {
        Ok(MaterialsQuery {
            paging: Paging::parse(Op::Materials, q)?,
            search: search_param(Op::Materials, q)?,
        })
    }
}

/// `GET /api/materials` (keyed): `search` matches the name and synonyms.
pub fn materials(dataset: &Dataset, q: &MaterialsQuery) -> Rendered {
    let search = &q.search;
    let found: Vec<&Material> = dataset
        .materials
        .values()
        .filter(|m| {
            search
                .as_ref()
                .is_none_or(|s| contains_text(std::iter::once(&m.name).chain(&m.synonyms), s))
        })
        .collect();
    let (page, pagination) = q.paging.slice(&found);
    let body = MaterialsBody {
        materials: page.iter().map(|m| MaterialItem::of(m)).collect(),
        pagination,
    };
    Rendered::json(200, &body, Cache::Private)
}
