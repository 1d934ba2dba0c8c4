//! The route table: every public URL the static tree answers (a path, and the one query
//! parameter the spec enumerates for it), the file that holds its bytes, and its response.
//! The build writes the files and renders `_redirects` and `_headers` from this table alone.

use rayon::prelude::*;

use crate::api;
use crate::model::Dataset;
use crate::model::contexts::Context;
use crate::model::ids::CompoundId;
use crate::model::material::Component;
use crate::model::vocab::WatchClass;
use crate::render::badge::Style;
use crate::render::dispatch::Prepared;
use crate::render::documents::DOCUMENTS;
use crate::render::error::ApiError;
use crate::render::{Cache, Rendered, dispatch, not_found};

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
    ("home", "/", None, "/index.html"),
    ("compound_page", "/compound/:id", None, "/compound/:id.html"),
    ("material_page", "/material/:id", None, "/material/:id.html"),
    ("product_page", "/product/:id", None, "/product/:id.html"),
    ("sitemap", "/sitemap.xml", None, "/sitemap.xml"),
    ("robots", "/robots.txt", None, "/robots.txt"),
    (
        "name_index",
        "/search-index.json",
        None,
        "/search-index.json",
    ),
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

/// Expands `{context}`, `{style}` and `{document}` in a pattern into every named value.
pub fn expand(
    path: &str,
    query: Option<&str>,
    file: &str,
) -> Vec<(String, Option<String>, String)> {
    let all = format!("{path} {} {file}", query.unwrap_or_default());
    let values = |placeholder: &str, names: Vec<&'static str>| {
        if all.contains(placeholder) {
            names
        } else {
            vec![""]
        }
    };
    let contexts = values("{context}", Context::ALL.iter().map(|c| c.name()).collect());
    let styles = values("{style}", Style::ALL.iter().map(|s| s.name()).collect());
    let documents = values("{document}", DOCUMENTS.to_vec());
    let mut out = Vec::new();
    for d in &documents {
        for c in &contexts {
            for s in &styles {
                let fill = |t: &str| {
                    t.replace("{context}", c)
                        .replace("{style}", s)
                        .replace("{document}", d)
                };
                out.push((fill(path), query.map(fill), fill(file)));
            }
        }
    }
    out
}

/// Whether every id a pattern's path placeholder takes has this precomputed file (a `PATTERNS`
/// file, its `{context}` and `{style}` filled): `/api/badge/:id` takes compound, material and
/// product ids, and a material or product has the default context's badges only (`rest_routes`),
/// so another context's badge file is not every badge id's. `_redirects` rewrites to a file only
/// where this holds, since the CDN answers a rewrite to a missing file with its own 404.
pub fn every_id_has(dataset: &Dataset, file: &str) -> bool {
    let default_badges = format!("/api/badge/:id/{}/", Context::HumanAdult.name());
    !file.starts_with("/api/badge/:id/")
        || file.starts_with(&default_badges)
        || (dataset.materials.is_empty() && dataset.products.is_empty())
}

/// Whether the tree answers some form of this catalogued endpoint from files (a pattern's
/// path resolves to it): `_redirects` proxies its other forms to the runtime (another
/// context, a badge in another context, an alias), whose public answers are then as much a
/// function of the release as the files are (ARCHITECTURE.md, Decisions, "Edge cache").
pub fn precomputed(endpoint: &api::Endpoint) -> bool {
    static PRECOMPUTED: std::sync::LazyLock<Vec<&'static api::Endpoint>> =
        std::sync::LazyLock::new(|| {
            PATTERNS
                .iter()
                .flat_map(|(_, path, _, _)| api::resolve_path(path))
                .map(|(e, _)| e)
                .filter(|e| e.method == "GET")
                .collect()
        });
    PRECOMPUTED.iter().any(|e| std::ptr::eq(*e, endpoint))
}

/// The route of a public URL: its response is what the one dispatch answers for `path` and
/// `query` (space-separated pairs, as `_redirects` writes them), as the runtime would.
fn route(
    dataset: &Dataset,
    pattern: &'static str,
    path: String,
    query: Option<String>,
    file: String,
    prepared: Option<Prepared<'_>>,
) -> Route {
    let rendered = get(
        dataset,
        &path,
        query.as_deref().unwrap_or_default(),
        prepared,
    );
    Route {
        pattern,
        path,
        query,
        file,
        rendered,
    }
}

