//! The runtime's side of the one dispatch: the ops whose answer depends on the moment, the
//! store or an account are handled here; every other op is answered by
//! `saferef_generator::render::dispatch` (so the runtime answers with the bytes the static
//! build writes), given the caller.

use std::sync::Arc;

use saferef_generator::api::Op;
use saferef_generator::render::batch::{BatchCaller, BatchRequest};
use saferef_generator::render::dispatch::{self, Call, Indexes, Viewer};
use saferef_generator::render::error::ApiError;
use saferef_generator::render::{self, Rendered, pages};
use warp::http::Method;
use warp::reply::Response;

use super::render_cache::Key;
use super::table::Endpoint;
use super::{Params, Request, health, reply};
use crate::AppState;
use crate::caller::Caller;

impl dispatch::Query for Params {
    fn get(&self, name: &str) -> Option<&str> {
        Params::get(self, name)
    }

    fn each(&self) -> Vec<(&str, &str)> {
        Params::each(self)
    }
}

pub async fn run(state: &Arc<AppState>, req: &Request, caller: &Caller, e: Endpoint) -> Response {
    let page = e.page;
    let mut res = answer(state, req, caller, e).await;
    if page {
        super::with_page_security(&mut res);
    }
    res
}

async fn answer(state: &Arc<AppState>, req: &Request, caller: &Caller, e: Endpoint) -> Response {
    let q = match &req.query {
        Ok(q) => q,
        // A badge URL is answered with an image whatever happens (the docs page's "Badges").
        Err(err) if e.op == Op::Badge => {
            return reply(saferef_generator::render::badge::refused(err));
        }
        Err(err) => return reply(err.clone()),
    };
    match e.op {
        // GET /api/export?type=&format=&detail=&search=&risk=&context=: streamed, so it needs
        // the state past this call and is not rendered whole like the others.
        Op::Export => super::export::export(state, q),
        Op::Health if q.get("check").is_none() => health::plain(state),
        _ => match own(state, req, q, caller, &e).await {
            Some(answer) => reply(answer.unwrap_or_else(Rendered::from)),
            None => pure(state, req, q, caller, &e),
        },
    }
}

/// The runtime's own ops (whose answer depends on the moment, the store or an account), or
/// `None` for an op `render::dispatch` answers.
async fn own(
    state: &AppState,
    req: &Request,
    q: &Params,
    caller: &Caller,
    e: &Endpoint,
) -> Option<Result<Rendered, ApiError>> {
    let id = e.params.first().map(String::as_str).unwrap_or_default();
    Some(match e.op {
        Op::Health => health::health(state, req, q, caller).await,
        Op::Freshness => crate::freshness::freshness(state).await,
        Op::KeyStatus => super::keys::status(state, caller).await,
        Op::KeyUsage => super::keys::usage(state, caller, q).await,
        Op::KeyRotate => super::keys::rotate(state, caller).await,
        Op::KeyTrial => super::accounts::trial(state, req, caller).await,
        Op::KeyRecover => super::accounts::recover(state, req, caller).await,
        Op::KeyResend => super::accounts::resend(state, req, caller).await,
        Op::KeyErasure => super::accounts::erasure(state, req, caller).await,
        Op::BillingWebhook => super::billing::webhook(state, req).await,
        Op::WatchlistList => super::watchlist::list(state, caller, q).await,
        Op::WatchlistAdd => super::watchlist::add(state, req, caller).await,
        Op::WatchlistCheck => super::watchlist::check(state, req, caller).await,
        Op::WatchlistRemove => super::watchlist::remove(state, caller, id).await,
        Op::Webhooks => super::webhooks::collection(state, req, q, caller).await,
        Op::WebhookDelete => super::webhooks::delete(state, caller, id).await,
        Op::WebhookTest => super::webhooks::test(state, caller, id).await,
        // Rendered once per release: the reference renders every example answer.
        Op::Docs => Ok(state
            .release
            .docs
            .get_or_init(|| pages::docs::docs(&state.release.dataset, indexes(state)))
            .clone()),
        _ => return None,
    })
}

/// An op `render::dispatch` answers: a pure function of the release, the request, who asks
/// and the day, so a GET's answer is kept in the release's `RenderCache` and answered from
/// there when asked again.
fn pure(state: &AppState, req: &Request, q: &Params, caller: &Caller, e: &Endpoint) -> Response {
    let viewer = Viewer {
        keyed: caller.tier.is_keyed(),
        batch_cap: caller.batch_cap(),
    };
    let today = chrono::Utc::now().date_naive();
    let cache = &state.release.render_cache;
    let key = match req.method {
        Method::GET | Method::HEAD => {
            Key::of(e.op, &e.params, q, viewer.keyed, viewer.batch_cap, today)
        }
        _ => None,
    };
    if let Some(res) = key.as_ref().and_then(|k| cache.get(k)) {
        return res;
    }
    let rendered = render_pure(state, req, q, e, viewer, today).unwrap_or_else(Rendered::from);
    match key {
        Some(key) => cache.keep(key, rendered),
        None => reply(rendered),
    }
}

fn render_pure(
    state: &AppState,
    req: &Request,
    q: &Params,
    e: &Endpoint,
    viewer: Viewer,
    today: chrono::NaiveDate,
) -> Result<Rendered, ApiError> {
    let batch = if e.op == Op::Batch && req.method == Method::POST {
        Some(req.json::<BatchRequest>("batch body")?)
    } else {
        None
    };
    let params: Vec<&str> = e.params.iter().map(String::as_str).collect();
    let call = Call {
        params: &params,
        query: q,
        batch: batch.as_ref(),
        today,
        prepared: None,
    };
    Ok(
        dispatch::render(&state.release.dataset, indexes(state), e.op, call, viewer)
            .unwrap_or_else(render::not_found),
    )
}

/// The quota credits of a batch request (`render::batch::credits`); 1 when its body or query
/// cannot be read (it is then answered 400).
pub fn batch_credits(state: &AppState, req: &Request, caller: &Caller) -> u64 {
    let request = if req.method == Method::POST {
        req.json::<BatchRequest>("batch body").ok()
    } else {
        let query = req.query.as_ref().ok();
        // Only a synthesis costs more than one credit (`credits`): without `synthesize=true`
        // nothing is built to find out.
        let synthesize = query
            .and_then(|q| q.get("synthesize"))
            .and_then(saferef_generator::api::boolean);
        if synthesize != Some(true) {
            return 1;
        }
        query.and_then(|q| BatchRequest::from_query(q).ok())
    };
    request.map_or(1, |r| {
        saferef_generator::render::batch::credits(
            &state.release.dataset,
            &state.release.risk_index,
            &r,
            &BatchCaller {
                cap: caller.batch_cap(),
                keyed: caller.tier.is_keyed(),
            },
        )
    })
}

fn indexes(state: &AppState) -> Indexes<'_> {
    Indexes {
        graph: &state.release.graph,
        risk_index: &state.release.risk_index,
        search_index: &state.release.search_index,
    }
}
