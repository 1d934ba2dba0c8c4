//! The route table: every public URL the static tree answers (a path, and the one query
//! parameter the spec enumerates for it), the file that holds its bytes, and its response.
//! The build writes the files and renders `_redirects` and `_headers` from this table alone.

use rayon::prelude::*;

use crate::model::Dataset;
use crate::model::contexts::Context;
use crate::render::badge::{self, Style};
use crate::render::compound::{self, View};
use crate::render::documents::{self, DOCUMENTS};
use crate::render::{Cache, Rendered, entities, openapi, pages, root};

/// One public URL and its precomputed response.
#[derive(Debug, Clone)]
pub struct Route {
    /// Which URL pattern this is (a `PATTERNS` name).
    pub pattern: &'static str,
    /// URL path, e.g. `/api/compound/hq-c-org-000001`.
    pub path: String,
    /// The query this variant answers, e.g. `context=dog` or `context=dog style=pill`.
    pub query: Option<String>,
    /// File under the site root, e.g. `api/compound/hq-c-org-000001/context/dog.json`.
    pub file: String,
    pub rendered: Rendered,
}

impl Route {
    /// The route without its body.
    pub fn meta(&self) -> RouteMeta {
        RouteMeta {
            pattern: self.pattern,
            path: self.path.clone(),
            query: self.query.clone(),
            file: self.file.clone(),
            status: self.rendered.status,
            cache: self.rendered.cache,
            surrogate_key: self.rendered.surrogate_key.clone(),
        }
    }
}

/// A route without its body: what `_redirects` and `_headers` are rendered from, and what the
/// build keeps of a compound's routes between builds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteMeta {
    pub pattern: &'static str,
    pub path: String,
    pub query: Option<String>,
    pub file: String,
    pub status: u16,
    pub cache: Cache,
    pub surrogate_key: Option<String>,
}

/// The JSON error a preview (a tree built without a runtime origin) answers, with 503, for
/// every request only the runtime can answer; `cdn.rs` recognises it by this file.
pub const RUNTIME_REQUIRED: &str = "api/runtime-required.json";
const RUNTIME_REQUIRED_MESSAGE: &str = "this is a static preview built without a runtime origin (saferef-generate build --runtime-origin): it holds only the precomputed answers (canonical context names, the badge styles, all_contexts=true, format=json), and this request needs the runtime (an alias or other parameter value, a badge label, a search, a keyed endpoint or an id the tree does not hold)";

/// URL patterns as `_redirects` writes them: (name, path, query, file). `:id` and `:cas`
/// are the entity placeholders; `{context}`, `{style}` and `{document}` are expanded to every
/// value the spec enumerates (named, not placeholders, so aliases and unknown values fall
/// through to the runtime). Query variants of a path come before its plain form.
pub const PATTERNS: &[(&str, &str, Option<&str>, &str)] = &[
    (
        "compound_context",
        "/api/compound/:id",
        Some("context={context}"),
        "/api/compound/:id/context/{context}.json",
    ),
    (
        "compound_all",
        "/api/compound/:id",
        Some("all_contexts=true"),
        "/api/compound/:id/all_contexts.json",
    ),
    (
        "compound_raw",
        "/api/compound/:id/raw",
        None,
        "/api/compound/:id/raw.json",
    ),
    (
        "compound_alternatives",
        "/api/compound/:id/alternatives",
        None,
        "/api/compound/:id/alternatives.json",
    ),
    (
        "compound_cas",
        "/api/compound/cas/:cas",
        None,
        "/api/compound/cas/:cas.json",
    ),
    (
        "compound",
        "/api/compound/:id",
        None,
        "/api/compound/:id.json",
    ),
    (
        "material",
        "/api/material/:id",
        None,
        "/api/material/:id.json",
    ),
    (
        "product_raw",
        "/api/product/:id/raw",
        None,
        "/api/product/:id/raw.json",
    ),
    ("product", "/api/product/:id", None, "/api/product/:id.json"),
    ("root", "/api", None, "/api/index.json"),
    (
        "release_notes_json",
        "/api/release-notes",
        Some("format=json"),
        "/api/release-notes/index.json",
    ),
    (
        "release_notes",
        "/api/release-notes",
        None,
        "/api/release-notes/index.html",
    ),
    (
        "document_json",
        "/api/{document}",
        Some("format=json"),
        "/api/{document}/index.json",
    ),
    (
        "document",
        "/api/{document}",
        None,
        "/api/{document}/index.html",
    ),
    (
        "openapi_postman",
        "/api/openapi",
        Some("format=postman"),
        "/api/openapi/postman.json",
    ),
    ("openapi", "/api/openapi", None, "/api/openapi/index.json"),
    (
        "playground",
        "/api/playground",
        None,
        "/api/playground/index.html",
    ),
    (
        "dashboard",
        "/api/dashboard",
        None,
        "/api/dashboard/index.html",
    ),
    (
        "compliance",
        "/api/compliance",
        None,
        "/api/compliance/index.html",
    ),
    (
        "examples",
        "/api/examples",
        None,
        "/api/examples/index.json",
    ),
    (
        "badge_context_style",
        "/api/badge/:id",
        Some("context={context} style={style}"),
        "/api/badge/:id/{context}/{style}.svg",
    ),
    (
        "badge_context",
        "/api/badge/:id",
        Some("context={context}"),
        "/api/badge/:id/{context}/flat.svg",
    ),
    (
        "badge_style",
        "/api/badge/:id",
        Some("style={style}"),
        "/api/badge/:id/human_adult/{style}.svg",
    ),
    (
        "badge",
        "/api/badge/:id",
        None,
        "/api/badge/:id/human_adult/flat.svg",
    ),
];

