//! The one dispatch from an endpoint's op to its render function, for every answer that is a
//! pure function of the dataset, its indexes, the request and who asks. The runtime answers
//! these ops through it, and the reference renders its example answers through it, so the two
//! cannot call a renderer differently. Ops whose answer depends on the moment, the store or an
//! account (health, keys, webhooks, export...) are the runtime's own and get `None` here.

use chrono::NaiveDate;

use super::compound::{self, View};
use super::lists::{self, RiskIndex};
use super::search::{self, SearchIndex};
use super::{
    Rendered, badge, batch, compare, contexts, documents, entities, found_in, fragrance, pages,
    regulatory, regulatory_status, relationships,
};
use crate::aggregate::graph::Graph;
use crate::api::Op;
use crate::model::Dataset;

/// A request's query parameters by name.
pub trait Query {
    fn get(&self, name: &str) -> Option<&str>;
}

impl Query for Vec<(String, String)> {
    fn get(&self, name: &str) -> Option<&str> {
        self.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

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
/// body already read, and the day that counts as today.
#[derive(Clone, Copy)]
pub struct Call<'a> {
    pub params: &'a [&'a str],
    pub query: &'a dyn Query,
    pub batch: Option<&'a batch::BatchRequest>,
    pub today: NaiveDate,
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
    let q = |name: &'static str| call.query.get(name);
    let p = |i: usize| call.params.get(i).copied().unwrap_or_default();
    let view = if viewer.keyed {
        View::Full
    } else {
        View::Public
    };
    Some(match op {
        Op::Root => super::root::root(d, &d.release_date()),
        Op::OpenApi => super::openapi::openapi(d, q("format")),
        Op::ReleaseNotes => documents::release_notes(d, q("format")),
        Op::Disclaimer => documents::document(d, "disclaimer", q("format")),
        Op::Terms => documents::document(d, "terms", q("format")),
        Op::Privacy => documents::document(d, "privacy", q("format")),
        Op::Compound => compound::compound(d, p(0), q("context"), q("all_contexts")),
        Op::CompoundRaw => compound::raw(d, p(0)),
        Op::Alternatives => compound::alternatives(d, p(0), view),
        Op::CompoundByCas => compound::by_cas(d, p(0), q("redirect"), q("context")),
        Op::Material => entities::material(d, p(0)),
        Op::Product => entities::product(d, p(0), view),
        Op::ProductRaw => entities::product_raw(d, p(0)),
        Op::Badge => badge::badge(d, p(0), q("context"), q("style"), q("label")),
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
                    Err(e) => return Some(e),
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
        Op::Contexts => contexts::contexts(d),
        Op::Materials => lists::materials(d, q("page"), q("limit"), q("search")),
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
        Op::Regulatory => regulatory::compound(d, p(0)),
        Op::RegulatoryAgencies => regulatory::agencies(d),
        Op::RegulatoryByAgency => regulatory::by_agency(d, p(0), q("limit")),
        Op::RegulatoryStatus => regulatory_status::regulatory_status(
            &d.regulatory_status,
            &regulatory_status::Query {
                analyte: q("analyte"),
                matrix: q("matrix"),
                jurisdiction: q("jurisdiction"),
                as_of: q("as_of"),
                view: q("view"),
                before: q("before"),
            },
            call.today,
        ),
        Op::FoundIn => found_in::compound(d, p(0)),
        Op::FoundInCategories => found_in::categories(d),
        Op::FoundInByCategory => found_in::by_category(d, p(0), q("limit")),
        Op::Fragrance => fragrance::list(&d.fragrance, d, q("limit"), q("offset"), q("class")),
        Op::FragranceClasses => fragrance::classes(&d.fragrance),
        Op::FragranceSearch => fragrance::search(&d.fragrance, d, q("q"), q("limit"), q("offset")),
        Op::Playground => pages::playground::playground(d),
        Op::Examples => pages::examples::examples(d),
        Op::Dashboard => pages::dashboard::dashboard(),
        Op::Compliance => pages::compliance::compliance(d),
        Op::Changelog => super::changelog::changelog(d, call.query),
        Op::Health
        | Op::Freshness
        | Op::Export
        | Op::KeyStatus
        | Op::KeyUsage
        | Op::KeyRotate
        | Op::KeyTrial
        | Op::KeyRecover
        | Op::KeyErasure
        | Op::BillingWebhook
        | Op::WatchlistList
        | Op::WatchlistAdd
        | Op::WatchlistCheck
        | Op::WatchlistRemove
        | Op::Webhooks
        | Op::WebhookDelete
        | Op::WebhookTest
        | Op::Docs => return None,
    })
}
