//! The runtime over real HTTP on loopback: the health endpoint, its errors and the `/api/v1`
//! alias.

use serde_json::Value;

use crate::support::{data_dir, get, start};

#[tokio::test]
async fn health_reports_version_commit_and_dataset() {
    let base = start().await;
    let (status, headers, body) = get(&format!("{base}/api/health")).await;
    assert_eq!(status, 200);
    assert_eq!(headers["content-type"], "application/json");
    assert_eq!(body["status"], "ok", "the committed dataset passes check");
    assert_eq!(body["version"], "1.7.0");
    assert_eq!(body["commit"], "test-commit");
    assert_eq!(body["platform"], "saferef-runtime");
    // The version of the regulatory-status layer: changes when a tranche ships.
    let version = body["dataset_version"].as_str().unwrap();
    assert_eq!(
        version,
        crate::support::state()
            .release
            .dataset
            .regulatory_status
            .dataset_version
    );
    assert!(
        version.starts_with("rs-") && version.len() == 15,
        "{version}"
    );
    assert!(chrono::DateTime::parse_from_rfc3339(body["timestamp"].as_str().unwrap()).is_ok());
}

/// Health's plain answer is kept for the second its timestamp names (`http/health.rs`): two
/// answers of one second are the same bytes and ETag, every ETag is its own body's, and the
/// next second's answer names that second.
#[tokio::test]
async fn health_is_one_answer_per_second_each_with_its_own_etag() {
    let base = start().await;
    let client = reqwest::Client::new();
    let mut seen: Vec<(String, String, Vec<u8>)> = Vec::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let res = client
            .get(format!("{base}/api/health"))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        let etag = res.headers()["etag"].to_str().unwrap().to_string();
        let body = res.bytes().await.unwrap().to_vec();
        assert_eq!(
            etag,
            saferef_runtime::http::etag(&body),
            "its own body's ETag"
        );
        let v: Value = serde_json::from_slice(&body).unwrap();
        let second = v["timestamp"].as_str().unwrap().to_string();
        for (s, e, b) in &seen {
            if *s == second {
                assert_eq!((e, b), (&etag, &body), "one answer within {second}");
            } else {
                assert_ne!(e, &etag, "{s} and {second}");
            }
        }
        seen.push((second, etag, body));
        let seconds: std::collections::BTreeSet<_> = seen.iter().map(|(s, _, _)| s).collect();
        if seconds.len() >= 2 && seen.len() > seconds.len() {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{seconds:?}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn integrity_check_counts_compounds_and_is_cached_60s() {
    let base = start().await;
    let (status, headers, body) = get(&format!("{base}/api/health?check=integrity")).await;
    assert_eq!(status, 200);
    assert_eq!(headers["cache-control"], "public, max-age=60");
    let files = std::fs::read_dir(data_dir().join("compounds"))
        .unwrap()
        .count();
    assert_eq!(body["integrity"]["compounds"], files);
    assert_eq!(body["integrity"]["problems"], 0);
}

#[tokio::test]
async fn monitor_check_is_admin_only() {
    let base = start().await;
    let (status, headers, body) = get(&format!("{base}/api/health?check=monitor")).await;
    assert_eq!(status, 401);
    assert_eq!(headers["cache-control"], "private, max-age=3600");
    assert!(body["error"].as_str().unwrap().contains("administrators"));
    let res = reqwest::Client::new()
        .get(format!("{base}/api/health?check=monitor"))
        .header("authorization", "Bearer admin-secret")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    assert!(body["monitor"]["uptime_seconds"].is_u64());
}

#[tokio::test]
async fn bad_input_gets_json_4xx() {
    let base = start().await;
    for (path, status, needle) in [
        ("/api/health?check=everything", 400, "unknown check"),
        ("/api/health?check=", 400, "unknown check"),
        (
            "/api/health?check=integrity&check=monitor",
            400,
            "invalid query",
        ),
        ("/api/nope", 404, "not found"),
        ("/elsewhere", 404, "not found"),
    ] {
        let (got, _, body) = get(&format!("{base}{path}")).await;
        assert_eq!(got, status, "{path}");
        assert!(
            body["error"].as_str().unwrap().contains(needle),
            "{path}: {body}"
        );
    }
    let res = reqwest::Client::new()
        .post(format!("{base}/api/health"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 405);
}

#[tokio::test]
async fn v1_prefix_answers_the_same() {
    let base = start().await;
    let (status, _, body) = get(&format!("{base}/api/v1/health")).await;
    assert_eq!(status, 200);
    assert_eq!(body["version"], "1.7.0");
}

#[tokio::test]
async fn root_lists_endpoints_and_dataset_totals() {
    let base = start().await;
    let d = &crate::support::state().release.dataset;
    for path in ["/api", "/api/v1"] {
        let (status, headers, body) = get(&format!("{base}{path}")).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(headers["cache-control"], "public, max-age=7200");
        assert_eq!(body["version"], "1.7.0");
        assert_eq!(body["api_schema_version"], 1);
        assert_eq!(body["versioned_base"], "/api/v1/");
        assert_eq!(body["endpoints"]["compound"], "/api/compound/{id}");
        let e = &body["data_enrichment"];
        assert_eq!(e["total_compounds"], d.compounds.len());
        assert_eq!(e["total_materials"], d.materials.len());
        assert_eq!(e["total_products"], d.products.len());
        assert_eq!(e["regulatory_agencies"], d.agencies.len());
        assert_eq!(e["built_at"], d.release_date().as_str());
        assert!(e["found_in_categories"].as_u64().unwrap() > 10);
    }
}

#[tokio::test]
async fn openapi_document_and_postman_collection() {
    let base = start().await;
    let (status, h, doc) = get(&format!("{base}/api/openapi")).await;
    assert_eq!(status, 200);
    assert_eq!(h["cache-control"], "public, max-age=7200");
    assert_eq!(doc["openapi"], "3.1.0");
    let (status, _, pm) = get(&format!("{base}/api/openapi?format=postman")).await;
    assert_eq!(status, 200);
    assert!(pm["item"].as_array().unwrap().len() > 5);
    let (status, _, err) = get(&format!("{base}/api/openapi?format=yaml")).await;
    assert_eq!(status, 400);
    assert!(err["error"].as_str().unwrap().contains("postman"));
}

/// The binary on a tree whose manifest lists one 32 MiB file 64 times, so that a check hashes
/// 2 GiB: seconds of work. A check runs off the async workers, one at a time, and the answer
/// is the last verdict meanwhile (null before the first check ends): neither two keyed
/// integrity requests nor anyone else's request waits for the hashing (issue 23: two checks
/// stalled every request for 1-6 s).
#[test]
fn an_integrity_check_never_stalls_requests_and_answers_the_last_verdict() {
    use sha2::Digest;
    use std::time::{Duration, Instant};

    let tree = tempfile::tempdir().unwrap();
    let dataset = crate::support::dataset();
    crate::support::write_tree(tree.path(), &dataset);
    let site = tree.path().join("site");
    let big: Vec<u8> = (0..32u32 << 20).map(|i| (i % 251) as u8).collect();
    std::fs::write(site.join("big.bin"), &big).unwrap();
    let sha: String = sha2::Sha256::digest(&big)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let files: Vec<Value> = (0..64)
        .map(|_| serde_json::json!({"path": "big.bin", "sha256": sha}))
        .collect();
    let manifest = serde_json::json!({
        "built_at": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        "dataset_version": dataset.fingerprint,
        "files": files,
    });
    std::fs::write(
        site.join(saferef_generator::build::site::MANIFEST),
        manifest.to_string(),
    )
    .unwrap();
    let state = tempfile::tempdir().unwrap();
    let key = crate::support::binary::create_key(state.path(), "enterprise");
    let server = crate::support::binary::serve(&tree.path().join("data"), &site, state.path(), &[]);
    let base = server.base.clone();

    let timed = |url: String, key: Option<String>| {
        std::thread::spawn(move || {
            let started = Instant::now();
            let mut req = reqwest::blocking::Client::new().get(url);
            if let Some(k) = key {
                req = req.header("x-api-key", k);
            }
            let body: Value = req.send().unwrap().json().unwrap();
            (started.elapsed(), body)
        })
    };
    let integrity = format!("{base}/api/health?check=integrity");
    let checks: Vec<_> = (0..2)
        .map(|_| timed(integrity.clone(), Some(key.clone())))
        .collect();
    let others: Vec<_> = (0..4)
        .map(|_| timed(format!("{base}/api/compound/hq-c-org-000145"), None))
        .collect();
    for (took, body) in checks.into_iter().chain(others).map(|t| t.join().unwrap()) {
        assert!(took < Duration::from_secs(1), "{took:?}: {body}");
    }
    // The check started at load ends, and its verdict is then what everyone is told.
    let deadline = Instant::now() + Duration::from_secs(60);
    let verdict = loop {
        let (_, body) = timed(integrity.clone(), None).join().unwrap();
        let verdict = &body["integrity"]["site_matches_manifest"];
        if !verdict.is_null() || Instant::now() > deadline {
            break verdict.clone();
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(verdict, true);
}
