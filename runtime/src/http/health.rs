//! `GET /api/health?check=integrity|monitor`: integrity reports the last verdict on the
//! served tree against its manifest (`integrity.rs`: checked off the async workers; only a
//! keyed caller or an administrator starts a new check, at most once a minute); monitor
//! (admin token only) reports the store, uptime and memory.

use std::sync::RwLock;

use bytes::Bytes;
use chrono::{DateTime, Utc};
use saferef_generator::render::error::ApiError;
use saferef_generator::render::runtime_answers::health::{Health, Integrity, Monitor};
use saferef_generator::render::{Cache, Rendered};
use warp::http::{HeaderMap, StatusCode};
use warp::reply::Response;

use super::{Params, Request};
use crate::AppState;
use crate::caller::Caller;

/// The answer to `GET /api/health` without `check`, as last sent: it is the release's and the
/// process's but for its timestamp, to the second, so within one second it is the same
/// bytes, headers and ETag, sent again rather than made again (the most frequent request of
/// a monitored service). One per release, as the status is the release's.
#[derive(Debug, Default)]
pub struct Latest(RwLock<Option<Sent>>);

#[derive(Debug)]
struct Sent {
    second: i64,
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
}

/// `GET /api/health` without `check`: the answer of this second.
pub fn plain(state: &AppState) -> Response {
    let now = Utc::now();
    let latest = &state.release.health;
    if let Some(sent) = latest
        .0
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .filter(|s| s.second == now.timestamp())
    {
        let mut res = Response::new(sent.body.clone().into());
        *res.status_mut() = sent.status;
        *res.headers_mut() = super::copy_kept(&sent.headers);
        return res;
    }
    let (res, body) = super::reply_kept(answer(state, now, None, None));
    *latest.0.write().unwrap_or_else(|e| e.into_inner()) = Some(Sent {
        second: now.timestamp(),
        status: res.status(),
        headers: res.headers().clone(),
        body,
    });
    res
}

pub async fn health(
    state: &AppState,
    req: &Request,
    q: &Params,
    caller: &Caller,
) -> Result<Rendered, ApiError> {
    let mut cache = None;
    let (integrity, monitor) = match q.get("check") {
        None => (None, None),
        Some("integrity") => {
            cache = Some(Cache::Integrity);
            (
                Some(Integrity {
                    compounds: state.release.dataset.compounds.len(),
                    problems: state.release.dataset_problems,
                    site_matches_manifest: state
                        .release
                        .integrity
                        .as_ref()
                        .and_then(|i| i.verdict(caller.tier.is_keyed() || is_admin(state, req))),
                }),
                None,
            )
        }
        Some("monitor") => {
            if !is_admin(state, req) {
                return Err(ApiError::unauthorized(
                    "check=monitor is for administrators: send Authorization: Bearer <admin token>",
                ));
            }
            (
                None,
                Some(Monitor {
                    uptime_seconds: state.service.started.elapsed().as_secs(),
                    store: state.service.store.backend(),
                    store_reachable: state.service.store.ping().await.is_ok(),
                    resident_memory_bytes: resident_memory(),
                    log_lines_dropped: crate::log_writer::dropped(),
                    webhook_queue_depth: crate::webhooks::queue_depth(&state.service.store)
                        .await
                        .ok(),
                }),
            )
        }
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "unknown check {other:?}: use check=integrity or check=monitor"
            )));
        }
    };
    let mut answer = answer(state, Utc::now(), integrity, monitor);
    answer.cache = cache.unwrap_or(Cache::NoStore);
    Ok(answer)
}

/// The health answer at `now`, with the checks asked for.
fn answer(
    state: &AppState,
    now: DateTime<Utc>,
    integrity: Option<Integrity>,
    monitor: Option<Monitor>,
) -> Rendered {
    let body = Health {
        status: if state.release.dataset_problems == 0 {
            "ok"
        } else {
            "degraded"
        },
        version: saferef_generator::SERVICE_VERSION,
        timestamp: now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        platform: "saferef-runtime",
        commit: &state.service.commit,
        dataset_version: &state.release.dataset.regulatory_status.dataset_version,
        integrity,
        monitor,
    };
    Rendered::json(200, &body, Cache::NoStore)
}

/// Whether the request carries the admin token (`Authorization: Bearer <token>`).
fn is_admin(state: &AppState, req: &Request) -> bool {
    let given = req.headers.get("authorization").map(|v| v.as_bytes());
    match (state.service.admin_token.as_deref(), given) {
        (Some(token), Some(given)) => {
            crate::accounts::same_secret(given, format!("Bearer {token}").as_bytes())
        }
        _ => false,
    }
}

/// Resident set size from /proc (Linux); `None` elsewhere.
fn resident_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: u64 = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb * 1024)
}
