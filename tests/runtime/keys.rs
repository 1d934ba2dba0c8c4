//! Keys, tiers and quotas over real HTTP, against both store backends (embedded and a real
//! Redis): who may call what (401/403), the headers, the daily quota under hundreds of
//! concurrent requests, marketplace bucketing, batch caps and bodies, and 405s.

use reqwest::StatusCode;
use saferef_runtime::Config;
use saferef_runtime::keys;
use saferef_runtime::store::Store;
use saferef_runtime::tier::Tier;
use serde_json::Value;

use crate::support::{start_with, stores};

async fn key(store: &Store, tier: Tier) -> String {
    keys::create(store, tier, None, None).await.unwrap().0
}

async fn get(url: &str, key: Option<&str>) -> (StatusCode, reqwest::header::HeaderMap, Value) {
    let mut req = reqwest::Client::new().get(url);
    if let Some(k) = key {
        req = req.header("x-api-key", k);
    }
    let res = req.send().await.unwrap();
    let (status, headers) = (res.status(), res.headers().clone());
    (status, headers, res.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn keyed_endpoints_need_a_developer_key_and_report_the_tier() {
    for store in stores("keyed").await {
        let backend = store.backend();
        let developer = key(&store, Tier::Developer).await;
        let base = start_with(store, Config::default()).await;
        let (status, headers, body) = get(&format!("{base}/api/compounds"), None).await;
        assert_eq!(status, 401, "{backend}");
        assert_eq!(headers["x-api-tier"], "public");
        assert!(
            body["error"].as_str().unwrap().contains("Developer"),
            "{body}"
        );
        let (status, _, _) = get(
            &format!("{base}/api/compounds"),
            Some("sr_live_00000000000000000000000000000000"),
        )
        .await;
        assert_eq!(status, 401, "{backend}: unknown key");
        for path in ["/api/compounds?limit=2", "/api/v1/compounds?limit=2"] {
            let (status, headers, body) = get(&format!("{base}{path}"), Some(&developer)).await;
            assert_eq!(status, 200, "{backend} {path}: {body}");
            assert_eq!(headers["x-api-tier"], "developer");
            assert_eq!(headers["x-ratelimit-limit"], "10000");
            assert_eq!(headers["cache-control"], "private, max-age=3600");
            assert_eq!(body["compounds"].as_array().unwrap().len(), 2);
        }
        // The key also works as a query parameter, and it is counted per key.
        let (status, headers, _) = get(
            &format!("{base}/api/regulatory/agencies?api_key={developer}"),
            None,
        )
        .await;
        assert_eq!(status, 200, "{backend}");
        assert_eq!(headers["x-ratelimit-remaining"], "9997", "{backend}");
        for path in [
            "/api/contexts",
            "/api/materials?limit=1",
            "/api/products?tier=chd",
            "/api/found-in/categories",
            "/api/relationships/stats",
            "/api/filter?agency=IARC&limit=1",
            "/api/compounds/batch?ids=80-05-7&synthesize=true",
        ] {
            let (status, _, body) = get(&format!("{base}{path}"), Some(&developer)).await;
            assert_eq!(status, 200, "{backend} {path}: {body}");
            let (status, _, _) = get(&format!("{base}{path}"), None).await;
            assert_eq!(status, 401, "{backend} {path} without a key");
        }
    }
}

#[tokio::test]
async fn the_daily_quota_admits_exactly_the_limit_under_concurrency() {
    for store in stores("quota").await {
        let backend = store.backend();
        let base = start_with(store, Config::default()).await;
        let client = reqwest::Client::new();
        let tasks: Vec<_> = (0..600)
            .map(|_| {
                let (client, url) = (client.clone(), format!("{base}/api/health"));
                tokio::spawn(async move {
                    let res = client.get(url).send().await.unwrap();
                    (res.status(), res.headers().clone())
                })
            })
            .collect();
        let mut ok = 0;
        let mut refused = Vec::new();
        let mut warned = 0;
        for t in tasks {
            let (status, headers) = t.await.unwrap();
            match status.as_u16() {
                200 => {
                    ok += 1;
                    if headers.contains_key("x-usage-warning") {
                        warned += 1;
                    }
                }
                429 => refused.push(headers),
                other => panic!("{backend}: unexpected {other}"),
            }
        }
        assert_eq!(ok, 500, "{backend}: the public tier admits 500 a day");
        assert_eq!(refused.len(), 100, "{backend}");
        // Past 80% of 500 (the 400th request on), every answer warns.
        assert_eq!(warned, 101, "{backend}");
        let h = &refused[0];
        assert_eq!(h["x-ratelimit-remaining"], "0");
        assert!(h["retry-after"].to_str().unwrap().parse::<u64>().unwrap() <= 86_400);
        assert_eq!(h["x-upgrade-url"], "/api/docs#keys");
        assert!(
            h["ratelimit"]
                .to_str()
                .unwrap()
                .starts_with("\"daily\";r=0;t=")
        );
        let reset: i64 = h["x-ratelimit-reset"].to_str().unwrap().parse().unwrap();
        assert_eq!(
            reset % 86_400_000,
            0,
            "{backend}: resets at 00:00 UTC (Unix ms)"
        );
    }
}

#[tokio::test]
async fn enterprise_callers_get_only_the_tier_header() {
    for store in stores("enterprise").await {
        let enterprise = key(&store, Tier::Enterprise).await;
        let base = start_with(store, Config::default()).await;
        let (status, headers, _) = get(&format!("{base}/api/compounds"), Some(&enterprise)).await;
        assert_eq!(status, 200);
        assert_eq!(headers["x-api-tier"], "enterprise");
        assert!(!headers.contains_key("x-ratelimit-limit"));
        assert!(!headers.contains_key("ratelimit"));
    }
}

#[tokio::test]
async fn marketplace_subscribers_are_bucketed_per_user_only_with_the_right_secret() {
    for store in stores("marketplace").await {
        let base = start_with(
            store,
            Config {
                marketplace_secret: Some("gateway-secret".into()),
                ..Config::default()
            },
        )
        .await;
        let call = |secret: &'static str, user: &'static str, plan: &'static str| {
            let url = format!("{base}/api/compounds/batch?ids=80-05-7");
            async move {
                reqwest::Client::new()
                    .get(url)
                    .header("x-marketplace-proxy-secret", secret)
                    .header("x-marketplace-user", user)
                    .header("x-marketplace-subscription", plan)
                    .send()
                    .await
                    .unwrap()
            }
        };
        let a = call("gateway-secret", "alice", "BASIC").await;
        assert_eq!(a.headers()["x-api-tier"], "developer");
        assert_eq!(a.headers()["x-ratelimit-remaining"], "9999");
        let b = call("gateway-secret", "bob", "ULTRA").await;
        assert_eq!(b.headers()["x-api-tier"], "pro");
        assert_eq!(
            b.headers()["x-ratelimit-remaining"],
            "99999",
            "bob has his own bucket"
        );
        let wrong = call("not-the-secret", "alice", "ULTRA").await;
        assert_eq!(
            wrong.headers()["x-api-tier"],
            "public",
            "a wrong secret falls back to per-IP"
        );
        // Plan caps: Basic 10 per batch.
        let ids: Vec<String> = (0..11).map(|i| format!("hq-c-org-{:06}", i + 1)).collect();
        let res = reqwest::Client::new()
            .get(format!("{base}/api/compounds/batch?ids={}", ids.join(",")))
            .header("x-marketplace-proxy-secret", "gateway-secret")
            .header("x-marketplace-user", "alice")
            .header("x-marketplace-subscription", "BASIC")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 400);
    }
}

