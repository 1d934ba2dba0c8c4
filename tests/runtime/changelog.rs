//! `GET /api/changelog` over real HTTP on the committed `data/changelog.jsonl`: access, order,
//! filters, compact entries, bounds and their 400s; and the release events with their
//! once-only claim on both store backends.

use saferef_runtime::Config;
use saferef_runtime::keys;
use saferef_runtime::releases;
use saferef_runtime::store::Store;
use saferef_runtime::tier::Tier;
use serde_json::Value;

use crate::support::keyed_get as get;
use crate::support::{start_with, state, stores};

async fn service() -> (String, String) {
    let dir = tempfile::tempdir().unwrap().keep();
    let store = Store::embedded(&dir.join("store.redb")).unwrap();
    let k = keys::create(&store, Tier::Developer, None, None)
        .await
        .unwrap()
        .0;
    (start_with(store, Config::default()).await, k)
}

fn entries(body: &Value) -> &Vec<Value> {
    body["entries"].as_array().unwrap()
}

#[tokio::test]
async fn the_feed_needs_a_key_and_pages_newest_first() {
    let (base, k) = service().await;
    let total = state().release.dataset.changelog.len();
    assert!(total > 0, "data/changelog.jsonl holds the first release");
    let (status, body) = get(&format!("{base}/api/changelog"), None).await;
    assert_eq!(status, 401);
    assert!(body["error"].is_string());

    let (status, body) = get(&format!("{base}/api/changelog"), Some(&k)).await;
    assert_eq!(status, 200);
    assert_eq!(entries(&body).len(), 20, "default limit");
    assert_eq!(body["pagination"]["total"], total);
    assert_eq!(body["pagination"]["has_more"], total > 20);
    let first = &entries(&body)[0];
    for field in ["id", "release", "date", "type", "name", "summary"] {
        assert!(first[field].is_string(), "{field}: {first}");
    }
    // Newest first: dates never increase down the feed, and the newest-written entry leads.
    let (_, all) = get(
        &format!("{base}/api/changelog?limit=100&offset=0"),
        Some(&k),
    )
    .await;
    let dates: Vec<&str> = entries(&all)
        .iter()
        .map(|e| e["date"].as_str().unwrap())
        .collect();
    assert!(dates.windows(2).all(|w| w[0] >= w[1]));
    let s = state();
    let last_written = s.release.dataset.changelog.last().unwrap();
    assert_eq!(entries(&all)[0]["id"], last_written.id.as_str());
    // Pages do not overlap.
    let (_, next) = get(
        &format!("{base}/api/changelog?limit=100&offset=100"),
        Some(&k),
    )
    .await;
    assert_eq!(next["pagination"]["offset"], 100);
    let ids = |b: &Value| -> Vec<String> {
        entries(b)
            .iter()
            .map(|e| e["id"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(ids(&next).iter().all(|i| !ids(&all).contains(i)));
    assert_eq!(ids(&all).len() + ids(&next).len(), total.min(200));
}

#[tokio::test]
async fn filters_and_compact_entries() {
    let (base, k) = service().await;
    let log = &state().release.dataset.changelog;
    let count = |kind: &str| log.iter().filter(|e| e.kind.as_str() == kind).count();
    for kind in ["compound.added", "compound.updated", "regulatory.updated"] {
        let (status, body) = get(
            &format!("{base}/api/changelog?type={kind}&limit=100"),
            Some(&k),
        )
        .await;
        assert_eq!(status, 200);
        assert_eq!(body["pagination"]["total"], count(kind), "{kind}");
        assert!(entries(&body).iter().all(|e| e["type"] == kind));
    }
    let updated = log
        .iter()
        .find(|e| e.kind.as_str() == "compound.updated")
        .unwrap();
    let id = updated.compound_id.as_deref().unwrap();
    let (_, body) = get(&format!("{base}/api/changelog?compound_id={id}"), Some(&k)).await;
    assert!(entries(&body).iter().all(|e| e["compound_id"] == id));
    let entry = entries(&body)
        .iter()
        .find(|e| e["id"] == updated.id.as_str())
        .unwrap();
    assert!(entry["changes"][0]["path"].is_string());
    assert!(entry["text_diff"].as_str().unwrap().starts_with("---"));

    let (_, body) = get(
        &format!("{base}/api/changelog?compound_id={id}&summary=true"),
        Some(&k),
    )
    .await;
    for e in entries(&body) {
        assert!(
            e.get("changes").is_none() && e.get("text_diff").is_none(),
            "{e}"
        );
        assert!(e["summary"].is_string());
    }
    let date = &log[0].date;
    let (_, body) = get(&format!("{base}/api/changelog?since={date}"), Some(&k)).await;
    assert_eq!(
        body["pagination"]["total"],
        log.iter().filter(|e| e.date >= *date).count()
    );
    let (_, body) = get(
        &format!("{base}/api/changelog?since={date}T00:00:01Z"),
        Some(&k),
    )
    .await;
    assert_eq!(
        body["pagination"]["total"],
        log.iter().filter(|e| e.date > *date).count(),
        "a datetime after the release's midnight excludes it"
    );
    let (_, body) = get(&format!("{base}/api/changelog?since=2999-01-01"), Some(&k)).await;
    assert_eq!(body["pagination"]["total"], 0);
    assert!(entries(&body).is_empty());
}

#[tokio::test]
async fn bad_parameters_are_400_and_unknown_compounds_404() {
    let (base, k) = service().await;
    for bad in [
        "since=yesterday",
        "since=2026-13-01",
        "since=2026-11-21T25:00:00Z",
        "type=compound.deleted",
        "summary=maybe",
        "limit=0",
        "limit=101",
        "limit=ten",
        "offset=-1",
        "compound_id=benzene",
    ] {
        let (status, body) = get(&format!("{base}/api/changelog?{bad}"), Some(&k)).await;
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(body["error"].is_string(), "{bad}");
    }
    let (status, body) = get(
        &format!("{base}/api/changelog?compound_id=hq-c-org-999999"),
        Some(&k),
    )
    .await;
    assert_eq!(status, 404, "{body}");
}

#[tokio::test]
async fn the_newest_release_is_emitted_once_across_instances() {
    let d = &state().release.dataset;
    let release = releases::newest(d).expect("a release").to_string();
    let events = releases::events(d);
    let in_release = d.changelog.iter().filter(|e| e.release == release).count();
    assert_eq!(events.len(), in_release);
    assert!(
        events
            .iter()
            .any(|e| e.kind == "compound.added" && e.compound_id.is_some())
    );
    assert!(events.iter().all(|e| e.data["release"] == release.as_str()));
    assert!(events.iter().all(|e| e.data.get("text_diff").is_none()));
    for store in stores("release-emit").await {
        let backend = store.backend();
        let (dataset, _) = saferef_generator::load::load(&crate::support::data_dir()).unwrap();
        let state = std::sync::Arc::new(saferef_runtime::AppState::new(
            std::sync::Arc::new(saferef_runtime::Service::new(
                store,
                saferef_runtime::Config::default(),
            )),
            saferef_runtime::Release::new(dataset, 0, None),
        ));
        // Two instances race for the same release: its events are queued once in all.
        let (a, b) = tokio::join!(releases::emit(&state), releases::emit(&state));
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!(a.events + b.events, in_release, "{backend}: {a:?} {b:?}");
        let again = releases::emit(&state).await.unwrap();
        assert_eq!(again.events, 0, "{backend}: a release is emitted once");
    }
}
