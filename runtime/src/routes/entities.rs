//! Material and product endpoints (SPEC 4.3) over the generator's render functions.

use std::convert::Infallible;
use std::sync::Arc;

use saferef_generator::render::compound::Access;
use saferef_generator::render::entities as render;
use warp::Filter;
use warp::reply::Response;

use super::reply;
use crate::AppState;

type State = Arc<AppState>;

pub fn routes(
    state: impl Filter<Extract = (State,), Error = Infallible> + Clone + Send + Sync + 'static,
) -> impl Filter<Extract = (Response,), Error = warp::Rejection> + Clone {
    let material = warp::path!("material" / String)
        .and(warp::get())
        .and(state.clone())
        .map(|id: String, s: State| reply(render::material(&s.dataset, &id)));
    let product_raw = warp::path!("product" / String / "raw")
        .and(warp::get())
        .and(state.clone())
        .map(|id: String, s: State| reply(render::product_raw(&s.dataset, &id)));
    let product = warp::path!("product" / String)
        .and(warp::get())
        .and(state)
        .map(|id: String, s: State| reply(render::product(&s.dataset, &id, Access::Public)));
    material.or(product_raw).unify().or(product).unify()
}
