//! The request path, written once: parse the request, serve the static tree when it answers,
//! resolve the caller, match the endpoint (404 and 405 here), check its access, count the
//! quota, run the handler, and add the rate-limit, cache and ETag headers; `cors.rs` answers
//! `OPTIONS` and adds the CORS headers to every answer, and `edge_cache.rs` says which answers
//! Netlify's CDN may keep. Every endpoint answers under both `/api/...` and `/api/v1/...`.
//!
//! Routing is a `match` over path segments (`table.rs`) rather than a tree of warp filters,
//! so that authentication and quota counting happen exactly once per request.

mod accounts;
mod billing;
mod cors;
mod edge_cache;
mod export;
mod handlers;
mod health;
mod keys;
mod render_cache;
mod request;
mod static_site;
mod table;
mod watchlist;
mod webhooks;

use std::sync::Arc;

use chrono::Utc;
use saferef_generator::build::site::{header_lines, html_security_lines};
use saferef_generator::render::error::ApiError;
use saferef_generator::render::{Cache, Rendered};
use warp::http::header::{
    CACHE_CONTROL, CONTENT_TYPE, ETAG, HeaderMap, HeaderName, HeaderValue, IF_NONE_MATCH, LOCATION,
};
use warp::http::{Method, StatusCode};
use warp::reply::Response;

pub use edge_cache::RELEASE_TAG;
pub use health::Latest as LatestHealth;
pub use render_cache::RenderCache;
pub use request::{Params, Request};
use saferef_generator::api::{Access, Op};
use saferef_generator::render::pages::docs::UPGRADE_TIERS;
pub use static_site::StaticCache;
use table::{Endpoint, Matched};

use crate::caller::{self, Caller};
use crate::quota;
use crate::tier::Tier;
use crate::{AppState, Live};

/// Request bodies above this size are refused with 413 before they are parsed.
pub const BODY_LIMIT: usize = 256 * 1024;
/// A request body must arrive within this long (slow senders get 408).
pub const BODY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Answers one request hyper read from `remote`, from the release `live` holds once the
/// request is read. Called directly by the connection's service (`server.rs`): no filter is
/// composed or boxed per request, and the request's head is moved into `Request`, not copied.
pub async fn answer_request(
    live: &Live,
    req: hyper::Request<hyper::body::Incoming>,
    remote: std::net::SocketAddr,
) -> Response {
    let (head, body) = req.into_parts();
    let origin = cors::origin(&head.headers);
    let req = Request::read(head, body, remote).await;
    let state = live.current();
    let mut res = match req {
        Ok(req) => handle(&state, req).await,
        Err(e) => reply(e),
    };
    edge_cache::or_no_store(&mut res);
    cors::allow(&state.service.config.cors_origins, origin.as_ref(), res)
}

async fn handle(state: &Arc<AppState>, req: Request) -> Response {
    let started = std::time::Instant::now();
    let id = request::next_id();
    let response = match cors::preflight(&req) {
        Some(preflight) => preflight,
        None => respond(state, &req).await,
    };
    let response = not_modified(&req, response);
    crate::log_line::request(
        id,
        &req.method,
        &req.path,
        response.status().as_u16(),
        started.elapsed().as_micros() as u64,
    );
    response
}

async fn respond(state: &Arc<AppState>, req: &Request) -> Response {
    let found = table::catalogued(req);
    // A badge URL is answered with an image whatever happens (the docs page's "Badges").
    let badge = table::is_badge(req, &found);
    let caller = match caller::resolve(state, &req.headers, req.api_key(), req.remote).await {
        Ok(c) => c,
        Err(e) => return refusal(badge, e),
    };
    let matched = match table::route(state, req, &caller, &found) {
        // A file of the static tree is what a CDN serves without counting it (the docs page,
        // badges, public compound files): served here, it is not counted either, and carries
        // no rate-limit headers (the docs page, `GET /api/docs#limits`).
        Matched::Static(res) => return uncounted(state, req, &caller, None, res),
        other => other,
    };
    let access = match &matched {
        Matched::Endpoint(e) => e.access,
        Matched::Static(_) | Matched::MethodNotAllowed(_) | Matched::NotFound => Access::Public,
    };
    if let Some(refused) = table::refuse(access, &caller) {
        return with_caller_headers(refusal(badge, refused), &caller, None);
    }
    let rendered = match &matched {
        Matched::Endpoint(e) => match before_quota(state, req, &caller, e).await {
            Early::Answer(res) => return res,
            Early::Rendered(res) => Some(res),
            Early::Count => None,
        },
        Matched::Static(_) | Matched::MethodNotAllowed(_) | Matched::NotFound => None,
    };
    counted(state, req, &caller, (matched, rendered), access, badge).await
}

