//! `GET /api`: the service, its endpoints and the dataset's totals.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Cache, Rendered};
use crate::model::Dataset;

#[derive(Serialize, schemars::JsonSchema)]
struct Enrichment<'a> {
    total_compounds: usize,
    total_materials: usize,
    total_products: usize,
    cas_numbers: usize,
    found_in_categories: usize,
    regulatory_agencies: usize,
    /// The dataset's release time (`Dataset::release_date`).
    #[schemars(extend("format" = "date-time"))]
    built_at: &'a str,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct Root<'a> {
    name: &'static str,
    version: &'static str,
    description: &'static str,
    tagline: &'static str,
    platform: &'static str,
    endpoints: BTreeMap<String, &'static str>,
    versioned_base: &'static str,
    api_schema_version: u32,
    openapi: &'static str,
    postman: &'static str,
    documentation: &'static str,
    data_enrichment: Enrichment<'a>,
}

/// The endpoint map as first published: name -> path template (and the root's list of
/// further paths). Names are kept (fields are only added); `endpoints()` adds every
/// other catalogued path.
const PUBLISHED: &[(&str, &str)] = &[
    ("root", "/api"),
    ("health", "/api/health"),
    ("freshness", "/api/freshness"),
    ("contexts", "/api/contexts"),
    ("openapi", "/api/openapi"),
    ("release_notes", "/api/release-notes"),
    ("disclaimer", "/api/disclaimer"),
    ("terms", "/api/terms"),
    ("privacy", "/api/privacy"),
    ("compound", "/api/compound/{id}"),
    ("compound_raw", "/api/compound/{id}/raw"),
    ("compound_alternatives", "/api/compound/{id}/alternatives"),
    ("compound_by_cas", "/api/compound/cas/{cas}"),
    ("compounds", "/api/compounds"),
    ("compounds_batch", "/api/compounds/batch"),
    ("compounds_compare", "/api/compounds/compare"),
    ("materials", "/api/materials"),
    ("material", "/api/material/{id}"),
    ("products", "/api/products"),
    ("product", "/api/product/{id}"),
    ("product_raw", "/api/product/{id}/raw"),
    ("regulatory", "/api/regulatory/{id}"),
    ("regulatory_agencies", "/api/regulatory/agencies"),
    ("regulatory_by_agency", "/api/regulatory/by-agency/{agency}"),
    ("found_in", "/api/found-in/{id}"),
    ("found_in_categories", "/api/found-in/categories"),
    (
        "found_in_by_category",
        "/api/found-in/by-category/{category}",
    ),
    ("regulatory_status", "/api/regulatory-status"),
    ("relationships", "/api/relationships/{id}"),
    ("relationships_graph", "/api/relationships/{id}/graph"),
    ("relationships_stats", "/api/relationships/stats"),
    ("badge", "/api/badge/{id}"),
    ("search", "/api/search"),
    ("export", "/api/export"),
    ("keys_trial", "/api/keys/trial"),
    ("keys_rotate", "/api/keys/rotate"),
    ("docs", "/api/docs"),
    ("playground", "/api/playground"),
    ("examples", "/api/examples"),
    ("watchlist", "/api/watchlist"),
    ("changelog", "/api/changelog"),
    ("dashboard", "/api/dashboard"),
    ("compliance", "/api/compliance"),
];

/// The published names, then each other path of the catalogue under its name in snake case.
fn endpoints() -> BTreeMap<String, &'static str> {
    let mut map: BTreeMap<String, &'static str> = PUBLISHED
        .iter()
        .map(|(name, path)| (name.to_string(), *path))
        .collect();
    for e in crate::api::ENDPOINTS {
        if !map.values().any(|p| *p == e.path) {
            map.insert(snake_case(e.name), e.path);
        }
    }
    map
}

fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `GET /api`; `built_at` is the dataset's release time (`Dataset::release_date`), so the
/// static file and the runtime answer the same bytes.
pub fn root(dataset: &Dataset, built_at: &str) -> Rendered {
    let categories = super::found_in::all_categories(dataset);
    let body = Root {
        name: "saferef",
        version: crate::SERVICE_VERSION,
        description: "Chemical and product safety reference: published regulatory and scientific classifications of compounds, materials and consumer products, aggregated per exposure context.",
        tagline: "Reference data, not professional advice.",
        platform: "saferef",
        endpoints: endpoints(),
        versioned_base: "/api/v1/",
        api_schema_version: 1,
        openapi: "/api/openapi",
        postman: "/api/openapi?format=postman",
        documentation: "/api/docs",
        data_enrichment: Enrichment {
            total_compounds: dataset.compounds.len(),
            total_materials: dataset.materials.len(),
            total_products: dataset.products.len(),
            cas_numbers: dataset.ids.len(),
            found_in_categories: categories.len(),
            regulatory_agencies: dataset.agencies.len(),
            built_at,
        },
    };
    Rendered::json(200, &body, Cache::Reference)
}
