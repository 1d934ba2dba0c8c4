//! Webhooks end to end, against both store backends (embedded and a real Redis): register,
//! list, delete, test and the delivery log with their 400/401/403/404s; signed deliveries to
//! a real HTTP receiver on loopback, verified by Python's hmac (an independent
//! implementation); secrets absent from the store in clear; the SSRF guard at registration
//! and at delivery; retries with backoff, a redirect not followed, leases between two
//! workers; erasure; and a delivery that survives a SIGKILL of the real binary.

use std::collections::VecDeque;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use reqwest::StatusCode;
use saferef_runtime::config::SecretKey;
use saferef_runtime::keys::{self, KeyRecord};
use saferef_runtime::store::Store;
use saferef_runtime::tier::Tier;
use saferef_runtime::{AppState, Config, serve, webhooks};
use serde_json::{Value, json};
use warp::Filter;

use crate::support::binary::{self, Server};
use crate::support::{data_dir, dataset, stores, write_tree};

const SECRET_KEY: [u8; 32] = [42; 32];

fn config(allow_loopback: bool, retries: &[u64]) -> Config {
    Config {
        secret_key: Some(SecretKey(SECRET_KEY)),
        webhook_allow_loopback: allow_loopback,
        webhook_retry_delays: Some(
            retries
                .iter()
                .map(|ms| Duration::from_millis(*ms))
                .collect(),
        ),
        ..Config::default()
    }
}

struct Service {
    base: String,
    state: Arc<AppState>,
}

/// The service over `store` with `config`, and a delivery worker when `worker` is given
/// (its own configuration, so a test can deliver with settings other than it registers).
async fn start(store: Store, config: Config, worker: Option<Config>) -> Service {
    crate::support::refuse_server_panics();
    let (dataset, _) = saferef_generator::load::load(&data_dir()).unwrap();
    let service = saferef_runtime::Service {
        admin_token: Some("admin-secret".into()),
        ..saferef_runtime::Service::new(store.clone(), config)
    };
    let state = Arc::new(AppState::new(
        Arc::new(service),
        saferef_runtime::Release::new(dataset, 0, None),
    ));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve(listener, state.clone(), std::future::pending()));
    if let Some(worker) = worker {
        tokio::spawn(webhooks::worker::run(store, worker));
    }
    Service {
        base: format!("http://{addr}"),
        state,
    }
}

async fn account(store: &Store, tier: Tier) -> (String, KeyRecord) {
    keys::create(store, tier, None, None).await.unwrap()
}

async fn call(
    method: reqwest::Method,
    url: &str,
    key: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = reqwest::Client::new().request(method, url);
    if let Some(k) = key {
        req = req.header("x-api-key", k);
    }
    if let Some(b) = body {
        req = req.json(&b);
    }
    let res = req.send().await.unwrap();
    let status = res.status();
    (status, res.json().await.unwrap_or(Value::Null))
}

async fn register(base: &str, key: &str, body: Value) -> (StatusCode, Value) {
    call(
        reqwest::Method::POST,
        &format!("{base}/api/webhooks"),
        Some(key),
        Some(body),
    )
    .await
}

