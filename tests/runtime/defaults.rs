//! The real binary's start-up settings: boolean settings in every usual spelling (and a clear
//! refusal of anything else), and the secret key made in the state directory outside
//! production, so webhooks work on the embedded default.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use serde_json::{Value, json};

use crate::support::binary::{self, Server};
use crate::support::{dataset, write_tree};

fn register(server: &Server, key: &str) -> (u16, Value) {
    let res = reqwest::blocking::Client::new()
        .post(format!("{}/api/webhooks", server.base))
        .header("x-api-key", key)
        .json(&json!({"url": "http://127.0.0.1:9/hook"}))
        .send()
        .unwrap();
    (res.status().as_u16(), res.json().unwrap())
}

/// `saferef-serve` on a snapshot tree with `env`, expected to refuse to start: its stderr.
fn refused(tree: &Path, state: &Path, env: &[(&str, &str)]) -> String {
    let out = binary::serve_command(&tree.join("data"), &tree.join("site"), state)
        .env_remove("SAFEREF_SECRET_KEY")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(!out.status.success(), "{env:?} started");
    assert!(out.stdout.is_empty(), "{env:?} listened");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn boolean_settings_take_the_usual_spellings_and_refuse_others() {
    let tree = tempfile::tempdir().unwrap();
    write_tree(tree.path(), &dataset());
    let key_for = |state: &Path| binary::create_key(state, "developer");
    for (value, allowed) in [
        ("1", true),
        ("YES", true),
        ("On", true),
        ("true", true),
        ("0", false),
        ("off", false),
    ] {
        let state = tempfile::tempdir().unwrap();
        let key = key_for(state.path());
        let server = binary::serve(
            &tree.path().join("data"),
            &tree.path().join("site"),
            state.path(),
            &[("SAFEREF_WEBHOOK_ALLOW_LOOPBACK", value)],
        );
        let (status, body) = register(&server, &key);
        assert_eq!(status, if allowed { 201 } else { 400 }, "{value}: {body}");
    }
    for value in ["maybe", "2"] {
        let state = tempfile::tempdir().unwrap();
        let stderr = refused(
            tree.path(),
            state.path(),
            &[("SAFEREF_WEBHOOK_ALLOW_LOOPBACK", value)],
        );
        assert!(
            stderr.contains(&format!(
                "SAFEREF_WEBHOOK_ALLOW_LOOPBACK: \"{value}\" is not a boolean: use 1/0, true/false, yes/no or on/off"
            )),
            "{value:?}: {stderr}"
        );
    }
}

#[test]
fn outside_production_a_secret_key_is_made_once_in_the_state_directory() {
    let tree = tempfile::tempdir().unwrap();
    write_tree(tree.path(), &dataset());
    let state = tempfile::tempdir().unwrap();
    let key = binary::create_key(state.path(), "developer");
    let file = state.path().join("secret.key");
    let logs = tempfile::tempdir().unwrap();
    let start = |log: &str| {
        binary::serve_logged(
            &tree.path().join("data"),
            &tree.path().join("site"),
            state.path(),
            &[("SAFEREF_WEBHOOK_ALLOW_LOOPBACK", "1")],
            Some(&logs.path().join(log)),
        )
    };
    let log = |name: &str| std::fs::read_to_string(logs.path().join(name)).unwrap();

    let first = start("first.log");
    let (status, hook) = register(&first, &key);
    assert_eq!(
        status, 201,
        "webhooks work without SAFEREF_SECRET_KEY: {hook}"
    );
    let mode = std::fs::metadata(&file).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "owner-only");
    let made = std::fs::read(&file).unwrap();
    drop(first);
    assert_eq!(log("first.log").matches("created a secret key").count(), 1);

    let second = start("second.log");
    assert_eq!(std::fs::read(&file).unwrap(), made, "reused, not replaced");
    let (status, _) = register(&second, &key);
    assert_eq!(status, 201);
    let list: Value = reqwest::blocking::Client::new()
        .get(format!("{}/api/webhooks", second.base))
        .header("x-api-key", &key)
        .send()
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(list["count"], 2, "{list}");
    drop(second);
    assert!(!log("second.log").contains("created a secret key"));

    // Production still refuses to start without the variable, and makes no key.
    let fresh = tempfile::tempdir().unwrap();
    let stderr = refused(tree.path(), fresh.path(), &[("SAFEREF_ENV", "production")]);
    assert!(
        stderr.contains("SAFEREF_SECRET_KEY is required in production"),
        "{stderr}"
    );
    assert!(!fresh.path().join("secret.key").exists());
}
