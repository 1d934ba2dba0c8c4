//! One function per endpoint, each a thin call of the generator's render function for it
//! (so the runtime answers with the bytes the static build writes), given the caller.

use std::sync::Arc;

use saferef_generator::render::compound::{self, Access};
use saferef_generator::render::{
    self, Rendered, badge, batch, compare, contexts, documents, entities, found_in, lists, pages,
    regulatory, relationships, search,
};
use warp::reply::Response;

use super::table::Handler;
use super::{Params, Request, health, reply};
use crate::AppState;
use crate::caller::Caller;

pub async fn run(
    state: &Arc<AppState>,
    req: &Request,
    caller: &Caller,
    handler: Handler,
) -> Response {
    let q = match &req.query {
        Ok(q) => q,
        Err(e) => return reply(e.clone()),
    };
    match handler {
        // GET /api/export?type=&format=&detail=&search=&risk=&context=: streamed, so it needs
        // the state past this call and is not rendered whole like the others.
        Handler::Export => super::export::export(state, q),
        other => reply(render_one(state, req, q, caller, other).await),
    }
}

async fn render_one(
    state: &AppState,
    req: &Request,
    q: &Params,
    caller: &Caller,
    handler: Handler,
) -> Rendered {
    let d = &state.dataset;
    // Developer+ callers see the gated parts (full alternatives, compound traces).
    let access = if caller.tier.is_keyed() {
        Access::Full
    } else {
        Access::Public
    };
    match handler {
        // GET /api
        Handler::Root => render::root::root(d, &d.release_date()),
        // GET /api/health?check=integrity|monitor
        Handler::Health => health::health(state, req, q).await,
        // GET /api/regulatory-status?analyte=&matrix=&jurisdiction=&as_of=&view=&before=
        Handler::RegulatoryStatus => {
            saferef_generator::regulatory_status::render::regulatory_status(
                &d.regulatory_status,
                &saferef_generator::regulatory_status::render::Query {
                    analyte: q.get("analyte"),
                    matrix: q.get("matrix"),
                    jurisdiction: q.get("jurisdiction"),
                    as_of: q.get("as_of"),
                    view: q.get("view"),
                    before: q.get("before"),
                },
                chrono::Utc::now().date_naive(),
            )
        }
        // GET /api/fragrance?limit=&offset=&class=
        Handler::Fragrance => saferef_generator::fragrance::render::list(
            &d.fragrance,
            d,
            q.get("limit"),
            q.get("offset"),
            q.get("class"),
        ),
        // GET /api/fragrance/classes
        Handler::FragranceClasses => saferef_generator::fragrance::render::classes(&d.fragrance),
        // GET /api/fragrance/search?q=&limit=&offset=
        Handler::FragranceSearch => saferef_generator::fragrance::render::search(
            &d.fragrance,
            d,
            q.get("q"),
            q.get("limit"),
            q.get("offset"),
        ),
        // GET /api/keys/status
        Handler::KeyStatus => super::keys::status(state, caller).await,
        // GET /api/keys/usage?days=
        Handler::KeyUsage => super::keys::usage(state, caller, q).await,
        // POST /api/keys/rotate
        Handler::KeyRotate => super::keys::rotate(state, caller).await,
        Handler::Export => unreachable!("run() streams the export"),
        // GET /api/changelog?since=&compound_id=&type=&summary=&limit=&offset=
        Handler::Changelog => super::changelog::changelog(d, q),
        // POST /api/keys/trial {email}
        Handler::KeyTrial => super::accounts::trial(state, req, caller).await,
        // POST /api/keys/recover {email} | {email, code}
        Handler::KeyRecover => super::accounts::recover(state, req, caller).await,
        // POST /api/keys/erasure {email} | {email, code}
        Handler::KeyErasure => super::accounts::erasure(state, req, caller).await,
        // POST /api/billing/webhook (payment provider, signed)
        Handler::BillingWebhook => super::billing::webhook(state, req).await,
        // GET /api/watchlist?limit=&offset= | POST /api/watchlist {compounds}
        Handler::Watchlist if req.method == warp::http::Method::POST => {
            super::watchlist::add(state, req, caller).await
        }
        Handler::Watchlist => super::watchlist::list(state, caller, q).await,
        // POST /api/watchlist/check {compounds}
        Handler::WatchlistCheck => super::watchlist::check(state, req, caller).await,
        // DELETE /api/watchlist/{id}
        Handler::WatchlistRemove(id) => super::watchlist::remove(state, caller, &id).await,
        // GET|POST /api/webhooks?action=deliveries&webhook_id=&offset=&limit=
        Handler::Webhooks => crate::webhooks::routes::collection(state, req, q, caller).await,
        // DELETE /api/webhooks/{id}
        Handler::WebhookDelete(id) => crate::webhooks::routes::delete(state, caller, &id).await,
        // POST /api/webhooks/test/{id}
        Handler::WebhookTest(id) => crate::webhooks::routes::test(state, caller, &id).await,
        // GET /api/freshness
        Handler::Freshness => crate::freshness::freshness(state).await,
        // GET /api/openapi?format=postman
        Handler::OpenApi => render::openapi::openapi(d, q.get("format")),
        // GET /api/release-notes?format=json
        Handler::ReleaseNotes => documents::release_notes(d, q.get("format")),
        // GET /api/{disclaimer|terms|privacy}?format=json
        Handler::Document(name) => documents::document(d, &name, q.get("format")),
        // GET /api/compound/{id}?context=&all_contexts=
        Handler::Compound(id) => {
            compound::compound(d, &id, q.get("context"), q.get("all_contexts"))
        }
        // GET /api/compound/{id}/raw
        Handler::CompoundRaw(id) => compound::raw(d, &id),
        // GET /api/compound/{id}/alternatives
        Handler::Alternatives(id) => compound::alternatives(d, &id, access),
        // GET /api/compound/cas/{cas}?redirect=&context=
        Handler::ByCas(cas) => compound::by_cas(d, &cas, q.get("redirect"), q.get("context")),
        // GET /api/material/{id}
        Handler::Material(id) => entities::material(d, &id),
        // GET /api/product/{id}
        Handler::Product(id) => entities::product(d, &id, access),
        // GET /api/product/{id}/raw
        Handler::ProductRaw(id) => entities::product_raw(d, &id),
        // GET /api/badge/{id}?context=&style=&label=
        Handler::Badge(id) => {
            badge::badge(d, &id, q.get("context"), q.get("style"), q.get("label"))
        }
        // GET /api/relationships/{id}?rel_type=
        Handler::Relationships(id) => {
            relationships::relationships(&state.graph, &id, q.get("rel_type"))
        }
        // GET /api/relationships/{id}/graph?depth=&rel_type=
        Handler::RelationshipGraph(id) => {
            relationships::graph(&state.graph, &id, q.get("depth"), q.get("rel_type"))
        }
        // GET /api/relationships/stats
        Handler::RelationshipStats => relationships::stats(&state.graph, &d.release_date()),
        // GET /api/compounds?page=&limit=&search=&risk=&context=&hazard=&cas=&type_filter=&category_filter=
        Handler::Compounds => lists::compounds(
            d,
            &state.risk_index,
            &lists::CompoundsQuery {
                page: q.get("page"),
                limit: q.get("limit"),
                search: q.get("search"),
                risk: q.get("risk"),
                context: q.get("context"),
                hazard: q.get("hazard"),
                cas: q.get("cas"),
                type_filter: q.get("type_filter"),
                category_filter: q.get("category_filter"),
            },
        ),
        // GET /api/filter?risk=&context=&type=&agency=&hazard=&cas_prefix=&exposure=&functional_use=&year=&year_min=&year_max=
        Handler::Filter => lists::filter(
            d,
            &state.risk_index,
            &lists::FilterQuery {
                risk: q.get("risk"),
                context: q.get("context"),
                kind: q.get("type"),
                agency: q.get("agency"),
                hazard: q.get("hazard"),
                cas_prefix: q.get("cas_prefix"),
                exposure: q.get("exposure"),
                functional_use: q.get("functional_use"),
                year: q.get("year"),
                year_min: q.get("year_min"),
                year_max: q.get("year_max"),
                page: q.get("page"),
                limit: q.get("limit"),
            },
        ),
        // GET /api/compounds/compare?ids=&context=&contexts=
        Handler::Compare => compare::compare_indexed(
            d,
            &state.risk_index,
            q.get("ids"),
            q.get("context"),
            q.get("contexts"),
        ),
        // GET /api/search?q=&limit=&offset=&type=
        Handler::Search => search::search(
            &state.search_index,
            d,
            q.get("q"),
            q.get("limit"),
            q.get("offset"),
            q.get("type"),
        ),
        // GET|POST /api/compounds/batch
        Handler::Batch => batch_request(state, req, q, caller),
        // GET /api/contexts
        Handler::Contexts => contexts::contexts(d),
        // GET /api/materials?page=&limit=&search=
        Handler::Materials => lists::materials(d, q.get("page"), q.get("limit"), q.get("search")),
        // GET /api/products?page=&limit=&search=&risk=&tier=&category_filter=
        Handler::Products => lists::products(
            d,
            &state.risk_index,
            &lists::ProductsQuery {
                page: q.get("page"),
                limit: q.get("limit"),
                search: q.get("search"),
                risk: q.get("risk"),
                tier: q.get("tier"),
                category_filter: q.get("category_filter"),
            },
        ),
        // GET /api/regulatory/{id}
        Handler::Regulatory(id) => regulatory::compound(d, &id),
        // GET /api/regulatory/agencies
        Handler::Agencies => regulatory::agencies(d),
        // GET /api/regulatory/by-agency/{agency}?limit=
        Handler::ByAgency(agency) => regulatory::by_agency(d, &agency, q.get("limit")),
        // GET /api/found-in/{id}
        Handler::FoundIn(id) => found_in::compound(d, &id),
        // GET /api/found-in/categories
        Handler::FoundInCategories => found_in::categories(d),
        // GET /api/found-in/by-category/{category}?limit=
        Handler::ByCategory(category) => found_in::by_category(d, &category, q.get("limit")),
        // GET /api/docs
        Handler::Docs => state
            .docs
            .get_or_init(|| {
                pages::docs::docs(
                    d,
                    pages::excerpts::Indexes {
                        graph: &state.graph,
                        risk_index: &state.risk_index,
                        search_index: &state.search_index,
                    },
                )
            })
            .clone(),
        // GET /api/playground
        Handler::Playground => pages::playground::playground(d),
        // GET /api/examples
        Handler::Examples => pages::examples::examples(d),
        // GET /api/dashboard
        Handler::Dashboard => pages::dashboard::dashboard(),
        // GET /api/compliance
        Handler::Compliance => pages::compliance::compliance(d),
    }
}