#[tokio::test]
async fn batch_caps_bodies_and_methods() {
    let store = stores("batch").await.remove(0);
    let developer = key(&store, Tier::Developer).await;
    let base = start_with(store, Config::default()).await;
    let client = reqwest::Client::new();
    let url = format!("{base}/api/compounds/batch");
    let eleven: Vec<String> = (1..=11).map(|i| format!("hq-c-org-{i:06}")).collect();

    let res = client
        .get(format!("{url}?ids={}", eleven.join(",")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    let body: Value = res.json().await.unwrap();
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("too many compounds")
    );
    assert_eq!(body["upgrade_url"], "/api/docs#keys");
    let res = client
        .get(format!("{url}?ids={}", eleven.join(",")))
        .header("x-api-key", &developer)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "developer cap is 50");

    let res = client
        .post(&url)
        .json(&serde_json::json!({"compounds": ["80-05-7", "hq-c-org-999999", "not-an-id"], "context": "child"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["x-api-tier"], "public");
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["meta"]["requested"], 3);
    assert_eq!(body["meta"]["found"], 1);
    assert_eq!(body["meta"]["cas_resolved"], 1);
    assert!(body["results"]["hq-c-org-999999"]["error"].is_string());
    assert!(body["results"]["80-05-7"]["risk_level"].is_string());

    let res = client
        .post(&url)
        .json(&serde_json::json!({"compounds": ["80-05-7"], "synthesize": true}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401, "synthesize needs a Developer key");
    let res = client
        .post(&url)
        .body("{\"compounds\": [")
        .header("content-type", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    let res = client
        .post(&url)
        .body("compounds=80-05-7")
        .header("content-type", "application/x-www-form-urlencoded")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 415);
    let huge = format!("{{\"compounds\": [\"{}\"]}}", "x".repeat(300 * 1024));
    let res = client
        .post(&url)
        .body(huge)
        .header("content-type", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 413);
    let body: Value = res.json().await.unwrap();
    assert!(body["error"].is_string());

    for (method, path) in [
        (reqwest::Method::POST, "/api/compounds"),
        (reqwest::Method::DELETE, "/api/compound/hq-c-org-000001"),
        (reqwest::Method::PUT, "/api/compounds/batch"),
        (reqwest::Method::POST, "/api/health"),
    ] {
        let res = client
            .request(method.clone(), format!("{base}{path}"))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 405, "{method} {path}");
        assert!(res.headers().contains_key("allow"));
        let body: Value = res.json().await.unwrap();
        assert!(body["error"].as_str().unwrap().contains("not allowed"));
    }
}

#[tokio::test]
async fn freshness_is_503_until_a_summary_exists_then_the_daily_one_from_the_store() {
    for store in stores("freshness").await {
        let backend = store.backend();
        let base = start_with(store.clone(), Config::default()).await;
        let (status, _, body) = get(&format!("{base}/api/freshness"), None).await;
        assert_eq!(status, 503, "{backend}: no built tree, no daily summary");
        assert!(body["error"].is_string());
        let (dataset, _) = saferef_generator::load::load(&crate::support::data_dir()).unwrap();
        let summary = saferef_runtime::freshness::summarize(
            &dataset,
            Some("2026-11-01T00:00:00Z"),
            "2026-11-21T06:00:00Z".parse().unwrap(),
            "redis",
        );
        store
            .put(
                &saferef_runtime::freshness::store_key(&dataset),
                &serde_json::to_vec(&summary).unwrap(),
                None,
            )
            .await
            .unwrap();
        let (status, headers, body) = get(&format!("{base}/api/freshness"), None).await;
        assert_eq!(status, 200, "{backend}");
        assert_eq!(headers["cache-control"], "public, max-age=1800");
        assert_eq!(body["source"], "redis");
        assert_eq!(body["deploy_age_days"], 20);
        assert_eq!(body["deploy_stale"], true);
        let c = &body["entities"]["compounds"];
        assert_eq!(c["total"], dataset.compounds.len());
        let sum: u64 = ["current", "aging", "stale", "very_stale", "never"]
            .iter()
            .map(|k| c[k].as_u64().unwrap())
            .sum();
        assert_eq!(sum, dataset.compounds.len() as u64);
        assert_eq!(
            body["totals"]["entities"],
            dataset.compounds.len() + dataset.materials.len() + dataset.products.len()
        );
    }
}

#[tokio::test]
async fn search_resolves_aliases_and_compare_refuses_the_public_tier() {
    let store = stores("search").await.remove(1);
    let developer = key(&store, Tier::Developer).await;
    let base = start_with(store, Config::default()).await;
    let (status, _, body) = get(
        &format!("{base}/api/search?q=%20b%20p%20a%20"),
        Some(&developer),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["results"][0]["cas"], "80-05-7");
    assert_eq!(body["results"][0]["alias_boosted"], true);
    assert_eq!(body["meta"]["alias_resolved"], body["results"][0]["id"]);
    let (status, _, body) = get(
        &format!("{base}/api/search?q=BPA&type=product"),
        Some(&developer),
    )
    .await;
    assert_eq!(status, 200);
    assert!(body["meta"]["alias_resolved"].is_null());
    for bad in [
        "q=a",
        "q=bpa&limit=0",
        "q=bpa&limit=101",
        "q=bpa&offset=-1",
        "q=bpa&type=planet",
        "",
    ] {
        let (status, _, body) = get(&format!("{base}/api/search?{bad}"), Some(&developer)).await;
        assert_eq!(status, 400, "{bad}: {body}");
    }

    let bpa_bps = "ids=80-05-7,80-09-1";
    let (status, headers, body) =
        get(&format!("{base}/api/compounds/compare?{bpa_bps}"), None).await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(headers["x-api-tier"], "public");
    let (status, _, body) = get(
        &format!("{base}/api/compounds/compare?{bpa_bps}"),
        Some(&developer),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["comparison"]["compounds"].as_array().unwrap().len(), 2);
    let (status, _, body) = get(
        &format!("{base}/api/compounds/compare?{bpa_bps}&contexts=adult,infants,dog"),
        Some(&developer),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(body["comparison"]["risk_matrix"].is_object());
    for (query, status) in [
        ("ids=80-05-7", 400),
        ("ids=80-05-7,80-05-7", 400),
        ("ids=80-05-7,hq-c-org-999999", 404),
        ("ids=80-05-7,80-09-1&context=dog&contexts=adult,dog", 400),
    ] {
        let (got, _, body) = get(
            &format!("{base}/api/compounds/compare?{query}"),
            Some(&developer),
        )
        .await;
        assert_eq!(got, status, "{query}: {body}");
    }
}

#[tokio::test]
async fn key_status_usage_and_rotation() {
    for store in stores("rotate").await {
        let backend = store.backend();
        let developer = key(&store, Tier::Developer).await;
        let base = start_with(store, Config::default()).await;
        let (status, headers, body) =
            get(&format!("{base}/api/keys/status"), Some(&developer)).await;
        assert_eq!(status, 200, "{backend}: {body}");
        assert_eq!(headers["cache-control"], "no-store");
        assert_eq!(body["tier"], "developer");
        assert_eq!(body["prefix"], &developer[..12]);
        assert_eq!(
            body["usage_today"]["requests"], 1,
            "{backend}: this request counts"
        );
        let (status, _, body) =
            get(&format!("{base}/api/keys/usage?days=3"), Some(&developer)).await;
        assert_eq!(status, 200);
        assert_eq!(body["days"].as_array().unwrap().len(), 3);
        assert_eq!(body["days"][0]["requests"], 2);
        for bad in ["0", "31", "x"] {
            let (status, _, _) = get(
                &format!("{base}/api/keys/usage?days={bad}"),
                Some(&developer),
            )
            .await;
            assert_eq!(status, 400, "{backend} days={bad}");
        }
        let res = reqwest::Client::new()
            .post(format!("{base}/api/keys/rotate"))
            .header("x-api-key", &developer)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 201, "{backend}");
        let body: Value = res.json().await.unwrap();
        let fresh = body["key"].as_str().unwrap().to_string();
        assert_ne!(fresh, developer);
        let (status, _, _) = get(&format!("{base}/api/keys/status"), Some(&developer)).await;
        assert_eq!(status, 401, "{backend}: the old key stops at once");
        let (status, _, body) = get(&format!("{base}/api/keys/status"), Some(&fresh)).await;
        assert_eq!(status, 200, "{backend}");
        assert_eq!(body["tier"], "developer");
        assert_eq!(
            body["usage_today"]["requests"], 7,
            "{backend}: usage follows the account across the rotation: {body}"
        );
        let (status, _, _) = get(&format!("{base}/api/keys/status"), None).await;
        assert_eq!(status, 401);
    }
}

#[tokio::test]
async fn fragrance_endpoints_list_classify_and_search() {
    let store = stores("fragrance").await.remove(0);
    let developer = key(&store, Tier::Developer).await;
    let base = start_with(store, Config::default()).await;
    let (status, _, body) = get(&format!("{base}/api/fragrance?limit=5"), None).await;
    assert_eq!(status, 401, "{body}");
    let (status, _, body) = get(&format!("{base}/api/fragrance?limit=5"), Some(&developer)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["pagination"]["total"], 105);
    assert_eq!(body["ingredients"].as_array().unwrap().len(), 5);
    let (status, _, body) = get(&format!("{base}/api/fragrance/classes"), Some(&developer)).await;
    assert_eq!(status, 200, "{body}");
    let (status, _, body) = get(
        &format!("{base}/api/fragrance/search?q=linalool"),
        Some(&developer),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["results"][0]["cas"], "78-70-6");
    for bad in [
        "/api/fragrance?limit=0",
        "/api/fragrance?class=bogus",
        "/api/fragrance/search?q=a",
    ] {
        let (status, _, _) = get(&format!("{base}{bad}"), Some(&developer)).await;
        assert_eq!(status, 400, "{bad}");
    }
}

#[tokio::test]
async fn regulatory_status_cells_and_calendar() {
    let store = stores("regulatory-status").await.remove(0);
    let developer = key(&store, Tier::Developer).await;
    let base = start_with(store, Config::default()).await;
    let url = format!("{base}/api/regulatory-status");
    let (status, _, _) = get(&format!("{url}?analyte=lead"), None).await;
    assert_eq!(status, 401);
    let (status, _, body) = get(
        &format!("{url}?analyte=PFOA&jurisdiction=US&matrix=drinking_water&as_of=2026-11-21"),
        Some(&developer),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["as_of"], "2026-11-21");
    let cell = &body["results"][0];
    assert_eq!(cell["governance"]["current"]["threshold_ppb"], 0.004);
    // Before the 2024 rule took effect there was no federal PFOA limit in force.
    let (_, _, before) = get(
        &format!("{url}?analyte=pfoa&jurisdiction=US&matrix=drinking_water&as_of=2020-01-01"),
        Some(&developer),
    )
    .await;
    assert!(
        before["results"][0]["governance"]["current"].is_null(),
        "{before}"
    );
    let (status, _, calendar) = get(
        &format!("{url}?view=calendar&as_of=2026-11-21&before=2030-12-31"),
        Some(&developer),
    )
    .await;
    assert_eq!(status, 200, "{calendar}");
    let changes = calendar["changes"].as_array().unwrap();
    assert!(!changes.is_empty());
    assert!(
        changes.iter().all(|c| c["effective_from"].is_string()),
        "before excludes undated"
    );
    assert!(calendar["coverage"]["cells"].as_u64().unwrap() > 100);
    for bad in [
        "analyte=plutonium",
        "jurisdiction=MARS",
        "as_of=2026-02-30",
        "view=calendar&before=soon",
        "matrix=prop65_cancer_listing",
        "matrix=baby%20food",
    ] {
        let (status, _, body) = get(&format!("{url}?{bad}"), Some(&developer)).await;
        assert_eq!(status, 400, "{bad}: {body}");
    }
    // A compound id, a CAS number and a name all name bisphenol A's cells.
    let mut answers = Vec::new();
    for analyte in ["hq-c-org-000218", "80-05-7", "Bisphenol%20A", "bisphenol_a"] {
        let (status, _, body) = get(
            &format!("{url}?analyte={analyte}&as_of=2026-11-21"),
            Some(&developer),
        )
        .await;
        assert_eq!(status, 200, "{analyte}: {body}");
        assert_eq!(
            body["analytes"],
            serde_json::json!(["bisphenol_a"]),
            "{analyte}"
        );
        answers.push(body);
    }
    assert!(answers[0]["count"].as_u64().unwrap() > 0);
    assert!(answers.windows(2).all(|w| w[0] == w[1]));
    let (status, _, body) = get(&format!("{url}?matrix=baby%20food"), Some(&developer)).await;
    assert_eq!(status, 400);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("did you mean baby_food_root_vegetables, canned_baby_food"),
        "{body}"
    );
    // The vocabularies are public reference data.
    let (status, headers, vocabulary) = get(&format!("{url}/vocabulary"), None).await;
    assert_eq!(status, 200, "{vocabulary}");
    assert_eq!(headers["cache-control"], "public, max-age=7200");
    let ids = |list: &str| -> Vec<String> {
        vocabulary[list]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["id"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(ids("matrices").contains(&"processed_baby_food_general".to_string()));
    assert!(!ids("matrices").contains(&"prop65_cancer_listing".to_string()));
    assert!(ids("listings").contains(&"prop65_cancer_listing".to_string()));
    assert_eq!(ids("jurisdictions"), ["US", "EU", "CA_AB899"]);
    let bpa = vocabulary["analytes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["id"] == "bisphenol_a")
        .unwrap();
    assert_eq!(bpa["compounds"], serde_json::json!(["hq-c-org-000218"]));
    assert_eq!(bpa["label"], "Bisphenol A (BPA)");
}

/// `synthesize=true` costs what the OpenAPI says and `meta.credits` states, 2 credits per
/// synthesised record, by GET and by POST: the quota drops by exactly that (issue 23: it
/// dropped by 1 for 20 credits). A request the batch refuses costs 1.
#[tokio::test]
async fn a_synthesised_batch_costs_the_credits_it_states() {
    let store = stores("synthesize-credits").await.remove(0);
    let developer = key(&store, Tier::Developer).await;
    let base = start_with(store, Config::default()).await;
    let remaining = |h: &reqwest::header::HeaderMap| -> u64 {
        h["x-ratelimit-remaining"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap()
    };
    let (_, page, body) = get(&format!("{base}/api/compounds?limit=12"), Some(&developer)).await;
    let ids: Vec<String> = body["compounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["hq_id"].as_str().unwrap().to_string())
        .collect();
    let mut before = remaining(&page);
    let ten = ids[..10].join(",");
    for (url, synthesised) in [
        (
            format!("{base}/api/compounds/batch?ids={ten}&synthesize=true"),
            true,
        ),
        (
            format!("{base}/api/compounds/batch?ids={ten}&synthesize=false"),
            false,
        ),
        (
            format!(
                "{base}/api/compounds/batch?ids={},{}&synthesize=TRUE",
                ids[0], ids[1]
            ),
            true,
        ),
        // Eleven to synthesise: refused (at most 10), and charged 1.
        (
            format!(
                "{base}/api/compounds/batch?ids={}&synthesize=true",
                ids[..11].join(",")
            ),
            false,
        ),
    ] {
        let (status, headers, body) = get(&url, Some(&developer)).await;
        let credits = match status {
            StatusCode::OK => body["meta"]["credits"].as_u64().unwrap(),
            _ => 1,
        };
        if synthesised {
            let found = body["meta"]["found"].as_u64().unwrap();
            assert_eq!(credits, (2 * found).max(1), "{url}: {body}");
        }
        let after = remaining(&headers);
        assert_eq!(before - after, credits, "{url}: {status} {body}");
        before = after;
    }
    let res = reqwest::Client::new()
        .post(format!("{base}/api/compounds/batch"))
        .header("x-api-key", &developer)
        .json(&serde_json::json!({"ids": ids[..3], "synthesize": true}))
        .send()
        .await
        .unwrap();
    let after = remaining(res.headers());
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["meta"]["credits"], 6, "{body}");
    assert_eq!(before - after, 6);
}
