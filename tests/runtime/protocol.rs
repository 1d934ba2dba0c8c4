//! Raw HTTP/1.1 against the real `saferef-serve` binary over a loopback socket: every form a
//! request target can take (RFC 9112 §3.2), malformed request heads, and a bounded fuzz of
//! raw request lines and headers. No answer is a 5xx or a dropped connection, every error
//! carries the interface's JSON error, hyper's own refusals of a head it cannot parse
//! included (`parse_refusals.rs`), and the server's log never shows a panic.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::time::Duration;

use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use serde_json::Value;

use crate::support::binary::{self, Server};
use crate::support::{dataset, write_tree};

/// The binary on a snapshot tree, its log (stderr) in a file.
pub struct Logged {
    pub server: Server,
    /// An enterprise key, for runs longer than a public daily quota.
    pub key: String,
    pub log: PathBuf,
    _tree: tempfile::TempDir,
    _state: tempfile::TempDir,
}

impl Logged {
    pub fn start() -> Logged {
        let tree = tempfile::tempdir().unwrap();
        write_tree(tree.path(), &dataset());
        let state = tempfile::tempdir().unwrap();
        let key = binary::create_key(state.path(), "enterprise");
        let log = tree.path().join("serve.log");
        let server = binary::serve_logged(
            &tree.path().join("data"),
            &tree.path().join("site"),
            state.path(),
            &[("RUST_BACKTRACE", "1")],
            Some(&log),
        );
        Logged {
            server,
            key,
            log,
            _tree: tree,
            _state: state,
        }
    }

    fn addr(&self) -> &str {
        self.server.base.trim_start_matches("http://")
    }

    /// The log lines that tell of a panic (none may exist).
    pub fn panics(&self) -> Vec<String> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .filter(|l| l.contains("panicked"))
            .map(str::to_string)
            .collect()
    }

    /// Sends `request` as is and reads the answer until the server closes (every request
    /// here says `Connection: close`) or `WAIT` passes.
    pub fn exchange(&self, request: &[u8]) -> Answer {
        let mut stream = TcpStream::connect(self.addr()).unwrap();
        stream.set_read_timeout(Some(WAIT)).unwrap();
        // A reset while writing means the server already answered and closed: read that.
        let _ = stream.write_all(request);
        let mut out = Vec::new();
        let _ = stream.read_to_end(&mut out);
        Answer::parse(&out)
    }
}

/// How long an answer may take.
const WAIT: Duration = Duration::from_secs(5);

/// One raw answer: status and body (the first of a pipelined series).
#[derive(Debug)]
pub struct Answer {
    pub status: Option<u16>,
    pub body: Vec<u8>,
    pub raw: String,
}

impl Answer {
    fn parse(bytes: &[u8]) -> Answer {
        let raw = String::from_utf8_lossy(bytes).into_owned();
        let status = raw
            .strip_prefix("HTTP/1.1 ")
            .or_else(|| raw.strip_prefix("HTTP/1.0 "))
            .and_then(|r| r.get(..3))
            .and_then(|s| s.parse().ok());
        let body = match raw.find("\r\n\r\n") {
            Some(end) => {
                let head = raw[..end].to_ascii_lowercase();
                let length = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|n| n.trim().parse::<usize>().ok())
                    .unwrap_or(0);
                bytes[end + 4..].iter().take(length).copied().collect()
            }
            None => Vec::new(),
        };
        Answer { status, body, raw }
    }

    fn json(&self) -> Option<Value> {
        serde_json::from_slice(&self.body).ok()
    }

    /// A 4xx whose body is the service's JSON error.
    fn is_json_error(&self) -> bool {
        self.status.is_some_and(|s| (400..500).contains(&s))
            && self.json().is_some_and(|j| j["error"].is_string())
    }

    /// A 4xx a badge URL answers: an SVG whose title is the service's error message, because a
    /// badge is embedded with an `<img>` that cannot show JSON.
    fn is_badge_error(&self) -> bool {
        let head = self
            .raw
            .split("\r\n\r\n")
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        self.status.is_some_and(|s| (400..500).contains(&s))
            && head.contains("content-type: image/svg+xml")
            && String::from_utf8_lossy(&self.body).contains("<title>saferef: ")
    }

    /// The JSON error's `code`.
    fn code(&self) -> Option<String> {
        self.json()?["code"].as_str().map(str::to_string)
    }
}

