//! Redocly's linter (`@redocly/cli lint`, pinned in tests/openapi/package.json) over the
//! OpenAPI document of the committed dataset, with the rules of tests/openapi/redocly.yaml:
//! no error and no warning. Needs `node` and `npm ci --prefix tests/openapi` (scripts/test
//! does both).

use std::path::PathBuf;
use std::process::Command;

use saferef_generator::load::load;
use saferef_generator::render::openapi::{Format, openapi};
use serde_json::Value;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn redocly_finds_no_error_and_no_warning_in_the_openapi_document() {
    let package = repo().join("tests/openapi");
    let redocly = package.join("node_modules/.bin/redocly");
    assert!(
        redocly.exists(),
        "run `npm ci --prefix tests/openapi` first (scripts/test does)"
    );
    let (d, problems) = load(&repo().join("data")).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    let dir = tempfile::tempdir().unwrap();
    let document = dir.path().join("openapi.json");
    std::fs::write(&document, openapi(&d, Format::OpenApi).body).unwrap();
    let out = Command::new(&redocly)
        .arg("lint")
        .arg("--config")
        .arg(package.join("redocly.yaml"))
        .arg("--format=json")
        .arg(&document)
        .env("REDOCLY_TELEMETRY", "off")
        .env("REDOCLY_SUPPRESS_UPDATE_NOTICE", "true")
        .output()
        .expect("node is installed (scripts/test installs it)");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "redocly lint gave no JSON report ({e}):\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let problems: Vec<String> = report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            format!(
                "{} {}: {} at {}",
                p["severity"], p["ruleId"], p["message"], p["location"][0]["pointer"]
            )
        })
        .collect();
    assert_eq!(
        (&report["totals"]["errors"], &report["totals"]["warnings"]),
        (&Value::from(0), &Value::from(0)),
        "{problems:#?}"
    );
    assert!(out.status.success(), "{problems:#?}");
}
