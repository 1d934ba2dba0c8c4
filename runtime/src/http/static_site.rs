//! Serves site/ the way the CDN does (`saferef_generator::build::site::cdn` reads the same
//! `_redirects` and `_headers`), so `saferef-serve` alone answers the whole public API.

use saferef_generator::build::site::cdn::Resolution;
use warp::http::StatusCode;
use warp::http::header::{HeaderName, HeaderValue, LOCATION};
use warp::reply::Response;

use super::{Params, etag};
use crate::AppState;

/// The tree's answer to a GET of `path` (already without `/v1`), or `None` for the runtime.
pub fn serve(state: &AppState, path: &str, query: &Params) -> Option<Response> {
    let site = state.release.site.as_ref()?;
    match site.resolve(path, &query.pairs()) {
        // The tree of a preview says where only the runtime answers: here, this is it.
        Resolution::Runtime | Resolution::NeedsRuntime { .. } => None,
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
