//! `GET /api/health?check=integrity|monitor` (SPEC 4.1).

use std::convert::Infallible;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use warp::Filter;
use warp::reply::{Reply, Response};

use crate::AppState;
use crate::error::ApiError;

#[derive(Debug, Deserialize)]
struct Query {
    check: Option<String>,
}

#[derive(Serialize)]
struct Health<'a> {
    status: &'a str,
    version: &'a str,
    timestamp: String,
    platform: &'a str,
    commit: &'a str,
    dataset_version: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    integrity: Option<Integrity>,
    #[serde(skip_serializing_if = "Option::is_none")]
    monitor: Option<Monitor>,
}

#[derive(Serialize)]
struct Integrity {
    compounds: usize,
    problems: usize,
}

#[derive(Serialize)]
struct Monitor {
    uptime_seconds: u64,
}

pub fn route(
    state: impl Filter<Extract = (Arc<AppState>,), Error = Infallible> + Clone + Send + Sync + 'static,
) -> impl Filter<Extract = (Response,), Error = warp::Rejection> + Clone {
    warp::path!("health")
        .and(warp::get())
        .and(state)
        .and(warp::query::raw().or(warp::any().map(String::new)).unify())
        .and(warp::header::optional::<String>("authorization"))
        .and_then(handle)
}

/// GET /api/health?check=
async fn handle(
    state: Arc<AppState>,
    raw_query: String,
    authorization: Option<String>,
) -> Result<Response, warp::Rejection> {
    let query: Query = serde_urlencoded::from_str(&raw_query).map_err(|e| {
        warp::reject::custom(ApiError::bad_request(format!("invalid query string: {e}")))
    })?;
    let (integrity, monitor, max_age) = match query.check.as_deref() {
        None => (None, None, None),
        Some("integrity") => (
            Some(Integrity {
                compounds: state.dataset.compounds.len(),
                problems: state.dataset_problems,
            }),
            None,
            Some(60),
        ),
        Some("monitor") => {
            let expected = state.admin_token.as_deref().map(|t| format!("Bearer {t}"));
            if expected.is_none() || authorization != expected {
                return Err(warp::reject::custom(ApiError::unauthorized(
                    "check=monitor is for administrators: send Authorization: Bearer <admin token>",
                )));
            }
            (
                None,
                Some(Monitor {
                    uptime_seconds: state.started.elapsed().as_secs(),
                }),
                None,
            )
        }
        Some(other) => {
            return Err(warp::reject::custom(ApiError::bad_request(format!(
                "unknown check {other:?}: use check=integrity or check=monitor"
            ))));
        }
    };
    let body = Health {
        status: if state.dataset_problems == 0 {
            "ok"
        } else {
            "degraded"
        },
        version: saferef_generator::SERVICE_VERSION,
        timestamp: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        platform: "saferef-runtime",
        commit: &state.commit,
        dataset_version: &state.dataset.fingerprint,
        integrity,
        monitor,
    };
    let cache = match max_age {
        Some(s) => format!("public, max-age={s}"),
        None => "no-store".to_string(),
    };
    Ok(warp::reply::with_header(warp::reply::json(&body), "cache-control", cache).into_response())
}
