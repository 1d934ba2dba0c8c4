//! The one dispatch from an endpoint's op to its render function, for every answer that is a
//! pure function of the dataset, its indexes, the request and who asks. The runtime answers
//! these ops through it, and the reference renders its example answers through it, so the two
//! cannot call a renderer differently. Ops whose answer depends on the moment, the store or an
//! account (health, keys, webhooks, export...) are the runtime's own and get `None` here.

use chrono::NaiveDate;

use super::compound::{self, CasQuery, CompoundQuery, View};
use super::error::ApiError;
use super::lists::{self, RiskIndex};
use super::regulatory_status::RegulatoryStatusQuery;
use super::search::{self, SearchIndex};
use super::{
    Rendered, badge, batch, compare, contexts, documents, entities, found_in, fragrance, pages,
    regulatory, regulatory_status, relationships,
};
use crate::aggregate::Assessment;
use crate::aggregate::graph::Graph;
use crate::api::Op;
pub use crate::api::Query;
use crate::model::Dataset;

/// The indexes the keyed list, search and graph responses are rendered from (the runtime's
/// release holds them; the static build builds them once).
#[derive(Debug, Clone, Copy)]
pub struct Indexes<'a> {
    pub graph: &'a Graph,
    pub risk_index: &'a RiskIndex,
    pub search_index: &'a SearchIndex,
}

/// Who asks, as far as a pure answer depends on it.
#[derive(Debug, Clone, Copy)]
pub struct Viewer {
    /// Developer tier or higher: full alternatives and product traces, the keyed batch fields.
    pub keyed: bool,
    /// Items per batch request the caller's tier allows.
    pub batch_cap: usize,
}

impl Viewer {
    /// A caller without a key, with the public tier's batch cap.
    pub const PUBLIC: Viewer = Viewer {
        keyed: false,
        batch_cap: 10,
    };
}

/// One request to an op: its path parameters in template order, its query, a POSTed batch
/// body already read, the day that counts as today, and the compound's assessment when the
/// caller has made it already (the build renders a compound's 78 files from one).
#[derive(Clone, Copy)]
pub struct Call<'a> {
    pub params: &'a [&'a str],
    pub query: &'a dyn Query,
    pub batch: Option<&'a batch::BatchRequest>,
    pub today: NaiveDate,
    pub assessed: Option<&'a Assessment>,
}

impl std::fmt::Debug for Call<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Call")
            .field("params", &self.params)
            .field("batch", &self.batch)
            .field("today", &self.today)
            .finish_non_exhaustive()
    }
}

/// The answer of `op` to `call`, or `None` when `op` is not a pure function of the dataset.
pub fn render(
    d: &Dataset,
    ix: Indexes<'_>,
    op: Op,
    call: Call<'_>,
    viewer: Viewer,
) -> Option<Rendered> {
    let view = if viewer.keyed {
        View::Full
    } else {
        View::Public
    };
    let answer = match from_dataset(d, op, call.params, call.query, call.assessed, view) {
        Ok(None) => from_indexes(d, ix, op, call, viewer),
        other => other,
    };
    answer.unwrap_or_else(|e| Some(e.into()))
}

/// The public answer of `op` when it is a function of the dataset and the URL alone (no
/// indexes, no day, no caller): what a static file can hold. The route table renders every
/// file of the tree through this.
pub fn render_static(
    d: &Dataset,
    op: Op,
    params: &[&str],
    query: &dyn Query,
    assessed: Option<&Assessment>,
) -> Option<Rendered> {
    from_dataset(d, op, params, query, assessed, View::Public).unwrap_or_else(|e| Some(e.into()))
}

/// `render_static` of a GET of `path` (`/api/...`), routed by the catalogue as the runtime
/// routes it; a path no GET endpoint answers with a static answer is the 404.
pub fn get_static(
    d: &Dataset,
    path: &str,
    query: &dyn Query,
    assessed: Option<&Assessment>,
) -> Rendered {
    let segments: Vec<&str> = path
        .strip_prefix("/api")
        .unwrap_or(path)
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    crate::api::resolve(&segments)
        .into_iter()
        .find(|(e, _)| e.method == "GET")
        .and_then(|(e, params)| render_static(d, e.op, &params, query, assessed))
        .unwrap_or_else(super::not_found)
}