/// A GET of `path?query` (space-separated pairs) through the catalogue and the one dispatch.
fn get(dataset: &Dataset, path: &str, query: &str, prepared: Option<Prepared<'_>>) -> Rendered {
    let query = api::pairs(&query.replace(' ', "&"));
    dispatch::get_static(dataset, path, &query, prepared)
}

/// Every public route of the dataset, rendered in parallel, in a stable order: each
/// compound's routes, the CAS lookups, the materials' and products' (`entity_order`), then
/// `rest_routes`.
pub fn routes(dataset: &Dataset) -> Vec<Route> {
    let ids: Vec<String> = dataset.compounds.keys().map(ToString::to_string).collect();
    let groups: Vec<Vec<Route>> = ids
        .par_iter()
        .map(|id| compound_group(dataset, id))
        .collect();
    let (mut out, cas): (Vec<Route>, Vec<Route>) = groups
        .into_iter()
        .flatten()
        .partition(|r| r.pattern != CAS_PATTERN);
    out.extend(cas);
    let materials: Vec<&String> = dataset.materials.keys().collect();
    let products: Vec<&String> = dataset.products.keys().collect();
    let mut entities: Vec<Vec<Route>> = materials
        .par_iter()
        .map(|id| material_group(dataset, id))
        .collect();
    entities.extend(
        products
            .par_iter()
            .map(|id| product_group(dataset, id))
            .collect::<Vec<_>>(),
    );
    out.extend(entity_order(&entities, |r| r.pattern));
    out.extend(rest_routes(dataset));
    out
}

/// The pattern of a compound's CAS lookup, which `routes` lists after every compound's own.
pub const CAS_PATTERN: &str = "compound_cas";

/// Every route of one compound, its CAS lookup last: a function of its record and of the
/// dataset's shared parts (contexts, the id registry), never of another compound.
pub fn compound_group(dataset: &Dataset, id: &str) -> Vec<Route> {
    let mut out = compound_routes(dataset, id);
    if let Some(r) = dataset.compound(id) {
        out.push(route(
            dataset,
            CAS_PATTERN,
            format!("/api/compound/cas/{}", r.cas),
            None,
            format!("api/compound/cas/{}.json", r.cas),
            None,
        ));
    }
    out
}

/// The routes of one material: its JSON, its page and its badges (one risk level, so only
/// the default context's files: another context is the runtime's 400 badge). A function of
/// the material, the dataset's shared parts and the compounds its composition names
/// (`material_compounds`).
pub fn material_group(dataset: &Dataset, id: &str) -> Vec<Route> {
    let mut out = vec![
        plain(
            dataset,
            None,
            "material",
            &format!("/api/material/{id}"),
            None,
            &format!("api/material/{id}.json"),
        ),
        plain(
            dataset,
            None,
            "material_page",
            &format!("/material/{id}"),
            None,
            &format!("material/{id}.html"),
        ),
    ];
    out.extend(entity_badges(dataset, None, id));
    out
}

/// The routes of one product: its JSON, raw record, page and badges, all from one synthesis.
/// A function of the product, the dataset's shared parts and the compounds its composition
/// names (`product_compounds`).
pub fn product_group(dataset: &Dataset, id: &str) -> Vec<Route> {
    let synthesized = dataset
        .products
        .get(id)
        .map(|p| crate::aggregate::synthesis::synthesize(dataset, p));
    let prepared = synthesized.as_ref().map(Prepared::Synthesized);
    let mut out = vec![
        plain(
            dataset,
            prepared,
            "product",
            &format!("/api/product/{id}"),
            None,
            &format!("api/product/{id}.json"),
        ),
        plain(
            dataset,
            prepared,
            "product_raw",
            &format!("/api/product/{id}/raw"),
            None,
            &format!("api/product/{id}/raw.json"),
        ),
        plain(
            dataset,
            prepared,
            "product_page",
            &format!("/product/{id}"),
            None,
            &format!("product/{id}.html"),
        ),
    ];
    out.extend(entity_badges(dataset, prepared, id));
    out
}

/// The compounds a material's JSON and page read (its components, by CAS): the ids of
/// those the dataset has, and `None` for a CAS no compound has.
pub fn material_compounds<'d>(dataset: &'d Dataset, id: &str) -> Vec<Option<&'d CompoundId>> {
    let Some(m) = dataset.materials.get(id) else {
        return Vec::new();
    };
    let c = &m.composition;
    compounds_of(
        dataset,
        c.base.iter().chain(&c.additives).chain(&c.contaminants),
    )
}