fn get(target: &str, method: &str) -> Vec<u8> {
    format!("{method} {target} HTTP/1.1\r\nHost: saferef.test\r\nConnection: close\r\n\r\n")
        .into_bytes()
}

#[test]
fn every_request_target_form_gets_an_answer_and_none_panics() {
    let served = Logged::start();
    // Origin and absolute forms reach the service.
    for request in [
        get("/api/health", "GET"),
        get("http://saferef.test/api/health", "GET"),
    ] {
        let answer = served.exchange(&request);
        assert_eq!(answer.status, Some(200), "{}", answer.raw);
    }
    // The authority form (with and without CONNECT) and the asterisk form name no path: 400.
    for request in [
        get("127.0.0.1:22", "GET"),
        get("saferef.test:443", "CONNECT"),
        get("saferef.test:443", "POST"),
        get("[::1]:80", "HEAD"),
        get("*", "OPTIONS"),
        get("*", "GET"),
        get("/api/health", "CONNECT"),
    ] {
        let answer = served.exchange(&request);
        let shown = String::from_utf8_lossy(&request).into_owned();
        assert_eq!(answer.status, Some(400), "{shown}: {}", answer.raw);
        if !shown.starts_with("HEAD") {
            assert!(answer.is_json_error(), "{shown}: {}", answer.raw);
            assert!(
                answer.json().unwrap()["error"]
                    .as_str()
                    .unwrap()
                    .contains("request target"),
                "{}",
                answer.raw
            );
        }
    }
    // The service still answers afterwards, and nothing panicked.
    let answer = served.exchange(&get("/api/health", "GET"));
    assert_eq!(answer.status, Some(200), "{}", answer.raw);
    assert_eq!(served.panics(), Vec::<String>::new());
}

/// The heads hyper refuses before any service code runs (a malformed line, a head over 64
/// KiB), and a target over `server::MAX_TARGET_BYTES`: each answer is the interface's JSON
/// error with its `code`, as every other error (issue 23: hyper's were empty), also when the
/// head follows an answered request on the same connection.
#[test]
fn malformed_and_oversized_heads_get_the_interface_s_json_error() {
    let served = Logged::start();
    let long = |n: usize| format!("/api/health?pad={}", "a".repeat(n));
    let cases: Vec<(Vec<u8>, u16, &str)> = vec![
        (get("/api/health", "G E T"), 400, "bad_request"),
        (
            String::from_utf8(get("/api/health", "GET"))
                .unwrap()
                .replacen("HTTP/1.1", "HTTP/9", 1)
                .into_bytes(),
            400,
            "bad_request",
        ),
        (
            b"GET /api/health HTTP/1.1\r\nHost: x\r\nno colon here\r\nConnection: close\r\n\r\n"
                .to_vec(),
            400,
            "bad_request",
        ),
        (
            b"GET /api/he\x01alth HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec(),
            400,
            "bad_request",
        ),
        (get(&long(20_000), "GET"), 414, "uri_too_long"),
        (get(&long(70_000), "GET"), 431, "headers_too_large"),
        (
            format!(
                "GET /api/health HTTP/1.1\r\nHost: x\r\nX-Filler: {}\r\nConnection: close\r\n\r\n",
                "a".repeat(100 * 1024)
            )
            .into_bytes(),
            431,
            "headers_too_large",
        ),
    ];
    for (request, status, code) in &cases {
        let answer = served.exchange(request);
        let shown = String::from_utf8_lossy(&request[..request.len().min(60)]).into_owned();
        assert_eq!(answer.status, Some(*status), "{shown}: {}", answer.raw);
        assert!(answer.is_json_error(), "{shown}: {}", answer.raw);
        assert_eq!(answer.code().as_deref(), Some(*code), "{shown}");
        assert!(
            answer
                .raw
                .to_ascii_lowercase()
                .contains("content-type: application/json"),
            "{shown}: {}",
            answer.raw
        );
    }
    // A malformed head after an answered one on a kept-alive connection.
    let mut stream = TcpStream::connect(served.addr()).unwrap();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    stream
        .write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let mut first = Vec::new();
    let mut buf = [0u8; 65536];
    while !whole(&first) {
        let n = stream.read(&mut buf).unwrap();
        assert!(n > 0, "closed after {first:?}");
        first.extend_from_slice(&buf[..n]);
    }
    assert_eq!(Answer::parse(&first).status, Some(200));
    let _ = stream.write_all(b"BAD\x7f LINE\r\n\r\n");
    let mut second = Vec::new();
    let _ = stream.read_to_end(&mut second);
    let second = Answer::parse(&second);
    assert_eq!(second.status, Some(400), "{}", second.raw);
    assert_eq!(
        second.code().as_deref(),
        Some("bad_request"),
        "{}",
        second.raw
    );
    assert_eq!(served.panics(), Vec::<String>::new());
}

