//! saferef-runtime: the HTTP service. It loads the dataset once, keeps it immutable in
//! memory, and answers the keyed and parameterized endpoints (for now: health).
//!
//! **Architecture invariant:** the runtime never writes to `data/` or `site/`.

pub mod error;
pub mod routes;
pub mod settings;
pub mod startup;

use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

use saferef_generator::load::Dataset;
use saferef_generator::site::cdn::StaticSite;

/// Everything a request handler may read. Shared behind an `Arc` and never mutated after
/// start, so handlers need no locks.
#[derive(Debug)]
pub struct AppState {
    pub dataset: Dataset,
    /// Number of problems `check` found when the dataset was loaded (0 in a healthy service).
    pub dataset_problems: usize,
    /// The git revision this build serves (`SAFEREF_COMMIT`), or "unknown".
    pub commit: String,
    /// Token for admin-only checks (`SAFEREF_ADMIN_TOKEN`); admin checks refuse all without it.
    pub admin_token: Option<String>,
    pub started: Instant,
    /// The static tree served as the CDN would serve it, when one was built.
    pub site: Option<StaticSite>,
}

/// Serves the API on `listener` until `shutdown` resolves. Tests bind `127.0.0.1:0`.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: Arc<AppState>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    warp::serve(routes::all(state))
        .incoming(listener)
        .graceful(shutdown)
        .run()
        .await;
}
