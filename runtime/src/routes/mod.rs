//! The route tree. Every endpoint answers under both `/api/...` and `/api/v1/...`.

mod badge;
mod compound;
mod documents;
mod entities;
mod health;
mod static_site;

use std::sync::Arc;

use saferef_generator::render::{Cache, Rendered};
use saferef_generator::site::header_lines;
use warp::Filter;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::http::header::{CACHE_CONTROL, CONTENT_TYPE, HeaderName, HeaderValue, LOCATION};
use warp::reply::Response;

use crate::AppState;
use crate::error::recover;

/// All routes, with errors recovered into JSON bodies.
pub fn all(state: Arc<AppState>) -> BoxedFilter<(Response,)> {
    let api = warp::path("api").and(
        warp::path("v1")
            .map(|| ())
            .or(warp::any().map(|| ()))
            .unify()
            .untuple_one(),
    );
    let static_site = static_site::route(state.clone());
    let with_state = warp::any().map(move || state.clone());
    let root = warp::path::end()
        .and(warp::get())
        .and(with_state.clone())
        .map(|s: Arc<AppState>| {
            reply(saferef_generator::render::root::root(
                &s.dataset,
                &s.dataset.release_date(),
            ))
        });
    let openapi = warp::path!("openapi")
        .and(warp::get())
        .and(query())
        .map(|q: Query| match q {
            Ok(q) => reply(saferef_generator::render::openapi::openapi(q.get("format"))),
            Err(e) => reply(e),
        });
    let dynamic = api.and(
        root.or(health::route(with_state.clone()))
            .unify()
            .or(openapi)
            .unify()
            .or(compound::routes(with_state.clone()))
            .unify()
            .or(entities::routes(with_state.clone()))
            .unify()
            .or(badge::route(with_state.clone()))
            .unify()
            .or(documents::routes(with_state))
            .unify(),
    );
    warp::header::optional::<String>("if-none-match")
        .and(static_site.or(dynamic).unify().recover(recover).unify())
        .map(not_modified)
        .boxed()
}

/// A strong ETag from the body's SHA-256 (the same bytes from file or render, the same tag).
pub fn etag(body: &[u8]) -> HeaderValue {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(body);
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    HeaderValue::from_str(&format!("\"{hex}\"")).expect("hex is a valid header value")
}

/// 304 when the client already holds the response's ETag.
fn not_modified(if_none_match: Option<String>, res: Response) -> Response {
    let matches = match (if_none_match, res.headers().get("etag")) {
        (Some(inm), Some(tag)) => {
            let tag = tag.to_str().unwrap_or_default();
            inm.trim() == "*"
                || inm
                    .split(',')
                    .any(|t| t.trim().trim_start_matches("W/") == tag)
        }
        _ => false,
    };
    if !matches || !res.status().is_success() {
        return res;
    }
    let mut out = Response::new(Vec::new().into());
    *out.status_mut() = StatusCode::NOT_MODIFIED;
    for name in ["etag", "cache-control", "vary"] {
        if let Some(v) = res.headers().get(name) {
            out.headers_mut().insert(name, v.clone());
        }
    }
    out
}

/// Query parameters by name; a repeated parameter is a 400 rather than a silent pick.
#[derive(Debug)]
pub struct Params(std::collections::BTreeMap<String, String>);

impl Params {
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }
}

pub type Query = Result<Params, Rendered>;

/// The raw query string parsed into `Params` (an absent query is empty).
pub fn query() -> impl Filter<Extract = (Query,), Error = std::convert::Infallible> + Clone {
    warp::query::raw()
        .or(warp::any().map(String::new))
        .unify()
        .map(|raw: String| {
            let pairs: Vec<(String, String)> = serde_urlencoded::from_str(&raw)
                .map_err(|e| Rendered::error(400, format!("invalid query string: {e}")))?;
            let mut map = std::collections::BTreeMap::new();
            for (k, v) in pairs {
                if map.contains_key(&k) {
                    return Err(Rendered::error(
                        400,
                        format!("parameter {k:?} is given more than once"),
                    ));
                }
                map.insert(k, v);
            }
            Ok(Params(map))
        })
}

/// A rendered response as an HTTP response, with the SPEC 8 cache headers: for a 200 the
/// very lines the build writes into `_headers`, so a URL answers alike from file or render.
pub fn reply(r: Rendered) -> Response {
    let tag = etag(&r.body);
    let lines = header_lines(&r);
    let mut res = Response::new(r.body.into());
    *res.status_mut() = StatusCode::from_u16(r.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let h = res.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(r.content_type));
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
    h.insert("etag", tag);
    res
}