fn route(
    pattern: &'static str,
    path: String,
    query: Option<String>,
    file: String,
    rendered: Rendered,
) -> Route {
    Route {
        pattern,
        path,
        query,
        file,
        rendered,
    }
}

/// Every public route of the dataset, rendered in parallel, in a stable order: each
/// compound's routes, the CAS lookups, then `rest_routes`.
pub fn routes(dataset: &Dataset, built_at: &str) -> Vec<Route> {
    let ids: Vec<&String> = dataset.compounds.keys().collect();
    let groups: Vec<Vec<Route>> = ids
        .par_iter()
        .map(|id| compound_group(dataset, id))
        .collect();
    let (mut out, cas): (Vec<Route>, Vec<Route>) = groups
        .into_iter()
        .flatten()
        .partition(|r| r.pattern != CAS_PATTERN);
    out.extend(cas);
    out.extend(rest_routes(dataset, built_at));
    out
}

/// The pattern of a compound's CAS lookup, which `routes` lists after every compound's own.
pub const CAS_PATTERN: &str = "compound_cas";

/// Every route of one compound, its CAS lookup last: a function of its record and of the
/// dataset's shared parts (contexts, the id registry), never of another compound.
pub fn compound_group(dataset: &Dataset, id: &str) -> Vec<Route> {
    let mut out = compound_routes(dataset, id);
    if let Some(r) = dataset.compounds.get(id) {
        out.push(route(
            CAS_PATTERN,
            format!("/api/compound/cas/{}", r.cas),
            None,
            format!("api/compound/cas/{}.json", r.cas),
            compound::by_cas(dataset, &r.cas, None, None),
        ));
    }
    out
}