/// An error as the request's kind of answer: an SVG for a badge URL, else JSON.
fn refusal(badge: bool, e: ApiError) -> Response {
    match badge {
        true => reply(saferef_generator::render::badge::refused(&e)),
        false => reply(e),
    }
}

/// What an endpoint answers before the quota counts the request.
enum Early {
    /// Answered, and not counted.
    Answer(Response),
    /// Answered already, but counted as any other answer (a public answer the CDN may not
    /// keep after all: an error).
    Rendered(Response),
    /// Counted first, then answered.
    Count,
}

/// The requests the quota does not count, answered here: a signed payment-provider
/// notification, a trial request, and a public answer the CDN may keep.
async fn before_quota(
    state: &Arc<AppState>,
    req: &Request,
    caller: &Caller,
    e: &Endpoint,
) -> Early {
    // A signed payment-provider notification comes through shared addresses (the CDN, a
    // balancer): counting it against a per-IP public quota would let anyone block billing.
    // A trial request is counted by its own allowance (`accounts.rs`), not by the public
    // quota whose 429 points to the trial: the trial must still answer then.
    if (e.op == Op::BillingWebhook && billing::signed(state, req)) || e.op == Op::KeyTrial {
        let res = handlers::run(state, req, caller, e.clone()).await;
        return Early::Answer(with_caller_headers(res, caller, None));
    }
    if !edge_cache::candidate(req, caller, Some(e)) {
        return Early::Count;
    }

    // Such an answer is a file's twin, which the CDN serves uncounted once it keeps it: it
    // is not counted here either (the docs page, `GET /api/docs#limits`). It is a function of
    // the release and the request, so rendering it before counting changes nothing else.
    let res = handlers::run(state, req, caller, e.clone()).await;
    match edge_cache::keepable(&res) {
        true => Early::Answer(uncounted(state, req, caller, Some(e), res)),
        false => Early::Rendered(res),
    }
}

/// An answer not counted, so without rate-limit headers, and kept by the CDN when it may be.
fn uncounted(
    state: &AppState,
    req: &Request,
    caller: &Caller,
    endpoint: Option<&Endpoint>,
    mut res: Response,
) -> Response {
    if edge_cache::candidate(req, caller, endpoint) && edge_cache::keepable(&res) {
        edge_cache::keep(&mut res, &state.release.dataset.fingerprint, Utc::now());
    }
    with_caller_headers(res, caller, None)
}

/// Counts the request against the caller's daily quota (a 429 past it), then answers it with
/// the rate-limit headers: `matched`'s answer, or the one already rendered beside it.
async fn counted(
    state: &Arc<AppState>,
    req: &Request,
    caller: &Caller,
    (matched, rendered): (Matched, Option<Response>),
    access: Access,
    badge: bool,
) -> Response {
    // A batch costs what its answer's `meta.credits` states (2 per synthesised record).
    let cost = match &matched {
        Matched::Endpoint(e) if e.op == Op::Batch => handlers::batch_credits(state, req, caller),
        Matched::Endpoint(e) => e.cost,
        Matched::Static(_) | Matched::MethodNotAllowed(_) | Matched::NotFound => 1,
    };
    let now = Utc::now();
    let usage = match quota::admit(&state.service.store, caller, cost, now).await {
        Ok(u) => u,
        // Without the store a public read is still served, uncounted: reference data stays
        // available; keyed callers never get here without a store (their key lookup is a 503).
        Err(e) if access == Access::Public && !caller.tier.is_keyed() => {
            tracing::warn!("store: {e}; serving a public request without counting it");
            let res = match matched {
                Matched::MethodNotAllowed(_) => reply(saferef_generator::render::not_found()),
                other => answer(state, req, caller, other, rendered).await,
            };
            return with_caller_headers(res, caller, None);
        }
        Err(e) => {
            tracing::error!("store: {e}");
            return refusal(
                badge,
                ApiError::unavailable("the quota store is unavailable; retry shortly"),
            );
        }
    };
    if !usage.admitted {
        return over_quota(state, caller, &usage, now, badge).await;
    }
    let res = answer(state, req, caller, matched, rendered).await;
    with_caller_headers(res, caller, Some((&usage, now)))
}

