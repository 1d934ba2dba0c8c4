//! The log writer of the real binary (`log_writer.rs`): request lines never wait for stderr.
//! With stderr stalled (a pipe nobody reads) requests are still answered, the lines that do
//! not fit the queue are dropped and counted (`log_lines_dropped` in the monitor), and the log
//! says how many when it is read again.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::support::binary::{self, Server};
use crate::support::{dataset, write_tree};

const ADMIN: &str = "admin-token-for-the-logging-test";

#[test]
fn a_stalled_log_drops_and_counts_lines_and_never_holds_a_request() {
    let tree = tempfile::tempdir().unwrap();
    write_tree(tree.path(), &dataset());
    let state = tempfile::tempdir().unwrap();
    let key = binary::create_key(state.path(), "enterprise");
    let mut child = Command::new(env!("CARGO_BIN_EXE_saferef-serve"))
        .args(["--listen", "127.0.0.1:0", "--data"])
        .arg(tree.path().join("data"))
        .arg("--site")
        .arg(tree.path().join("site"))
        .arg("--state")
        .arg(state.path())
        .env_remove("SAFEREF_REDIS_URL")
        .env("SAFEREF_LOG_QUEUE", "16")
        .env("SAFEREF_ADMIN_TOKEN", ADMIN)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Not read until the end: after about 64 KiB the pipe is full and stderr blocks.
    let mut stderr = child.stderr.take().unwrap();
    let server = Server::listening(child);
    let client = reqwest::blocking::Client::new();
    // About 3,000 request lines, several hundred KB: far past what the pipe holds.
    for n in 0..3_000 {
        let res = client
            .get(format!("{}/api/search?q=benzene", server.base))
            .header("x-api-key", &key)
            .send()
            .unwrap();
        assert_eq!(res.status(), 200, "request {n}");
    }
    let monitor: serde_json::Value = client
        .get(format!("{}/api/health?check=monitor", server.base))
        .bearer_auth(ADMIN)
        .send()
        .unwrap()
        .json()
        .unwrap();
    let dropped = monitor["monitor"]["log_lines_dropped"].as_u64().unwrap();
    assert!(dropped > 0, "{monitor}");

    // Read again: the writer says how many lines it lost in the next line it writes.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut buf = [0u8; 8192];
        while let Ok(n) = stderr.read(&mut buf) {
            if n == 0 {
                break;
            }
            seen.extend_from_slice(&buf[..n]);
            if String::from_utf8_lossy(&seen).contains("line(s) dropped") {
                let _ = tx.send(String::from_utf8_lossy(&seen).into_owned());
                return;
            }
        }
    });
    let mut log = None;
    for _ in 0..100 {
        client
            .get(format!("{}/api/health", server.base))
            .send()
            .unwrap();
        if let Ok(text) = rx.recv_timeout(Duration::from_millis(100)) {
            log = Some(text);
            break;
        }
    }
    let log = log.expect("the log reports the dropped lines");
    assert!(
        log.contains("because the log queue was full"),
        "{}",
        &log[log.len().saturating_sub(2_000)..]
    );
    binary::assert_no_panic(&log);
}
