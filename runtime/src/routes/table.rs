//! The endpoint table: path segments and method -> the endpoint, who may call it (SPEC 5) and
//! what it costs against the daily quota (SPEC 8: batch counts once, export as 10).

use saferef_generator::render::Rendered;
use saferef_generator::render::documents::DOCUMENTS;
use warp::http::Method;
use warp::reply::Response;

use super::Request;
use super::static_site;
use crate::AppState;
use crate::caller::Caller;

/// Who may call an endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Public,
    /// Developer tier or higher (SPEC 5.3); a public caller gets 401.
    Keyed,
    /// Developer or higher, and a public caller is refused with 403 (compare, SPEC 7).
    KeyedForbidden,
}

/// What an endpoint does, with its path parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Handler {
    Root,
    Health,
    Freshness,
    OpenApi,
    ReleaseNotes,
    Document(String),
    Compound(String),
    CompoundRaw(String),
    Alternatives(String),
    ByCas(String),
    Material(String),
    Product(String),
    ProductRaw(String),
    Badge(String),
    Relationships(String),
    RelationshipGraph(String),
    RelationshipStats,
    RegulatoryStatus,
    Fragrance,
    FragranceClasses,
    FragranceSearch,
    KeyStatus,
    KeyUsage,
    KeyRotate,
    Compounds,
    Compare,
    Search,
    Filter,
    Batch,
    Contexts,
    Materials,
    Products,
    Regulatory(String),
    Agencies,
    ByAgency(String),
    FoundIn(String),
    FoundInCategories,
    ByCategory(String),
}

#[derive(Debug, Clone)]
pub struct Endpoint {
    pub handler: Handler,
    pub access: Access,
    pub cost: u64,
}

pub enum Matched {
    /// The static tree answers (a GET the route table covers).
    Static(Response),
    Endpoint(Endpoint),
    MethodNotAllowed(Vec<&'static str>),
    NotFound,
}

/// Routes a request: the static tree first for GET/HEAD (but not for a Developer+ caller of a
/// response whose keyed form has more), then the table.
pub fn route(state: &AppState, req: &Request, caller: &Caller) -> Matched {
    let read = matches!(req.method, Method::GET | Method::HEAD);
    let gated = |p: &str| {
        (p.starts_with("/api/compound/") && p.ends_with("/alternatives"))
            || (p.starts_with("/api/product/") && !p.ends_with("/raw"))
    };
    if read
        && !(caller.tier.is_keyed() && gated(&req.path))
        && let Ok(q) = &req.query
        && let Some(res) = static_site::serve(state, &req.path, q)
    {
        return Matched::Static(res);
    }
    if !req.path.starts_with("/api") || !(req.path.len() == 4 || req.path[4..].starts_with('/')) {
        return Matched::NotFound;
    }
    let segs: Vec<&str> = req.segments.iter().map(String::as_str).collect();
    let Some((methods, handler, access)) = lookup(&segs) else {
        return Matched::NotFound;
    };
    let allowed = |m: &Method| {
        methods.contains(&m.as_str()) || (*m == Method::HEAD && methods.contains(&"GET"))
    };
    if !allowed(&req.method) {
        return Matched::MethodNotAllowed(methods.to_vec());
    }
    Matched::Endpoint(Endpoint {
        handler,
        access,
        cost: 1,
    })
}

const GET: &[&str] = &["GET"];
const GET_POST: &[&str] = &["GET", "POST"];
const POST: &[&str] = &["POST"];

fn lookup(segs: &[&str]) -> Option<(&'static [&'static str], Handler, Access)> {
    use Access::*;
    use Handler::*;
    let s = |x: &str| x.to_string();
    Some(match segs {
        [] => (GET, Root, Public),
        ["health"] => (GET, Health, Public),
        ["freshness"] => (GET, Freshness, Public),
        ["openapi"] => (GET, OpenApi, Public),
        ["release-notes"] => (GET, ReleaseNotes, Public),
        [doc] if DOCUMENTS.contains(doc) => (GET, Document(s(doc)), Public),
        ["compound", "cas", cas] => (GET, ByCas(s(cas)), Public),
        ["compound", id] => (GET, Compound(s(id)), Public),
        ["compound", id, "raw"] => (GET, CompoundRaw(s(id)), Public),
        ["compound", id, "alternatives"] => (GET, Alternatives(s(id)), Public),
        ["material", id] => (GET, Material(s(id)), Public),
        ["product", id] => (GET, Product(s(id)), Public),
        ["product", id, "raw"] => (GET, ProductRaw(s(id)), Public),
        ["badge", id] => (GET, Badge(s(id)), Public),
        ["regulatory-status"] => (GET, RegulatoryStatus, Keyed),
        ["fragrance"] => (GET, Fragrance, Keyed),
        ["fragrance", "classes"] => (GET, FragranceClasses, Keyed),
        ["fragrance", "search"] => (GET, FragranceSearch, Keyed),
        ["keys", "status"] => (GET, KeyStatus, Keyed),
        ["keys", "usage"] => (GET, KeyUsage, Keyed),
        ["keys", "rotate"] => (POST, KeyRotate, Keyed),
        ["compounds"] => (GET, Compounds, Keyed),
        ["compounds", "batch"] => (GET_POST, Batch, Public),
        ["compounds", "compare"] => (GET, Compare, KeyedForbidden),
        ["search"] => (GET, Search, Keyed),
        ["filter"] => (GET, Filter, Keyed),
        ["contexts"] => (GET, Contexts, Keyed),
        ["materials"] => (GET, Materials, Keyed),
        ["products"] => (GET, Products, Keyed),
        ["regulatory", "agencies"] => (GET, Agencies, Keyed),
        ["regulatory", "by-agency", agency] => (GET, ByAgency(s(agency)), Keyed),
        ["regulatory", id] => (GET, Regulatory(s(id)), Keyed),
        ["found-in", "categories"] => (GET, FoundInCategories, Keyed),
        ["found-in", "by-category", category] => (GET, ByCategory(s(category)), Keyed),
        ["found-in", id] => (GET, FoundIn(s(id)), Keyed),
        ["relationships", "stats"] => (GET, RelationshipStats, Keyed),
        ["relationships", id] => (GET, Relationships(s(id)), Keyed),
        ["relationships", id, "graph"] => (GET, RelationshipGraph(s(id)), Keyed),
        _ => return None,
    })
}

/// The refusal an access rule gives this caller, if any.
pub fn refuse(access: Access, caller: &Caller) -> Option<Rendered> {
    if caller.tier.is_keyed() {
        return None;
    }
    match access {
        Access::Public => None,
        Access::Keyed => Some(Rendered::error(
            401,
            "this endpoint needs a Developer tier key or higher: send it in X-API-Key or api_key (a 7-day trial: POST /api/keys/trial)",
        )),
        Access::KeyedForbidden => Some(Rendered::error(
            403,
            "comparison is not available to the public tier: send a Developer tier key or higher in X-API-Key (a 7-day trial: POST /api/keys/trial)",
        )),
    }
}
