//! The endpoint catalogue: every path the service answers, with its methods, who may call it,
//! its parameters and their bounds, its body and what it returns — declared once.
//!
//! The runtime routes requests by these templates and dispatches on each endpoint's `op`
//! (`render::dispatch` for the answers that are a pure function of the dataset), the OpenAPI
//! document and the Postman collection are generated from them (`render/openapi.rs`), and the
//! docs page lists them and renders their examples through the same dispatch, so the reference
//! cannot drift from what answers.

mod endpoints;
mod query;
mod routing;

pub use endpoints::ENDPOINTS;
pub use query::{Query, boolean, pairs, with_query};

/// The conventions every endpoint keeps, stated once: the OpenAPI document's description and
/// the docs page's "Conventions" section show this text.
pub const CONVENTIONS: &str = "Lists take limit with page (counting from 1) or offset (items skipped; page n is offset (n-1) x limit; both at once is a 400), and every list answer carries one pagination object {limit, offset, page, total, total_pages, has_more} beside its older paging fields. Every error answer is JSON {error, code}: error is a message for people and may be reworded, code is a stable machine-readable value (the Error schema lists them). Wherever an answer names a compound, material or product by id, it gives the same value as hq_id too. Answers only ever gain fields.";

/// What an endpoint does: the key the runtime's handlers, the reference's example answers and
/// the renderers dispatch on. Two endpoints share an op when one handler answers both methods
/// (`batch` GET and POST, `webhooks` GET and POST).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    Root,
    Health,
    Freshness,
    OpenApi,
    ReleaseNotes,
    Disclaimer,
    Terms,
    Privacy,
    Compound,
    CompoundRaw,
    Alternatives,
    Timeline,
    CompoundByCas,
    Compounds,
    Filter,
    Batch,
    Compare,
    Contexts,
    Search,
    Lookup,
    Material,
    Product,
    ProductRaw,
    Materials,
    Products,
    Badge,
    Regulatory,
    RegulatoryAgencies,
    RegulatoryByAgency,
    RegulatoryStatus,
    RegulatoryStatusVocabulary,
    FoundIn,
    FoundInCategories,
    FoundInByCategory,
    Relationships,
    RelationshipGraph,
    RelationshipStats,
    Fragrance,
    FragranceClasses,
    FragranceSearch,
    Export,
    Changelog,
    KeyStatus,
    KeyUsage,
    KeyRotate,
    KeyTrial,
    KeyRecover,
    KeyResend,
    KeyErasure,
    BillingWebhook,
    WatchlistList,
    WatchlistAdd,
    WatchlistCheck,
    WatchlistRemove,
    Webhooks,
    WebhookDelete,
    WebhookTest,
    Docs,
    Playground,
    Examples,
    Dashboard,
    Compliance,
    Home,
    CompoundPage,
    MaterialPage,
    ProductPage,
    Sitemap,
    Robots,
    NameIndex,
}

/// Who may call an endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Public,
    /// Developer tier or higher; a public caller gets 401.
    Developer,
    /// Developer or higher; a public caller is refused with 403 (compare).
    DeveloperForbidden,
}

/// Where a parameter travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum In {
    Path,
    Query,
}

/// What values a parameter takes: the bounds the handlers enforce with 400s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Free text of `min..=max` characters.
    Text {
        min: usize,
        max: usize,
    },
    /// Text matching a regular expression (ids, CAS numbers).
    Pattern(&'static str),
    /// A whole number; `max` None = unbounded.
    Int {
        min: i64,
        max: Option<i64>,
        default: Option<i64>,
    },
    Enum(&'static [&'static str]),
    /// `true` or `false`.
    Bool,
    /// `YYYY-MM-DD`.
    Date,
    /// `YYYY-MM-DD` or an RFC 3339 date-time.
    DateOrTime,
    /// One of the 19 exposure contexts (aliases are accepted too).
    Context,
    /// A comma-separated list of `min..=max` compound ids or CAS numbers.
    CompoundList {
        min: usize,
        max: usize,
    },
    /// A comma-separated list of `min..=max` contexts.
    ContextList {
        min: usize,
        max: usize,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    pub name: &'static str,
    pub location: In,
    pub required: bool,
    pub kind: Kind,
    pub description: &'static str,
}

