//! What Netlify's CDN may keep of the real `saferef-serve` binary's answers
//! (`http/edge_cache.rs`). On a tree whose rules send every request to the runtime, as
//! `_redirects` proxies the contexts and badges the CDN has no files for, a public caller's 200
//! of an endpoint the tree answers from files (and the docs page) tells the CDN to keep it
//! until the next 00:00 UTC, keyed on its query and on the key headers, tagged with its
//! release, with the dispatch's status and bytes; like a file, it is not counted and carries no
//! quota header. Every other answer tells the CDN `no-store`: keyed ones, by header or query,
//! errors, a badge's error, a 401, a 429, an answer the tree has no file form of. A reload
//! tags the next release's answers with its own fingerprint and asks Netlify's purge API (a
//! local stand-in) to drop the previous release's.

use std::process::Command;
use std::time::{Duration, Instant};

use chrono::Timelike;
use saferef_generator::api;
use saferef_generator::model::vocab::WatchClass;
use saferef_generator::render::{Rendered, dispatch};

use crate::support::binary::{Served, Server};
use crate::support::dataset;

const CDN: &str = "netlify-cdn-cache-control";
const TAGS: &str = "netlify-cache-tag";
const VARY: &str = "netlify-vary";
const QUOTA: [&str; 5] = [
    "x-ratelimit-limit",
    "x-ratelimit-remaining",
    "ratelimit",
    "ratelimit-policy",
    "x-usage-warning",
];

/// A request (its path and query, and its headers) and the status it answers.
type Case<'a> = (String, Vec<(&'a str, &'a str)>, u16);

struct Answer {
    status: u16,
    headers: reqwest::header::HeaderMap,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(|v| v.to_str().unwrap())
    }
}

fn get(server: &Server, path: &str, headers: &[(&str, &str)]) -> Answer {
    let mut req = reqwest::blocking::Client::new().get(format!("{}{path}", server.base));
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    let res = req.send().unwrap();
    let (status, headers) = (res.status().as_u16(), res.headers().clone());
    Answer {
        status,
        headers,
        body: res.bytes().unwrap().to_vec(),
    }
}

/// What the one dispatch answers a public caller for `path`.
fn rendered(d: &saferef_generator::model::Dataset, path: &str) -> Rendered {
    let (route, query) = path.split_once('?').unwrap_or((path, ""));
    dispatch::get_static(d, route, &api::pairs(query), None)
}

/// Asserts `a` tells the CDN to keep it until a midnight UTC, tagged with `release`.
fn assert_kept(path: &str, a: &Answer, release: &str) {
    let now = chrono::Utc::now().num_seconds_from_midnight();
    let policy = a.header(CDN).unwrap_or_else(|| panic!("{path}: no {CDN}"));
    let seconds: u32 = policy
        .strip_prefix("public, max-age=")
        .and_then(|p| p.strip_suffix(", must-revalidate"))
        .unwrap_or_else(|| panic!("{path}: {policy}"))
        .parse()
        .unwrap();
    assert!((1..=86_400).contains(&seconds), "{path}: {policy}");
    // Kept until a midnight UTC, within the few seconds the request took.
    let lands = (now + seconds) % 86_400;
    assert!(lands <= 5 || lands >= 86_395, "{path}: {policy} at {now} s");
    let tags: Vec<&str> = a.header(TAGS).unwrap().split(',').collect();
    assert!(tags.contains(&release), "{path}: {tags:?}");
    assert_eq!(
        a.header(VARY),
        Some("query,header=X-API-Key|X-Marketplace-Proxy-Secret"),
        "{path}"
    );
    assert_eq!(a.header("x-api-tier"), Some("public"), "{path}");
    for name in QUOTA {
        assert!(
            a.header(name).is_none(),
            "{path}: {name} would be repeated to others"
        );
    }
}

/// Asserts `a` tells the CDN to keep nothing, and names no release.
fn assert_not_kept(what: &str, a: &Answer) {
    assert_eq!(a.header(CDN), Some("no-store"), "{what}: {}", a.status);
    assert!(
        a.header(TAGS)
            .is_none_or(|t| !t.contains("saferef-release-")),
        "{what}"
    );
    assert!(a.header(VARY).is_none(), "{what}");
}