/// The batch body of SPEC 4.2.1 (POST); GET carries the same in `ids`, `context`, `synthesize`,
/// `detail`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct BatchBody {
    compounds: Vec<String>,
    #[serde(default)]
    context: Option<String>,
    #[serde(default)]
    synthesize: bool,
    #[serde(default)]
    detail: Option<String>,
}

/// GET|POST /api/compounds/batch
fn batch_request(state: &AppState, req: &Request, q: &Params, caller: &Caller) -> Rendered {
    let body = if req.method == warp::http::Method::POST {
        match req.json::<BatchBody>("batch body") {
            Ok(b) => b,
            Err(e) => return e,
        }
    } else {
        let Some(ids) = q.get("ids") else {
            return Rendered::error(
                400,
                "ids is required: comma-separated compound ids or CAS numbers",
            );
        };
        let synthesize = match q.get("synthesize") {
            None | Some("false") => false,
            Some("true") => true,
            Some(other) => {
                return Rendered::error(
                    400,
                    format!("synthesize accepts true or false, not {other:?}"),
                );
            }
        };
        BatchBody {
            compounds: ids.split(',').map(str::to_string).collect(),
            context: q.get("context").map(str::to_string),
            synthesize,
            detail: q.get("detail").map(str::to_string),
        }
    };
    batch::batch_indexed(
        &state.dataset,
        &state.risk_index,
        &body.compounds,
        body.context.as_deref(),
        body.synthesize,
        body.detail.as_deref(),
        &batch::BatchCaller {
            cap: caller.batch_cap(),
            keyed: caller.tier.is_keyed(),
        },
    )
}
