//! One contract, two backends: the embedded store (redb in a temporary directory) and a real
//! Redis server (`SAFEREF_TEST_REDIS_URL`, which `scripts/test` starts) pass the same tests,
//! including admission under hundreds of concurrent callers and keys surviving a reopen.

use std::sync::Arc;
use std::time::Duration;

use saferef_runtime::keys;
use saferef_runtime::store::Store;
use saferef_runtime::tier::Tier;

fn redis_url() -> String {
    std::env::var("SAFEREF_TEST_REDIS_URL")
        .expect("SAFEREF_TEST_REDIS_URL is unset: run ./scripts/test, which starts redis-server")
}

/// A fresh namespace per test so tests sharing one Redis do not see each other's keys.
fn ns(test: &str) -> String {
    format!("t{}:{test}:", std::process::id())
}

async fn backends() -> Vec<(Store, tempfile::TempDir)> {
    let dir = tempfile::tempdir().unwrap();
    let embedded = Store::embedded(&dir.path().join("store.redb")).unwrap();
    let redis = Store::open(Some(&redis_url()), dir.path()).await.unwrap();
    let dir2 = tempfile::tempdir().unwrap();
    vec![(embedded, dir), (redis, dir2)]
}

#[tokio::test]
async fn get_put_delete_and_scan_by_prefix() {
    for (store, _dir) in backends().await {
        let p = ns("kv");
        let name = store.backend();
        assert_eq!(store.get(&format!("{p}a")).await.unwrap(), None, "{name}");
        store.put(&format!("{p}a"), b"1", None).await.unwrap();
        store.put(&format!("{p}b"), b"2", None).await.unwrap();
        store.put(&format!("{p}c*"), b"3", None).await.unwrap();
        store.put(&format!("{p}z"), b"9", None).await.unwrap();
        assert_eq!(store.get(&format!("{p}a")).await.unwrap().unwrap(), b"1");
        let scanned: Vec<String> = store
            .scan(&format!("{p}c*"))
            .await
            .unwrap()
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(
            scanned,
            vec![format!("{p}c*")],
            "{name}: a glob character is literal"
        );
        assert_eq!(store.scan(&p).await.unwrap().len(), 4, "{name}");
        assert!(store.delete(&format!("{p}a")).await.unwrap(), "{name}");
        assert!(!store.delete(&format!("{p}a")).await.unwrap(), "{name}");
        assert_eq!(store.scan(&p).await.unwrap().len(), 3, "{name}");
    }
}

#[tokio::test]
async fn values_expire() {
    for (store, _dir) in backends().await {
        let k = format!("{}x", ns("ttl"));
        store
            .put(&k, b"v", Some(Duration::from_millis(150)))
            .await
            .unwrap();
        assert!(
            store.get(&k).await.unwrap().is_some(),
            "{}",
            store.backend()
        );
        tokio::time::sleep(Duration::from_millis(400)).await;
        assert_eq!(store.get(&k).await.unwrap(), None, "{}", store.backend());
        assert!(
            store.scan(&k).await.unwrap().is_empty(),
            "{}",
            store.backend()
        );
    }
}