/// Whether `bytes` hold an answer's whole head and the body its `content-length` declares.
fn whole(bytes: &[u8]) -> bool {
    let raw = String::from_utf8_lossy(bytes).to_ascii_lowercase();
    let Some((head, body)) = raw.split_once("\r\n\r\n") else {
        return false;
    };
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0);
    body.len() >= length
}

/// A request line part: usual values most of the time, so that the heads reach past hyper's
/// parser into the service, and hostile bytes otherwise.
fn method() -> impl Strategy<Value = String> {
    prop_oneof![
        12 => prop::sample::select(vec![
            "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE",
        ])
        .prop_map(str::to_string),
        1 => "[A-Za-z!#$%&'*+.^_`|~-]{1,12}",
        1 => prop::collection::vec(any::<u8>(), 0..8)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ]
}

fn target() -> impl Strategy<Value = String> {
    let path = prop::sample::select(vec![
        "/api/health",
        "/api/compound/hq-c-org-000145",
        "/api/compounds",
        "/api/search",
        "/api/v1/badge/hq-c-org-000145",
        "/api/keys/trial",
        "/api/billing/webhook",
        "/api/export",
        "/manifest.json",
        "/",
        "",
    ]);
    let tail = prop_oneof![
        6 => Just(String::new()),
        3 => "\\?[a-z_]{1,10}=[!-~]{0,20}",
        2 => "/[ -~]{0,30}",
        1 => "%[0-9A-Fa-f]{0,2}[%/?#.]{0,4}",
        1 => prop::collection::vec(any::<u8>(), 1..12)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ];
    let prefix = prop::sample::select(vec![
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "http://saferef.test",
        "https://h:1",
        "//",
        "127.0.0.1:8080",
        "*",
        "h:",
    ]);
    (prefix, path, tail).prop_map(|(p, path, t)| format!("{p}{path}{t}"))
}

fn version() -> impl Strategy<Value = String> {
    prop_oneof![
        12 => Just("HTTP/1.1".to_string()),
        1 => Just("HTTP/1.0".to_string()),
        1 => "HTTP/[0-9]\\.[0-9]",
        1 => "[ -~]{0,10}",
    ]
}

fn header() -> impl Strategy<Value = String> {
    prop_oneof![
        12 => (
            prop::sample::select(vec![
                "Host", "X-API-Key", "Content-Type", "If-None-Match", "Accept", "Authorization", "X-Forwarded-For", "Expect",
                "X-Provider-Signature", "Origin", "Connection",
            ]),
            "[ -~]{0,40}",
        )
            .prop_map(|(n, v)| format!("{n}: {v}")),
        1 => "[!-~]{1,20}:[ -~]{0,40}",
        1 => prop::collection::vec(any::<u8>(), 0..40)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        1 => Just(" folded continuation".to_string()),
        1 => Just(format!("X-Big: {}", "a".repeat(70_000))),
    ]
}