/// The media type and schema (a name under `components.schemas`) of a successful answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Json(&'static str),
    Html,
    Svg,
    /// `format=json` or `format=csv` (export).
    JsonOrCsv(&'static str),
    /// HTML, or JSON of this schema with `format=json` (documents).
    HtmlOrJson(&'static str),
    /// Text of this media type (the sitemap, robots.txt).
    Plain(&'static str),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Endpoint {
    pub op: Op,
    /// Stable name: the OpenAPI `operationId`.
    pub name: &'static str,
    pub method: &'static str,
    /// `/api/...` with `{param}` segments.
    pub path: &'static str,
    pub tag: &'static str,
    pub summary: &'static str,
    pub access: Access,
    pub params: &'static [Param],
    /// The JSON request body's schema name (POST).
    pub body: Option<&'static str>,
    /// The status of a successful answer.
    pub status: u16,
    pub answer: Answer,
    /// Requests counted against the daily quota (export counts as 10).
    pub cost: u64,
    /// A request with real values from the dataset, for the docs and the Postman collection
    /// (path and query; `None` when it needs a body or a key of one's own).
    pub example: Option<&'static str>,
    /// A keyed caller gets more than the public static file holds (full alternatives, a
    /// product's compound traces), so the static tree does not answer keyed callers.
    pub keyed_form: bool,
}

impl Endpoint {
    /// Whether the endpoint answers under `/api` (the others are the site's pages for people:
    /// `/`, `/compound/{id}`, the sitemap...).
    pub fn under_api(&self) -> bool {
        self.path == "/api" || self.path.starts_with("/api/")
    }

    /// The path parameters' values when `segments` (after `/api` for an endpoint under it,
    /// of the whole path for a page) match this template.
    pub fn matches<'a>(&self, segments: &[&'a str]) -> Option<Captured<'a>> {
        // Walked in place, with nothing allocated: a request tries the few templates of its
        // shape (`routing.rs`).
        let template = self
            .path
            .strip_prefix("/api")
            .filter(|_| self.under_api())
            .unwrap_or(self.path)
            .split('/')
            .filter(|s| !s.is_empty());
        let mut given = segments.iter();
        let mut captured = Captured::default();
        for t in template {
            let s = given.next()?;
            if t.starts_with('{') {
                // In bounds: no template has more than `MAX_PARAMS` parameters (a test).
                captured.values[captured.len] = *s;
                captured.len += 1;
            } else if t != *s {
                return None;
            }
        }
        given.next().is_none().then_some(captured)
    }

    /// Whether the path's `{id}` takes the material or product id `id`, as its declaration
    /// says (a product's paths take product ids; badges and relationships any entity's): the
    /// paths where a retired id answers a 301 to its replacement.
    pub fn takes_entity_id(&self, id: &str) -> bool {
        self.params.iter().any(|p| {
            *p == endpoints::ENTITY_ID
                || (*p == endpoints::PRODUCT_ID && id.starts_with("hq-p-"))
                || (*p == endpoints::MATERIAL_ID && id.starts_with("hq-m-"))
        })
    }

    /// Whether the path's `{id}` takes a material or product id: a retired one answers 301.
    pub fn forwards_retired_ids(&self) -> bool {
        self.params.iter().any(|p| {
            [
                endpoints::ENTITY_ID,
                endpoints::PRODUCT_ID,
                endpoints::MATERIAL_ID,
            ]
            .contains(p)
        })
    }

    /// Whether the template has no parameter segments.
    pub fn is_literal(&self) -> bool {
        !self.path.contains('{')
    }
}

/// The most path parameters a template has (`path_parameters_are_declared_and_required`).
const MAX_PARAMS: usize = 2;

/// A template's path parameter values in template order, held in place, so matching a
/// request against the catalogue allocates nothing per template. Reads as a slice.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Captured<'a> {
    values: [&'a str; MAX_PARAMS],
    len: usize,
}