fn remaining(server: &Server) -> u64 {
    let a = get(server, "/api/lookup?q=benzene", &[]);
    assert_eq!(a.status, 200);
    assert_not_kept("a lookup: the tree has no file of it", &a);
    a.header("x-ratelimit-remaining").unwrap().parse().unwrap()
}

#[test]
fn public_answers_of_the_proxied_forms_are_kept_at_the_edge_and_nothing_else_is() {
    let d = dataset();
    let served = Served::of(&d, "developer", &[]);
    let (server, key) = (&served.server, &served.key);
    let release = format!("saferef-release-{}", d.fingerprint);
    // Compounds on no watch list: their answers are public by their own `Cache-Control`.
    let public = || {
        d.compounds
            .values()
            .filter(|r| r.watch_class == WatchClass::None)
    };
    let answers = |context: &str, status: u16| {
        public()
            .map(|r| format!("/api/compound/{}?context={context}", r.hq_id))
            .find(|path| rendered(&d, path).status == status)
            .unwrap_or_else(|| panic!("a compound answering {status} for {context}"))
    };
    // A compound answering 200 for dogs and, by an alias, for children.
    let id = public()
        .map(|r| r.hq_id.to_string())
        .find(|id| {
            ["dog", "kids"]
                .iter()
                .all(|c| rendered(&d, &format!("/api/compound/{id}?context={c}")).status == 200)
        })
        .expect("a compound answering for dogs and children");
    // A watched compound's answer is private: the CDN may not keep it either.
    let watched = d
        .compounds
        .values()
        .filter(|r| r.watch_class != WatchClass::None)
        .map(|r| format!("/api/compound/{}", r.hq_id))
        .find(|path| rendered(&d, path).status == 200)
        .expect("a watched compound's record");
    let dog = format!("/api/compound/{id}?context=dog");

    // The proxied forms: two of the contexts without files, a badge in another context, an
    // alias, the same under `/api/v1/`, and the record itself (a file on the CDN, the
    // runtime's here).
    let kept = [
        dog.clone(),
        answers("pollinator", 200),
        format!("/api/badge/{id}?context=dog"),
        format!("/api/compound/{id}?context=kids"),
        format!("/api/compound/{id}"),
    ];
    let before = remaining(server);
    for path in &kept {
        let a = get(server, path, &[]);
        let want = rendered(&d, path);
        assert_eq!(a.status, 200, "{path}");
        assert_eq!(a.body, want.body, "{path}: the dispatch's bytes");
        assert_eq!(
            a.header("cache-control"),
            Some(want.cache.header()),
            "{path}"
        );
        assert_kept(path, &a, &release);
        if let Some(purge) = &want.surrogate_key {
            assert!(
                a.header(TAGS).unwrap().split(',').any(|t| t == purge),
                "{path}"
            );
        }
        let v1 = get(server, &format!("/api/v1{}", &path[4..]), &[]);
        assert_eq!(
            (v1.status, &v1.body),
            (200, &want.body),
            "{path} under /api/v1"
        );
        assert_kept(path, &v1, &release);
    }
    // Not one of them counted, as the CDN counts none (only the lookup asking is).
    assert_eq!(remaining(server), before - 1, "none counted");
    let docs = get(server, "/api/docs", &[]);
    assert_eq!(docs.status, 200);
    assert_kept("/api/docs", &docs, &release);

    // Keyed callers, errors and answers with no file form are never kept.
    let unknown = "/api/compound/hq-c-org-999999".to_string();
    let not_kept: Vec<Case<'_>> = vec![
        (dog.clone(), vec![("x-api-key", key.as_str())], 200),
        (format!("{dog}&api_key={key}"), vec![], 200),
        (
            format!("/api/badge/{id}?context=dog"),
            vec![("x-api-key", key.as_str())],
            200,
        ),
        (dog.clone(), vec![("x-api-key", "sr_live_not_a_key")], 401),
        (answers("pollinator", 422), vec![], 422),
        (unknown, vec![], 404),
        (format!("/api/compound/{id}?context=horse"), vec![], 400),
        (format!("/api/badge/{id}?context=horse"), vec![], 400),
        (watched, vec![], 200),
        ("/api/health".to_string(), vec![], 200),
        ("/api/search?q=benzene".to_string(), vec![], 401),
    ];
    for (path, headers, status) in &not_kept {
        let a = get(server, path, headers);
        assert_eq!(a.status, *status, "{path} {headers:?}");
        assert_not_kept(&format!("{path} {headers:?}"), &a);
    }

    // With the public quota spent, the kept URLs still answer, uncounted; their errors and
    // every other answer are the caller's 429, never kept.
    let spent = (0..600).any(|_| get(server, "/api/health", &[]).status == 429);
    assert!(spent, "the public quota is 500 a day");
    for path in &kept {
        let a = get(server, path, &[]);
        assert_eq!(a.status, 200, "{path}");
        assert_kept(path, &a, &release);
    }
    for path in [
        answers("pollinator", 422),
        format!("/api/badge/{id}?context=horse"),
        "/api/lookup?q=benzene".to_string(),
    ] {
        let a = get(server, &path, &[]);
        assert_eq!(a.status, 429, "{path}");
        assert_not_kept(&path, &a);
        assert_eq!(a.header("x-ratelimit-remaining"), Some("0"), "{path}");
    }
}

