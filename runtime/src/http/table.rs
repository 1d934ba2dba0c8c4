//! The endpoint table: a request's path and method -> the endpoint of the catalogue
//! (`saferef_generator::api::ENDPOINTS`: its op, who may call it and what it costs against the
//! daily quota: batch counts once, export as 10).
//!
//! Routing goes only through the catalogue, so the server answers exactly the endpoints the
//! OpenAPI document and the docs list.

use saferef_generator::api::{self, Access, Op};
use saferef_generator::build::site::routes;
use saferef_generator::render::error::ApiError;
use warp::http::Method;
use warp::reply::Response;

use super::Request;
use super::static_site;
use crate::AppState;
use crate::caller::Caller;

/// A catalogued endpoint matched by a request: what it does, its path parameters in template
/// order, who may call it and what it costs.
#[derive(Debug, Clone)]
pub struct Endpoint {
    pub op: Op,
    pub params: Vec<String>,
    pub access: Access,
    pub cost: u64,
    /// A page in one of its forms (documents, release notes): every answer carries the pages'
    /// security headers, as `_headers` gives its path whatever the form.
    pub page: bool,
    /// The tree answers some of its forms from files, and the CDN proxies the others here
    /// (`build::site::routes::precomputed`): their public answers may be kept at the edge
    /// (`edge_cache.rs`).
    pub precomputed: bool,
}

pub enum Matched {
    /// The static tree answers (a GET the route table covers).
    Static(Response),
    Endpoint(Endpoint),
    MethodNotAllowed(Vec<&'static str>),
    NotFound,
}

/// The catalogued endpoints at a request's path, one per method, with their captured
/// parameters: looked up once per request, then read by `is_badge` and `route`.
pub type Found<'r> = Vec<(&'static api::Endpoint, api::Captured<'r>)>;

/// Routes a request whose catalogued endpoints are `found`: the static tree first for GET/HEAD
/// (but not for a Developer+ caller of an endpoint whose keyed form has more), then the
/// catalogue.
pub fn route(state: &AppState, req: &Request, caller: &Caller, found: &Found<'_>) -> Matched {
    let read = matches!(req.method, Method::GET | Method::HEAD);
    let keyed_form = found.iter().any(|(e, _)| e.keyed_form);
    if read
        && !(caller.tier.is_keyed() && keyed_form)
        && let Ok(q) = &req.query
        && let Some(res) = static_site::serve(state, &req.path, q)
    {
        return Matched::Static(res);
    }
    if found.is_empty() {
        return Matched::NotFound;
    }
    let wanted = if req.method == Method::HEAD {
        Method::GET
    } else {
        req.method.clone()
    };
    let Some((endpoint, captured)) = found.iter().find(|(e, _)| e.method == wanted.as_str()) else {
        return Matched::MethodNotAllowed(found.iter().map(|(e, _)| e.method).collect());
    };
    Matched::Endpoint(Endpoint {
        op: endpoint.op,
        params: captured.iter().map(|s| s.to_string()).collect(),
        access: endpoint.access,
        cost: endpoint.cost,
        page: matches!(
            endpoint.answer,
            api::Answer::Html | api::Answer::HtmlOrJson(_)
        ),
        precomputed: routes::precomputed(endpoint),
    })
}

/// Whether the request (whose catalogued endpoints are `found`) reads a badge, whose every
/// answer is an SVG (refusals included).
pub fn is_badge(req: &Request, found: &Found<'_>) -> bool {
    matches!(req.method, Method::GET | Method::HEAD)
        && found
            .iter()
            .any(|(e, _)| e.op == Op::Badge && e.method == "GET")
}

/// The methods the catalogue declares at the request's path (none when it names no endpoint).
pub fn methods(req: &Request) -> Vec<&'static str> {
    catalogued(req).iter().map(|(e, _)| e.method).collect()
}

/// The catalogued endpoints at the request's path, one per method, with their captured
/// parameters: under `/api` by its decoded segments, elsewhere the site's pages.
pub fn catalogued(req: &Request) -> Found<'_> {
    let under_api =
        req.path.starts_with("/api") && (req.path.len() == 4 || req.path[4..].starts_with('/'));
    if !under_api {
        return api::resolve_path(&req.path);
    }
    // Held on the stack: a path longer than any template is matched (to nothing) from a `Vec`.
    let n = req.segments.len();
    if n <= SEGMENTS_HELD {
        let mut held = [""; SEGMENTS_HELD];
        for (to, from) in held.iter_mut().zip(&req.segments) {
            *to = from;
        }
        return api::resolve(&held[..n]);
    }
    api::resolve(&req.segments.iter().map(String::as_str).collect::<Vec<_>>())
}

/// How many segments of a path under `/api` `catalogued` holds on the stack: more than any
/// template has.
const SEGMENTS_HELD: usize = 8;

/// The refusal an access rule gives this caller, if any.
pub fn refuse(access: Access, caller: &Caller) -> Option<ApiError> {
    if caller.tier.is_keyed() {
        return None;
    }
    match access {
        Access::Public => None,
        Access::Developer => Some(ApiError::unauthorized(
            "this endpoint needs a Developer tier key or higher: send it in X-API-Key or api_key (a 7-day trial: POST /api/keys/trial)",
        )),
        Access::DeveloperForbidden => Some(ApiError::forbidden(
            "comparison is not available to the public tier: send a Developer tier key or higher in X-API-Key (a 7-day trial: POST /api/keys/trial)",
        )),
    }
}
