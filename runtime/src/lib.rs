//! saferef-runtime: the HTTP service. It loads the dataset once, keeps it immutable in
//! memory, serves the static tree as the CDN would, and answers the keyed and parameterized
//! endpoints, with keys, tiers and quotas kept in the store.
//!
//! **Architecture invariant:** the runtime never writes to `data/`; it writes `site/` only
//! through the generator's staged build, at start-up, when the tree is missing or stale.

pub mod accounts;
pub mod caller;
pub mod config;
pub mod edge_purge;
pub mod freshness;
pub mod http;
pub mod integrity;
pub mod jobs;
pub mod keys;
pub mod local_key;
pub mod log_line;
pub mod log_writer;
pub mod mail;
pub mod parse_refusals;
pub mod quota;
pub mod releases;
pub mod reload;
pub mod server;
pub mod settings;
pub mod startup;
pub mod store;
pub mod tier;
pub mod watchlist;
pub mod webhooks;

use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

use saferef_generator::aggregate::graph::Graph;
use saferef_generator::build::site::cdn::StaticSite;
use saferef_generator::model::Dataset;
use saferef_generator::render::lists::RiskIndex;
use saferef_generator::render::search::SearchIndex;

pub use crate::config::Config;
use crate::store::Store;

/// What lives as long as the process, whatever release it serves: the store, the settings
/// and who this instance is. Shared by every release behind an `Arc`.
#[derive(Debug)]
pub struct Service {
    pub store: Store,
    pub config: Config,
    /// The git revision this build serves (`SAFEREF_COMMIT`), or "unknown".
    pub commit: String,
    /// Token for admin-only checks (`SAFEREF_ADMIN_TOKEN`); admin checks refuse all without it.
    pub admin_token: Option<String>,
    pub started: Instant,
    /// Account work done after its request is answered (`accounts/deferred.rs`).
    pub deferred: accounts::deferred::Deferred,
}

impl Service {
    pub fn new(store: Store, config: Config) -> Service {
        Service {
            store,
            config,
            commit: "unknown".into(),
            admin_token: None,
            started: Instant::now(),
            deferred: accounts::deferred::Deferred::default(),
        }
    }
}

/// One release of the data: the dataset with its static tree and indexes, loaded and built
/// together and never changed after (but for five caches); a reload builds the next one beside
/// it and swaps it in whole.
#[derive(Debug)]
pub struct Release {
    pub dataset: Dataset,
    /// Number of problems `check` found when the dataset was loaded (0 in a healthy service).
    pub dataset_problems: usize,
    /// The static tree served as the CDN would serve it, when one was built.
    pub site: Option<StaticSite>,
    /// The compound–material–product graph, built once.
    pub graph: Graph,
    /// Every compound's tiers and every product's risk, for list filters, built once.
    pub risk_index: RiskIndex,
    /// Normalized names, identifiers and aliases for `GET /api/search`, built once.
    pub search_index: SearchIndex,
    /// When the served tree was built (its manifest), if one is served.
    pub built_at: Option<String>,
    /// The freshness summary computed at start from the served build.
    pub freshness: Option<freshness::Summary>,
    /// The tree's integrity verdict, checked off the async workers (`None` without a tree).
    pub integrity: Option<integrity::Integrity>,
    /// `GET /api/docs`, rendered at its first request (it renders an excerpt of every
    /// example response) and then served as is: a release's data does not change.
    pub docs: std::sync::OnceLock<saferef_generator::render::Rendered>,
    /// The static tree's answers by URL, filled at each URL's first request
    /// (`http/static_site.rs`): the tree does not change while its release is served.
    pub static_cache: http::StaticCache,
    /// The keyed GET answers rendered from this release, kept once made
    /// (`http/render_cache.rs`): each is a pure function of the release and the request.
    pub render_cache: http::RenderCache,
    /// `GET /api/health`'s answer of the last second it was asked (`http/health.rs`).
    pub health: http::LatestHealth,
}

impl Release {
    pub fn new(dataset: Dataset, dataset_problems: usize, site: Option<StaticSite>) -> Release {
        let graph = Graph::build(&dataset);
        let risk_index = RiskIndex::build(&dataset);
        let search_index = SearchIndex::build(&dataset);
        let built_at = site
            .as_ref()
            .and_then(|s| saferef_generator::build::site::built_at(s.root()));
        let freshness = built_at
            .as_deref()
            .map(|b| freshness::summarize(&dataset, Some(b), chrono::Utc::now(), "build"));
        let integrity = site.as_ref().map(|s| {
            integrity::Integrity::start(s.root().to_path_buf(), dataset.fingerprint.clone())
        });
        Release {
            risk_index,
            search_index,
            built_at,
            freshness,
            dataset,
            dataset_problems,
            site,
            graph,
            integrity,
            docs: std::sync::OnceLock::new(),
            static_cache: http::StaticCache::default(),
            render_cache: http::RenderCache::default(),
            health: http::LatestHealth::default(),
        }
    }
}

/// Everything a request handler may read: the process's service and the release the request
/// is answered from. Shared behind an `Arc`; handlers take no locks.
#[derive(Debug)]
pub struct AppState {
    pub service: Arc<Service>,
    pub release: Release,
}

impl AppState {
    pub fn new(service: Arc<Service>, release: Release) -> AppState {
        AppState { service, release }
    }
}

/// The release being served. A reload (`reload.rs`) builds the next `AppState` beside it and
/// swaps it in whole: each request reads the current one once, so it is answered from one
/// release from start to end, and requests never wait for a reload.
#[derive(Debug)]
pub struct Live(arc_swap::ArcSwap<AppState>);

impl Live {
    pub fn new(state: Arc<AppState>) -> Arc<Live> {
        Arc::new(Live(arc_swap::ArcSwap::new(state)))
    }

    pub fn current(&self) -> Arc<AppState> {
        self.0.load_full()
    }

    /// Serves `next` from now on; returns the release it replaces.
    pub fn replace(&self, next: Arc<AppState>) -> Arc<AppState> {
        self.0.swap(next)
    }
}

/// Serves the API on `listener` until `shutdown` resolves. Tests bind `127.0.0.1:0`.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: Arc<AppState>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    serve_live(listener, Live::new(state), shutdown).await;
}

/// As `serve`, for a service whose release can be replaced while it runs.
pub async fn serve_live(
    listener: tokio::net::TcpListener,
    live: Arc<Live>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    server::run(listener, live, shutdown).await;
}
