//! The endpoint table: a request's path and method -> the endpoint of the catalogue
//! (`saferef_generator::api::ENDPOINTS`: who may call it (SPEC 5), what it costs against the
//! daily quota (SPEC 8: batch counts once, export as 10)) and the handler its name stands for.
//!
//! Routing goes only through the catalogue, so the server answers exactly the endpoints the
//! OpenAPI document and the docs list.

use saferef_generator::api::{self, Access};
use saferef_generator::render::Rendered;
use warp::http::Method;
use warp::reply::Response;

use super::Request;
use super::static_site;
use crate::AppState;
use crate::caller::Caller;

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
    Export,
    Changelog,
    Webhooks,
    WebhookDelete(String),
    WebhookTest(String),
    KeyTrial,
    KeyRecover,
    KeyErasure,
    BillingWebhook,
    Watchlist,
    WatchlistCheck,
    WatchlistRemove(String),
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
    Docs,
    Playground,
    Examples,
    Dashboard,
    Compliance,
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
    let found = api::resolve(&segs);
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
    match Handler::of(endpoint.name, captured) {
        Some(handler) => Matched::Endpoint(Endpoint {
            handler,
            access: endpoint.access,
            cost: endpoint.cost,
        }),
        None => Matched::NotFound,
    }
}

impl Handler {
    /// The handler of the catalogue endpoint `name`, with its path parameters in order; None
    /// for a name without one (a test holds that every catalogued endpoint has one).
    pub fn of(name: &str, params: &[&str]) -> Option<Handler> {
        use Handler::*;
        let p = |i: usize| params.get(i).map(|s| s.to_string()).unwrap_or_default();
        Some(match name {
            "root" => Root,
            "health" => Health,
            "freshness" => Freshness,
            "openapi" => OpenApi,
            "releaseNotes" => ReleaseNotes,
            "disclaimer" | "terms" | "privacy" => Document(name.to_string()),
            "compound" => Compound(p(0)),
            "compoundRaw" => CompoundRaw(p(0)),
            "alternatives" => Alternatives(p(0)),
            "compoundByCas" => ByCas(p(0)),
            "compounds" => Compounds,
            "filter" => Filter,
            "batch" | "batchPost" => Batch,
            "compare" => Compare,
            "contexts" => Contexts,
            "search" => Search,
            "material" => Material(p(0)),
            "product" => Product(p(0)),
            "productRaw" => ProductRaw(p(0)),
            "materials" => Materials,
            "products" => Products,
            "badge" => Badge(p(0)),
            "regulatory" => Regulatory(p(0)),
            "regulatoryAgencies" => Agencies,
            "regulatoryByAgency" => ByAgency(p(0)),
            "regulatoryStatus" => RegulatoryStatus,
            "foundIn" => FoundIn(p(0)),
            "foundInCategories" => FoundInCategories,
            "foundInByCategory" => ByCategory(p(0)),
            "relationships" => Relationships(p(0)),
            "relationshipGraph" => RelationshipGraph(p(0)),
            "relationshipStats" => RelationshipStats,
            "fragrance" => Fragrance,
            "fragranceClasses" => FragranceClasses,
            "fragranceSearch" => FragranceSearch,
            "export" => Export,
            "changelog" => Changelog,
            "keyStatus" => KeyStatus,
            "keyUsage" => KeyUsage,
            "keyRotate" => KeyRotate,
            "keyTrial" => KeyTrial,
            "keyRecover" => KeyRecover,
            "keyErasure" => KeyErasure,
            "billingWebhook" => BillingWebhook,
            "watchlist" | "watchlistAdd" => Watchlist,
            "watchlistCheck" => WatchlistCheck,
            "watchlistRemove" => WatchlistRemove(p(0)),
            "webhooks" | "webhookCreate" => Webhooks,
            "webhookDelete" => WebhookDelete(p(0)),
            "webhookTest" => WebhookTest(p(0)),
            "docs" => Docs,
            "playground" => Playground,
            "examples" => Examples,
            "dashboard" => Dashboard,
            "compliance" => Compliance,
            _ => return None,
        })
    }
}

/// The refusal an access rule gives this caller, if any.
pub fn refuse(access: Access, caller: &Caller) -> Option<Rendered> {
    if caller.tier.is_keyed() {
        return None;
    }
    match access {
        Access::Public => None,
        Access::Developer => Some(Rendered::error(
            401,
            "this endpoint needs a Developer tier key or higher: send it in X-API-Key or api_key (a 7-day trial: POST /api/keys/trial)",
        )),
        Access::DeveloperForbidden => Some(Rendered::error(
            403,
            "comparison is not available to the public tier: send a Developer tier key or higher in X-API-Key (a 7-day trial: POST /api/keys/trial)",
        )),
    }
}

#[cfg(test)]
mod tests {
    use saferef_generator::api::ENDPOINTS;

    use super::*;

    #[test]
    fn every_catalogued_endpoint_has_a_handler() {
        for e in ENDPOINTS {
            let params = vec!["x"; e.path.matches('{').count()];
            assert!(
                Handler::of(e.name, &params).is_some(),
                "{} {} ({}) has no handler",
                e.method,
                e.path,
                e.name
            );
        }
    }
}