/// The 429 past the daily quota, with the rate-limit headers.
async fn over_quota(
    state: &AppState,
    caller: &Caller,
    usage: &quota::Usage,
    now: chrono::DateTime<Utc>,
    badge: bool,
) -> Response {
    let limit = usage.limit.unwrap_or_default();
    let refused = ApiError::too_many_requests(format!(
        "daily quota of {limit} requests exceeded ({} tier); it resets at {} (00:00 UTC)",
        caller.tier.name(),
        usage
            .reset
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
    ));
    let mut res = with_caller_headers(refusal(badge, refused), caller, Some((usage, now)));
    // The public refusal points to the trial only while the trial would answer.
    if caller.tier == Tier::Public && !accounts::trial_open(state, caller).await {
        res.headers_mut()
            .insert("x-upgrade-url", HeaderValue::from_static(UPGRADE_TIERS));
    }
    res
}

/// The answer to a matched request: `rendered` when its endpoint answered already.
async fn answer(
    state: &Arc<AppState>,
    req: &Request,
    caller: &Caller,
    matched: Matched,
    rendered: Option<Response>,
) -> Response {
    match (matched, rendered) {
        (_, Some(res)) | (Matched::Static(res), None) => res,
        (Matched::Endpoint(e), None) => handlers::run(state, req, caller, e).await,
        (Matched::MethodNotAllowed(allowed), None) => {
            let mut res = reply(ApiError::method_not_allowed(format!(
                "method {} not allowed here; use {}",
                req.method,
                allowed.join(", ")
            )));
            if let Ok(v) = HeaderValue::from_str(&allowed.join(", ")) {
                res.headers_mut().insert("allow", v);
            }
            res
        }
        (Matched::NotFound, None) => reply(saferef_generator::render::not_found()),
    }
}

fn with_caller_headers(
    mut res: Response,
    caller: &Caller,
    usage: Option<(&quota::Usage, chrono::DateTime<Utc>)>,
) -> Response {
    let h = res.headers_mut();
    match usage {
        Some((usage, now)) => quota::headers(caller, usage, now, h),
        None => quota::tier_header(caller, h),
    }
    res
}

/// The most headers added to an answer taken from memory: the tier, six rate-limit headers, a
/// retry or a warning with the upgrade address, three of the CDN's, two of CORS and `Vary`.
const ADDED: usize = 14;

/// A copy of the headers of an answer kept in memory (the static tree's, the render cache's,
/// health's), for one response, with room for those every answer gains after (`ADDED`: tier,
/// rate limits, CDN policy, CORS). A clone would keep the table's size but not the room of
/// the list its entries are in, which then grew (copied whole) twice per request.
fn copy_kept(headers: &HeaderMap) -> HeaderMap {
    let mut copy = HeaderMap::with_capacity(headers.len() + ADDED);
    copy.extend(headers.iter().map(|(n, v)| (n.clone(), v.clone())));
    copy
}

/// Adds the security headers `_headers` gives every page's path (`html_security_lines`).
fn with_page_security(res: &mut Response) {
    let h = res.headers_mut();
    for (name, value) in html_security_lines() {
        if let Ok(n) = HeaderName::from_bytes(name.as_bytes()) {
            h.insert(n, HeaderValue::from_static(value));
        }
    }
}

