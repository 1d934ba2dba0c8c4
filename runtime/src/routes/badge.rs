//! `GET /api/badge/{id}?context=&style=&label=` (SPEC 4.8), the generator's badge renderer.

use std::convert::Infallible;
use std::sync::Arc;

use saferef_generator::render::badge;
use warp::Filter;
use warp::reply::Response;

use super::{Query, query, reply};
use crate::AppState;

pub fn route(
    state: impl Filter<Extract = (Arc<AppState>,), Error = Infallible> + Clone + Send + Sync + 'static,
) -> impl Filter<Extract = (Response,), Error = warp::Rejection> + Clone {
    warp::path!("badge" / String)
        .and(warp::get())
        .and(state)
        .and(query())
        .map(handle)
}

/// GET /api/badge/{id}?context=&style=&label=
fn handle(id: String, state: Arc<AppState>, q: Query) -> Response {
    match q {
        Ok(q) => reply(badge::badge(
            &state.dataset,
            &id,
            q.get("context"),
            q.get("style"),
            q.get("label"),
        )),
        Err(e) => reply(e),
    }
}
