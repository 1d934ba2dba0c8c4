//! A page on another loopback origin calls the real `saferef-serve` binary from headless
//! Debian Chromium (`tests/browser/cors.mjs`, playwright-core): a public record from the
//! static tree and a keyed GET with `X-API-Key`, which Chromium preflights, both read, with
//! no console error. The server's log shows the preflight reached it and was answered 204.
//! Needs `chromium`, `node` and `npm ci --prefix tests/browser` (scripts/test does both).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::binary;
use crate::support::data_dir;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn a_page_on_another_origin_reads_public_and_keyed_answers() {
    assert!(
        repo()
            .join("tests/browser/node_modules/playwright-core")
            .is_dir(),
        "run `npm ci --prefix tests/browser` first (scripts/test does)"
    );
    assert!(
        Path::new("/usr/bin/chromium").is_file(),
        "install Debian chromium first (scripts/test does)"
    );
    let site = tempfile::tempdir().unwrap();
    let state = tempfile::tempdir().unwrap();
    let key = binary::create_key(state.path(), "developer");
    let log = state.path().join("serve.log");
    let server = binary::serve_logged(
        &data_dir(),
        site.path(),
        state.path(),
        &[("RUST_LOG", "info")],
        Some(&log),
    );
    let dataset = saferef_generator::load::snapshot::read(
        &site.path().join(saferef_generator::load::snapshot::PATH),
    )
    .unwrap();
    let benzene = dataset.by_cas("71-43-2").unwrap().hq_id.to_string();
    // The record is a file of the tree, so its CORS headers are `_headers`' own.
    assert!(
        site.path()
            .join(format!("api/compound/{benzene}.json"))
            .is_file()
    );

    let status = Command::new("node")
        .arg("tests/browser/cors.mjs")
        .arg(&server.base)
        .arg(&key)
        .arg(&benzene)
        .current_dir(repo())
        .env(
            "SAFEREF_BROWSER_ARTIFACTS",
            repo().join("target/browser-artifacts"),
        )
        .status()
        .expect("node runs");
    assert!(status.success(), "browser checks failed: {status}");

    let log = std::fs::read_to_string(&log).unwrap();
    assert!(
        log.lines()
            .any(|l| l.contains("OPTIONS") && l.contains("/api/compounds") && l.contains("204")),
        "no preflight of /api/compounds answered 204 in the log:\n{log}"
    );
}
