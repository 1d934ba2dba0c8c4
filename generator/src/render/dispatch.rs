//! The one dispatch from an endpoint's op to its render function, for every answer that is a
//! pure function of the dataset, its indexes, the request and who asks. The runtime answers
//! these ops through it, and the reference renders its example answers through it, so the two
//! cannot call a renderer differently. Ops whose answer depends on the moment, the store or an
//! account (health, keys, webhooks, export...) are the runtime's own and get `None` here.

use chrono::NaiveDate;

use super::compound::{self, CasQuery, CompoundQuery, View};
use super::error::ApiError;
use super::lists::{self, RiskIndex};
use super::paging::Paging;
use super::regulatory_status::RegulatoryStatusQuery;
use super::search::{self, SearchIndex};
use super::{
    Rendered, badge, batch, changelog, compare, contexts, documents, entities, found_in, fragrance,
    moved, pages, regulatory, regulatory_status, relationships,
};
use crate::aggregate::Assessment;
use crate::aggregate::graph::Graph;
use crate::aggregate::synthesis::Synthesized;
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

    /// The form of a tier-gated answer this caller sees.
    pub fn view(self) -> View {
        if self.keyed { View::Full } else { View::Public }
    }
}

/// What the caller has worked out already for the entity a request names: a compound's
/// assessment or a product's synthesis. The build renders all of a compound's files from one
/// assessment and all of a product's from one synthesis.
#[derive(Debug, Clone, Copy)]
pub enum Prepared<'a> {
    Assessed(&'a Assessment),
    Synthesized(&'a Synthesized),
}

impl<'a> Prepared<'a> {
    pub fn assessment(self) -> Option<&'a Assessment> {
        match self {
            Prepared::Assessed(a) => Some(a),
            Prepared::Synthesized(_) => None,
        }
    }

    pub fn synthesis(self) -> Option<&'a Synthesized> {
        match self {
            Prepared::Synthesized(s) => Some(s),
            Prepared::Assessed(_) => None,
        }
    }
}

/// One request to an op: its path parameters in template order, its query, a POSTed batch
/// body already read, the day that counts as today, and what the caller has prepared.
#[derive(Clone, Copy)]
pub struct Call<'a> {
    pub params: &'a [&'a str],
    pub query: &'a dyn Query,
    pub batch: Option<&'a batch::BatchRequest>,
    pub today: NaiveDate,
    pub prepared: Option<Prepared<'a>>,
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
    if let Some(forward) = moved::moved(d, op, call.params, call.query) {
        return Some(forward);
    }
    let answer = match from_dataset(d, op, call.params, call.query, call.prepared, viewer.view()) {
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
    prepared: Option<Prepared<'_>>,
) -> Option<Rendered> {
    if let Some(forward) = moved::moved(d, op, params, query) {
        return Some(forward);
    }
    from_dataset(d, op, params, query, prepared, View::Public).unwrap_or_else(|e| Some(e.into()))
}

/// `render_static` of a GET of `path` (`/api/...` or a page's), routed by the catalogue as the
/// runtime routes it; a path no GET endpoint answers with a static answer is the 404.
pub fn get_static(
    d: &Dataset,
    path: &str,
    query: &dyn Query,
    prepared: Option<Prepared<'_>>,
) -> Rendered {
    crate::api::resolve_path(path)
        .into_iter()
        .find(|(e, _)| e.method == "GET")
        .and_then(|(e, params)| render_static(d, e.op, &params, query, prepared))
        .unwrap_or_else(super::not_found)
}

