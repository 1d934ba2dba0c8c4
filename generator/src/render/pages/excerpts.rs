//! The real responses behind the reference's examples: each catalogue example request is
//! answered by the same render function the service uses, over the same dataset and indexes.
//! Responses that depend on the moment or on an account (health, freshness, keys, webhooks,
//! export, changelog) are not rendered here; the page shows their request only.

use chrono::NaiveDate;

use crate::api::{self, Endpoint};
use crate::graph::Graph;
use crate::load::Dataset;
use crate::render::compound::{self, Access};
use crate::render::lists::{self, RiskIndex};
use crate::render::search::{self, SearchIndex};
use crate::render::{
    Rendered, batch, compare, contexts, documents, entities, found_in, regulatory, relationships,
};
use crate::{fragrance, regulatory_status};

/// The indexes the keyed list, search and graph responses are rendered from (the runtime's
/// `AppState` holds them; the static build builds them once).
#[derive(Debug, Clone, Copy)]
pub struct Indexes<'a> {
    pub graph: &'a Graph,
    pub risk_index: &'a RiskIndex,
    pub search_index: &'a SearchIndex,
}

/// The response `example` (path and query) gets from `endpoint`, as a caller without a key
/// would see it, or `None` when it is not a pure function of the dataset.
pub fn render(
    d: &Dataset,
    ix: Indexes<'_>,
    endpoint: &Endpoint,
    example: &str,
) -> Option<Rendered> {
    let (path, query) = example.split_once('?').unwrap_or((example, ""));
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).ok()?;
    let q = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    let segments: Vec<&str> = path
        .strip_prefix("/api")?
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    let captured = api::resolve(&segments)
        .into_iter()
        .find(|(e, _)| e.name == endpoint.name)?
        .1;
    let p = |i: usize| captured.get(i).copied().unwrap_or_default();
    // The day the data was released stands in for "today", so a page is the same bytes
    // whenever it is rendered.
    let released = NaiveDate::parse_from_str(&d.release_date(), "%Y-%m-%d").ok();
    Some(match endpoint.name {
        "root" => crate::render::root::root(d, &d.release_date()),
        "releaseNotes" => documents::release_notes(d, q("format")),
        name @ ("disclaimer" | "terms" | "privacy") => documents::document(d, name, q("format")),
        "compound" => compound::compound(d, p(0), q("context"), q("all_contexts")),
        "compoundRaw" => compound::raw(d, p(0)),
        "alternatives" => compound::alternatives(d, p(0), Access::Public),
        "compoundByCas" => compound::by_cas(d, p(0), q("redirect"), q("context")),
        "compounds" => lists::compounds(
            d,
            ix.risk_index,
            &lists::CompoundsQuery {
                page: q("page"),
                limit: q("limit"),
                search: q("search"),
                risk: q("risk"),
                context: q("context"),
                hazard: q("hazard"),
                cas: q("cas"),
                type_filter: q("type_filter"),
                category_filter: q("category_filter"),
            },
        ),
        "filter" => lists::filter(
            d,
            ix.risk_index,
            &lists::FilterQuery {
                risk: q("risk"),
                context: q("context"),
                kind: q("type"),
                agency: q("agency"),
                hazard: q("hazard"),
                cas_prefix: q("cas_prefix"),
                exposure: q("exposure"),
                functional_use: q("functional_use"),
                year: q("year"),
                year_min: q("year_min"),
                year_max: q("year_max"),
                page: q("page"),
                limit: q("limit"),
            },
        ),
        "batch" => {
            let ids: Vec<String> = q("ids")?.split(',').map(str::to_string).collect();
            // The public tier's cap (SPEC 8), as for a caller without a key.
            let caller = batch::BatchCaller {
                cap: 10,
                keyed: false,
            };
            batch::batch(d, &ids, q("context"), false, q("detail"), &caller)
        }
        "compare" => compare::compare(d, q("ids"), q("context"), q("contexts")),
        "contexts" => contexts::contexts(d),
        "search" => search::search(
            ix.search_index,
            d,
            q("q"),
            q("limit"),
            q("offset"),
            q("type"),
        ),
        "material" => entities::material(d, p(0)),
        "product" => entities::product(d, p(0), Access::Public),
        "productRaw" => entities::product_raw(d, p(0)),
        "materials" => lists::materials(d, q("page"), q("limit"), q("search")),
        "products" => lists::products(
            d,
            ix.risk_index,
            &lists::ProductsQuery {
                page: q("page"),
                limit: q("limit"),
                search: q("search"),
                risk: q("risk"),
                tier: q("tier"),
                category_filter: q("category_filter"),
            },
        ),
        "regulatory" => regulatory::compound(d, p(0)),
        "regulatoryAgencies" => regulatory::agencies(d),
        "regulatoryByAgency" => regulatory::by_agency(d, p(0), q("limit")),
        "regulatoryStatus" => regulatory_status::render::regulatory_status(
            &d.regulatory_status,
            &regulatory_status::render::Query {
                analyte: q("analyte"),
                matrix: q("matrix"),
                jurisdiction: q("jurisdiction"),
                as_of: q("as_of"),
                view: q("view"),
                before: q("before"),
            },
            released?,
        ),
        "foundIn" => found_in::compound(d, p(0)),
        "foundInCategories" => found_in::categories(d),
        "foundInByCategory" => found_in::by_category(d, p(0), q("limit")),
        "relationships" => relationships::relationships(ix.graph, p(0), q("rel_type")),
        "relationshipGraph" => relationships::graph(ix.graph, p(0), q("depth"), q("rel_type")),
        "relationshipStats" => relationships::stats(ix.graph, &d.release_date()),
        "fragrance" => {
            fragrance::render::list(&d.fragrance, d, q("limit"), q("offset"), q("class"))
        }
        "fragranceClasses" => fragrance::render::classes(&d.fragrance),
        "fragranceSearch" => {
            fragrance::render::search(&d.fragrance, d, q("q"), q("limit"), q("offset"))
        }
        "examples" => super::examples::examples(d),
        _ => return None,
    })
}

/// The first `lines` lines of `r`'s body, pretty-printed when it is JSON, and whether more
/// followed.
pub fn excerpt(r: &Rendered, lines: usize) -> (String, bool) {
    let text = match serde_json::from_slice::<serde_json::Value>(&r.body) {
        Ok(v) => serde_json::to_string_pretty(&v).expect("a JSON value serializes"),
        Err(_) => String::from_utf8_lossy(&r.body).into_owned(),
    };
    let mut out: Vec<&str> = text.lines().take(lines + 1).collect();
    let more = out.len() > lines;
    out.truncate(lines);
    (out.join("\n"), more)
}
