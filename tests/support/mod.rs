//! Shared set-up of the runtime tests: the committed dataset loaded once, and the service
//! started on an ephemeral loopback port.
#![allow(dead_code, reason = "each test binary uses part of the support module")]

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use saferef_runtime::{AppState, serve};
use serde_json::Value;

pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data")
}

/// The committed dataset, loaded once per test binary.
pub fn state() -> Arc<AppState> {
    static STATE: OnceLock<Arc<AppState>> = OnceLock::new();
    STATE
        .get_or_init(|| {
            let (dataset, problems) = saferef_generator::load::load(&data_dir()).unwrap();
            let problems = problems.len() + saferef_generator::validate::validate(&dataset).len();
            Arc::new(AppState {
                dataset,
                dataset_problems: problems,
                commit: "test-commit".into(),
                admin_token: Some("admin-secret".into()),
                started: Instant::now(),
                site: None,
            })
        })
        .clone()
}

/// Starts the service; returns its base URL.
pub async fn start() -> String {
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
