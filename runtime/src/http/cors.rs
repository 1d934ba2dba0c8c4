//! Reads from pages on other origins (CORS), decided here for every answer: each one carries
//! the headers a page needs to read it, errors included (a page can read a 4xx's JSON body),
//! and `OPTIONS` answers a browser's preflight for every catalogued endpoint, keyed ones too:
//! a page that sends `X-API-Key` or a JSON body is preflighted first. Which origins:
//! `SAFEREF_CORS_ORIGINS` (`CorsOrigins`). The static tree's files say `*` in `_headers`
//! (`build::site::cors_lines`); this layer restates that, or withdraws it for an origin not
//! listed. No answer allows credentials: keys travel in a header the page sets, never in a
//! cookie (the docs page, "Browser access").

use saferef_generator::build::site::CORS_EXPOSE_HEADERS;
use warp::http::header::{
    ACCESS_CONTROL_ALLOW_HEADERS, ACCESS_CONTROL_ALLOW_METHODS, ACCESS_CONTROL_ALLOW_ORIGIN,
    ACCESS_CONTROL_EXPOSE_HEADERS, ACCESS_CONTROL_MAX_AGE, ALLOW, HeaderMap, HeaderValue, ORIGIN,
    VARY,
};
use warp::http::{Method, StatusCode};
use warp::reply::Response;

use super::{Request, reply, table};
use crate::config::CorsOrigins;

/// The request headers a page may send: the key, a JSON body's type, and a revalidation.
const ALLOW_HEADERS: &str = "X-API-Key, Content-Type, If-None-Match";
/// How long a browser may reuse a preflight's answer, in seconds (browsers cap it lower:
/// Chromium at two hours).
const MAX_AGE: &str = "86400";

/// The request's `Origin` header, read before the request is (a request that cannot be read
/// is answered too, and that answer must be readable). An origin that is not visible ASCII is
/// read as none: `allow` could never list it.
pub fn origin(headers: &HeaderMap) -> Option<HeaderValue> {
    headers.get(ORIGIN).filter(|v| v.to_str().is_ok()).cloned()
}

/// The answer to an `OPTIONS` request, which is a preflight when it comes from a browser:
/// 204 with the methods the catalogue declares at the path, or 404 where it declares none.
/// It costs no quota: a browser sends it on its own, before the request it asks about.
pub fn preflight(req: &Request) -> Option<Response> {
    if req.method != Method::OPTIONS {
        return None;
    }
    let mut methods = table::methods(req);
    if methods.is_empty() {
        return Some(reply(saferef_generator::render::not_found()));
    }
    if methods.contains(&"GET") {
        methods.push("HEAD");
    }
    methods.push("OPTIONS");
    let allowed = HeaderValue::from_str(&methods.join(", ")).ok()?;
    let mut res = Response::new(Vec::new().into());
    *res.status_mut() = StatusCode::NO_CONTENT;
    let h = res.headers_mut();
    h.insert(ALLOW, allowed.clone());
    h.insert(ACCESS_CONTROL_ALLOW_METHODS, allowed);
    h.insert(
        ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static(ALLOW_HEADERS),
    );
    h.insert(ACCESS_CONTROL_MAX_AGE, HeaderValue::from_static(MAX_AGE));
    Some(res)
}

/// `res` with the CORS headers `origins` gives a page of `origin`: `*` for any origin; with
/// a list, the origin itself when listed (and `Vary: Origin`, as the answer then depends on
/// it), else no `Access-Control-*` header at all, so the browser keeps the answer from the page.
pub fn allow(origins: &CorsOrigins, origin: Option<&HeaderValue>, mut res: Response) -> Response {
    let h = res.headers_mut();
    let allowed = match origins {
        CorsOrigins::Any => Some(HeaderValue::from_static("*")),
        CorsOrigins::Listed(_) => {
            vary_on_origin(h);
            origin
                .filter(|o| o.to_str().is_ok_and(|o| origins.allows(o)))
                .cloned()
        }
    };
    match allowed {
        Some(value) => {
            h.insert(ACCESS_CONTROL_ALLOW_ORIGIN, value);
            h.insert(
                ACCESS_CONTROL_EXPOSE_HEADERS,
                HeaderValue::from_static(CORS_EXPOSE_HEADERS),
            );
        }
        None => {
            let names: Vec<_> = h
                .keys()
                .filter(|n| n.as_str().starts_with("access-control-"))
                .cloned()
                .collect();
            for name in names {
                h.remove(name);
            }
        }
    }
    res
}

/// Adds `Origin` to the response's `Vary`, keeping what it already names in one header.
fn vary_on_origin(h: &mut HeaderMap) {
    let named: Vec<&str> = h
        .get_all(VARY)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    let value = if named.is_empty() {
        "Origin".to_string()
    } else {
        format!("{}, Origin", named.join(", "))
    };
    if let Ok(v) = HeaderValue::from_str(&value) {
        h.insert(VARY, v);
    }
}