#[tokio::test]
async fn put_if_absent_sets_once_even_under_concurrency() {
    for (store, _dir) in backends().await {
        let name = store.backend();
        let k = format!("{}claim", ns("nx"));
        // A TTL far longer than the race: on a loaded machine the 50 writes can take longer
        // than a short TTL, and a value that expired mid-race rightly lets a second caller in.
        let tasks: Vec<_> = (0..50)
            .map(|i| {
                let (store, k) = (store.clone(), k.clone());
                tokio::spawn(async move {
                    let v = i.to_string();
                    store
                        .put_if_absent(&k, v.as_bytes(), Some(Duration::from_secs(60)))
                        .await
                        .unwrap()
                })
            })
            .collect();
        let mut winners = 0;
        for t in tasks {
            winners += usize::from(t.await.unwrap());
        }
        assert_eq!(winners, 1, "{name}: exactly one caller sets the key");
        assert!(
            !store.put_if_absent(&k, b"late", None).await.unwrap(),
            "{name}"
        );
        let short = format!("{}short", ns("nx"));
        assert!(
            store
                .put_if_absent(&short, b"first", Some(Duration::from_millis(300)))
                .await
                .unwrap(),
            "{name}"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert!(
            store.put_if_absent(&short, b"after", None).await.unwrap(),
            "{name}: an expired value no longer blocks"
        );
        assert_eq!(
            store.get(&short).await.unwrap().unwrap(),
            b"after",
            "{name}"
        );
    }
}

#[tokio::test]
async fn admission_never_exceeds_the_limit_under_concurrency() {
    for (store, _dir) in backends().await {
        let store = Arc::new(store);
        let k = format!("{}quota", ns("admit"));
        let tasks: Vec<_> = (0..300)
            .map(|_| {
                let (store, k) = (store.clone(), k.clone());
                tokio::spawn(async move {
                    store
                        .admit(&k, 1, Some(250), Duration::from_secs(60))
                        .await
                        .unwrap()
                })
            })
            .collect();
        let mut admitted = 0;
        for t in tasks {
            if t.await.unwrap().admitted {
                admitted += 1;
            }
        }
        assert_eq!(admitted, 250, "{}", store.backend());
        assert_eq!(store.count(&k).await.unwrap(), 250, "{}", store.backend());
        // A cost that does not fit is refused whole; no limit admits anything.
        let big = store
            .admit(&k, 10, Some(255), Duration::from_secs(60))
            .await
            .unwrap();
        assert!(!big.admitted && big.count == 250, "{}", store.backend());
        let free = store
            .admit(&k, 10, None, Duration::from_secs(60))
            .await
            .unwrap();
        assert!(free.admitted && free.count == 260, "{}", store.backend());
    }
}

#[tokio::test]
async fn keys_are_stored_hashed_and_survive_a_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    let (key, record) = {
        let store = Store::embedded(&path).unwrap();
        let made = keys::create(&store, Tier::Developer, Some("a@example.org".into()), None)
            .await
            .unwrap();
        store.flush().await.unwrap();
        made
    };
    let bytes = std::fs::read(&path).unwrap();
    assert!(
        !bytes.windows(key.len()).any(|w| w == key.as_bytes()),
        "the key itself is never stored"
    );
    let store = Store::embedded(&path).unwrap();
    assert_eq!(
        keys::lookup(&store, &key).await.unwrap(),
        Some(record.clone())
    );
    // And in Redis: found by the key, revocable by its display prefix.
    let redis = Store::open(Some(&redis_url()), dir.path()).await.unwrap();
    let (rkey, rrecord) = keys::create(&redis, Tier::Pro, None, None).await.unwrap();
    assert_eq!(
        keys::lookup(&redis, &rkey).await.unwrap().unwrap().tier,
        Tier::Pro
    );
    let revoked = keys::revoke(&redis, &rrecord.prefix).await.unwrap();
    assert_eq!(revoked.len(), 1);
    assert!(!keys::lookup(&redis, &rkey).await.unwrap().unwrap().active);
    assert_eq!(
        keys::lookup(&store, "sr_live_not-a-key").await.unwrap(),
        None
    );
}

#[tokio::test]
async fn embedded_counters_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    {
        let store = Store::embedded(&path).unwrap();
        for _ in 0..5 {
            store
                .admit(
                    "quota:ip:1:2026-11-21",
                    1,
                    Some(10),
                    Duration::from_secs(60),
                )
                .await
                .unwrap();
        }
        assert_eq!(store.count("quota:ip:1:2026-11-21").await.unwrap(), 5);
        let scanned = store.scan("quota:ip:1:").await.unwrap();
        assert_eq!(
            scanned,
            vec![("quota:ip:1:2026-11-21".to_string(), b"5".to_vec())]
        );
        store.flush().await.unwrap();
    }
    let store = Store::embedded(&path).unwrap();
    assert_eq!(store.count("quota:ip:1:2026-11-21").await.unwrap(), 5);
    let next = store
        .admit(
            "quota:ip:1:2026-11-21",
            1,
            Some(10),
            Duration::from_secs(60),
        )
        .await
        .unwrap();
    assert_eq!((next.admitted, next.count), (true, 6));
    assert!(store.delete("quota:ip:1:2026-11-21").await.unwrap());
    assert_eq!(store.count("quota:ip:1:2026-11-21").await.unwrap(), 0);
}