/// The ops a function of the dataset and the URL answers. Each parses its path and then its
/// typed query, in that order, so a request with both wrong gets the path's error.
fn from_dataset(
    d: &Dataset,
    op: Op,
    params: &[&str],
    q: &dyn Query,
    prepared: Option<Prepared<'_>>,
    view: View,
) -> Result<Option<Rendered>, ApiError> {
    let p = |i: usize| params.get(i).copied().unwrap_or_default();
    let assessed = prepared.and_then(Prepared::assessment);
    let synthesized = prepared.and_then(Prepared::synthesis);
    Ok(Some(match op {
        Op::Root => super::root::root(d, &d.release_date()),
        Op::OpenApi => super::openapi::openapi(d, super::openapi::Format::parse(q)?),
        Op::ReleaseNotes => documents::release_notes(d, documents::Format::parse(q)?),
        Op::Disclaimer => documents::document(d, "disclaimer", documents::Format::parse(q)?),
        Op::Terms => documents::document(d, "terms", documents::Format::parse(q)?),
        Op::Privacy => documents::document(d, "privacy", documents::Format::parse(q)?),
        Op::Compound => {
            let record = compound::lookup(d, p(0))?;
            let query = CompoundQuery::parse(d, q)?;
            match compound::parse_as_of(q, view)? {
                Some(day) => compound::compound_as_of(d, record, query, day),
                None => compound::compound(d, record, query, assessed),
            }
        }
        Op::CompoundRaw => compound::raw(compound::lookup(d, p(0))?),
        Op::Alternatives => compound::alternatives(d, compound::lookup(d, p(0))?, view),
        Op::CompoundByCas => {
            let cas = compound::parse_cas(p(0))?;
            compound::by_cas(d, &cas, CasQuery::parse(d, q)?)?
        }
        Op::Material => entities::material(d, p(0)),
        Op::Product => entities::product_synthesized(d, p(0), view, synthesized),
        Op::ProductRaw => entities::product_raw(d, p(0)),
        Op::Badge => badge::answer(d, p(0), q, prepared),
        Op::Contexts => contexts::contexts(d),
        Op::Materials => lists::materials(d, &lists::MaterialsQuery::parse(q)?),
        Op::Regulatory => regulatory::compound(d, p(0), compound::parse_as_of(q, view)?),
        Op::RegulatoryAgencies => regulatory::agencies(d),
        Op::RegulatoryByAgency => regulatory::by_agency(d, p(0), Paging::parse(op, q)?),
        Op::RegulatoryStatusVocabulary => regulatory_status::vocabulary::vocabulary(d),
        Op::FoundIn => found_in::compound(d, p(0)),
        Op::FoundInCategories => found_in::categories(d),
        Op::FoundInByCategory => found_in::by_category(d, p(0), Paging::parse(op, q)?),
        Op::Fragrance => {
            let query = fragrance::ListQuery::parse(&d.fragrance, q)?;
            fragrance::list(&d.fragrance, d, &query)
        }
        Op::FragranceClasses => fragrance::classes(&d.fragrance),
        Op::FragranceSearch => {
            fragrance::search(&d.fragrance, d, &fragrance::SearchQuery::parse(q)?)
        }
        Op::Playground => pages::playground::playground(d),
        Op::Examples => pages::examples::examples(d),
        Op::Dashboard => pages::dashboard::dashboard(),
        Op::Compliance => pages::compliance::compliance(d),
        Op::Changelog => changelog::changelog(d, &changelog::ChangelogQuery::parse(d, q)?),
        Op::Home => pages::home::home(d),
        Op::CompoundPage => pages::compound_page::compound_page(d, p(0), assessed)?,
        Op::MaterialPage => pages::entity_pages::material_page(d, p(0))?,
        Op::ProductPage => pages::entity_pages::product_page(d, p(0), synthesized)?,
        Op::Sitemap => pages::site::sitemap(d),
        Op::Robots => pages::site::robots(d),
        Op::NameIndex => pages::name_index::name_index(d),
        _ => return Ok(None),
    }))
}

/// The ops answered from the indexes, the day or the caller; `None` for the runtime's own.
/// Like `from_dataset`, each parses its path, then its typed query.
fn from_indexes(
    d: &Dataset,
    ix: Indexes<'_>,
    op: Op,
    call: Call<'_>,
    viewer: Viewer,
) -> Result<Option<Rendered>, ApiError> {
    let q = call.query;
    let p = |i: usize| call.params.get(i).copied().unwrap_or_default();
    Ok(Some(match op {
        Op::Relationships => {
            let id = relationships::EntityId::parse(p(0))?;
            relationships::relationships(ix.graph, id, relationships::rel_type(q)?)?
        }
        Op::RelationshipGraph => {
            let id = relationships::EntityId::parse(p(0))?;
            relationships::graph(ix.graph, id, relationships::GraphQuery::parse(q)?)?
        }
        Op::RelationshipStats => relationships::stats(ix.graph, &d.release_date()),
        Op::Compounds => lists::compounds(d, ix.risk_index, &lists::CompoundsQuery::parse(d, q)?),
        Op::Filter => lists::filter(d, ix.risk_index, &lists::FilterQuery::parse(d, q)?),
        Op::Products => lists::products(d, ix.risk_index, &lists::ProductsQuery::parse(d, q)?),
        Op::Compare => compare::compare_indexed(
            d,
            ix.risk_index,
            &compare::CompareQuery::parse(d, q, viewer.view())?,
        )?,
        Op::Lookup => search::lookup(ix.search_index, d, &search::LookupQuery::parse(q)?),
        Op::Search => search::search(ix.search_index, d, &search::SearchQuery::parse(q)?),
        Op::Batch => batch(d, ix, call, viewer)?,
        Op::Timeline => super::timeline::timeline(d, p(0), call.today)?,
        Op::RegulatoryStatus => regulatory_status::regulatory_status(
            &d.regulatory_status,
            &d.compounds,
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
        | Op::Changelog
        | Op::Home
        | Op::CompoundPage
        | Op::MaterialPage
        | Op::ProductPage
        | Op::Sitemap
        | Op::Robots
        | Op::NameIndex => return Ok(None),
    }))
}

/// `GET` (from the query) or `POST` (the body already read) `/api/compounds/batch`, its
/// request parsed into the typed `BatchQuery` against the caller.
fn batch(
    d: &Dataset,
    ix: Indexes<'_>,
    call: Call<'_>,
    viewer: Viewer,
) -> Result<Rendered, ApiError> {
    let from_query;
    let request = match call.batch {
        Some(body) => body,
        None => {
            from_query = batch::BatchRequest::from_query(call.query)?;
            &from_query
        }
    };
    let caller = batch::BatchCaller {
        cap: viewer.batch_cap,
        keyed: viewer.keyed,
    };
    Ok(match batch::BatchQuery::parse(d, request, &caller) {
        Ok(q) => batch::batch_indexed(d, ix.risk_index, &q),
        Err(refused) => refused,
    })
}
