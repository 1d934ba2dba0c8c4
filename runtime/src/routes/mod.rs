//! The route tree. Every endpoint answers under both `/api/...` and `/api/v1/...`.

mod badge;
mod compound;
mod entities;
mod health;

use std::sync::Arc;

use saferef_generator::render::{Cache, Rendered};
use warp::Filter;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::http::header::{CACHE_CONTROL, CONTENT_TYPE, HeaderValue, LOCATION, VARY};
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
    api.and(
        root.or(health::route(with_state.clone()))
            .unify()
            .or(openapi)
            .unify()
            .or(compound::routes(with_state.clone()))
            .unify()
            .or(entities::routes(with_state.clone()))
            .unify()
            .or(badge::route(with_state))
            .unify(),
    )
    .recover(recover)
    .unify()
    .boxed()
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

/// A rendered response as an HTTP response, with the SPEC 8 cache headers.
pub fn reply(r: Rendered) -> Response {
    let mut res = Response::new(r.body.into());
    *res.status_mut() = StatusCode::from_u16(r.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let h = res.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(r.content_type));
    let cache = if r.status < 400 {
        r.cache.header()
    } else {
        Cache::Private.header()
    };
    h.insert(CACHE_CONTROL, HeaderValue::from_static(cache));
    if r.status < 400 && r.cache == Cache::PublicCompound {
        h.insert(
            VARY,
            HeaderValue::from_static("X-API-Key, X-Marketplace-Subscription"),
        );
    }
    if let Some(key) = r.surrogate_key.and_then(|k| HeaderValue::from_str(&k).ok()) {
        h.insert("surrogate-key", key);
    }
    if let Some(loc) = r.location.and_then(|l| HeaderValue::from_str(&l).ok()) {
        h.insert(LOCATION, loc);
    }
    res
}
