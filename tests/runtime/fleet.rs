//! Several runtimes sharing one Redis (issue 12), proved on one machine: one real
//! `redis-server` and three real `saferef-serve` processes on loopback. Quotas are counted
//! once across the fleet, a rotated key stops on every instance at once, each webhook event is
//! acknowledged by the receiver once (also when the instance delivering it is SIGKILLed, and
//! when the receiver is slower than a lease), a release loaded by SIGHUP on every instance
//! is served without a failed request and emits its events once, and the daily job runs once.
//! Each instance keeps the keys it read in memory; a change reaches every instance at once.

use std::collections::{HashMap, VecDeque};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use futures_util::future::join_all;
use saferef_generator::model::Dataset;
use saferef_runtime::store::Store;
use saferef_runtime::{AppState, Config, Release, Service};
use serde_json::{Value, json};
use warp::Filter;

use crate::support::binary::{self, Server};
use crate::support::redis::RedisServer;
use crate::support::{dataset, keyed_get, write_tree};

/// A webhook delivery lapses this fast when its instance died (SAFEREF_WEBHOOK_LEASE_SECS).
const LEASE_SECS: u64 = 3;

struct Fleet {
    redis: RedisServer,
    tree: tempfile::TempDir,
    instances: Vec<Server>,
    states: Vec<tempfile::TempDir>,
}

fn env(redis: &RedisServer) -> Vec<(&'static str, String)> {
    vec![
        ("SAFEREF_REDIS_URL", redis.url.clone()),
        (
            "SAFEREF_SECRET_KEY",
            base64::engine::general_purpose::STANDARD.encode([7u8; 32]),
        ),
        ("SAFEREF_WEBHOOK_ALLOW_LOOPBACK", "true".into()),
        ("SAFEREF_WEBHOOK_LEASE_SECS", LEASE_SECS.to_string()),
    ]
}

impl Fleet {
    async fn start(dataset: &Dataset) -> Fleet {
        let redis = RedisServer::start();
        let tree = tempfile::tempdir().unwrap();
        write_tree(tree.path(), dataset);
        let states: Vec<_> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
        let starts = states.iter().map(|state| {
            let (tree, state, env) = (
                tree.path().to_path_buf(),
                state.path().to_path_buf(),
                env(&redis),
            );
            tokio::task::spawn_blocking(move || {
                let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
                let log = state.join("serve.log");
                binary::serve_logged(
                    &tree.join("data"),
                    &tree.join("site"),
                    &state,
                    &env,
                    Some(&log),
                )
            })
        });
        let instances = join_all(starts)
            .await
            .into_iter()
            .map(Result::unwrap)
            .collect();
        let fleet = Fleet {
            redis,
            tree,
            instances,
            states,
        };
        fleet.wait_emitted().await;
        fleet
    }

