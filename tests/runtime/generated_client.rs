//! A client generated from the served OpenAPI document by openapi-python-client (PyPI;
//! `scripts/test` installs the pinned version in `var/openapi-client`), run against the real
//! binary: `generated_client.py` reads typed fields of the compound, search, lookup, batch,
//! compare, regulatory-status and list answers, pages with limit and offset, and checks error
//! codes and badges. The generated models raise on a missing required field or an unnamed
//! enum value, and the client on an undocumented status, so the test fails whenever the
//! document and the runtime disagree.

use std::path::PathBuf;
use std::process::Command;

use crate::support::binary::Served;

/// The venv `scripts/test` makes, with the generator installed.
fn venv() -> PathBuf {
    let venv = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../var/openapi-client");
    assert!(
        venv.join("bin/openapi-python-client").exists(),
        "{} is missing: run scripts/test, which installs openapi-python-client there",
        venv.display()
    );
    venv
}

#[test]
fn a_client_generated_from_the_openapi_document_reads_the_real_answers() {
    let venv = venv();
    let served = Served::start("pro", &[]);
    let out_dir = tempfile::tempdir().unwrap();
    // The generator formats its output with the ruff of its own venv.
    let path = format!(
        "{}:{}",
        venv.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let generated = Command::new(venv.join("bin/openapi-python-client"))
        .args(["generate", "--meta", "none", "--url"])
        .arg(format!("{}/api/openapi", served.server.base))
        .arg("--output-path")
        .arg(out_dir.path().join("saferef_client"))
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(
        generated.status.success(),
        "openapi-python-client failed:\n{}\n{}",
        String::from_utf8_lossy(&generated.stdout),
        String::from_utf8_lossy(&generated.stderr)
    );
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/runtime/generated_client.py");
    let out = Command::new(venv.join("bin/python"))
        .arg(&script)
        .arg(&served.server.base)
        .arg(&served.key)
        .arg(out_dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the generated client and the runtime disagree:\n{stdout}\n{}\nserver log:\n{}",
        String::from_utf8_lossy(&out.stderr),
        served.log(),
    );
    assert!(stdout.contains("calls agree with the document"), "{stdout}");
}
