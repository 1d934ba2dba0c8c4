//! The developer pages in a real browser: the real `saferef-serve` binary on loopback with a
//! Developer key and a registered webhook, and `tests/browser/pages.mjs` driving headless
//! Debian Chromium through playwright-core (playground, dashboard, docs, examples,
//! compliance; accessibility, phone width, screenshots in target/browser-artifacts/). The
//! docs' Node.js verification code is checked against a signature made by the service's own
//! signer. Needs `chromium`, `node` and `npm ci --prefix tests/browser` (scripts/test does both).

use std::path::{Path, PathBuf};
use std::process::Command;

use base64::Engine;
use serde_json::{Value, json};

use crate::support::binary::{self, Server};
use crate::support::data_dir;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn developer_key(state: &Path) -> String {
    binary::create_key(state, "developer")
}

fn serve(site: &Path, state: &Path) -> Server {
    let secret = base64::engine::general_purpose::STANDARD.encode([7u8; 32]);
    binary::serve(
        &data_dir(),
        site,
        state,
        // The dashboard test registers a webhook on loopback.
        &[
            ("SAFEREF_SECRET_KEY", secret.as_str()),
            ("SAFEREF_WEBHOOK_ALLOW_LOOPBACK", "true"),
        ],
    )
}

#[test]
fn the_pages_work_in_a_real_browser() {
    let modules = repo().join("tests/browser/node_modules/playwright-core");
    assert!(
        modules.is_dir(),
        "run `npm ci --prefix tests/browser` first (scripts/test does)"
    );
    assert!(
        Path::new("/usr/bin/chromium").is_file(),
        "install Debian chromium first (scripts/test does)"
    );
    let site = tempfile::tempdir().unwrap();
    let state = tempfile::tempdir().unwrap();
    let key = developer_key(state.path());
    let server = serve(site.path(), state.path());

    // A webhook with one test delivery, for the dashboard to list.
    let client = reqwest::blocking::Client::new();
    let hook_url = "http://127.0.0.1:9/saferef-browser-test";
    let res = client
        .post(format!("{}/api/webhooks", server.base))
        .header("X-API-Key", &key)
        .json(&json!({ "url": hook_url }))
        .send()
        .unwrap();
    assert_eq!(res.status(), 201);
    let hook: Value = res.json().unwrap();
    let id = hook["id"].as_str().unwrap();
    let res = client
        .post(format!("{}/api/webhooks/test/{id}", server.base))
        .header("X-API-Key", &key)
        .send()
        .unwrap();
    assert!(res.status().is_success(), "{}", res.status());

    // A signature made by the service's own signer, for the docs' verification code.
    let body = r#"{"id":"evt_docs","type":"webhook.test","created":1,"data":{}}"#;
    let secret = "whsec_browser_test";
    let now = chrono::Utc::now().timestamp();
    let header = saferef_runtime::webhooks::signature::header(secret, now, body.as_bytes());

    let status = Command::new("node")
        .arg("tests/browser/pages.mjs")
        .arg(&server.base)
        .arg(&key)
        .current_dir(repo())
        .env(
            "SAFEREF_BROWSER_ARTIFACTS",
            repo().join("target/browser-artifacts"),
        )
        .env("SAFEREF_EXPECT_WEBHOOK", hook_url)
        .env("SAFEREF_SIG_SECRET", secret)
        .env("SAFEREF_SIG_BODY", body)
        .env("SAFEREF_SIG_HEADER", header)
        .status()
        .expect("node runs");
    assert!(status.success(), "browser checks failed: {status}");
}