#[tokio::test]
async fn leases_are_renewed_and_released_only_by_their_holder() {
    for (store, _dir) in backends().await {
        let name = store.backend();
        let k = format!("{}lease", ns("hold"));
        let short = Some(Duration::from_millis(300));
        assert!(store.put_if_absent(&k, b"a", short).await.unwrap());
        assert!(
            !store
                .if_holds(&k, b"b", Some(Duration::from_secs(5)))
                .await
                .unwrap(),
            "{name}: another holder cannot renew"
        );
        assert!(
            store
                .if_holds(&k, b"a", Some(Duration::from_secs(5)))
                .await
                .unwrap(),
            "{name}: the holder renews"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(
            store.get(&k).await.unwrap().as_deref(),
            Some(&b"a"[..]),
            "{name}: renewed past its first expiry"
        );
        assert!(!store.if_holds(&k, b"b", None).await.unwrap(), "{name}");
        assert!(
            store.get(&k).await.unwrap().is_some(),
            "{name}: not released by another"
        );
        assert!(store.if_holds(&k, b"a", None).await.unwrap(), "{name}");
        assert!(store.get(&k).await.unwrap().is_none(), "{name}: released");

        // A lapsed lease taken over is not the old holder's to renew or release.
        assert!(store.put_if_absent(&k, b"a", short).await.unwrap());
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert!(store.put_if_absent(&k, b"c", None).await.unwrap());
        assert!(!store.if_holds(&k, b"a", short).await.unwrap(), "{name}");
        assert!(!store.if_holds(&k, b"a", None).await.unwrap(), "{name}");
        assert_eq!(
            store.get(&k).await.unwrap().as_deref(),
            Some(&b"c"[..]),
            "{name}"
        );
    }
}

#[tokio::test]
async fn swap_removes_and_writes_all_at_once_and_only_once() {
    for (store, _dir) in backends().await {
        let name = store.backend();
        let p = ns("swap");
        let (old, new, other) = (format!("{p}old"), format!("{p}new"), format!("{p}other"));
        store.put(&old, b"o", None).await.unwrap();
        store.put(&other, b"x", None).await.unwrap();
        assert!(
            store.swap(&[&old], &[(&new, b"n")]).await.unwrap(),
            "{name}"
        );
        assert_eq!(store.get(&old).await.unwrap(), None, "{name}");
        assert_eq!(store.get(&new).await.unwrap().as_deref(), Some(&b"n"[..]));

        // A key to remove that is absent (or expired) stops the whole change.
        let late = format!("{p}late");
        let gone = format!("{p}gone");
        store
            .put(&gone, b"g", Some(Duration::from_millis(100)))
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(250)).await;
        for absent in [&old, &gone] {
            assert!(
                !store
                    .swap(&[&other, absent], &[(&late, b"l")])
                    .await
                    .unwrap(),
                "{name}: {absent}"
            );
            assert_eq!(store.get(&late).await.unwrap(), None, "{name}");
            assert_eq!(
                store.get(&other).await.unwrap().as_deref(),
                Some(&b"x"[..]),
                "{name}: nothing removed"
            );
        }

        // Several entries each way; a key both removed and written ends up written.
        let (a, b) = (format!("{p}a"), format!("{p}b"));
        assert!(
            store
                .swap(&[&new, &other], &[(&a, b"1"), (&b, b"2"), (&other, b"y")])
                .await
                .unwrap(),
            "{name}"
        );
        let left: Vec<(String, Vec<u8>)> = store.scan(&p).await.unwrap();
        assert_eq!(
            left,
            vec![
                (a.clone(), b"1".to_vec()),
                (b.clone(), b"2".to_vec()),
                (other.clone(), b"y".to_vec())
            ],
            "{name}"
        );

        // Fifty concurrent swaps of the same key: one applies, and only its entry is written.
        let tasks: Vec<_> = (0..50)
            .map(|i| {
                let (store, a, p) = (store.clone(), a.clone(), p.clone());
                tokio::spawn(async move {
                    let to = format!("{p}to{i:02}");
                    store.swap(&[&a], &[(&to, b"t")]).await.unwrap()
                })
            })
            .collect();
        let mut applied = 0;
        for t in tasks {
            applied += usize::from(t.await.unwrap());
        }
        assert_eq!(applied, 1, "{name}: exactly one swap of one key");
        assert_eq!(
            store.scan(&format!("{p}to")).await.unwrap().len(),
            1,
            "{name}"
        );
        assert_eq!(store.get(&a).await.unwrap(), None, "{name}");
    }
}

#[tokio::test]
async fn a_rotated_key_is_replaced_once_and_the_old_one_stops() {
    for (store, _dir) in backends().await {
        let name = store.backend();
        let (key, record) = keys::create(&store, Tier::Pro, None, None).await.unwrap();
        let tasks: Vec<_> = (0..10)
            .map(|_| {
                let (store, record) = (store.clone(), record.clone());
                tokio::spawn(async move { keys::replace(&store, &record).await.unwrap() })
            })
            .collect();
        let mut made = Vec::new();
        for t in tasks {
            made.extend(t.await.unwrap());
        }
        assert_eq!(made.len(), 1, "{name}: one rotation of a key wins");
        let (new_key, new) = &made[0];
        assert_eq!(keys::lookup(&store, &key).await.unwrap(), None, "{name}");
        let found = keys::lookup(&store, new_key).await.unwrap().unwrap();
        assert_eq!(&found, new, "{name}");
        assert_eq!(found.account_id(), record.account_id(), "{name}");
        assert_eq!(found.tier, Tier::Pro, "{name}");
        let of_account: Vec<_> = keys::list(&store)
            .await
            .unwrap()
            .into_iter()
            .filter(|r| r.account_id() == record.account_id())
            .collect();
        assert_eq!(of_account, vec![found], "{name}");
    }
}

