//! Shared set-up of the runtime tests: the committed dataset loaded once, and the service
//! started on an ephemeral loopback port.
#![allow(dead_code, reason = "each test binary uses part of the support module")]

pub mod binary;
pub mod mail;
pub mod redis;

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use saferef_runtime::store::Store;
use saferef_runtime::{AppState, Config, Release, Service, serve};
use serde_json::Value;

pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data")
}

/// A served tree of just `dataset`'s snapshot under `root/site` (what a deploy ships to each
/// runtime, without a full site build): empty CDN rules, so every request reaches the
/// runtime's endpoint table, a manifest with the build time (from which the runtime computes
/// `GET /api/freshness`), and an empty `root/data`. The snapshot is written whole and then
/// renamed, so a runtime reloading meanwhile reads one release or the other.
pub fn write_tree(root: &Path, dataset: &saferef_generator::model::Dataset) {
    let site = root.join("site");
    let snapshot = site.join(saferef_generator::load::snapshot::PATH);
    std::fs::create_dir_all(snapshot.parent().unwrap()).unwrap();
    let tmp = snapshot.with_extension("tmp");
    std::fs::write(
        &tmp,
        saferef_generator::load::snapshot::encode(dataset).unwrap(),
    )
    .unwrap();
    std::fs::rename(&tmp, &snapshot).unwrap();
    std::fs::write(site.join("_redirects"), "").unwrap();
    std::fs::write(site.join("_headers"), "").unwrap();
    let built_at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    std::fs::write(
        site.join(saferef_generator::build::site::MANIFEST),
        format!(r#"{{"built_at":"{built_at}"}}"#),
    )
    .unwrap();
    std::fs::create_dir_all(root.join("data")).unwrap();
}

/// The committed dataset, loaded afresh (tests that change it).
pub fn dataset() -> saferef_generator::model::Dataset {
    saferef_generator::load::load(&data_dir()).unwrap().0
}

/// The committed dataset with an embedded store in a temporary directory, once per test
/// binary.
pub fn state() -> Arc<AppState> {
    static STATE: OnceLock<Arc<AppState>> = OnceLock::new();
    STATE
        .get_or_init(|| {
            let (dataset, problems) = saferef_generator::load::load(&data_dir()).unwrap();
            let problems = problems.len() + saferef_generator::validate::validate(&dataset).len();
            let dir = tempfile::tempdir().unwrap().keep();
            let store = Store::embedded(&dir.join("store.redb")).unwrap();
            let service = Service {
                commit: "test-commit".into(),
                admin_token: Some("admin-secret".into()),
                ..Service::new(store, Config::default())
            };
            Arc::new(AppState::new(
                Arc::new(service),
                Release::new(dataset, problems, None),
            ))
        })
        .clone()
}

/// Fails the test process at once when a task of an in-process server panics (the binary's
/// servers are checked by their logs, `binary::Server`): no panic may be reachable from the
/// network. A panic raised by test code itself (under `tests/`) is the test's own failure and
/// is left to the harness. Installed by every helper here that starts a server.
pub fn refuse_server_panics() {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            previous(info);
            let in_task = tokio::task::try_id().is_some();
            let from_tests = info
                .location()
                .is_some_and(|l| l.file().replace('\\', "/").contains("tests/"));
            if in_task && !from_tests {
                eprintln!(
                    "a task of an in-process server panicked; the suite allows no panic (RELIABILITY.md, \"Hostile input\")"
                );
                std::process::abort();
            }
        }));
    });
}

/// Starts the service; returns its base URL.
pub async fn start() -> String {
    refuse_server_panics();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve(listener, state(), std::future::pending()));
    format!("http://{addr}")
}

pub async fn get(url: &str) -> (u16, reqwest::header::HeaderMap, Value) {
    let res = reqwest::get(url).await.unwrap();
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    let body: Value = res.json().await.unwrap();
    (status, headers, body)
}

/// GET with an optional `X-API-Key`: status and JSON body (null when the body is not JSON).
pub async fn keyed_get(url: &str, key: Option<&str>) -> (reqwest::StatusCode, Value) {
    let mut req = reqwest::Client::new().get(url);
    if let Some(k) = key {
        req = req.header("x-api-key", k);
    }
    let res = req.send().await.unwrap();
    let status = res.status();
    (status, res.json().await.unwrap_or(Value::Null))
}

/// A service of its own: the committed dataset over `store`, with `config`.
pub async fn start_with(store: Store, config: Config) -> String {
    refuse_server_panics();
    let (dataset, _) = saferef_generator::load::load(&data_dir()).unwrap();
    let state = Arc::new(AppState::new(
        Arc::new(Service::new(store, config)),
        Release::new(dataset, 0, None),
    ));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve(listener, state, std::future::pending()));
    format!("http://{addr}")
}

/// The two backends for a test named `test`: an embedded store in a fresh directory and the
/// test Redis (`SAFEREF_TEST_REDIS_URL`, started by `scripts/test`) under its own namespace.
pub async fn stores(test: &str) -> Vec<Store> {
    let dir = tempfile::tempdir().unwrap().keep();
    let url = std::env::var("SAFEREF_TEST_REDIS_URL")
        .expect("SAFEREF_TEST_REDIS_URL is unset: run ./scripts/test, which starts redis-server");
    let namespace = format!(
        "test:{test}:{}:{}:",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    );
    vec![
        Store::embedded(&dir.join("store.redb")).unwrap(),
        Store::redis(&url).await.unwrap().namespaced(&namespace),
    ]
}

/// A payment-provider notification's signature header (`t=<unix>,v1=<hex HMAC-SHA256 of
/// "t.body">`), computed here rather than by the runtime's own signer so the billing tests
/// check its verifier against an independent implementation.
pub fn provider_signature(body: &str, t: i64, secret: &str) -> String {
    use hmac::{Hmac, Mac};
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(format!("{t}.{body}").as_bytes());
    let hex: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("t={t},v1={hex}")
}
