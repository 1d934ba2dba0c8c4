//! `GET /api/export` streamed: the generator plans the export (validation, selection, 400s)
//! and renders it piece by piece; the body is a stream of those pieces, each rendered when
//! the connection asks for it, so memory stays flat however large the corpus.

use std::convert::Infallible;
use std::sync::Arc;

use bytes::Bytes;
use saferef_generator::render::Cache;
use saferef_generator::render::export::{Export, ExportQuery};
use warp::Reply;
use warp::http::HeaderValue;
use warp::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
use warp::reply::Response;

use super::{Params, reply};
use crate::AppState;

/// GET /api/export?type=&format=&detail=&search=&risk=&context=
pub fn export(state: &Arc<AppState>, q: &Params) -> Response {
    let query = ExportQuery {
        kind: q.get("type"),
        format: q.get("format"),
        detail: q.get("detail"),
        search: q.get("search"),
        risk: q.get("risk"),
        context: q.get("context"),
    };
    let plan = match Export::plan(&state.release.dataset, &state.release.risk_index, &query) {
        Ok(p) => Arc::new(p),
        Err(e) => return reply(e),
    };
    let head = plan.head();
    let tail = plan.tail();
    let content_type = plan.content_type();
    let disposition = format!("attachment; filename=\"{}\"", plan.file_name());
    let (rows_plan, state) = (plan.clone(), state.clone());
    let pieces = std::iter::once(head)
        .chain(plan.chunks().map(move |range| {
            rows_plan.rows(&state.release.dataset, &state.release.risk_index, range)
        }))
        .chain(std::iter::once(tail))
        .map(|piece| Ok::<_, Infallible>(Bytes::from(piece)));
    let mut res = warp::reply::stream(futures_util::stream::iter(pieces)).into_response();
    let h = res.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(
        CACHE_CONTROL,
        HeaderValue::from_static(Cache::Private.header()),
    );
    if let Ok(v) = HeaderValue::from_str(&disposition) {
        h.insert(CONTENT_DISPOSITION, v);
    }
    res
}
