//! The original service's published Python client, aletheia-safety 0.9.0 (PyPI; `scripts/test`
//! installs it in `var/py-client`), run whole against the real `saferef-serve` binary on the
//! embedded store: `published_client.py` calls every public method of its `Aletheia` class,
//! checks each answer for what the client's docstring promises, and reads the mail the
//! service sends (trial key, codes) from the outbox.

use std::path::PathBuf;
use std::process::Command;

use base64::Engine;

use crate::support::{binary, dataset, write_tree};

/// The Python of the venv `scripts/test` makes, with the client installed.
fn python() -> PathBuf {
    let venv = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../var/py-client");
    let python = venv.join("bin/python");
    assert!(
        python.exists(),
        "{} is missing: run scripts/test, which installs aletheia-safety==0.9.0 there",
        python.display()
    );
    python
}

#[test]
fn every_method_of_the_published_python_client_works() {
    let tree = tempfile::tempdir().unwrap();
    write_tree(tree.path(), &dataset());
    let state = tempfile::tempdir().unwrap();
    let key = binary::create_key(state.path(), "developer");
    let secret = base64::engine::general_purpose::STANDARD.encode([9u8; 32]);
    let log = tree.path().join("serve.log");
    let server = binary::serve_logged(
        &tree.path().join("data"),
        &tree.path().join("site"),
        state.path(),
        &[
            ("SAFEREF_SECRET_KEY", secret.as_str()),
            // The client's webhook is delivered to a receiver on loopback.
            ("SAFEREF_WEBHOOK_ALLOW_LOOPBACK", "true"),
        ],
        Some(&log),
    );
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/runtime/published_client.py");
    let out = Command::new(python())
        .arg(&script)
        .arg(&server.base)
        .arg(&key)
        .arg(state.path())
        .output()
        .unwrap();
    drop(server);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the published client failed:\n{stdout}\n{}\nserver log:\n{}",
        String::from_utf8_lossy(&out.stderr),
        std::fs::read_to_string(&log).unwrap_or_default(),
    );
    // The script counts the class's methods; a different version would call others.
    assert!(
        stdout.starts_with("aletheia-safety 0.9.0: 48 methods called"),
        "{stdout}"
    );
}