async fn deliveries(base: &str, key: &str, id: &str) -> Vec<Value> {
    let (status, body) = call(
        reqwest::Method::GET,
        &format!("{base}/api/webhooks?action=deliveries&webhook_id={id}&limit=50"),
        Some(key),
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    body["deliveries"].as_array().unwrap().clone()
}

/// A request the receiver got.
#[derive(Debug, Clone)]
struct Hit {
    path: String,
    signature: String,
    body: Vec<u8>,
    at: Instant,
}

/// A real HTTP receiver on loopback answering with the scripted statuses in turn (then 200);
/// a 302 points at `/elsewhere`.
struct Receiver {
    url: String,
    port: u16,
    hits: Arc<Mutex<Vec<Hit>>>,
}

impl Receiver {
    async fn start(script: &[u16]) -> Receiver {
        let hits: Arc<Mutex<Vec<Hit>>> = Arc::default();
        let script = Arc::new(Mutex::new(script.iter().copied().collect::<VecDeque<_>>()));
        let seen = hits.clone();
        let route = warp::path::full()
            .and(warp::header::headers_cloned())
            .and(warp::body::bytes())
            .map(
                move |path: warp::path::FullPath,
                      headers: warp::http::HeaderMap,
                      body: bytes::Bytes| {
                    seen.lock().unwrap().push(Hit {
                        path: path.as_str().to_string(),
                        signature: headers
                            .get("x-service-signature")
                            .map(|v| v.to_str().unwrap().to_string())
                            .unwrap_or_default(),
                        body: body.to_vec(),
                        at: Instant::now(),
                    });
                    let status = script.lock().unwrap().pop_front().unwrap_or(200);
                    let mut res = warp::reply::Response::new(Vec::new().into());
                    *res.status_mut() = warp::http::StatusCode::from_u16(status).unwrap();
                    if status == 302 {
                        res.headers_mut()
                            .insert("location", "/elsewhere".parse().unwrap());
                    }
                    res
                },
            );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(warp::serve(route).incoming(listener).run());
        Receiver {
            url: format!("http://127.0.0.1:{port}/hook"),
            port,
            hits,
        }
    }

    fn hits(&self) -> Vec<Hit> {
        self.hits.lock().unwrap().clone()
    }

    /// Waits until at least `n` requests arrived.
    async fn wait_for(&self, n: usize, within: Duration) -> Vec<Hit> {
        let deadline = Instant::now() + within;
        loop {
            let hits = self.hits();
            if hits.len() >= n || Instant::now() > deadline {
                return hits;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// Verifies `X-Service-Signature` over the raw body with Python's hmac and hashlib.
fn python_verifies(secret: &str, header: &str, body: &[u8]) -> bool {
    const SCRIPT: &str = r#"
import hashlib, hmac, sys, time
secret, header = sys.argv[1], sys.argv[2]
body = sys.stdin.buffer.read()
parts = dict(p.split("=", 1) for p in header.split(","))
t = parts["t"]
if abs(time.time() - int(t)) > 300:
    sys.exit(2)
expected = hmac.new(secret.encode(), t.encode() + b"." + body, hashlib.sha256).hexdigest()
sys.exit(0 if hmac.compare_digest(expected, parts["sha256"]) else 1)
"#;
    let mut child = Command::new("python3")
        .args(["-c", SCRIPT, secret, header])
        .stdin(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child.stdin.take().unwrap().write_all(body).unwrap();
    child.wait().unwrap().success()
}

/// Every key and value in `store` as text.
async fn dump(store: &Store) -> Vec<(String, String)> {
    store
        .scan("")
        .await
        .unwrap()
        .into_iter()
        .map(|(k, v)| (k, String::from_utf8_lossy(&v).into_owned()))
        .collect()
}

/// A compound id of the dataset.
fn compound(state: &AppState, n: usize) -> String {
    state
        .release
        .dataset
        .compounds
        .keys()
        .nth(n)
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn webhooks_are_registered_listed_and_deleted_per_account() {
    for store in stores("webhooks_crud").await {
        let backend = store.backend();
        let (alice, _) = account(&store, Tier::Developer).await;
        let (bob, _) = account(&store, Tier::Developer).await;
        let svc = start(store.clone(), config(true, &[60_000]), None).await;
        let base = &svc.base;
        let url = "http://127.0.0.1:9/hook";
        let hq = compound(&svc.state, 0);

        let (status, body) = call(
            reqwest::Method::POST,
            &format!("{base}/api/webhooks"),
            None,
            Some(json!({"url": url})),
        )
        .await;
        assert_eq!(status, 401, "{backend}: {body}");
        let res = reqwest::Client::new()
            .post(format!("{base}/api/webhooks"))
            .header("x-api-key", &alice)
            .body(r#"{"url": "x"}"#)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 415, "{backend}");
        for (bad, why) in [
            (
                json!({"url": url, "events": ["compound.deleted"]}),
                "unknown event",
            ),
            (json!({"url": url, "events": []}), "events"),
            (json!({"url": url, "format": "xml"}), "format"),
            (
                json!({"url": url, "compounds": ["hq-c-org-999999"]}),
                "unknown compound",
            ),
            (json!({"url": url, "compounds": []}), "compounds"),
            (
                json!({"url": url, "compounds": ["*", hq]}),
                "unknown compound",
            ),
            (
                json!({"url": url, "signing_secret": "short"}),
                "signing_secret",
            ),
            (json!({"url": url, "colour": "red"}), "unknown field"),
            (json!({"events": ["compound.added"]}), "url"),
            (json!({"url": "not a url"}), "valid URL"),
        ] {
            let (status, body) = register(base, &alice, bad.clone()).await;
            assert_eq!(status, 400, "{backend} {bad}: {body}");
            let error = body["error"].as_str().unwrap();
            assert!(error.contains(why), "{backend} {bad}: {error}");
        }

        let (status, watch) = register(base, &alice, json!({"url": url})).await;
        assert_eq!(status, 201, "{backend}: {watch}");
        let watch_id = watch["id"].as_str().unwrap().to_string();
        assert!(watch_id.starts_with("wh_"), "{watch}");
        let generated = watch["signing_secret"].as_str().unwrap().to_string();
        assert!(generated.starts_with("whsec_") && generated.len() > 30);
        assert_eq!(watch["compounds"], "watchlist");
        assert_eq!(watch["format"], "json");
        assert_eq!(watch["events"].as_array().unwrap().len(), 4);
        let chosen = "my-own-signing-secret-0123456789";
        let (status, slack) = register(
            base,
            &alice,
            json!({"url": url, "events": ["compound.added", "compound.added"], "compounds": [hq],
                   "format": "slack", "signing_secret": chosen}),
        )
        .await;
        assert_eq!(status, 201, "{backend}: {slack}");
        assert_eq!(slack["signing_secret"], chosen);
        assert_eq!(slack["events"], json!(["compound.added"]));
        assert_eq!(slack["compounds"], json!([hq]));
        let slack_id = slack["id"].as_str().unwrap().to_string();

        // The secrets are in no key and no value of the store, in clear.
        for (k, v) in dump(&store).await {
            for secret in [generated.as_str(), chosen] {
                assert!(
                    !k.contains(secret) && !v.contains(secret),
                    "{backend}: {k} holds a secret"
                );
            }
        }

        let (status, list) = call(
            reqwest::Method::GET,
            &format!("{base}/api/webhooks"),
            Some(&alice),
            None,
        )
        .await;
        assert_eq!(status, 200, "{backend}");
        assert_eq!(list["count"], 2);
        assert_eq!(list["limit"], 5);
        let listed: Vec<&str> = list["webhooks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["id"].as_str().unwrap())
            .collect();
        assert!(listed.contains(&watch_id.as_str()) && listed.contains(&slack_id.as_str()));
        let text = list.to_string();
        assert!(
            !text.contains("secret") && !text.contains(&generated),
            "{text}"
        );
        let (_, bobs) = call(
            reqwest::Method::GET,
            &format!("{base}/api/webhooks"),
            Some(&bob),
            None,
        )
        .await;
        assert_eq!(bobs["count"], 0, "{backend}: accounts are separate");

        // Another account's webhook is not found, for every operation.
        for (method, path) in [
            (reqwest::Method::DELETE, format!("/api/webhooks/{watch_id}")),
            (
                reqwest::Method::POST,
                format!("/api/webhooks/test/{watch_id}"),
            ),
            (
                reqwest::Method::GET,
                format!("/api/webhooks?action=deliveries&webhook_id={watch_id}"),
            ),
        ] {
            let (status, body) = call(method, &format!("{base}{path}"), Some(&bob), None).await;
            assert_eq!(status, 404, "{backend} {path}: {body}");
            assert!(body["error"].is_string());
        }
        for (query, status_wanted) in [
            ("action=deliveries".to_string(), 400),
            (
                format!("action=deliveries&webhook_id={watch_id}&limit=51"),
                400,
            ),
            (
                format!("action=deliveries&webhook_id={watch_id}&limit=0"),
                400,
            ),
            (
                format!("action=deliveries&webhook_id={watch_id}&offset=-1"),
                400,
            ),
            ("action=purge".to_string(), 400),
            ("action=deliveries&webhook_id=wh_nothere".to_string(), 404),
            ("action=deliveries&webhook_id=wh_a:b".to_string(), 404),
            (
                format!("action=deliveries&webhook_id={watch_id}&offset=5&limit=50"),
                200,
            ),
        ] {
            let (status, body) = call(
                reqwest::Method::GET,
                &format!("{base}/api/webhooks?{query}"),
                Some(&alice),
                None,
            )
            .await;
            assert_eq!(status, status_wanted, "{backend} {query}: {body}");
        }
        let (status, _) = call(
            reqwest::Method::GET,
            &format!("{base}/api/webhooks?action=deliveries&webhook_id={watch_id}"),
            None,
            None,
        )
        .await;
        assert_eq!(status, 401, "{backend}");
        let (status, _) = call(
            reqwest::Method::GET,
            &format!("{base}/api/webhooks/test/{watch_id}"),
            Some(&alice),
            None,
        )
        .await;
        assert_eq!(status, 405, "{backend}");

        // The test event is queued for that webhook alone.
        let (status, queued) = call(
            reqwest::Method::POST,
            &format!("{base}/api/webhooks/test/{slack_id}"),
            Some(&alice),
            None,
        )
        .await;
        assert_eq!(status, 202, "{backend}: {queued}");
        assert!(queued["event_id"].as_str().unwrap().starts_with("evt_"));
        assert_eq!(webhooks::queue_depth(&store).await.unwrap(), 1);
        let monitor: Value = reqwest::Client::new()
            .get(format!("{base}/api/health?check=monitor"))
            .bearer_auth("admin-secret")
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(monitor["monitor"]["webhook_queue_depth"], 1, "{backend}");

        // Deletion removes the webhook and what was queued for it.
        let (status, body) = call(
            reqwest::Method::DELETE,
            &format!("{base}/api/webhooks/{slack_id}"),
            Some(&alice),
            None,
        )
        .await;
        assert_eq!(status, 200, "{backend}: {body}");
        assert_eq!(webhooks::queue_depth(&store).await.unwrap(), 0);
        for id in [slack_id.as_str(), "wh_nothere", "not-an-id"] {
            let (status, _) = call(
                reqwest::Method::DELETE,
                &format!("{base}/api/webhooks/{id}"),
                Some(&alice),
                None,
            )
            .await;
            assert_eq!(status, 404, "{backend} {id}");
        }

        // A developer account holds five webhooks; the sixth is refused.
        for n in 1..=5 {
            let (status, body) = register(base, &alice, json!({"url": url})).await;
            let wanted = if n < 5 { 201 } else { 403 };
            assert_eq!(status, wanted, "{backend} webhook {n}: {body}");
        }
        let (_, list) = call(
            reqwest::Method::GET,
            &format!("{base}/api/webhooks"),
            Some(&alice),
            None,
        )
        .await;
        assert_eq!(list["count"], 5, "{backend}");
        assert!(
            list["webhooks"]
                .as_array()
                .unwrap()
                .iter()
                .all(|w| w["url"] == url)
        );
    }
}

#[tokio::test]
async fn without_a_secret_key_registration_is_refused_not_lost() {
    for store in stores("webhooks_nokey").await {
        let (key, _) = account(&store, Tier::Pro).await;
        let svc = start(
            store.clone(),
            Config {
                webhook_allow_loopback: true,
                ..Config::default()
            },
            None,
        )
        .await;
        let (status, body) = register(&svc.base, &key, json!({"url": "http://127.0.0.1:9/"})).await;
        assert_eq!(status, 503, "{body}");
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .contains("SAFEREF_SECRET_KEY")
        );
        assert!(store.scan("wh:").await.unwrap().is_empty());
    }
}

#[tokio::test]
async fn internal_addresses_are_refused_at_registration() {
    for store in stores("webhooks_ssrf").await {
        let backend = store.backend();
        let (key, _) = account(&store, Tier::Developer).await;
        let strict = start(store.clone(), config(false, &[]), None).await;
        let testing = start(store.clone(), config(true, &[]), None).await;
        for url in [
            "https://127.0.0.1/hook",
            "https://localhost/hook",
            "https://10.0.0.1/hook",
            "https://172.16.0.1/hook",
            "https://192.168.1.1/hook",
            "https://169.254.169.254/latest/meta-data/",
            "https://[::1]/hook",
            "https://[fc00::1]/hook",
            "https://[::ffff:10.0.0.1]/hook",
            "https://0.0.0.0/hook",
            "http://example.com/hook",
            "http://127.0.0.1:9/hook",
            "ftp://example.com/hook",
        ] {
            let (status, body) = register(&strict.base, &key, json!({"url": url})).await;
            assert_eq!(status, 400, "{backend} {url}: {body}");
            assert!(body["error"].is_string(), "{body}");
        }
        // The test setting opens loopback only; private ranges stay refused.
        for url in [
            "https://10.0.0.1/hook",
            "https://172.16.0.1/hook",
            "https://192.168.1.1/hook",
            "https://169.254.169.254/",
            "https://[fc00::1]/hook",
        ] {
            let (status, body) = register(&testing.base, &key, json!({"url": url})).await;
            assert_eq!(status, 400, "{backend} {url}: {body}");
        }
        let (status, body) = register(
            &testing.base,
            &key,
            json!({"url": "http://localhost:9/hook"}),
        )
        .await;
        assert_eq!(status, 201, "{backend}: {body}");
    }
}

#[tokio::test]
async fn deliveries_are_signed_and_verify_independently() {
    for store in stores("webhooks_signed").await {
        let backend = store.backend();
        let (key, record) = account(&store, Tier::Developer).await;
        let receiver = Receiver::start(&[]).await;
        let svc = start(
            store.clone(),
            config(true, &[60_000]),
            Some(config(true, &[60_000])),
        )
        .await;
        let base = &svc.base;
        let (hq, other) = (compound(&svc.state, 3), compound(&svc.state, 4));
        let (_, json_hook) =
            register(base, &key, json!({"url": receiver.url, "compounds": [hq]})).await;
        let (_, slack_hook) = register(
            base,
            &key,
            json!({"url": format!("{}/slack", receiver.url), "compounds": ["*"],
                   "format": "slack", "events": ["compound.risk_changed"]}),
        )
        .await;
        let (_, watch_hook) = register(
            base,
            &key,
            json!({"url": format!("{}/watch", receiver.url)}),
        )
        .await;
        let secret = json_hook["signing_secret"].as_str().unwrap();
        let data = json!({"compound_id": hq, "name": "Test compound", "from": "low", "to": "high"});

        let s = &svc.state;
        let n = webhooks::emit(s, "compound.risk_changed", Some(&hq), data.clone()).await;
        assert_eq!(n.unwrap(), 2, "{backend}: the json and the slack webhook");
        assert_eq!(
            webhooks::emit(s, "compound.updated", Some(&other), json!({}))
                .await
                .unwrap(),
            0,
            "{backend}: no webhook covers that compound (the watchlist is empty)"
        );
        assert_eq!(
            webhooks::emit(s, "compound.deleted", None, json!({}))
                .await
                .unwrap(),
            0
        );
        saferef_runtime::watchlist::add(&store, record.account_id(), std::slice::from_ref(&other))
            .await
            .unwrap();
        assert_eq!(
            webhooks::emit(
                s,
                "compound.updated",
                Some(&other),
                json!({"compound_id": other})
            )
            .await
            .unwrap(),
            1,
            "{backend}: the watchlist webhook follows the watchlist"
        );

        let hits = receiver.wait_for(3, Duration::from_secs(15)).await;
        assert_eq!(hits.len(), 3, "{backend}: {hits:?}");
        let plain = hits.iter().find(|h| h.path == "/hook").unwrap();
        assert!(
            python_verifies(secret, &plain.signature, &plain.body),
            "{backend}: {} over {}",
            plain.signature,
            String::from_utf8_lossy(&plain.body)
        );
        let mut tampered = plain.body.clone();
        tampered.push(b' ');
        assert!(!python_verifies(secret, &plain.signature, &tampered));
        assert!(!python_verifies(
            "whsec_wrong",
            &plain.signature,
            &plain.body
        ));
        let event: Value = serde_json::from_slice(&plain.body).unwrap();
        assert!(event["id"].as_str().unwrap().starts_with("evt_"), "{event}");
        assert_eq!(event["type"], "compound.risk_changed");
        assert_eq!(event["data"], data);
        let created = event["created"].as_i64().unwrap();
        assert!((chrono::Utc::now().timestamp() - created).abs() < 60);

        let slack = hits.iter().find(|h| h.path == "/hook/slack").unwrap();
        let slack_secret = slack_hook["signing_secret"].as_str().unwrap();
        assert!(python_verifies(slack_secret, &slack.signature, &slack.body));
        let message: Value = serde_json::from_slice(&slack.body).unwrap();
        let blocks = message["blocks"].as_array().unwrap();
        let kinds: Vec<&str> = blocks.iter().map(|b| b["type"].as_str().unwrap()).collect();
        assert_eq!(kinds, ["header", "section", "context"], "{message}");
        assert!(message["text"].as_str().unwrap().contains("Test compound"));

        let watched = hits.iter().find(|h| h.path == "/hook/watch").unwrap();
        let watch_secret = watch_hook["signing_secret"].as_str().unwrap();
        assert!(python_verifies(
            watch_secret,
            &watched.signature,
            &watched.body
        ));

        // The test event, and the log of each attempt.
        let id = json_hook["id"].as_str().unwrap();
        let (status, _) = call(
            reqwest::Method::POST,
            &format!("{base}/api/webhooks/test/{id}"),
            Some(&key),
            None,
        )
        .await;
        assert_eq!(status, 202);
        let hits = receiver.wait_for(4, Duration::from_secs(15)).await;
        let test: Value = serde_json::from_slice(&hits[3].body).unwrap();
        assert_eq!(test["type"], "webhook.test", "{backend}");
        assert!(python_verifies(secret, &hits[3].signature, &hits[3].body));
        let log = wait_for_log(base, &key, id, 2).await;
        assert_eq!(
            log[0]["event_type"], "webhook.test",
            "newest first: {log:?}"
        );
        assert_eq!(log[1]["event_id"], event["id"]);
        for entry in &log {
            assert_eq!(entry["status_code"], 200, "{entry}");
            assert_eq!(entry["outcome"], "delivered");
            assert_eq!(entry["attempt"], 1);
            assert!(entry["duration_ms"].is_u64() && entry["at"].is_string());
            assert!(entry["next_retry_at"].is_null() && entry["error"].is_null());
        }
        assert_eq!(webhooks::queue_depth(&store).await.unwrap(), 0);
    }
}

async fn wait_for_log(base: &str, key: &str, id: &str, n: usize) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let log = deliveries(base, key, id).await;
        if log.len() >= n || Instant::now() > deadline {
            return log;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn failures_retry_with_backoff_and_redirects_are_not_followed() {
    for store in stores("webhooks_retry").await {
        let backend = store.backend();
        let (key, _) = account(&store, Tier::Developer).await;
        let flaky = Receiver::start(&[500, 500]).await;
        let down = Receiver::start(&[503, 503, 503]).await;
        let moved = Receiver::start(&[302]).await;
        let retries = [1_000, 3_000];
        let svc = start(
            store.clone(),
            config(true, &retries),
            Some(config(true, &retries)),
        )
        .await;
        let base = &svc.base;
        let mut ids = Vec::new();
        for r in [&flaky, &down, &moved] {
            let (status, hook) = register(
                base,
                &key,
                json!({"url": r.url, "compounds": ["*"], "events": ["regulatory.updated"]}),
            )
            .await;
            assert_eq!(status, 201, "{hook}");
            ids.push(hook["id"].as_str().unwrap().to_string());
        }
        let n = webhooks::emit(
            &svc.state,
            "regulatory.updated",
            None,
            json!({"agency": "ECHA"}),
        )
        .await
        .unwrap();
        assert_eq!(n, 3, "{backend}");

        // 500, 500, then 200: three attempts, the second gap longer than the first.
        let hits = flaky.wait_for(3, Duration::from_secs(20)).await;
        assert_eq!(hits.len(), 3, "{backend}");
        let (first, second) = (hits[1].at - hits[0].at, hits[2].at - hits[1].at);
        assert!(first >= Duration::from_millis(850), "{backend}: {first:?}");
        assert!(
            second >= Duration::from_millis(2_650),
            "{backend}: {second:?}"
        );
        assert!(second > first);
        assert_eq!(hits[0].body, hits[2].body, "the same event each time");
        let log = wait_for_log(base, &key, &ids[0], 3).await;
        let outcomes: Vec<(&str, u64)> = log
            .iter()
            .map(|e| {
                (
                    e["outcome"].as_str().unwrap(),
                    e["attempt"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            outcomes,
            [("delivered", 3), ("retrying", 2), ("retrying", 1)],
            "{backend}"
        );
        assert_eq!(log[2]["status_code"], 500);
        assert!(log[2]["error"].as_str().unwrap().contains("500"));
        assert!(log[2]["next_retry_at"].is_string());

        // Always failing: the attempts run out and the delivery is marked failed.
        let log = wait_for_log(base, &key, &ids[1], 3).await;
        assert_eq!(log[0]["outcome"], "failed", "{backend}: {log:?}");
        assert_eq!(log[0]["attempt"], 3);
        assert!(log[0]["next_retry_at"].is_null());

        // A 302 is a failure; its Location is not requested.
        let log = wait_for_log(base, &key, &ids[2], 1).await;
        assert_eq!(log[log.len() - 1]["status_code"], 302, "{backend}: {log:?}");
        assert!(
            log[log.len() - 1]["error"]
                .as_str()
                .unwrap()
                .contains("redirect")
        );
        moved.wait_for(3, Duration::from_secs(1)).await;
        assert!(
            moved.hits().iter().all(|h| h.path == "/hook"),
            "{backend}: the redirect was followed"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(webhooks::queue_depth(&store).await.unwrap(), 0, "{backend}");
    }
}

#[tokio::test]
async fn refused_addresses_are_refused_again_at_delivery() {
    for store in stores("webhooks_rebind").await {
        let backend = store.backend();
        let (key, _) = account(&store, Tier::Developer).await;
        let receiver = Receiver::start(&[]).await;
        // Registered while loopback was allowed; delivered by a worker that refuses it, as a
        // public name that now resolves to loopback would be.
        let svc = start(
            store.clone(),
            config(true, &[60_000]),
            Some(config(false, &[60_000])),
        )
        .await;
        let (status, hook) = register(
            &svc.base,
            &key,
            json!({"url": format!("https://localhost:{}/hook", receiver.port), "compounds": ["*"]}),
        )
        .await;
        assert_eq!(status, 201, "{hook}");
        let id = hook["id"].as_str().unwrap();
        let (status, _) = call(
            reqwest::Method::POST,
            &format!("{}/api/webhooks/test/{id}", svc.base),
            Some(&key),
            None,
        )
        .await;
        assert_eq!(status, 202);
        let log = wait_for_log(&svc.base, &key, id, 1).await;
        assert_eq!(log.len(), 1, "{backend}");
        let error = log[0]["error"].as_str().unwrap();
        assert!(
            error.contains("refused") && error.contains("loopback"),
            "{error}"
        );
        assert!(log[0]["status_code"].is_null());
        assert_eq!(log[0]["outcome"], "retrying");
        assert!(
            receiver.hits().is_empty(),
            "{backend}: the receiver was reached"
        );
    }
}

#[tokio::test]
async fn two_workers_deliver_each_event_once() {
    for store in stores("webhooks_lease").await {
        let backend = store.backend();
        let (key, _) = account(&store, Tier::Developer).await;
        let receiver = Receiver::start(&[]).await;
        let svc = start(
            store.clone(),
            config(true, &[60_000]),
            Some(config(true, &[60_000])),
        )
        .await;
        tokio::spawn(webhooks::worker::run(
            store.clone(),
            config(true, &[60_000]),
        ));
        let (_, hook) = register(
            &svc.base,
            &key,
            json!({"url": receiver.url, "compounds": ["*"]}),
        )
        .await;
        let id = hook["id"].as_str().unwrap();
        for n in 0..20 {
            let emitted = webhooks::emit(&svc.state, "compound.added", None, json!({"n": n}))
                .await
                .unwrap();
            assert_eq!(emitted, 1);
        }
        receiver.wait_for(20, Duration::from_secs(20)).await;
        tokio::time::sleep(Duration::from_secs(2)).await;
        let hits = receiver.hits();
        let mut events: Vec<String> = hits
            .iter()
            .map(|h| serde_json::from_slice::<Value>(&h.body).unwrap()["id"].to_string())
            .collect();
        events.sort();
        events.dedup();
        assert_eq!(hits.len(), 20, "{backend}: each delivery once");
        assert_eq!(events.len(), 20, "{backend}");
        assert_eq!(wait_for_log(&svc.base, &key, id, 20).await.len(), 20);
    }
}

#[tokio::test]
async fn erasure_leaves_no_trace_of_the_accounts_webhooks() {
    for store in stores("webhooks_erase").await {
        let backend = store.backend();
        let (key, record) = account(&store, Tier::Pro).await;
        let (other_key, other) = account(&store, Tier::Developer).await;
        let ok = Receiver::start(&[]).await;
        let failing = Receiver::start(&[500]).await;
        let svc = start(
            store.clone(),
            config(true, &[60_000]),
            Some(config(true, &[60_000])),
        )
        .await;
        let mut ids = Vec::new();
        for url in [&ok.url, &failing.url] {
            let (_, hook) =
                register(&svc.base, &key, json!({"url": url, "compounds": ["*"]})).await;
            ids.push(hook["id"].as_str().unwrap().to_string());
        }
        let (_, kept) = register(
            &svc.base,
            &other_key,
            json!({"url": ok.url, "compounds": ["*"]}),
        )
        .await;
        let kept = kept["id"].as_str().unwrap().to_string();
        webhooks::emit(&svc.state, "compound.added", None, json!({}))
            .await
            .unwrap();
        // A delivered attempt, a retrying one (still queued) and their logs exist.
        wait_for_log(&svc.base, &key, &ids[1], 1).await;
        wait_for_log(&svc.base, &key, &ids[0], 1).await;
        wait_for_log(&svc.base, &other_key, &kept, 1).await;
        assert_eq!(webhooks::queue_depth(&store).await.unwrap(), 1);

        let removed = webhooks::erase_account(&store, record.account_id())
            .await
            .unwrap();
        assert_eq!(
            removed, 5,
            "{backend}: 2 webhooks, 1 queued delivery, 2 log entries"
        );
        // Nothing of the account's webhooks is left (its key record and quota counters are
        // the accounts module's to erase).
        for (k, v) in dump(&store).await {
            let webhook_entry = k.starts_with("wh");
            assert!(
                !(webhook_entry
                    && (k.contains(record.account_id()) || v.contains(record.account_id()))),
                "{backend}: {k} = {v} still names the account"
            );
            for id in &ids {
                assert!(
                    !k.contains(id.as_str()) && !v.contains(id.as_str()),
                    "{backend}: {k} = {v}"
                );
            }
        }
        let (_, list) = call(
            reqwest::Method::GET,
            &format!("{}/api/webhooks", svc.base),
            Some(&other_key),
            None,
        )
        .await;
        assert_eq!(list["count"], 1, "{backend}: other accounts keep theirs");
        assert!(
            store
                .scan(&format!("wh:{}:", other.account_id()))
                .await
                .unwrap()
                .len()
                == 1
        );
    }
}

/// The binary started on a tree `write_tree` made: its documented start on a snapshot.
fn serve_binary(tree: &Path, state: &Path) -> Server {
    let secret = base64::engine::general_purpose::STANDARD.encode(SECRET_KEY);
    binary::serve(
        &tree.join("data"),
        &tree.join("site"),
        state,
        &[
            ("SAFEREF_SECRET_KEY", secret.as_str()),
            ("SAFEREF_WEBHOOK_ALLOW_LOOPBACK", "true"),
            ("SAFEREF_WEBHOOK_RETRY_DELAYS", "4000"),
        ],
    )
}

#[tokio::test]
async fn a_delivery_survives_a_killed_runtime() {
    let tree = tempfile::tempdir().unwrap();
    write_tree(tree.path(), &dataset());
    let state = tempfile::tempdir().unwrap();
    let key = binary::create_key(state.path(), "developer");
    let receiver = Receiver::start(&[500]).await;

    let (tree_dir, state_dir) = (tree.path().to_path_buf(), state.path().to_path_buf());
    let mut first = tokio::task::spawn_blocking(move || serve_binary(&tree_dir, &state_dir))
        .await
        .unwrap();
    let (status, hook) = register(&first.base, &key, json!({"url": receiver.url})).await;
    assert_eq!(status, 201, "{hook}");
    let id = hook["id"].as_str().unwrap().to_string();
    let secret = hook["signing_secret"].as_str().unwrap().to_string();
    let (status, _) = call(
        reqwest::Method::POST,
        &format!("{}/api/webhooks/test/{id}", first.base),
        Some(&key),
        None,
    )
    .await;
    assert_eq!(status, 202);
    // The first attempt fails; once it is logged (after rescheduling), kill the runtime
    // before the retry 4 s later.
    let log = wait_for_log(&first.base, &key, &id, 1).await;
    assert_eq!(log[0]["outcome"], "retrying", "{log:?}");
    first.child.kill().unwrap();
    first.child.wait().unwrap();
    assert_eq!(receiver.hits().len(), 1);

    let (tree_dir, state_dir) = (tree.path().to_path_buf(), state.path().to_path_buf());
    let second = tokio::task::spawn_blocking(move || serve_binary(&tree_dir, &state_dir))
        .await
        .unwrap();
    let hits = receiver.wait_for(2, Duration::from_secs(30)).await;
    assert_eq!(hits.len(), 2, "the retry after the restart");
    assert_eq!(hits[0].body, hits[1].body);
    assert!(python_verifies(&secret, &hits[1].signature, &hits[1].body));
    let log = wait_for_log(&second.base, &key, &id, 2).await;
    assert_eq!(log[0]["outcome"], "delivered", "{log:?}");
    assert_eq!(log[0]["attempt"], 2);
    assert_eq!(log[0]["delivery_id"], log[1]["delivery_id"]);
}
