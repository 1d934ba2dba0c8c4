//! Watchlist endpoints (Developer+): `GET /api/watchlist?limit=&offset=`,
//! `POST /api/watchlist` {compounds}, `POST /api/watchlist/check` {compounds} and
//! `DELETE /api/watchlist/{id}`. Compounds are named by id or CAS number, like batch.

use saferef_generator::api::Op;
use saferef_generator::model::quoted;
use saferef_generator::render::batch::resolve;
use saferef_generator::render::error::ApiError;
use saferef_generator::render::paging::Paging;
use saferef_generator::render::runtime_answers::watchlist::{
    Added, Checked, CheckedList, CompoundsBody, Entry, LastChange, MAX_INPUTS, Pagination, Removed,
    Watchlist,
};
use saferef_generator::render::{Cache, Rendered};

use super::{Params, Request};
use crate::AppState;
use crate::caller::Caller;
use crate::store::StoreError;
use crate::watchlist;

/// The newest changelog entry about `id` (the later-written one on a date tie).
fn last_change<'d>(
    dataset: &'d saferef_generator::model::Dataset,
    id: &str,
) -> Option<LastChange<'d>> {
    dataset
        .changelog
        .iter()
        .enumerate()
        .filter(|(_, e)| e.compound_id.as_deref() == Some(id))
        .max_by(|(i, a), (j, b)| a.date.cmp(&b.date).then(i.cmp(j)))
        .map(|(_, e)| LastChange {
            id: &e.id,
            date: &e.date,
            kind: e.kind.as_str(),
            summary: &e.summary,
        })
}

fn store_error(e: StoreError) -> ApiError {
    tracing::error!("store: {e}");
    ApiError::unavailable("the watchlist store is unavailable; retry shortly")
}

/// The account of a keyed caller (the table lets only keyed callers through).
fn account(caller: &Caller) -> Result<&str, ApiError> {
    caller
        .key
        .as_deref()
        .map(|k| k.account_id())
        .ok_or_else(|| ApiError::unauthorized("send your API key in X-API-Key or api_key"))
}

/// The caller's account and the compounds a POST body names (1 to `MAX_INPUTS`).
fn account_and_inputs<'c>(
    caller: &'c Caller,
    req: &Request,
) -> Result<(&'c str, Vec<String>), ApiError> {
    let account = account(caller)?;
    let body: CompoundsBody = req.json("watchlist body")?;
    if body.compounds.is_empty() || body.compounds.len() > MAX_INPUTS {
        return Err(ApiError::bad_request(format!(
            "compounds must list 1 to {MAX_INPUTS} compound ids or CAS numbers"
        )));
    }
    Ok((account, body.compounds))
}

/// GET /api/watchlist?limit=&offset=
pub async fn list(state: &AppState, caller: &Caller, q: &Params) -> Result<Rendered, ApiError> {
    let account = account(caller)?;
    let paging = Paging::parse(Op::WatchlistList, q)?;
    let entries = watchlist::entries(&state.service.store, account)
        .await
        .map_err(store_error)?;
    let d = &state.release.dataset;
    let (page, pagination) = paging.slice(&entries);
    let page = page
        .iter()
        // A compound dropped by a later release leaves the list quietly.
        .filter_map(|(id, added)| {
            let r = d.compound(id)?;
            Some(Entry {
                id,
                hq_id: id,
                name: &r.name,
                cas: r.cas.as_str(),
                added: added.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                risk_levels: state.release.risk_index.tiers(r),
                last_change: last_change(d, id),
            })
        })
        .collect();
    Ok(Rendered::json(
        200,
        &Watchlist {
            watchlist: page,
            pagination: Pagination {
                page: pagination,
                cap: watchlist::cap(caller.tier),
            },
        },
        Cache::NoStore,
    ))
}

/// POST /api/watchlist {compounds}: all or nothing; 400 naming every input that fails.
pub async fn add(state: &AppState, req: &Request, caller: &Caller) -> Result<Rendered, ApiError> {
    let (account, inputs) = account_and_inputs(caller, req)?;
    let mut ids = Vec::new();
    let mut problems = Vec::new();
    for input in &inputs {
        match resolve(&state.release.dataset, input.trim()) {
            Ok((r, _)) => ids.push(r.hq_id.to_string()),
            Err(e) => problems.push(e),
        }
    }
    if !problems.is_empty() {
        return Err(ApiError::bad_request(format!(
            "nothing added: {}",
            problems.join("; ")
        )));
    }
    ids.sort();
    ids.dedup();
    let current = watchlist::ids(&state.service.store, account)
        .await
        .map_err(store_error)?;
    let cap = watchlist::cap(caller.tier);
    let new = ids.iter().filter(|id| !current.contains(id)).count();
    if current.len() + new > cap {
        return Err(ApiError::bad_request(format!(
            "too many compounds: the {} tier watches at most {cap}; {} are watched and {new} would be added",
            caller.tier.name(),
            current.len()
        )));
    }
    let added = watchlist::add(&state.service.store, account, &ids)
        .await
        .map_err(store_error)?;
    Ok(Rendered::json(
        200,
        &Added {
            added,
            total: current.len() + added,
            cap,
            compounds: ids,
        },
        Cache::NoStore,
    ))
}

/// POST /api/watchlist/check {compounds}: per input whether it is watched.
pub async fn check(state: &AppState, req: &Request, caller: &Caller) -> Result<Rendered, ApiError> {
    let (account, inputs) = account_and_inputs(caller, req)?;
    let watched = watchlist::ids(&state.service.store, account)
        .await
        .map_err(store_error)?;
    let results: Vec<Checked> = inputs
        .into_iter()
        .map(
            |input| match resolve(&state.release.dataset, input.trim()) {
                Ok((r, _)) => Checked {
                    on_watchlist: Some(watched.contains(&r.hq_id.to_string())),
                    id: Some(r.hq_id.to_string()),
                    input,
                    error: None,
                },
                Err(e) => Checked {
                    input,
                    id: None,
                    on_watchlist: None,
                    error: Some(e),
                },
            },
        )
        .collect();
    Ok(Rendered::json(
        200,
        &CheckedList { results },
        Cache::NoStore,
    ))
}

/// DELETE /api/watchlist/{id}
pub async fn remove(state: &AppState, caller: &Caller, id: &str) -> Result<Rendered, ApiError> {
    let account = account(caller)?;
    let removed = watchlist::remove(&state.service.store, account, id)
        .await
        .map_err(store_error)?;
    if !removed {
        return Err(ApiError::not_found(format!(
            "{} is not on this watchlist",
            quoted(id)
        )));
    }
    let total = watchlist::ids(&state.service.store, account)
        .await
        .map_err(store_error)?
        .len();
    Ok(Rendered::json(
        200,
        &Removed { removed: id, total },
        Cache::NoStore,
    ))
}