/// A rendered response as an HTTP response, with the cache headers: for a 200 the
/// very lines the build writes into `_headers`, so a URL answers alike from file or render.
pub fn reply(r: impl Into<Rendered>) -> Response {
    reply_kept(r.into()).0
}

/// `reply`, handing back the body too (shared, not copied) for `RenderCache` to keep.
fn reply_kept(r: Rendered) -> (Response, bytes::Bytes) {
    let tag = etag(&r.body);
    let lines = header_lines(&r);
    let body = bytes::Bytes::from(r.body);
    let mut res = Response::new(body.clone().into());
    *res.status_mut() = StatusCode::from_u16(r.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let h = res.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(r.content_type));
    // A page, error pages included: the same lines `_headers` gives the CDN's pages.
    if r.content_type.starts_with("text/html") {
        with_page_security(&mut res);
    }
    let h = res.headers_mut();
    if r.status < 400 {
        for (name, value) in lines {
            if let (Ok(n), Ok(v)) = (
                HeaderName::from_bytes(name.as_bytes()),
                HeaderValue::from_str(&value),
            ) {
                h.insert(n, v);
            }
        }
    } else {
        h.insert(
            CACHE_CONTROL,
            HeaderValue::from_static(Cache::Private.header()),
        );
    }
    if let Some(loc) = r.location.and_then(|l| HeaderValue::from_str(&l).ok()) {
        h.insert(LOCATION, loc);
    }
    h.insert(ETAG, tag);
    (res, body)
}

/// A strong ETag from the body's SHA-256 (the same bytes from file or render, the same tag).
pub fn etag(body: &[u8]) -> HeaderValue {
    use sha2::Digest;
    etag_of(&sha2::Sha256::digest(body))
}

/// The ETag of a body whose SHA-256 is `digest`.
pub fn etag_of(digest: &[u8]) -> HeaderValue {
    // Once per response: written into one buffer rather than a string per byte.
    let mut tag = String::with_capacity(34);
    tag.push('"');
    crate::keys::push_hex(&mut tag, &digest[..16]);
    tag.push('"');
    HeaderValue::from_str(&tag).expect("hex is a valid header value")
}

/// 304 when a GET's `If-None-Match` names the response's ETag.
fn not_modified(req: &Request, res: Response) -> Response {
    let given = req.headers.get(IF_NONE_MATCH).and_then(|v| v.to_str().ok());
    let matches = match (given, res.headers().get(ETAG)) {
        (Some(inm), Some(tag)) => {
            let tag = tag.to_str().unwrap_or_default();
            inm.trim() == "*"
                || inm
                    .split(',')
                    .any(|t| t.trim().trim_start_matches("W/") == tag)
        }
        _ => false,
    };
    if !matches
        || res.status() != StatusCode::OK
        || !matches!(req.method, Method::GET | Method::HEAD)
    {
        return res;
    }
    let mut out = Response::new(Vec::new().into());
    *out.status_mut() = StatusCode::NOT_MODIFIED;
    for (name, value) in res.headers() {
        if name != CONTENT_TYPE {
            out.headers_mut().insert(name.clone(), value.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_of_a_kept_answer_s_headers_is_the_same_with_room_for_the_headers_added_after() {
        let mut headers = HeaderMap::new();
        for i in 0..12 {
            let name = HeaderName::from_bytes(format!("x-kept-{i}").as_bytes()).unwrap();
            headers.insert(name, HeaderValue::from_static("v"));
        }
        headers.append("vary", HeaderValue::from_static("Origin"));
        headers.append("vary", HeaderValue::from_static("Accept-Encoding"));
        let copy = copy_kept(&headers);
        assert_eq!(
            copy, headers,
            "every value, a repeated name's too, in order"
        );
        assert!(
            copy.capacity() >= headers.len() + ADDED,
            "{} of room for {} headers",
            copy.capacity(),
            headers.len()
        );
    }
}
