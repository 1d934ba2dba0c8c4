//! Serves site/ the way the CDN does (`saferef_generator::site::cdn` reads the same
//! `_redirects` and `_headers`), so `saferef-serve` alone answers the whole public API.
//! Requests the tree does not answer are rejected as not found, and the dynamic routes
//! after this filter take them.

use std::sync::Arc;

use saferef_generator::site::cdn::Resolution;
use warp::Filter;
use warp::http::header::{HeaderName, HeaderValue, LOCATION};
use warp::http::{Method, StatusCode};
use warp::reply::Response;

use super::etag;
use crate::AppState;

pub fn route(
    state: Arc<AppState>,
) -> impl Filter<Extract = (Response,), Error = warp::Rejection> + Clone {
    warp::method()
        .and(warp::path::full())
        .and(warp::query::raw().or(warp::any().map(String::new)).unify())
        .and_then(
            move |method: Method, path: warp::path::FullPath, raw: String| {
                let state = state.clone();
                async move {
                    if method != Method::GET && method != Method::HEAD {
                        return Err(warp::reject::not_found());
                    }
                    serve(&state, path.as_str(), &raw).ok_or_else(warp::reject::not_found)
                }
            },
        )
}

fn serve(state: &AppState, path: &str, raw_query: &str) -> Option<Response> {
    let site = state.site.as_ref()?;
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw_query).ok()?;
    // A repeated parameter is the dynamic routes' 400, not a file.
    let mut names: Vec<&str> = pairs.iter().map(|(k, _)| k.as_str()).collect();
    names.sort_unstable();
    if names.windows(2).any(|w| w[0] == w[1]) {
        return None;
    }
    // The tree holds /api/...; /api/v1/... answers the same.
    let path = match path.strip_prefix("/api/v1") {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => format!("/api{rest}"),
        _ => path.to_string(),
    };
    match site.resolve(&path, &pairs) {
        Resolution::Runtime => None,
        Resolution::Redirect { status, location } => {
            let mut res = Response::new(Vec::new().into());
            *res.status_mut() = StatusCode::from_u16(status).ok()?;
            res.headers_mut()
                .insert(LOCATION, HeaderValue::from_str(&location).ok()?);
            Some(res)
        }
        Resolution::File {
            file,
            status,
            headers,
        } => {
            let bytes = std::fs::read(site.root().join(&file)).ok()?;
            let tag = etag(&bytes);
            let mut res = Response::new(bytes.into());
            *res.status_mut() = StatusCode::from_u16(status).ok()?;
            let h = res.headers_mut();
            for (name, value) in headers {
                h.append(
                    HeaderName::from_bytes(name.as_bytes()).ok()?,
                    HeaderValue::from_str(&value).ok()?,
                );
            }
            h.insert("etag", tag);
            Some(res)
        }
    }
}