/// The compounds a product's responses read (its composition, by CAS; its synthesis too).
pub fn product_compounds<'d>(dataset: &'d Dataset, id: &str) -> Vec<Option<&'d CompoundId>> {
    dataset
        .products
        .get(id)
        .map(|p| compounds_of(dataset, p.composition.iter()))
        .unwrap_or_default()
}

fn compounds_of<'d, 'c>(
    dataset: &'d Dataset,
    components: impl Iterator<Item = &'c Component>,
) -> Vec<Option<&'d CompoundId>> {
    components
        .map(|c| dataset.by_cas(&c.cas).map(|r| &r.hq_id))
        .collect()
}

/// A material's or product's badges in the default context, one per style.
fn entity_badges(dataset: &Dataset, prepared: Option<Prepared<'_>>, id: &str) -> Vec<Route> {
    Style::ALL
        .map(|style| {
            let style = style.name();
            plain(
                dataset,
                prepared,
                "badge_context_style",
                &format!("/api/badge/{id}"),
                Some(&format!("context=human_adult style={style}")),
                &format!("api/badge/{id}/human_adult/{style}.svg"),
            )
        })
        .into()
}

/// The pattern of a material's or product's badges, which `entity_order` lists after every
/// entity's own routes.
const BADGE_PATTERN: &str = "badge_context_style";

/// Every material's and product's routes in the order the route table lists them: each
/// material's JSON and page, each product's JSON, raw record and page, then the materials'
/// badges and the products'. `groups` are the materials' groups then the products', each in id
/// order, as `material_group` and `product_group` give them.
pub fn entity_order<T: Clone>(groups: &[Vec<T>], pattern: impl Fn(&T) -> &str) -> Vec<T> {
    let own = groups
        .iter()
        .flat_map(|g| g.iter().filter(|r| pattern(r) != BADGE_PATTERN));
    let badges = groups
        .iter()
        .flat_map(|g| g.iter().filter(|r| pattern(r) == BADGE_PATTERN));
    own.chain(badges).cloned().collect()
}

/// A route of no compound, rendered with what the caller has `prepared`.
fn plain(
    dataset: &Dataset,
    prepared: Option<Prepared<'_>>,
    pattern: &'static str,
    path: &str,
    query: Option<&str>,
    file: &str,
) -> Route {
    route(
        dataset,
        pattern,
        path.to_string(),
        query.map(str::to_string),
        file.to_string(),
        prepared,
    )
}

/// The routes that are no entity's: root, pages, documents, the fallbacks. Rendered in
/// parallel: a one-compound rebuild renders them all (every one may name the compound), and
/// the OpenAPI document alone takes as long as the rest together.
pub fn rest_routes(dataset: &Dataset) -> Vec<Route> {
    let mut out: Vec<Route> = rest_table()
        .into_par_iter()
        .map(|(pattern, path, query, file)| {
            route(
                dataset,
                pattern,
                path,
                query.map(str::to_string),
                file,
                None,
            )
        })
        .collect();
    out.extend(fixed_answers(dataset));
    out
}

/// A rest route: its pattern, path, query and file.
type RestRoute = (&'static str, String, Option<&'static str>, String);

/// The rest's routes that are rendered as any route is, by pattern.
fn rest_table() -> Vec<RestRoute> {
    let mut plain: Vec<RestRoute> = Vec::new();
    plain.push(("root", "/api".into(), None, "api/index.json".into()));
    // The site for people and what search engines and its search box read.
    plain.push(("home", "/".into(), None, "index.html".into()));
    for (pattern, path) in [
        ("sitemap", "/sitemap.xml"),
        ("robots", "/robots.txt"),
        ("name_index", "/search-index.json"),
    ] {
        plain.push((pattern, path.into(), None, path[1..].into()));
    }
    plain.push((
        "openapi",
        "/api/openapi".into(),
        None,
        "api/openapi/index.json".into(),
    ));
    plain.push((
        "openapi_postman",
        "/api/openapi".into(),
        Some("format=postman"),
        "api/openapi/postman.json".into(),
    ));
    // The developer pages that are a function of the dataset alone (the docs page, with its
    // response excerpts, is rendered once by the runtime instead: it needs the indexes).
    for page in ["playground", "dashboard", "compliance"] {
        plain.push((
            page,
            format!("/api/{page}"),
            None,
            format!("api/{page}/index.html"),
        ));
    }
    plain.push((
        "examples",
        "/api/examples".into(),
        None,
        "api/examples/index.json".into(),
    ));
    for name in DOCUMENTS {
        plain.push((
            "document_json",
            format!("/api/{name}"),
            Some("format=json"),
            format!("api/{name}/index.json"),
        ));
        plain.push((
            "document",
            format!("/api/{name}"),
            None,
            format!("api/{name}/index.html"),
        ));
    }
    plain.push((
        "release_notes_json",
        "/api/release-notes".into(),
        Some("format=json"),
        "api/release-notes/index.json".into(),
    ));
    plain.push((
        "release_notes",
        "/api/release-notes".into(),
        None,
        "api/release-notes/index.html".into(),
    ));
    plain
}

