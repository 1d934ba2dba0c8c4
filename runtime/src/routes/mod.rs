//! The route tree. Every endpoint answers under both `/api/...` and `/api/v1/...`.

mod health;

use std::sync::Arc;

use warp::Filter;
use warp::filters::BoxedFilter;
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
    api.and(health::route(with_state))
        .recover(recover)
        .unify()
        .boxed()
}