/// The ops a function of the dataset and the URL answers. Each parses its path and then its
/// typed query, in that order, so a request with both wrong gets the path's error.
fn from_dataset(
    d: &Dataset,
    op: Op,
    params: &[&str],
    q: &dyn Query,
    assessed: Option<&Assessment>,
    view: View,
) -> Result<Option<Rendered>, ApiError> {
    let p = |i: usize| params.get(i).copied().unwrap_or_default();
    let raw = |name: &'static str| q.get(name);
    Ok(Some(match op {
        Op::Root => super::root::root(d, &d.release_date()),
        Op::OpenApi => super::openapi::openapi(d, super::openapi::Format::parse(q)?),
        Op::ReleaseNotes => documents::release_notes(d, documents::Format::parse(q)?),
        Op::Disclaimer => documents::document(d, "disclaimer", documents::Format::parse(q)?),
        Op::Terms => documents::document(d, "terms", documents::Format::parse(q)?),
        Op::Privacy => documents::document(d, "privacy", documents::Format::parse(q)?),
        Op::Compound => {
            let record = compound::lookup(d, p(0))?;
            compound::compound(d, record, CompoundQuery::parse(d, q)?, assessed)
        }
        Op::CompoundRaw => compound::raw(compound::lookup(d, p(0))?),
        Op::Alternatives => compound::alternatives(d, compound::lookup(d, p(0))?, view),
        Op::CompoundByCas => {
            let cas = compound::parse_cas(p(0))?;
            compound::by_cas(d, &cas, CasQuery::parse(d, q)?)?
        }
        Op::Material => entities::material(d, p(0)),
        Op::Product => entities::product(d, p(0), view),
        Op::ProductRaw => entities::product_raw(d, p(0)),
        Op::Badge => {
            let id = badge::check_id(p(0))?;
            badge::badge(d, id, &badge::BadgeQuery::parse(d, q)?, assessed)
        }
        Op::Contexts => contexts::contexts(d),
        Op::Materials => lists::materials(d, raw("page"), raw("limit"), raw("search")),
        Op::Regulatory => regulatory::compound(d, p(0)),
        Op::RegulatoryAgencies => regulatory::agencies(d),
        Op::RegulatoryByAgency => regulatory::by_agency(d, p(0), raw("limit")),
        Op::RegulatoryStatusVocabulary => regulatory_status::vocabulary::vocabulary(d),
        Op::FoundIn => found_in::compound(d, p(0)),
        Op::FoundInCategories => found_in::categories(d),
        Op::FoundInByCategory => found_in::by_category(d, p(0), raw("limit")),
        Op::Fragrance => {
            fragrance::list(&d.fragrance, d, raw("limit"), raw("offset"), raw("class"))
        }
        Op::FragranceClasses => fragrance::classes(&d.fragrance),
        Op::FragranceSearch => {
            fragrance::search(&d.fragrance, d, raw("q"), raw("limit"), raw("offset"))
        }
        Op::Playground => pages::playground::playground(d),
        Op::Examples => pages::examples::examples(d),
        Op::Dashboard => pages::dashboard::dashboard(),
        Op::Compliance => pages::compliance::compliance(d),
        Op::Changelog => super::changelog::changelog(d, q),
        _ => return Ok(None),
    }))
}

/// The ops answered from the indexes, the day or the caller; `None` for the runtime's own.
fn from_indexes(
    d: &Dataset,
    ix: Indexes<'_>,
    op: Op,
    call: Call<'_>,
    viewer: Viewer,
) -> Result<Option<Rendered>, ApiError> {
    let q = |name: &'static str| call.query.get(name);
    let p = |i: usize| call.params.get(i).copied().unwrap_or_default();
    Ok(Some(match op {
        Op::Relationships => relationships::relationships(ix.graph, p(0), q("rel_type")),
        Op::RelationshipGraph => relationships::graph(ix.graph, p(0), q("depth"), q("rel_type")),
        Op::RelationshipStats => relationships::stats(ix.graph, &d.release_date()),
        Op::Compounds => lists::compounds(
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
        Op::Filter => lists::filter(
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
        Op::Compare => {
            compare::compare_indexed(d, ix.risk_index, q("ids"), q("context"), q("contexts"))
        }
        Op::Search => search::search(
            ix.search_index,
            d,
            q("q"),
            q("limit"),
            q("offset"),
            q("type"),
        ),
        Op::Batch => {
            let request = match call.batch {
                Some(body) => body.clone(),
                None => match batch::BatchRequest::from_query(call.query) {
                    Ok(r) => r,
                    Err(e) => return Ok(Some(e)),
                },
            };
            batch::batch_indexed(
                d,
                ix.risk_index,
                &request.compounds,
                request.context.as_deref(),
                request.synthesize,
                request.detail.as_deref(),
                &batch::BatchCaller {
                    cap: viewer.batch_cap,
                    keyed: viewer.keyed,
                },
            )
        }
        Op::Products => lists::products(
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
        Op::RegulatoryStatus => regulatory_status::regulatory_status(
            &d.regulatory_status,
            &RegulatoryStatusQuery::parse(d, call.query, call.today)?,
        ),
        // The runtime's own.
        Op::Health
        | Op::Freshness
        | Op::Export
        | Op::KeyStatus
        | Op::KeyUsage
        | Op::KeyRotate
        | Op::KeyTrial
        | Op::KeyRecover
        | Op::KeyResend
        | Op::KeyErasure
        | Op::BillingWebhook
        | Op::WatchlistList
        | Op::WatchlistAdd
        | Op::WatchlistCheck
        | Op::WatchlistRemove
        | Op::Webhooks
        | Op::WebhookDelete
        | Op::WebhookTest
        | Op::Docs => return Ok(None),
        // Answered by `from_dataset`.
        Op::Root
        | Op::OpenApi
        | Op::ReleaseNotes
        | Op::Disclaimer
        | Op::Terms
        | Op::Privacy
        | Op::Compound
        | Op::CompoundRaw
        | Op::Alternatives
        | Op::CompoundByCas
        | Op::Material
        | Op::Product
        | Op::ProductRaw
        | Op::Badge
        | Op::Contexts
        | Op::Materials
        | Op::Regulatory
        | Op::RegulatoryAgencies
        | Op::RegulatoryByAgency
        | Op::RegulatoryStatusVocabulary
        | Op::FoundIn
        | Op::FoundInCategories
        | Op::FoundInByCategory
        | Op::Fragrance
        | Op::FragranceClasses
        | Op::FragranceSearch
        | Op::Playground
        | Op::Examples
        | Op::Dashboard
        | Op::Compliance
        | Op::Changelog => return Ok(None),
    }))
}