/// A local stand-in for Netlify's purge API: each request it gets (its head and body, as
/// text), answered 202 as Netlify answers.
fn purge_api() -> (String, std::sync::mpsc::Receiver<String>) {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let mut stream = stream.unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut head = String::new();
            let mut length = 0;
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                if let Some((name, value)) = line.split_once(':')
                    && name.eq_ignore_ascii_case("content-length")
                {
                    length = value.trim().parse().unwrap();
                }
                head.push_str(&line);
                if line == "\r\n" || line.is_empty() {
                    break;
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            stream
                .write_all(
                    b"HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
                )
                .unwrap();
            let _ = tx.send(head + &String::from_utf8(body).unwrap());
        }
    });
    (base, rx)
}

#[test]
fn a_reload_tags_the_next_release_s_answers_and_purges_the_previous_one_s() {
    let mut d = dataset();
    let (api, purges) = purge_api();
    let served = Served::of(
        &d,
        "developer",
        &[
            ("SAFEREF_NETLIFY_SITE_ID", "site-1"),
            ("SAFEREF_NETLIFY_PURGE_TOKEN", "nfp_token"),
            ("SAFEREF_NETLIFY_API_URL", api.as_str()),
        ],
    );
    let server = &served.server;
    let id = d
        .compounds
        .values()
        .find(|r| r.watch_class == WatchClass::None)
        .unwrap()
        .hq_id;
    let path = format!("/api/compound/{id}");
    let first = get(server, &path, &[]);
    assert_eq!(first.status, 200);
    let first_release = format!("saferef-release-{}", d.fingerprint);
    assert_kept(&path, &first, &first_release);

    d.fingerprint = "edge-release-2".into();
    served.replace(&d);
    let hup = Command::new("kill")
        .args(["-HUP", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(hup.success());
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let a = get(server, &path, &[]);
        assert_eq!(a.status, 200);
        if a.header(TAGS)
            .unwrap()
            .contains("saferef-release-edge-release-2")
        {
            assert_kept(&path, &a, "saferef-release-edge-release-2");
            assert!(
                !a.header(TAGS).unwrap().contains(&first_release),
                "one release"
            );
            break;
        }
        assert!(Instant::now() < deadline, "the release was not loaded");
        std::thread::sleep(Duration::from_millis(100));
    }
    // The previous release's answers, purged by their tag, once.
    let purge = purges.recv_timeout(Duration::from_secs(30)).unwrap();
    let (head, body) = purge.split_once("\r\n\r\n").unwrap();
    assert!(
        head.starts_with("POST /api/v1/purge HTTP/1.1\r\n"),
        "{head}"
    );
    assert!(
        head.lines()
            .any(|l| l.eq_ignore_ascii_case("authorization: Bearer nfp_token")),
        "{head}"
    );
    let body: serde_json::Value = serde_json::from_str(body).unwrap();
    assert_eq!(
        body,
        serde_json::json!({"site_id": "site-1", "cache_tags": [first_release]})
    );
    assert!(
        purges.recv_timeout(Duration::from_secs(1)).is_err(),
        "one purge"
    );
}