/// The rest's routes whose answer is fixed rather than rendered by pattern: the 404 body, the
/// runtime-required answer and the gray badge.
fn fixed_answers(dataset: &Dataset) -> [Route; 3] {
    let plain = |pattern: &'static str, path: &str, query: Option<&str>, file: &str| {
        self::plain(dataset, None, pattern, path, query, file)
    };
    [
        // The static 404 body of a tree served without a runtime (the runtime's own, byte for byte).
        Route {
            pattern: "not_found",
            path: "/api/404.json".into(),
            query: None,
            file: "api/404.json".into(),
            rendered: not_found(),
        },
        // What a tree built without a runtime origin answers where only the runtime could.
        Route {
            rendered: ApiError::unavailable(RUNTIME_REQUIRED_MESSAGE).into(),
            ..plain(
                "runtime_required",
                &format!("/{RUNTIME_REQUIRED}"),
                None,
                RUNTIME_REQUIRED,
            )
        },
        // The gray badge a CDN can serve for ids it does not know: the answer for a well-formed
        // id no compound has.
        Route {
            rendered: get(dataset, "/api/badge/hq-c-org-000000", "", None),
            ..plain(
                "badge_not_found",
                "/api/badge/not-found",
                None,
                "api/badge/not-found.svg",
            )
        },
    ]
}

fn compound_routes(dataset: &Dataset, id: &str) -> Vec<Route> {
    let assessed = dataset.compound(id).map(crate::aggregate::assess);
    let a = assessed.as_ref().map(Prepared::Assessed);
    let base = format!("/api/compound/{id}");
    let dir = format!("api/compound/{id}");
    let compound = |pattern: &'static str, path: String, query: Option<String>, file: String| {
        route(dataset, pattern, path, query, file, a)
    };
    let mut out = vec![compound(
        "compound",
        base.clone(),
        None,
        format!("{dir}.json"),
    )];
    // A page only for a compound whose record is served: the runtime answers the others' 403.
    if dataset
        .compound(id)
        .is_some_and(|r| r.watch_class != WatchClass::CriticalThreat)
    {
        out.push(compound(
            "compound_page",
            format!("/compound/{id}"),
            None,
            format!("compound/{id}.html"),
        ));
    }
    out.extend([
        compound(
            "compound_all",
            base.clone(),
            Some("all_contexts=true".into()),
            format!("{dir}/all_contexts.json"),
        ),
        compound(
            "compound_raw",
            format!("{base}/raw"),
            None,
            format!("{dir}/raw.json"),
        ),
        compound(
            "compound_alternatives",
            format!("{base}/alternatives"),
            None,
            format!("{dir}/alternatives.json"),
        ),
    ]);
    for context in Context::ALL.map(Context::name) {
        for style in Style::ALL.map(Style::name) {
            out.push(compound(
                "badge_context_style",
                format!("/api/badge/{id}"),
                Some(format!("context={context} style={style}")),
                format!("api/badge/{id}/{context}/{style}.svg"),
            ));
        }
        out.push(compound(
            "compound_context",
            base.clone(),
            Some(format!("context={context}")),
            format!("{dir}/context/{context}.json"),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_endpoints_with_files_are_precomputed_and_the_runtime_s_own_are_not() {
        let get = |op: api::Op| {
            api::ENDPOINTS
                .iter()
                .find(|e| e.op == op && e.method == "GET")
                .unwrap()
        };
        for op in [
            api::Op::Compound,
            api::Op::CompoundRaw,
            api::Op::CompoundByCas,
            api::Op::Badge,
            api::Op::Material,
            api::Op::Product,
        ] {
            assert!(precomputed(get(op)), "{op:?}");
        }
        for op in [
            api::Op::Lookup,
            api::Op::Search,
            api::Op::Health,
            api::Op::Docs,
        ] {
            assert!(!precomputed(get(op)), "{op:?}");
        }
    }
}
