//! `GET /api/release-notes`, `/api/disclaimer`, `/api/terms`, `/api/privacy`, each as HTML or
//! with `format=json` as JSON (SPEC 4.1): the generator's document renderers.

use warp::Filter;
use warp::reply::Response;

use saferef_generator::render::documents::{self, DOCUMENTS};

use super::{Query, query, reply};
use crate::AppState;

pub fn routes(
    state: impl Filter<Extract = (std::sync::Arc<AppState>,), Error = std::convert::Infallible>
    + Clone
    + Send
    + Sync
    + 'static,
) -> impl Filter<Extract = (Response,), Error = warp::Rejection> + Clone {
    warp::path!(String)
        .and(warp::get())
        .and(state)
        .and(query())
        .and_then(
            |name: String, state: std::sync::Arc<AppState>, q: Query| async move {
                if name != "release-notes" && !DOCUMENTS.contains(&name.as_str()) {
                    return Err(warp::reject::not_found());
                }
                let q = match q {
                    Ok(q) => q,
                    Err(e) => return Ok(reply(e)),
                };
                if name == "release-notes" {
                    // GET /api/release-notes?format=json
                    return Ok(reply(documents::release_notes(
                        &state.dataset,
                        q.get("format"),
                    )));
                }
                // GET /api/{disclaimer|terms|privacy}?format=json
                Ok(reply(documents::document(
                    &state.dataset,
                    &name,
                    q.get("format"),
                )))
            },
        )
}