/// The routes that are not a compound's: materials, products, root, documents, fallbacks.
pub fn rest_routes(dataset: &Dataset, built_at: &str) -> Vec<Route> {
    let mut out = Vec::new();
    let materials: Vec<&String> = dataset.materials.keys().collect();
    out.extend(
        materials
            .par_iter()
            .map(|id| {
                route(
                    "material",
                    format!("/api/material/{id}"),
                    None,
                    format!("api/material/{id}.json"),
                    entities::material(dataset, id),
                )
            })
            .collect::<Vec<_>>(),
    );
    let products: Vec<&String> = dataset.products.keys().collect();
    out.extend(
        products
            .par_iter()
            .flat_map_iter(|id| {
                [
                    route(
                        "product",
                        format!("/api/product/{id}"),
                        None,
                        format!("api/product/{id}.json"),
                        entities::product(dataset, id, View::Public),
                    ),
                    route(
                        "product_raw",
                        format!("/api/product/{id}/raw"),
                        None,
                        format!("api/product/{id}/raw.json"),
                        entities::product_raw(dataset, id),
                    ),
                ]
            })
            .collect::<Vec<_>>(),
    );
    out.push(route(
        "root",
        "/api".into(),
        None,
        "api/index.json".into(),
        root::root(dataset, built_at),
    ));
    out.push(route(
        "openapi",
        "/api/openapi".into(),
        None,
        "api/openapi/index.json".into(),
        openapi::openapi(dataset, None),
    ));
    out.push(route(
        "openapi_postman",
        "/api/openapi".into(),
        Some("format=postman".into()),
        "api/openapi/postman.json".into(),
        openapi::openapi(dataset, Some("postman")),
    ));
    // The developer pages that are a function of the dataset alone (the docs page, with its
    // response excerpts, is rendered once by the runtime instead: it needs the indexes).
    out.push(route(
        "playground",
        "/api/playground".into(),
        None,
        "api/playground/index.html".into(),
        pages::playground::playground(dataset),
    ));
    out.push(route(
        "dashboard",
        "/api/dashboard".into(),
        None,
        "api/dashboard/index.html".into(),
        pages::dashboard::dashboard(),
    ));
    out.push(route(
        "compliance",
        "/api/compliance".into(),
        None,
        "api/compliance/index.html".into(),
        pages::compliance::compliance(dataset),
    ));
    out.push(route(
        "examples",
        "/api/examples".into(),
        None,
        "api/examples/index.json".into(),
        pages::examples::examples(dataset),
    ));
    for name in DOCUMENTS {
        out.push(route(
            "document_json",
            format!("/api/{name}"),
            Some("format=json".into()),
            format!("api/{name}/index.json"),
            documents::document(dataset, name, Some("json")),
        ));
        out.push(route(
            "document",
            format!("/api/{name}"),
            None,
            format!("api/{name}/index.html"),
            documents::document(dataset, name, None),
        ));
    }
    out.push(route(
        "release_notes_json",
        "/api/release-notes".into(),
        Some("format=json".into()),
        "api/release-notes/index.json".into(),
        documents::release_notes(dataset, Some("json")),
    ));
    out.push(route(
        "release_notes",
        "/api/release-notes".into(),
        None,
        "api/release-notes/index.html".into(),
        documents::release_notes(dataset, None),
    ));
    // The static 404 body of a tree served without a runtime (the runtime's own, byte for byte).
    out.push(route(
        "not_found",
        "/api/404.json".into(),
        None,
        "api/404.json".into(),
        crate::render::not_found(),
    ));
    // What a tree built without a runtime origin answers where only the runtime could.
    out.push(route(
        "runtime_required",
        format!("/{RUNTIME_REQUIRED}"),
        None,
        RUNTIME_REQUIRED.into(),
        Rendered::error(503, RUNTIME_REQUIRED_MESSAGE),
    ));
    // The gray badge a CDN can serve for ids it does not know.
    out.push(route(
        "badge_not_found",
        "/api/badge/not-found".into(),
        None,
        "api/badge/not-found.svg".into(),
        badge::badge(dataset, "hq-c-org-000000", None, None, None),
    ));
    out
}

fn compound_routes(dataset: &Dataset, id: &str) -> Vec<Route> {
    let assessed = dataset.compounds.get(id).map(crate::aggregate::assess);
    let a = assessed.as_ref();
    let base = format!("/api/compound/{id}");
    let dir = format!("api/compound/{id}");
    let mut out = vec![
        route(
            "compound",
            base.clone(),
            None,
            format!("{dir}.json"),
            compound::compound_assessed(dataset, id, None, None, a),
        ),
        route(
            "compound_all",
            base.clone(),
            Some("all_contexts=true".into()),
            format!("{dir}/all_contexts.json"),
            compound::compound_assessed(dataset, id, None, Some("true"), a),
        ),
        route(
            "compound_raw",
            format!("{base}/raw"),
            None,
            format!("{dir}/raw.json"),
            compound::raw(dataset, id),
        ),
        route(
            "compound_alternatives",
            format!("{base}/alternatives"),
            None,
            format!("{dir}/alternatives.json"),
            compound::alternatives(dataset, id, View::Public),
        ),
    ];
    for context in Context::ALL.map(Context::name) {
        for style in Style::ALL {
            out.push(route(
                "badge_context_style",
                format!("/api/badge/{id}"),
                Some(format!("context={context} style={}", style.name())),
                format!("api/badge/{id}/{context}/{}.svg", style.name()),
                badge::badge_assessed(dataset, id, Some(context), Some(style.name()), None, a),
            ));
        }
        out.push(route(
            "compound_context",
            base.clone(),
            Some(format!("context={context}")),
            format!("{dir}/context/{context}.json"),
            compound::compound_assessed(dataset, id, Some(context), None, a),
        ));
    }
    out
}
