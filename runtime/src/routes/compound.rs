//! The compound endpoints (SPEC 4.2): thin handlers over the generator's render functions, so
//! the runtime answers with the very bytes the static build writes.

use std::convert::Infallible;
use std::sync::Arc;

use saferef_generator::render::compound::{self as render, Access};
use warp::Filter;
use warp::reply::Response;

use super::{Query, query, reply};
use crate::AppState;

type State = Arc<AppState>;

pub fn routes(
    state: impl Filter<Extract = (State,), Error = Infallible> + Clone + Send + Sync + 'static,
) -> impl Filter<Extract = (Response,), Error = warp::Rejection> + Clone {
    let by_cas = warp::path!("compound" / "cas" / String)
        .and(warp::get())
        .and(state.clone())
        .and(query())
        .map(by_cas);
    let raw = warp::path!("compound" / String / "raw")
        .and(warp::get())
        .and(state.clone())
        .map(|id: String, s: State| reply(render::raw(&s.dataset, &id)));
    let alternatives = warp::path!("compound" / String / "alternatives")
        .and(warp::get())
        .and(state.clone())
        .map(|id: String, s: State| reply(render::alternatives(&s.dataset, &id, Access::Public)));
    let compound = warp::path!("compound" / String)
        .and(warp::get())
        .and(state)
        .and(query())
        .map(compound);
    by_cas
        .or(raw)
        .unify()
        .or(alternatives)
        .unify()
        .or(compound)
        .unify()
}

/// GET /api/compound/{id}?context=&all_contexts=
fn compound(id: String, state: State, q: Query) -> Response {
    match q {
        Ok(q) => reply(render::compound(
            &state.dataset,
            &id,
            q.get("context"),
            q.get("all_contexts"),
        )),
        Err(e) => reply(e),
    }
}

/// GET /api/compound/cas/{cas}?redirect=&context=
fn by_cas(cas: String, state: State, q: Query) -> Response {
    match q {
        Ok(q) => reply(render::by_cas(
            &state.dataset,
            &cas,
            q.get("redirect"),
            q.get("context"),
        )),
        Err(e) => reply(e),
    }
}