    /// Waits until the release the fleet started with has emitted its events (to no webhook
    /// yet): a webhook registered before that would receive them among a test's own events.
    async fn wait_emitted(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while self
            .redis
            .cli(&["--scan", "--pattern", "release:*:emitted"])
            .unwrap_or_default()
            .is_empty()
        {
            assert!(
                Instant::now() < deadline,
                "the starting release was never emitted"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    fn key(&self, tier: &str) -> String {
        let env = env(&self.redis);
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        binary::create_key_with(self.states[0].path(), tier, &env)
    }

    /// `saferef-serve keys revoke PREFIX` run as its own process against the fleet's Redis.
    fn revoke(&self, prefix: &str) {
        let env = env(&self.redis);
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        binary::keys_command(&["revoke", prefix], &env);
    }

    fn base(&self, i: usize) -> &str {
        &self.instances[i].base
    }

    /// The end of instance `i`'s log, for failure messages.
    fn log(&self, i: usize) -> String {
        let log =
            std::fs::read_to_string(self.states[i].path().join("serve.log")).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        lines[lines.len().saturating_sub(15)..].join("\n")
    }

    fn pid(&self, i: usize) -> u32 {
        self.instances[i].child.id()
    }
}

fn signal(pid: u32, name: &str) {
    let ok = Command::new("kill")
        .args([format!("-{name}"), pid.to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -{name} {pid}");
}

async fn post(url: &str, key: &str, body: Option<Value>) -> (u16, Value) {
    let mut req = reqwest::Client::new().post(url).header("x-api-key", key);
    if let Some(body) = body {
        req = req.json(&body);
    }
    let res = req.send().await.unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

/// `count` GETs of `path` spread over the instances, 48 at a time: (200s, 429s).
async fn hammer(fleet: &Fleet, path: &str, key: Option<&str>, count: usize) -> (usize, usize) {
    let client = reqwest::Client::new();
    let (ok, refused) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let urls: Vec<String> = (0..count)
        .map(|i| format!("{}{path}", fleet.base(i % 3)))
        .collect();
    for chunk in urls.chunks(48) {
        join_all(chunk.iter().map(|url| {
            let mut req = client.get(url);
            if let Some(k) = key {
                req = req.header("x-api-key", k);
            }
            let (ok, refused) = (&ok, &refused);
            async move {
                match req.send().await.unwrap().status().as_u16() {
                    200 => ok.fetch_add(1, Ordering::Relaxed),
                    429 => refused.fetch_add(1, Ordering::Relaxed),
                    other => panic!("{url}: {other}"),
                };
            }
        }))
        .await;
    }
    (ok.into_inner(), refused.into_inner())
}

#[tokio::test]
async fn quotas_are_counted_once_across_instances() {
    let fleet = Fleet::start(&dataset()).await;
    // The public tier (500 a day per client IP): 800 requests over three instances, of an
    // answer that is counted (not one the CDN may keep, such as `/api`).
    let (ok, refused) = hammer(&fleet, "/api/health", None, 800).await;
    assert_eq!(
        (ok, refused),
        (500, 300),
        "public quota shared by the fleet"
    );

    // A developer key (10,000 a day) with 9,900 already used today: 100 more, not 300.
    let key = fleet.key("developer");
    let (status, _) = keyed_get(&format!("{}/api", fleet.base(0)), Some(&key)).await;
    assert_eq!(status, 200);
    let counters = fleet
        .redis
        .cli(&["--scan", "--pattern", "quota:acct:*"])
        .unwrap();
    let counter = counters.lines().next().expect("the key's account counter");
    fleet
        .redis
        .cli(&["set", counter, "9900", "keepttl"])
        .unwrap();
    let (ok, refused) = hammer(&fleet, "/api", Some(&key), 300).await;
    assert_eq!((ok, refused), (100, 200), "keyed quota shared by the fleet");
    assert_eq!(fleet.redis.cli(&["get", counter]).unwrap(), "10000");
}

#[tokio::test]
async fn rotation_and_revocation_take_effect_on_every_instance_at_once() {
    let fleet = Fleet::start(&dataset()).await;
    let old = fleet.key("developer");
    let url = |i: usize| format!("{}/api/keys/usage", fleet.base(i));
    for i in 0..3 {
        assert_eq!(keyed_get(&url(i), Some(&old)).await.0, 200, "instance {i}");
    }
    let (status, rotated) = post(&format!("{}/api/keys/rotate", fleet.base(0)), &old, None).await;
    assert_eq!(status, 201, "{rotated}");
    let new = rotated["key"].as_str().unwrap().to_string();
    for i in [1, 2, 0] {
        assert_eq!(
            keyed_get(&url(i), Some(&old)).await.0,
            401,
            "old key on {i}"
        );
        assert_eq!(
            keyed_get(&url(i), Some(&new)).await.0,
            200,
            "new key on {i}"
        );
    }

    fleet.revoke(rotated["prefix"].as_str().unwrap());
    for i in 0..3 {
        assert_eq!(
            keyed_get(&url(i), Some(&new)).await.0,
            401,
            "revoked on {i}"
        );
    }
}

/// A key an instance has read is resolved from its memory afterwards: Redis is not read for it
/// again (its record's idle time keeps growing while keyed requests are answered), and a
/// revocation by another process still reaches that instance at once (`store/cache.rs`).
#[tokio::test]
async fn a_known_key_is_resolved_from_memory_without_a_redis_read() {
    use sha2::Digest;
    let fleet = Fleet::start(&dataset()).await;
    let key = fleet.key("enterprise");
    let url = format!("{}/api/search?q=benzene", fleet.base(1));
    assert_eq!(keyed_get(&url, Some(&key)).await.0, 200);
    let record: String = sha2::Sha256::digest(key.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let record = format!("key:{record}");
    tokio::time::sleep(Duration::from_secs(3)).await;
    for _ in 0..20 {
        assert_eq!(keyed_get(&url, Some(&key)).await.0, 200);
    }
    let idle: u64 = fleet
        .redis
        .cli(&["object", "idletime", &record])
        .unwrap()
        .parse()
        .unwrap();
    assert!(idle >= 2, "the key record was read {idle} s ago");

    fleet.revoke(&key[..12]);
    assert_eq!(keyed_get(&url, Some(&key)).await.0, 401, "{}", fleet.log(1));
}

/// How the receiver treats the first attempt of the next new event.
#[derive(Debug, Clone, Copy)]
enum Plan {
    /// Never answers: the sender dies holding it.
    Hold,
    /// Answers 200 after this long.
    Slow(Duration),
}

/// A real HTTP receiver: counts attempts per event id and the attempts it acknowledged.
#[derive(Clone, Default)]
struct Receiver {
    plans: Arc<Mutex<VecDeque<Plan>>>,
    attempts: Arc<Mutex<HashMap<String, usize>>>,
    acked: Arc<Mutex<HashMap<String, usize>>>,
}

impl Receiver {
    async fn start(&self) -> String {
        let me = self.clone();
        let route = warp::body::bytes().and_then(move |body: bytes::Bytes| {
            let me = me.clone();
            async move {
                let event: Value = serde_json::from_slice(&body).unwrap_or_default();
                let id = event["id"].as_str().unwrap_or_default().to_string();
                let first = {
                    let mut attempts = me.attempts.lock().unwrap();
                    let n = attempts.entry(id.clone()).or_default();
                    *n += 1;
                    *n == 1
                };
                let plan = if first {
                    me.plans.lock().unwrap().pop_front()
                } else {
                    None
                };
                match plan {
                    Some(Plan::Hold) => std::future::pending::<()>().await,
                    Some(Plan::Slow(d)) => tokio::time::sleep(d).await,
                    None => {}
                }
                *me.acked.lock().unwrap().entry(id).or_default() += 1;
                Ok::<_, std::convert::Infallible>(warp::reply())
            }
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(warp::serve(route).incoming(listener).run());
        format!("http://127.0.0.1:{port}/hook")
    }

    fn attempts(&self) -> HashMap<String, usize> {
        self.attempts.lock().unwrap().clone()
    }

    fn acked(&self) -> HashMap<String, usize> {
        self.acked.lock().unwrap().clone()
    }

    /// Waits until `n` events were acknowledged (or 60 s passed).
    async fn wait_acked(&self, n: usize) -> HashMap<String, usize> {
        let deadline = Instant::now() + Duration::from_secs(60);
        while self.acked().len() < n && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        self.acked()
    }
}

async fn register(fleet: &Fleet, key: &str, url: &str) -> String {
    let (status, hook) = post(
        &format!("{}/api/webhooks", fleet.base(0)),
        key,
        Some(json!({"url": url, "compounds": ["*"]})),
    )
    .await;
    assert_eq!(status, 201, "{hook}");
    hook["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn each_webhook_event_is_acknowledged_once_even_when_its_instance_dies() {
    let fleet = Fleet::start(&dataset()).await;
    let key = fleet.key("developer");
    let receiver = Receiver::default();
    let hook = register(&fleet, &key, &receiver.start().await).await;
    let test_event = |i: usize| format!("{}/api/webhooks/test/{hook}", fleet.base(i));

    // 30 events queued through all three instances; their workers race for them.
    let sent = join_all((0..30).map(|i| {
        let (url, key) = (test_event(i % 3), key.clone());
        async move { post(&url, &key, None).await }
    }))
    .await;
    assert!(sent.iter().all(|(s, _)| *s == 202), "{sent:?}");
    let acked = receiver.wait_acked(30).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(acked.len(), 30);
    assert!(receiver.acked().values().all(|n| *n == 1), "{acked:?}");
    assert!(
        receiver.attempts().values().all(|n| *n == 1),
        "no event sent twice"
    );

    // A receiver slower than the lease: the holder renews it, nobody else sends meanwhile.
    receiver
        .plans
        .lock()
        .unwrap()
        .push_back(Plan::Slow(Duration::from_secs(LEASE_SECS * 2 + 1)));
    assert_eq!(post(&test_event(1), &key, None).await.0, 202);
    let acked = receiver.wait_acked(31).await;
    assert_eq!(acked.len(), 31);
    assert!(
        receiver.attempts().values().all(|n| *n == 1),
        "{:?}",
        receiver.attempts()
    );

    // The instance holding a delivery is killed mid-request: after its lease lapses
    // another instance delivers it, and the receiver acknowledges it once.
    receiver.plans.lock().unwrap().push_back(Plan::Hold);
    assert_eq!(post(&test_event(2), &key, None).await.0, 202);
    let deadline = Instant::now() + Duration::from_secs(30);
    while receiver.attempts().len() < 32 {
        assert!(Instant::now() < deadline, "the held delivery never arrived");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let leases = fleet
        .redis
        .cli(&["--scan", "--pattern", "whlease:*"])
        .unwrap();
    let lease = leases.lines().next().expect("the held delivery's lease");
    let holder = fleet.redis.cli(&["get", lease]).unwrap();
    let pid: u32 = holder.split('_').nth(1).unwrap().parse().unwrap();
    let victim = (0..3)
        .find(|i| fleet.pid(*i) == pid)
        .expect("a fleet member holds it");
    signal(pid, "KILL");
    let acked = receiver.wait_acked(32).await;
    tokio::time::sleep(Duration::from_secs(LEASE_SECS + 2)).await;
    assert_eq!(
        acked.len(),
        32,
        "the held event was delivered by another instance"
    );
    assert!(
        receiver.acked().values().all(|n| *n == 1),
        "{:?}",
        receiver.acked()
    );
    let retried: Vec<_> = receiver
        .attempts()
        .into_iter()
        .filter(|(_, n)| *n > 1)
        .collect();
    assert_eq!(
        retried.len(),
        1,
        "only the held event was attempted twice: {retried:?}"
    );
    assert_eq!(retried[0].1, 2);
    let survivor = (victim + 1) % 3;
    let (status, log) = keyed_get(
        &format!(
            "{}/api/webhooks?action=deliveries&webhook_id={hook}&limit=50",
            fleet.base(survivor)
        ),
        Some(&key),
    )
    .await;
    assert_eq!(status, 200, "{log}");
    let delivered = log["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["outcome"] == "delivered")
        .count();
    assert_eq!(delivered, 32, "every event logged delivered once: {log}");
}

#[tokio::test]
async fn a_release_loads_on_every_instance_without_downtime_and_emits_once() {
    let mut dataset = dataset();
    let fleet = Fleet::start(&dataset).await;
    let key = fleet.key("developer");
    let receiver = Receiver::default();
    register(&fleet, &key, &receiver.start().await).await;

    // The next release: three changelog entries of a release dated after every other.
    let newest = dataset
        .changelog
        .iter()
        .map(|e| e.date.clone())
        .max()
        .unwrap();
    let date =
        chrono::NaiveDate::parse_from_str(&newest, "%Y-%m-%d").unwrap() + chrono::Days::new(1);
    let mut entries: Vec<_> = dataset.changelog.iter().take(3).cloned().collect();
    for (n, e) in entries.iter_mut().enumerate() {
        e.id = format!("chg_fleet{n}");
        e.release = "fleet-release-2".into();
        e.date = date.to_string();
    }
    dataset.changelog.extend(entries);
    dataset.fingerprint = "fleet-release-2".into();
    dataset.regulatory_status.dataset_version = "fleet-release-2".into();

    // Requests keep flowing to all three while they reload; none may fail.
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let bases: Vec<String> = (0..3).map(|i| fleet.base(i).to_string()).collect();
    // Enterprise: the traffic never runs into a quota.
    let watcher = fleet.key("enterprise");
    let traffic = {
        let (stop, watcher) = (stop.clone(), watcher.clone());
        tokio::spawn(async move {
            let client = reqwest::Client::new();
            let (mut served, mut failed) = (0, Vec::new());
            while !stop.load(Ordering::Relaxed) {
                for base in &bases {
                    let req = client.get(format!("{base}/api/health"));
                    match req.header("x-api-key", &watcher).send().await {
                        Ok(r) if r.status() == 200 => served += 1,
                        other => failed.push(format!("{other:?}")),
                    }
                }
            }
            (served, failed)
        })
    };
    write_tree(fleet.tree.path(), &dataset);
    for i in 0..3 {
        signal(fleet.pid(i), "HUP");
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    for i in 0..3 {
        loop {
            let (_, health) =
                keyed_get(&format!("{}/api/health", fleet.base(i)), Some(&watcher)).await;
            if health["dataset_version"] == "fleet-release-2" {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "instance {i} did not load the release:\n{}",
                fleet.log(i)
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    stop.store(true, Ordering::Relaxed);
    let (served, failed) = traffic.await.unwrap();
    assert!(failed.is_empty(), "{failed:?}");
    assert!(served > 0);

    let acked = receiver.wait_acked(3).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(receiver.acked(), acked, "nothing arrived late");
    assert_eq!(
        acked.len(),
        3,
        "one event per entry of the release: {acked:?}"
    );
    assert!(acked.values().all(|n| *n == 1), "{acked:?}");
    let (_, changelog) = keyed_get(
        &format!("{}/api/changelog?limit=3", fleet.base(2)),
        Some(&key),
    )
    .await;
    assert_eq!(
        changelog["entries"][0]["release"], "fleet-release-2",
        "{changelog}"
    );
}

#[tokio::test]
async fn the_daily_freshness_summary_is_computed_once_across_instances() {
    let redis = RedisServer::start();
    let mut states = Vec::new();
    for _ in 0..3 {
        let store = Store::redis(&redis.url).await.unwrap();
        let mut release = Release::new(dataset(), 0, None);
        release.built_at = Some("2026-11-01T00:00:00Z".into());
        let state = AppState::new(Arc::new(Service::new(store, Config::default())), release);
        states.push(Arc::new(state));
    }
    let now: chrono::DateTime<chrono::Utc> = "2026-11-21T06:00:00Z".parse().unwrap();
    let runs = join_all(
        states
            .iter()
            .map(|s| saferef_runtime::freshness::refresh(s, now)),
    )
    .await;
    let ran: Vec<bool> = runs.into_iter().map(Result::unwrap).collect();
    assert_eq!(ran.iter().filter(|r| **r).count(), 1, "{ran:?}");
    let stored = states[1]
        .service
        .store
        .get(&saferef_runtime::freshness::store_key(
            &states[0].release.dataset,
        ))
        .await
        .unwrap()
        .expect("the summary is in the store");
    let summary: Value = serde_json::from_slice(&stored).unwrap();
    assert_eq!(summary["deploy_age_days"], 20);
    let next_day = now + chrono::Duration::days(1);
    assert!(
        saferef_runtime::freshness::refresh(&states[2], next_day)
            .await
            .unwrap()
    );
}