impl<'a> std::ops::Deref for Captured<'a> {
    type Target = [&'a str];

    fn deref(&self) -> &[&'a str] {
        &self.values[..self.len]
    }
}

/// The declaration of query parameter `name` of `op`'s GET endpoint: where a typed query
/// reads its bounds, so they are stated once, in the catalogue.
pub fn declared(op: Op, name: &str) -> Option<&'static Param> {
    ENDPOINTS
        .iter()
        .filter(|e| e.op == op && e.method == "GET")
        .flat_map(|e| e.params)
        .find(|p| p.name == name && p.location == In::Query)
}

/// The endpoints whose template matches `segments`: literal templates win over templates with
/// parameters (`/api/regulatory/agencies` is not the compound `agencies`). All the returned
/// endpoints share one template and differ by method.
pub fn resolve<'a>(segments: &[&'a str]) -> Vec<(&'static Endpoint, Captured<'a>)> {
    routing::matching(segments, true)
}

/// The pages outside `/api` whose template matches `segments` (of the whole path).
pub fn resolve_site<'a>(segments: &[&'a str]) -> Vec<(&'static Endpoint, Captured<'a>)> {
    routing::matching(segments, false)
}

/// The endpoints at a whole request path (`/api/...` or a page's), as `resolve` and
/// `resolve_site` find them.
pub fn resolve_path(path: &str) -> Vec<(&'static Endpoint, Captured<'_>)> {
    let under_api = path == "/api" || path.starts_with("/api/");
    let segments: Vec<&str> = path
        .strip_prefix("/api")
        .filter(|_| under_api)
        .unwrap_or(path)
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    routing::matching(&segments, under_api)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    #[test]
    fn names_are_unique_and_each_path_and_method_is_declared_once() {
        let names: BTreeSet<_> = ENDPOINTS.iter().map(|e| e.name).collect();
        assert_eq!(names.len(), ENDPOINTS.len());
        let routes: BTreeSet<_> = ENDPOINTS.iter().map(|e| (e.path, e.method)).collect();
        assert_eq!(routes.len(), ENDPOINTS.len());
    }

    #[test]
    fn path_parameters_are_declared_and_required() {
        for e in ENDPOINTS {
            let in_path: Vec<&str> = e
                .path
                .split('/')
                .filter_map(|s| s.strip_prefix('{')?.strip_suffix('}'))
                .collect();
            let declared: Vec<&str> = e
                .params
                .iter()
                .filter(|p| p.location == In::Path)
                .map(|p| p.name)
                .collect();
            assert_eq!(in_path, declared, "{}", e.path);
            assert!(in_path.len() <= MAX_PARAMS, "{}", e.path);
            assert!(
                e.params
                    .iter()
                    .filter(|p| p.location == In::Path)
                    .all(|p| p.required),
                "{}",
                e.path
            );
            if e.body.is_some() {
                assert_eq!(e.method, "POST", "{}", e.name);
            }
        }
    }

    #[test]
    fn literal_templates_win_over_parameters() {
        let found = resolve(&["regulatory", "agencies"]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0.name, "regulatoryAgencies");
        let found = resolve(&["regulatory", "hq-c-org-000001"]);
        assert_eq!(found[0].0.name, "regulatory");
        assert_eq!(*found[0].1, ["hq-c-org-000001"]);
        let found = resolve(&["compound", "cas", "50-00-0"]);
        assert_eq!(found[0].0.name, "compoundByCas");
        let methods: BTreeSet<_> = resolve(&["watchlist"])
            .iter()
            .map(|(e, _)| e.method)
            .collect();
        assert_eq!(methods, BTreeSet::from(["GET", "POST"]));
        assert!(resolve(&["nothing", "here"]).is_empty());
    }

    #[test]
    fn pages_outside_api_never_answer_under_it() {
        let found = resolve_path("/compound/hq-c-org-000001");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0.op, Op::CompoundPage);
        assert_eq!(*found[0].1, ["hq-c-org-000001"]);
        assert_eq!(
            resolve_path("/api/compound/hq-c-org-000001")[0].0.op,
            Op::Compound
        );
        assert_eq!(resolve_path("/")[0].0.op, Op::Home);
        assert_eq!(resolve_path("/api")[0].0.op, Op::Root);
        assert!(resolve_path("/api/sitemap.xml").is_empty());
        assert!(resolve_path("/health").is_empty());
    }
}
