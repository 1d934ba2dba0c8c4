//! Faults and secrets, against the real `saferef-serve` binary: Redis stopped under load (keyed
//! requests get a 503 JSON error, public files keep answering, and everything resumes when
//! Redis returns, without restarting the runtime); SIGKILLs during key rotation (one active
//! key per account afterwards, on both backends); no secret in a debug log; and one 401 for
//! every refused key, so a guesser learns nothing from the answer.

use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use base64::Engine;
use rand::Rng;
use reqwest::{Method, StatusCode};
use saferef_generator::build::site::header_lines;
use saferef_generator::build::site::routes::compound_group;
use saferef_generator::load::snapshot;
use saferef_runtime::Config;
use saferef_runtime::keys::{self, KeyRecord};
use saferef_runtime::store::Store;
use saferef_runtime::tier::Tier;
use serde_json::{Value, json};
use warp::Filter;

use crate::support::binary::{self, Server};
use crate::support::data_dir;
use crate::support::mail::{code_in, key_in, new_mail, outbox};
use crate::support::redis::RedisServer;

/// A compound whose page is a file of the static tree (public, no key).
const COMPOUND: &str = "hq-c-org-000001";

/// The files of a small served tree, made once: the dataset snapshot (the binary starts on it
/// without building a site) and `COMPOUND`'s page as the build writes it, with its routing
/// rule and header block.
fn tree_files() -> &'static Vec<(String, Vec<u8>)> {
    static FILES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let (dataset, _) = saferef_generator::load::load(&data_dir()).unwrap();
        let path = format!("/api/compound/{COMPOUND}");
        let page = compound_group(&dataset, COMPOUND)
            .into_iter()
            .find(|r| r.path == path && r.query.is_none())
            .unwrap();
        let mut headers = format!("{path}\n");
        for (name, value) in header_lines(&page.rendered) {
            headers.push_str(&format!("  {name}: {value}\n"));
        }
        vec![
            (
                snapshot::PATH.to_string(),
                snapshot::encode(&dataset).unwrap(),
            ),
            (
                "_redirects".to_string(),
                b"/api/compound/:id /api/compound/:id.json 200\n".to_vec(),
            ),
            ("_headers".to_string(), headers.into_bytes()),
            (page.file, page.rendered.body),
        ]
    })
}

