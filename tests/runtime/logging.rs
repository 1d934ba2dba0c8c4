//! The log writer of the real binary (`log_writer.rs`): request lines never wait for stderr.
//! With stderr stalled (a pipe nobody reads) requests are still answered, the lines that do
//! not fit the queue are dropped and counted (`log_lines_dropped` in the monitor), and the log
//! says how many when it is read again.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::support::binary::{self, Server};
use crate::support::{dataset, write_tree};

const ADMIN: &str = "admin-token-for-the-logging-test";

/// The real binary on the embedded store, on a free loopback port, serving `tree`.
fn serve(tree: &Path, state: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_saferef-serve"));
    command
        .args(["--listen", "127.0.0.1:0", "--data"])
        .arg(tree.join("data"))
        .arg("--site")
        .arg(tree.join("site"))
        .arg("--state")
        .arg(state)
        .env_remove("SAFEREF_REDIS_URL")
        .stdout(Stdio::piped());
    command
}

#[test]
fn a_stalled_log_drops_and_counts_lines_and_never_holds_a_request() {
    let tree = tempfile::tempdir().unwrap();
    write_tree(tree.path(), &dataset());
    let state = tempfile::tempdir().unwrap();
    let key = binary::create_key(state.path(), "enterprise");
    let mut child = serve(tree.path(), state.path())
        .env("SAFEREF_LOG_QUEUE", "16")
        .env("SAFEREF_ADMIN_TOKEN", ADMIN)
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

/// The real binary's request lines, which skip `tracing` when the filter lets them through
/// (`log_line::write_requests_to`): with `RUST_LOG` unset every request has its line, in the
/// default format's bytes, written by a graceful stop; with the filter above `info` none.
#[test]
fn every_request_has_its_line_unless_the_filter_says_otherwise() {
    let tree = tempfile::tempdir().unwrap();
    write_tree(tree.path(), &dataset());
    for filter in [None, Some("warn,saferef_runtime::http=info"), Some("warn")] {
        let state = tempfile::tempdir().unwrap();
        let log = tempfile::NamedTempFile::new().unwrap();
        let mut command = serve(tree.path(), state.path());
        command.env_remove("RUST_LOG").stderr(log.reopen().unwrap());
        if let Some(filter) = filter {
            command.env("RUST_LOG", filter);
        }
        let mut server = Server::listening(command.spawn().unwrap());
        let client = reqwest::blocking::Client::new();
        let mut asked = Vec::new();
        for n in 0..200 {
            let method = if n % 2 == 0 { "GET" } else { "HEAD" };
            let res = client
                .request(
                    method.parse().unwrap(),
                    format!("{}/api/compound/nope-{n}", server.base),
                )
                .send()
                .unwrap();
            asked.push((
                method,
                format!("/api/compound/nope-{n}"),
                res.status().as_u16(),
            ));
        }
        let pid = server.child.id().to_string();
        assert!(
            Command::new("kill")
                .args(["-TERM", &pid])
                .status()
                .unwrap()
                .success()
        );
        assert!(server.child.wait().unwrap().success());
        let text = std::fs::read_to_string(log.path()).unwrap();
        let logged: Vec<(String, String, u16)> = text
            .lines()
            .filter(|l| l.contains("nope-"))
            .map(|l| request_line(l).unwrap_or_else(|| panic!("{filter:?}: {l:?}")))
            .collect();
        let expected: Vec<(String, String, u16)> = if filter == Some("warn") {
            Vec::new()
        } else {
            asked
                .iter()
                .map(|(m, p, s)| (m.to_string(), p.clone(), *s))
                .collect()
        };
        assert_eq!(logged, expected, "{filter:?}");
        binary::assert_no_panic(&text);
    }
}

/// A request line's method, path and status, when the whole line has the default format's
/// shape: `2026-11-27T05:05:32.655168Z  INFO saferef_runtime::http: request request_id=7
/// method=GET path=/api/search status=200 latency_us=431`.
fn request_line(line: &str) -> Option<(String, String, u16)> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let (time, rest) = line.split_at_checked(27)?;
    let shape = time.bytes().enumerate().all(|(i, b)| match i {
        4 | 7 => b == b'-',
        10 => b == b'T',
        13 | 16 => b == b':',
        19 => b == b'.',
        26 => b == b'Z',
        _ => b.is_ascii_digit(),
    });
    let rest = rest.strip_prefix("  INFO saferef_runtime::http: request request_id=")?;
    let (id, rest) = rest.split_once(" method=")?;
    let (method, rest) = rest.split_once(" path=")?;
    let (path, rest) = rest.split_once(" status=")?;
    let (status, latency) = rest.split_once(" latency_us=")?;
    (shape && digits(id) && digits(status) && digits(latency))
        .then(|| (method.to_string(), path.to_string(), status.parse().ok()))
        .and_then(|(m, p, s)| Some((m, p, s?)))
}