/// A body, sent whole with its `Content-Length` or chunked (a declared body that never
/// comes would only wait out `BODY_TIMEOUT`).
fn body() -> impl Strategy<Value = Option<(bool, Vec<u8>)>> {
    prop::option::of((
        any::<bool>(),
        prop_oneof![
            "[ -~]{0,60}".prop_map(String::into_bytes),
            prop::collection::vec(any::<u8>(), 0..60),
        ],
    ))
}

fn head() -> impl Strategy<Value = (String, Vec<String>)> {
    let line = prop_oneof![
        16 => (method(), target(), version()).prop_map(|(m, t, v)| format!("{m} {t} {v}")),
        1 => "[ -~]{0,60}",
        1 => prop::collection::vec(any::<u8>(), 0..60)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ];
    (line, prop::collection::vec(header(), 0..4))
}

/// Cases of the raw fuzz: each is one connection, so this bounds the run well under a minute
/// on 2 cores; `PROPTEST_CASES` raises it for a longer hunt.
const FUZZ_CASES: u32 = 5000;

#[test]
fn fuzzed_raw_request_heads_never_get_a_5xx_a_dropped_connection_or_a_panic() {
    let served = Logged::start();
    let key = &served.key;
    let mut runner = TestRunner::new(crate::fuzzing::config(FUZZ_CASES));
    let seen = std::cell::RefCell::new(std::collections::BTreeMap::<String, usize>::new());
    let result = runner.run(&(head(), body()), |((line, headers), body)| {
        let mut request = format!("{line}\r\nHost: saferef.test\r\nX-API-Key: {key}\r\n");
        for h in &headers {
            request.push_str(h);
            request.push_str("\r\n");
        }
        let mut request = request.into_bytes();
        match &body {
            None => request.extend_from_slice(b"Connection: close\r\n\r\n"),
            Some((false, bytes)) => {
                let length = format!(
                    "Content-Length: {}\r\nConnection: close\r\n\r\n",
                    bytes.len()
                );
                request.extend_from_slice(length.as_bytes());
                request.extend_from_slice(bytes);
            }
            Some((true, bytes)) => {
                request
                    .extend_from_slice(b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
                if !bytes.is_empty() {
                    request.extend_from_slice(format!("{:x}\r\n", bytes.len()).as_bytes());
                    request.extend_from_slice(bytes);
                    request.extend_from_slice(b"\r\n");
                }
                request.extend_from_slice(b"0\r\n\r\n");
            }
        }
        let answer = served.exchange(&request);
        let request = String::from_utf8_lossy(&request);
        let Some(status) = answer.status else {
            return Err(TestCaseError::fail(format!(
                "no answer to {request:?}: {:?}",
                answer.raw
            )));
        };
        prop_assert!(status < 500, "{status} for {request:?}: {}", answer.raw);
        let head_only = line.starts_with("HEAD ");
        let kind = if status < 400 || head_only || answer.is_json_error() {
            "service"
        } else if line.contains("/badge/") && answer.is_badge_error() {
            "badge"
        } else {
            return Err(TestCaseError::fail(format!(
                "{status} without a JSON error for {request:?}: {}",
                answer.raw
            )));
        };
        *seen
            .borrow_mut()
            .entry(format!("{kind} {status}"))
            .or_default() += 1;
        Ok(())
    });
    assert_eq!(served.panics(), Vec::<String>::new());
    result.unwrap();
    eprintln!("raw heads answered: {:?}", seen.borrow());
}

/// The suite's no-panic check reads a server's log as Rust's panic handler writes it: every
/// server the binary helpers start is checked when dropped (`support::binary::Server`), and
/// a task of an in-process server that panics aborts its test (`support::refuse_server_panics`).
#[test]
fn the_suite_s_panic_check_sees_a_panic_line() {
    use crate::support::binary::assert_no_panic;
    assert_no_panic("INFO request status=200\nWARN store: slow\n");
    let line = "thread 'tokio-runtime-worker' panicked at /root/.cargo/registry/src/warp-0.3.7/src/filters/path.rs:360:47:\nstatic str is not valid path";
    let caught = std::panic::catch_unwind(|| assert_no_panic(line));
    assert!(caught.is_err(), "a panic line must fail the check");
}