/// Writes the tree under `root` (`root/site`, and an empty `root/data`).
fn tree(root: &Path) {
    for (file, bytes) in tree_files() {
        let path = root.join("site").join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    std::fs::create_dir_all(root.join("data")).unwrap();
}

/// Starts the binary on a tree of its own in `state` (blocking until it listens, so off the
/// async runtime).
async fn serve(state: &Path, env: &[(&str, &str)], log: Option<&Path>) -> Server {
    let state = state.to_path_buf();
    let log = log.map(Path::to_path_buf);
    let env: Vec<(String, String)> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    tokio::task::spawn_blocking(move || {
        let root = state.join("tree");
        if !root.is_dir() {
            tree(&root);
        }
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        binary::serve_logged(
            &root.join("data"),
            &root.join("site"),
            &state,
            &env,
            log.as_deref(),
        )
    })
    .await
    .unwrap()
}

/// A request with an optional key and JSON body: status, content type and JSON body (null
/// when not JSON); `None` when no answer came (connection refused or reset, timeout).
async fn call(
    client: &reqwest::Client,
    method: Method,
    url: &str,
    key: Option<&str>,
    body: Option<&Value>,
) -> Option<(StatusCode, String, Value)> {
    let mut req = client.request(method, url);
    if let Some(k) = key {
        req = req.header("x-api-key", k);
    }
    if let Some(b) = body {
        req = req.json(b);
    }
    answer(req).await
}

/// Sends `req`: as `call`.
async fn answer(req: reqwest::RequestBuilder) -> Option<(StatusCode, String, Value)> {
    let res = req.send().await.ok()?;
    let status = res.status();
    let content_type = res
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let bytes = res.bytes().await.ok()?;
    Some((
        status,
        content_type,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    ))
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap()
}

/// Whether a response is an error: JSON `{"error": "<text>", "code": "<code>"}` and nothing
/// else.
fn is_error_body(content_type: &str, body: &Value) -> bool {
    content_type.starts_with("application/json")
        && body.as_object().is_some_and(|o| o.len() == 2)
        && body["error"].as_str().is_some_and(|e| !e.is_empty())
        && body["code"].as_str().is_some_and(|c| {
            saferef_generator::render::error::CODES
                .iter()
                .any(|(code, _, _)| code == &c)
        })
}

/// A webhook receiver on loopback that records every delivery of the test event
/// (`webhook.test`) and fails the first `failures` of them with a 500. Other events are
/// answered 200 and not recorded. (The webhooks here follow only the test event: the release
/// the runtime emits at start would queue hundreds of deliveries ahead of it.)
/// (X-Service-Signature, body) of one test delivery.
type Hit = (String, Vec<u8>);

struct Receiver {
    url: String,
    hits: Arc<Mutex<Vec<Hit>>>,
}

impl Receiver {
    async fn start(failures: usize) -> Receiver {
        let hits: Arc<Mutex<Vec<Hit>>> = Arc::default();
        let seen = hits.clone();
        let route = warp::header::headers_cloned().and(warp::body::bytes()).map(
            move |headers: warp::http::HeaderMap, body: bytes::Bytes| {
                let event: Value = serde_json::from_slice(&body).unwrap_or_default();
                if event["type"] != "webhook.test" {
                    return warp::http::StatusCode::OK;
                }
                let signature = headers
                    .get("x-service-signature")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default()
                    .to_string();
                let mut hits = seen.lock().unwrap();
                hits.push((signature, body.to_vec()));
                if hits.len() <= failures {
                    warp::http::StatusCode::INTERNAL_SERVER_ERROR
                } else {
                    warp::http::StatusCode::OK
                }
            },
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(warp::serve(route).incoming(listener).run());
        Receiver {
            url: format!("http://127.0.0.1:{port}/hook"),
            hits,
        }
    }

    fn hits(&self) -> Vec<Hit> {
        self.hits.lock().unwrap().clone()
    }

    async fn wait_for(&self, n: usize, within: Duration) -> Vec<Hit> {
        let deadline = Instant::now() + within;
        while self.hits().len() < n && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        self.hits()
    }
}

/// The delivery log of the test event to webhook `id`, newest first, once it has `n`
/// entries (or the deadline passed).
async fn deliveries(base: &str, key: &str, id: &str, n: usize) -> Vec<Value> {
    let url = format!("{base}/api/webhooks?action=deliveries&webhook_id={id}&limit=50");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let log: Vec<Value> = match call(&client(), Method::GET, &url, Some(key), None).await {
            Some((StatusCode::OK, _, body)) => body["deliveries"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|e| e["event_type"] == "webhook.test")
                .cloned()
                .collect(),
            _ => Vec::new(),
        };
        if log.len() >= n || Instant::now() > deadline {
            return log;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The last lines of the runtime's log, for failure messages.
fn tail(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}

const SECRET_KEY: [u8; 32] = [7; 32];

/// What one request of the background load saw.
struct Seen {
    keyed: bool,
    /// The phase when it was sent and when its answer came (see `UP`, `DOWN`, ...).
    phases: (u8, u8),
    answer: Option<(StatusCode, bool)>,
}

const UP: u8 = 0;
const STOPPING: u8 = 1;
const DOWN: u8 = 2;
const RESTARTING: u8 = 3;
const RESUMED: u8 = 4;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn redis_stopped_under_load_gives_503s_and_everything_resumes() {
    let mut redis = RedisServer::start();
    let url = redis.url.clone();
    let redis_env = [("SAFEREF_REDIS_URL", url.as_str())];
    let state = tempfile::tempdir().unwrap();
    let dev = binary::create_key_with(state.path(), "developer", &redis_env);
    let pro = binary::create_key_with(state.path(), "pro", &redis_env);
    let secret = base64::engine::general_purpose::STANDARD.encode(SECRET_KEY);
    let log = state.path().join("serve.log");
    let mut server = serve(
        state.path(),
        &[
            ("SAFEREF_REDIS_URL", &url),
            ("SAFEREF_SECRET_KEY", &secret),
            ("SAFEREF_WEBHOOK_ALLOW_LOOPBACK", "true"),
            ("SAFEREF_WEBHOOK_RETRY_DELAYS", "6000"),
            ("SAFEREF_TRUSTED_PROXY_HEADER", "x-forwarded-for"),
        ],
        Some(&log),
    )
    .await;
    let base = server.base.clone();
    let http = client();

    // Real state through the API: a watchlist entry, a webhook whose first delivery fails
    // (so it waits in the queue for its retry).
    let (status, _, body) = call(
        &http,
        Method::POST,
        &format!("{base}/api/watchlist"),
        Some(&pro),
        Some(&json!({"compounds": [COMPOUND]})),
    )
    .await
    .unwrap();
    assert!(status.is_success(), "{status} {body}");
    let receiver = Receiver::start(1).await;
    let (status, _, hook) = call(
        &http,
        Method::POST,
        &format!("{base}/api/webhooks"),
        Some(&dev),
        Some(&json!({"url": receiver.url, "events": ["webhook.test"]})),
    )
    .await
    .unwrap();
    assert_eq!(status, 201, "{hook}");
    let hook_id = hook["id"].as_str().unwrap().to_string();
    let (status, _, _) = call(
        &http,
        Method::POST,
        &format!("{base}/api/webhooks/test/{hook_id}"),
        Some(&dev),
        None,
    )
    .await
    .unwrap();
    assert_eq!(status, 202);
    let log_entries = deliveries(&base, &dev, &hook_id, 1).await;
    assert_eq!(log_entries[0]["outcome"], "retrying", "{log_entries:?}");
    let page_url = format!("{base}/api/compound/{COMPOUND}");
    let page = http.get(&page_url).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let page = page.bytes().await.unwrap();

    // Background load: keyed and public requests from several clients, each answer noted
    // with the phase it was sent and answered in.
    let phase = Arc::new(AtomicU8::new(UP));
    let stop = Arc::new(AtomicBool::new(false));
    let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
    let targets: Vec<(String, Option<String>)> = vec![
        (format!("{base}/api/compounds?limit=5"), Some(dev.clone())),
        (format!("{base}/api/search?q=benzene"), Some(pro.clone())),
        (format!("{base}/api/keys/status"), Some(dev.clone())),
        (page_url.clone(), None),
        (format!("{base}/api/health"), None),
    ];
    let load: Vec<_> = (0..6)
        .map(|worker| {
            let (phase, stop, seen, targets) =
                (phase.clone(), stop.clone(), seen.clone(), targets.clone());
            tokio::spawn(async move {
                let http = client();
                let mut n = worker;
                while !stop.load(Ordering::SeqCst) {
                    let (url, key) = &targets[n % targets.len()];
                    n += 1;
                    let sent = phase.load(Ordering::SeqCst);
                    let req = match key {
                        Some(k) => http.get(url).header("x-api-key", k),
                        // A client address of its own (the runtime trusts the header here),
                        // so the public per-IP quota does not end the load.
                        None => http.get(url).header(
                            "x-forwarded-for",
                            format!("10.{worker}.{}.{}", n / 250 % 250, n % 250),
                        ),
                    };
                    let got = answer(req)
                        .await
                        .map(|(s, t, b)| (s, s == 200 || is_error_body(&t, &b)));
                    seen.lock().unwrap().push(Seen {
                        keyed: key.is_some(),
                        phases: (sent, phase.load(Ordering::SeqCst)),
                        answer: got,
                    });
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_secs(1)).await;

    phase.store(STOPPING, Ordering::SeqCst);
    tokio::task::block_in_place(|| redis.stop());
    phase.store(DOWN, Ordering::SeqCst);
    let aof = redis.aof();
    for written in [
        hook_id.as_bytes(),
        keys::hash(&dev).as_bytes(),
        keys::hash(&pro).as_bytes(),
    ] {
        assert!(
            aof.windows(written.len()).any(|w| w == written),
            "the AOF holds {}",
            String::from_utf8_lossy(written)
        );
    }
    assert_eq!(
        receiver.hits().len(),
        1,
        "the retry must still be queued when Redis stops"
    );

    // While Redis is down: every keyed request is a 503 JSON error (never data, never a
    // 401 that would tell a customer their key is bad); public files and health answer.
    let unknown = keys::generate();
    let keyed = [
        (Method::GET, "/api/compounds?limit=5", dev.as_str()),
        (Method::GET, "/api/keys/status", pro.as_str()),
        (Method::GET, "/api/watchlist", pro.as_str()),
        (Method::GET, "/api/webhooks", dev.as_str()),
        (Method::POST, "/api/keys/rotate", dev.as_str()),
        (Method::GET, "/api/search?q=benzene", unknown.as_str()),
    ]
    .map(|(method, path, key)| {
        let http = http.clone();
        let url = format!("{base}{path}");
        async move { (path, call(&http, method, &url, Some(key), None).await) }
    });
    let public = async {
        let page = http.get(&page_url).send().await.unwrap();
        (page.status(), page.bytes().await.unwrap())
    };
    let health_url = format!("{base}/api/health");
    let health = call(&http, Method::GET, &health_url, None, None);
    let (keyed, (page_status, page_during), health) =
        tokio::join!(futures_util::future::join_all(keyed), public, health);
    for (path, answer) in keyed {
        let (status, content_type, body) = answer.unwrap_or_else(|| panic!("{path}: no answer"));
        assert_eq!(status, 503, "{path}: {body}");
        assert!(is_error_body(&content_type, &body), "{path}: {body}");
    }
    assert_eq!(page_status, 200, "the static page while Redis is down");
    assert_eq!(page_during, page);
    let (status, _, health) = health.unwrap();
    assert_eq!(status, 200, "{health}");
    assert_eq!(health["status"], "ok");

    // Down long enough for load requests of both kinds to be sent and answered while down.
    let deadline = Instant::now() + Duration::from_secs(20);
    while [true, false].iter().any(|keyed| {
        !seen
            .lock()
            .unwrap()
            .iter()
            .any(|s| s.keyed == *keyed && s.phases == (DOWN, DOWN))
    }) {
        assert!(Instant::now() < deadline, "no load while Redis was down");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // Redis back on the same directory and port; the runtime reconnects by itself.
    phase.store(RESTARTING, Ordering::SeqCst);
    tokio::task::block_in_place(|| redis.resume());
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let answer = call(
            &http,
            Method::GET,
            &format!("{base}/api/keys/status"),
            Some(&dev),
            None,
        )
        .await;
        if answer.as_ref().is_some_and(|(s, _, _)| *s == 200) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no recovery within 30 s: {answer:?}\n{}",
            tail(&log)
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    phase.store(RESUMED, Ordering::SeqCst);
    assert!(
        server.child.try_wait().unwrap().is_none(),
        "the runtime was not restarted"
    );

    // Keys, watchlist and webhook registration are intact, and the queued delivery arrives.
    for (key, tier) in [(&dev, "developer"), (&pro, "pro")] {
        let (status, _, body) = call(
            &http,
            Method::GET,
            &format!("{base}/api/keys/status"),
            Some(key),
            None,
        )
        .await
        .unwrap();
        assert_eq!(
            (status, body["tier"].as_str()),
            (StatusCode::OK, Some(tier))
        );
    }
    let (_, _, watched) = call(
        &http,
        Method::GET,
        &format!("{base}/api/watchlist"),
        Some(&pro),
        None,
    )
    .await
    .unwrap();
    let ids: Vec<&str> = watched["watchlist"]
        .as_array()
        .unwrap_or_else(|| panic!("{watched}"))
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [COMPOUND]);
    let (_, _, hooks) = call(
        &http,
        Method::GET,
        &format!("{base}/api/webhooks"),
        Some(&dev),
        None,
    )
    .await
    .unwrap();
    assert_eq!(hooks["webhooks"][0]["id"], hook_id.as_str(), "{hooks}");
    let hits = receiver.wait_for(2, Duration::from_secs(30)).await;
    assert_eq!(
        hits.len(),
        2,
        "the queued retry is delivered\n{}",
        tail(&log)
    );
    assert_eq!(hits[0].1, hits[1].1, "the same event");
    let log_entries = deliveries(&base, &dev, &hook_id, 2).await;
    assert_eq!(log_entries[0]["outcome"], "delivered", "{log_entries:?}");
    assert_eq!(log_entries[0]["attempt"], 2);

    tokio::time::sleep(Duration::from_millis(500)).await;
    stop.store(true, Ordering::SeqCst);
    for task in load {
        task.await.unwrap();
    }
    let seen = seen.lock().unwrap();
    let count = |keyed: bool, phases: (u8, u8), status: u16| {
        seen.iter()
            .filter(|s| s.keyed == keyed && s.phases == phases)
            .filter(|s| s.answer.is_some_and(|(got, _)| got == status))
            .count()
    };
    let total = |keyed: bool, phases: (u8, u8)| {
        seen.iter()
            .filter(|s| s.keyed == keyed && s.phases == phases)
            .count()
    };
    for s in seen.iter() {
        let (status, well_formed) = s
            .answer
            .unwrap_or_else(|| panic!("a request got no answer"));
        assert!(
            well_formed && (status == 200 || (s.keyed && status == 503)),
            "{status} (keyed: {}, phases {:?})",
            s.keyed,
            s.phases
        );
    }
    for (phases, keyed_status) in [
        ((UP, UP), 200),
        ((DOWN, DOWN), 503),
        ((RESUMED, RESUMED), 200),
    ] {
        assert!(
            total(true, phases) > 0,
            "keyed requests in phase {phases:?}"
        );
        assert_eq!(
            count(true, phases, keyed_status),
            total(true, phases),
            "keyed in {phases:?}"
        );
        assert!(
            total(false, phases) > 0,
            "public requests in phase {phases:?}"
        );
        assert_eq!(
            count(false, phases, 200),
            total(false, phases),
            "public in {phases:?}"
        );
    }
    drop(redis);
}

/// Where a kill test keeps its keys: the binary's embedded store under `--state`, or a Redis
/// of the test's own.
enum Backend {
    Embedded,
    Redis(RedisServer),
}

impl Backend {
    fn env(&self) -> Vec<(&'static str, String)> {
        match self {
            Backend::Embedded => Vec::new(),
            Backend::Redis(r) => vec![("SAFEREF_REDIS_URL", r.url.clone())],
        }
    }

    /// The store as the binary sees it (only while no binary holds the embedded file).
    async fn open(&self, state: &Path) -> Store {
        match self {
            Backend::Embedded => Store::embedded(&state.join("store.redb")).unwrap(),
            Backend::Redis(r) => Store::redis(&r.url).await.unwrap(),
        }
    }

    fn name(&self) -> &'static str {
        match self {
            Backend::Embedded => "embedded",
            Backend::Redis(_) => "redis",
        }
    }
}

/// Rotates `key` again and again until the runtime stops answering: every key received,
/// in order, and whether a rotation was left unanswered (sent as the runtime died).
async fn rotate_until_killed(base: String, key: String) -> (Vec<String>, bool) {
    let http = client();
    let mut received = Vec::new();
    let mut current = key;
    loop {
        let url = format!("{base}/api/keys/rotate");
        match call(&http, Method::POST, &url, Some(&current), None).await {
            Some((StatusCode::CREATED, _, body)) => {
                current = body["key"].as_str().unwrap().to_string();
                received.push(current.clone());
            }
            Some(other) => panic!("a rotation answered {other:?}"),
            None => return (received, true),
        }
    }
}

/// The key records of `account`.
async fn records_of(store: &Store, account: &str) -> Vec<KeyRecord> {
    keys::list(store)
        .await
        .unwrap()
        .into_iter()
        .filter(|r| r.account_id() == account)
        .collect()
}

async fn account_of(backend: &Backend, state: &Path, key: &str) -> String {
    let store = backend.open(state).await;
    let record = keys::lookup(&store, key).await.unwrap().unwrap();
    record.account_id().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_runtime_killed_during_rotations_leaves_one_key_per_account() {
    const ROUNDS: usize = 6;
    let redis = RedisServer::start();
    for backend in [Backend::Embedded, Backend::Redis(redis)] {
        let name = backend.name();
        let (mut rotations, mut unannounced) = (0, 0);
        let state = tempfile::tempdir().unwrap();
        let env = backend.env();
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let mut key = binary::create_key_with(state.path(), "developer", &env);
        let mut account = account_of(&backend, state.path(), &key).await;
        let mut retired: Vec<String> = Vec::new();
        for round in 0..=ROUNDS {
            let mut server = serve(state.path(), &env, None).await;
            // What the previous round left holds over a restart, through the real API.
            let status_url = format!("{}/api/keys/status", server.base);
            let (status, _, body) = call(&client(), Method::GET, &status_url, Some(&key), None)
                .await
                .unwrap();
            assert_eq!(status, 200, "{name} round {round}: the key in use: {body}");
            for old in retired.iter().rev().take(3) {
                let (status, _, body) = call(&client(), Method::GET, &status_url, Some(old), None)
                    .await
                    .unwrap();
                assert_eq!(status, 401, "{name} round {round}: a replaced key: {body}");
            }
            if round == ROUNDS {
                break;
            }

            let rotating = tokio::spawn(rotate_until_killed(server.base.clone(), key.clone()));
            let wait = rand::rng().random_range(2..150);
            tokio::time::sleep(Duration::from_millis(wait)).await;
            server.child.kill().unwrap();
            server.child.wait().unwrap();
            let (received, unanswered) = rotating.await.unwrap();
            rotations += received.len();
            assert!(unanswered);
            let held = received.last().cloned().unwrap_or_else(|| key.clone());
            retired.push(key.clone());
            retired.extend(
                received
                    .iter()
                    .take(received.len().saturating_sub(1))
                    .cloned(),
            );

            // Exactly one record for the account, usable, never a replaced key: the key the
            // client holds, or the one its unanswered rotation made. That rotation may have
            // committed before the kill without its answer reaching the client (a window no
            // rotation can close without handing the new key to whoever holds the old one);
            // the account then recovers by mail.
            let store = backend.open(state.path()).await;
            let records = records_of(&store, &account).await;
            drop(store);
            assert_eq!(
                records.len(),
                1,
                "{name} round {round} (killed after {wait} ms, {} rotations): {records:?}",
                received.len()
            );
            assert!(records[0].usable(chrono::Utc::now()), "{name}: {records:?}");
            assert!(
                !retired.iter().any(|k| keys::hash(k) == records[0].hash),
                "{name} round {round}: a replaced key is active again"
            );
            if records[0].hash == keys::hash(&held) {
                key = held;
            } else {
                unannounced += 1;
                retired.push(held);
                key = binary::create_key_with(state.path(), "developer", &env);
                account = account_of(&backend, state.path(), &key).await;
            }
        }
        println!(
            "{name}: {rotations} rotations answered over {ROUNDS} kills; {unannounced} kills fell \
             after a rotation committed and before its answer arrived"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn no_secret_reaches_a_debug_log() {
    let random = keys::random_base62;
    let admin = format!("adm_{}", random(24));
    let payment = format!("whsec_{}", random(24));
    let proxy = format!("mkt_{}", random(24));
    let password = random(24);
    let secret_key = base64::engine::general_purpose::STANDARD.encode(
        (0..32)
            .map(|_| rand::rng().random::<u8>())
            .collect::<Vec<u8>>(),
    );
    let email = format!("grace.{}@example.org", random(8).to_lowercase());
    let payer = format!("ada.{}@example.org", random(8).to_lowercase());
    // (what, value) of everything that must stay out of the log.
    let mut secrets: Vec<(&str, String)> = vec![
        ("admin token", admin.clone()),
        ("payment webhook secret", payment.clone()),
        ("marketplace proxy secret", proxy.clone()),
        ("Redis password", password.clone()),
        ("SAFEREF_SECRET_KEY", secret_key.clone()),
        ("trial e-mail address", email.clone()),
        ("payer e-mail address", payer.clone()),
    ];

    let redis = RedisServer::start_with_password(&password);
    let url = redis.url.clone();
    let state = tempfile::tempdir().unwrap();
    let key = binary::create_key_with(state.path(), "developer", &[("SAFEREF_REDIS_URL", &url)]);
    secrets.push(("API key", key.clone()));
    let log = state.path().join("serve.log");
    let server = serve(
        state.path(),
        &[
            ("RUST_LOG", "debug"),
            ("SAFEREF_REDIS_URL", &url),
            ("SAFEREF_ADMIN_TOKEN", &admin),
            ("SAFEREF_PAYMENT_WEBHOOK_SECRET", &payment),
            ("SAFEREF_PAYMENT_PRICES", "price_pro=pro"),
            ("SAFEREF_MARKETPLACE_PROXY_SECRET", &proxy),
            ("SAFEREF_SECRET_KEY", &secret_key),
            ("SAFEREF_WEBHOOK_ALLOW_LOOPBACK", "true"),
        ],
        Some(&log),
    )
    .await;
    let base = server.base.clone();
    let http = client();
    let expect = |answer: Option<(StatusCode, String, Value)>, status: u16, what: &str| {
        let (got, _, body) = answer.unwrap_or_else(|| panic!("{what}: no answer"));
        assert_eq!(got, status, "{what}: {body}");
        body
    };

    // The key in the header and in the query; an unknown key in the query.
    let list = format!("{base}/api/compounds?limit=2");
    expect(
        call(&http, Method::GET, &list, Some(&key), None).await,
        200,
        "header key",
    );
    let in_query = format!("{list}&api_key={key}");
    expect(
        call(&http, Method::GET, &in_query, None, None).await,
        200,
        "query key",
    );
    let unknown = keys::generate();
    let in_query = format!("{list}&api_key={unknown}");
    expect(
        call(&http, Method::GET, &in_query, None, None).await,
        401,
        "unknown key",
    );
    secrets.push(("unknown API key", unknown));

    // Webhooks: a chosen and a generated signing secret, and a signed delivery.
    let receiver = Receiver::start(0).await;
    let chosen = format!("whsec_{}", random(32));
    let hooks = format!("{base}/api/webhooks");
    let body = json!({"url": receiver.url, "events": ["webhook.test"], "signing_secret": chosen});
    let hook = expect(
        call(&http, Method::POST, &hooks, Some(&key), Some(&body)).await,
        201,
        "webhook",
    );
    secrets.push(("chosen signing secret", chosen));
    let body = json!({"url": receiver.url, "events": ["webhook.test"]});
    let generated = expect(
        call(&http, Method::POST, &hooks, Some(&key), Some(&body)).await,
        201,
        "webhook",
    );
    secrets.push((
        "generated signing secret",
        generated["signing_secret"].as_str().unwrap().to_string(),
    ));
    let test = format!("{base}/api/webhooks/test/{}", hook["id"].as_str().unwrap());
    expect(
        call(&http, Method::POST, &test, Some(&key), None).await,
        202,
        "webhook test",
    );
    let hits = receiver.wait_for(1, Duration::from_secs(20)).await;
    let signature = &hits.first().expect("the test delivery").0;
    let digest = signature.rsplit('=').next().unwrap().to_string();
    assert_eq!(digest.len(), 64, "{signature}");
    secrets.push(("delivery signature", digest));

    // A signed payment notification, which mails the payer a key.
    let event = json!({
        "id": format!("evt_{}", random(12)), "type": "checkout.session.completed",
        "created": chrono::Utc::now().timestamp(),
        "data": {"object": {"customer": "cus_secret", "subscription": "sub_secret",
                            "customer_email": payer, "price": "price_pro"}}
    })
    .to_string();
    let signed =
        crate::support::provider_signature(&event, chrono::Utc::now().timestamp(), &payment);
    let mailed = outbox(state.path()).len();
    let res = http
        .post(format!("{base}/api/billing/webhook"))
        .header("content-type", "application/json")
        .header("x-provider-signature", &signed)
        .body(event)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    secrets.push((
        "payment signature",
        signed.rsplit('=').next().unwrap().to_string(),
    ));
    secrets.push(("paid key", key_in(&new_mail(state.path(), mailed).await)));

    // A trial key, then its recovery by a mailed code (the new key comes in the answer).
    let trial = format!("{base}/api/keys/trial");
    let mailed = outbox(state.path()).len();
    let body = json!({"email": email});
    expect(
        call(&http, Method::POST, &trial, None, Some(&body)).await,
        202,
        "trial",
    );
    secrets.push(("trial key", key_in(&new_mail(state.path(), mailed).await)));
    let recover = format!("{base}/api/keys/recover");
    let mailed = outbox(state.path()).len();
    expect(
        call(&http, Method::POST, &recover, None, Some(&body)).await,
        202,
        "recover",
    );
    let code = code_in(&new_mail(state.path(), mailed).await);
    let body = json!({"email": email, "code": code});
    let recovered = expect(
        call(&http, Method::POST, &recover, None, Some(&body)).await,
        200,
        "code",
    );
    for k in recovered["keys"].as_array().unwrap() {
        secrets.push(("recovered key", k["key"].as_str().unwrap().to_string()));
    }

    // The admin token (and a wrong one), and the marketplace gateway's secret.
    let monitor = format!("{base}/api/health?check=monitor");
    let wrong = format!("adm_{}", random(24));
    for (token, status) in [(&admin, 200), (&wrong, 401)] {
        let res = http
            .get(&monitor)
            .header("authorization", format!("Bearer {token}"))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), status);
    }
    secrets.push(("wrong admin token", wrong));
    let res = http
        .get(format!("{base}/api/compounds?limit=2"))
        .header("x-marketplace-proxy-secret", &proxy)
        .header("x-marketplace-user", "user-1")
        .header("x-marketplace-subscription", "PRO")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    drop(server);

    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains("DEBUG") && text.contains("/api/billing/webhook"),
        "the log is at debug level and has the requests:\n{}",
        tail(&log)
    );
    for (what, secret) in &secrets {
        assert!(!text.contains(secret.as_str()), "the log holds the {what}");
    }

    // A Redis that cannot be reached is reported without its password.
    drop(redis);
    let root = state.path().join("tree");
    let out = Command::new(env!("CARGO_BIN_EXE_saferef-serve"))
        .args(["--listen", "127.0.0.1:0", "--data"])
        .arg(root.join("data"))
        .arg("--site")
        .arg(root.join("site"))
        .arg("--state")
        .arg(state.path())
        .env("RUST_LOG", "debug")
        .env("SAFEREF_REDIS_URL", &url)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "started without Redis: {stderr}");
    assert!(stderr.contains("Redis"), "{stderr}");
    assert!(
        !stderr.contains(&password),
        "the password is printed: {stderr}"
    );
}

#[tokio::test]
async fn every_refused_key_gets_the_same_401() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::embedded(&dir.path().join("store.redb")).unwrap();
    let (real, _) = keys::create(&store, Tier::Developer, None, None)
        .await
        .unwrap();
    let (revoked, record) = keys::create(&store, Tier::Developer, None, None)
        .await
        .unwrap();
    keys::revoke(&store, &record.prefix).await.unwrap();
    let base = crate::support::start_with(store, Config::default()).await;
    let url = format!("{base}/api/compounds?limit=1");
    let http = client();
    let last_wrong = format!(
        "{}{}",
        &real[..39],
        if real.ends_with('a') { 'b' } else { 'a' }
    );
    let refused = [
        keys::generate(),
        revoked,
        last_wrong,
        real[..39].to_string(),
        format!("{real}0"),
        real.replace("sr_live_", "sr_test_"),
        format!("sr_live_{}", "!".repeat(32)),
        "sr_live_".to_string(),
        "x".to_string(),
    ];
    let mut answers = std::collections::BTreeSet::new();
    for key in &refused {
        let by_header = http.get(&url).header("x-api-key", key);
        let by_query = http.get(&url).query(&[("api_key", key)]);
        for req in [by_header, by_query] {
            let res = req.send().await.unwrap();
            assert_eq!(res.status(), 401, "{key}");
            let content_type = res.headers()["content-type"].clone();
            answers.insert((
                content_type.to_str().unwrap().to_string(),
                res.bytes().await.unwrap(),
            ));
        }
    }
    let res = http
        .get(&url)
        .query(&[("api_key", "sr_live_ü")])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401);
    answers.insert((
        res.headers()["content-type"].to_str().unwrap().to_string(),
        res.bytes().await.unwrap(),
    ));
    assert_eq!(
        answers.len(),
        1,
        "unknown, revoked and malformed keys are told apart: {answers:?}"
    );
    let (status, _, body) = call(&http, Method::GET, &url, Some(&real), None)
        .await
        .unwrap();
    assert_eq!(status, 200, "{body}");
}