#[tokio::test]
async fn ranked_members_come_back_by_score_and_move_when_ranked_again() {
    for (store, _dir) in backends().await {
        let name = store.backend();
        let set = format!("{}due", ns("rank"));
        for (member, score) in [("c", 30), ("a", 10), ("b", 20), ("d", 40)] {
            store.rank(&set, member, score).await.unwrap();
        }
        assert_eq!(
            store.ranked_upto(&set, 25, 10).await.unwrap(),
            ["a", "b"],
            "{name}"
        );
        assert_eq!(
            store.ranked_upto(&set, 100, 3).await.unwrap(),
            ["a", "b", "c"],
            "{name}"
        );
        store.rank(&set, "a", 35).await.unwrap();
        assert_eq!(
            store.ranked_upto(&set, 100, 10).await.unwrap(),
            ["b", "c", "a", "d"],
            "{name}: moved, not duplicated"
        );
        assert!(store.unrank(&set, "c").await.unwrap(), "{name}");
        assert!(!store.unrank(&set, "c").await.unwrap(), "{name}");
        assert_eq!(
            store.ranked_upto(&set, 100, 10).await.unwrap(),
            ["b", "a", "d"],
            "{name}"
        );
        assert!(
            store
                .ranked_upto(&format!("{set}x"), 100, 10)
                .await
                .unwrap()
                .is_empty()
        );
        // A sorted set sharing a prefix with plain entries does not break a prefix scan.
        store
            .put(&format!("{set}:plain"), b"v", None)
            .await
            .unwrap();
        let scanned = store.scan(&set).await.unwrap();
        assert_eq!(scanned.len(), 1, "{name}: {scanned:?}");
    }
}

/// A count without a limit does not wait for Redis (`store/behind.rs`): with Redis refusing
/// writes for a while, it returns at once while a count with a limit waits; this instance reads
/// its own counts exactly at once, another instance once they are written (within the write
/// interval, or at `flush`). The embedded store counts it in memory, exact at once.
#[tokio::test]
async fn a_count_without_a_limit_is_written_behind() {
    let redis = crate::support::redis::RedisServer::start();
    let day = Duration::from_secs(86_400);
    let one = Store::open(Some(&redis.url), std::path::Path::new("."))
        .await
        .unwrap();
    let other = Store::open(Some(&redis.url), std::path::Path::new("."))
        .await
        .unwrap();
    one.admit("quota:warm", 1, Some(10), day).await.unwrap();
    redis.cli(&["client", "pause", "1000", "write"]).unwrap();
    let started = std::time::Instant::now();
    for _ in 0..5 {
        one.count_behind("quota:free", 2, day).await.unwrap();
    }
    assert!(
        started.elapsed() < Duration::from_millis(300),
        "waited {:?} for Redis",
        started.elapsed()
    );
    let limited = std::time::Instant::now();
    one.admit("quota:limited", 1, Some(10), day).await.unwrap();
    assert!(
        limited.elapsed() >= Duration::from_millis(500),
        "a count with a limit waits for Redis ({:?})",
        limited.elapsed()
    );
    assert_eq!(one.count("quota:free").await.unwrap(), 10);
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while other.count("quota:free").await.unwrap() < 10 {
        assert!(std::time::Instant::now() < deadline, "never written");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(one.count("quota:free").await.unwrap(), 10, "counted once");
    let ttl: i64 = redis.cli(&["pttl", "quota:free"]).unwrap().parse().unwrap();
    assert!(ttl > 0, "the counter expires ({ttl})");

    one.count_behind("quota:free", 1, day).await.unwrap();
    one.flush().await.unwrap();
    assert_eq!(
        other.count("quota:free").await.unwrap(),
        11,
        "written at flush"
    );

    let dir = tempfile::tempdir().unwrap();
    let embedded = Store::embedded(&dir.path().join("store.redb")).unwrap();
    embedded.count_behind("quota:free", 3, day).await.unwrap();
    assert_eq!(embedded.count("quota:free").await.unwrap(), 3);
}
