//! The compound endpoints over real HTTP: bodies equal the render functions' bytes (what the
//! static build writes), cache and rate-limit headers are set, and every bad input is a JSON 4xx.

use saferef_generator::api;
use saferef_generator::render::dispatch;

use crate::support::{get, start, state};

fn id(cas: &str) -> String {
    state()
        .release
        .dataset
        .by_cas(cas)
        .unwrap()
        .hq_id
        .to_string()
}

#[tokio::test]
async fn bodies_are_the_rendered_bytes() {
    let base = start().await;
    let d = &state().release.dataset;
    let benzene = id("71-43-2");
    for path in [
        format!("/api/compound/{benzene}"),
        format!("/api/compound/{benzene}?context=skin"),
        format!("/api/compound/{benzene}?all_contexts=true"),
        format!("/api/compound/{benzene}/raw"),
        format!("/api/compound/{benzene}/alternatives"),
        "/api/compound/cas/71-43-2".to_string(),
        // The pages for people go through the same dispatch.
        format!("/compound/{benzene}"),
        "/compound/hq-c-org-999999".to_string(),
        "/material/hq-m-adh-000001".to_string(),
        "/product/hq-p-bdy-000002".to_string(),
        "/".to_string(),
        "/sitemap.xml".to_string(),
        "/robots.txt".to_string(),
        "/search-index.json".to_string(),
    ] {
        // What the build writes for the URL: its answer through the one dispatch.
        let (route, query) = path.split_once('?').unwrap_or((&path, ""));
        let rendered = dispatch::get_static(d, route, &api::pairs(query), None);
        let res = reqwest::get(format!("{base}{path}")).await.unwrap();
        assert_eq!(res.status().as_u16(), rendered.status, "{path}");
        assert_eq!(
            res.bytes().await.unwrap().as_ref(),
            rendered.body.as_slice(),
            "{path}"
        );
    }
}

#[tokio::test]
async fn public_compound_headers() {
    let base = start().await;
    let (status, h, body) = get(&format!(
        "{base}/api/compound/{}?context=adult",
        id("71-43-2")
    ))
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        h["cache-control"],
        "public, max-age=3600, s-maxage=3600, stale-while-revalidate=7200"
    );
    assert_eq!(h["vary"], "X-API-Key, X-Marketplace-Subscription");
    assert_eq!(h["surrogate-key"], id("71-43-2").as_str());
    assert_eq!(body["context"], "human_adult", "the alias resolves");
    assert_eq!(body["risk_level"], "very_high");
    assert!(body["risk_profile"]["confidence"]["mean"].as_f64().unwrap() > 0.0);
    assert!(
        body["evidence"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["agency"] == "IARC")
    );
}

#[tokio::test]
async fn watched_compounds_are_private_and_critical_threats_refused() {
    let base = start().await;
    let (status, h, _) = get(&format!("{base}/api/compound/{}", id("143-33-9"))).await;
    assert_eq!(status, 200);
    assert_eq!(h["cache-control"], "private, max-age=3600", "acute toxin");
    assert!(h.get("vary").is_none());
    let (status, h, body) = get(&format!("{base}/api/compound/{}", id("107-44-8"))).await;
    assert_eq!(status, 403);
    assert_eq!(h["cache-control"], "private, max-age=3600");
    assert!(body["error"].as_str().unwrap().contains("critical-threat"));
}

#[tokio::test]
async fn legacy_and_unavailable_shapes() {
    let base = start().await;
    let (status, _, body) = get(&format!("{base}/api/compound/{}", id("7732-18-5"))).await;
    assert_eq!(status, 200);
    assert_eq!(body["schema"], "legacy");
    let (status, h, body) = get(&format!(
        "{base}/api/compound/{}?context=bees",
        id("71-43-2")
    ))
    .await;
    assert_eq!(status, 422);
    assert_eq!(h["cache-control"], "private, max-age=3600");
    for field in ["error", "hq_id", "name", "message", "schema"] {
        assert!(body.get(field).is_some(), "{field}: {body}");
    }
}

#[tokio::test]
async fn cas_lookup_and_redirect() {
    let base = start().await;
    let (status, _, body) = get(&format!("{base}/api/compound/cas/80-05-7")).await;
    assert_eq!(status, 200);
    assert_eq!(body["hq_id"], id("80-05-7").as_str());
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let res = client
        .get(format!(
            "{base}/api/compound/cas/80-05-7?redirect=true&context=pregnancy"
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 302);
    assert_eq!(
        res.headers()["location"],
        format!("/api/compound/{}?context=human_pregnant", id("80-05-7")).as_str()
    );
}

#[tokio::test]
async fn bad_input_is_a_json_4xx() {
    let base = start().await;
    let benzene = id("71-43-2");
    for (path, status, needle) in [
        (
            "/api/compound/hq-c-org-12".to_string(),
            400,
            "malformed compound id",
        ),
        (
            "/api/compound/hq-c-org-999999".to_string(),
            404,
            "not found",
        ),
        (
            format!("/api/compound/{benzene}?context=Adult"),
            400,
            "valid contexts: human_adult",
        ),
        (
            format!("/api/compound/{benzene}?context=martian"),
            400,
            "unknown context",
        ),
        (
            format!("/api/compound/{benzene}?all_contexts=maybe"),
            400,
            "all_contexts",
        ),
        (
            format!("/api/compound/{benzene}?context=dog&context=cat"),
            400,
            "more than once",
        ),
        (
            format!("/api/compound/{benzene}?context=dog&all_contexts=true"),
            400,
            "either",
        ),
        ("/api/compound/cas/71-43-3".to_string(), 400, "check digit"),
        (
            "/api/compound/cas/not-a-cas".to_string(),
            400,
            "malformed CAS",
        ),
        (
            "/api/compound/cas/50-00-0?redirect=maybe".to_string(),
            400,
            "redirect",
        ),
        ("/api/compound/cas/1-00-3".to_string(), 404, "no compound"),
        (
            "/api/compound/hq-c-org-000001/nothing".to_string(),
            404,
            "not found",
        ),
    ] {
        let (got, h, body) = get(&format!("{base}{path}")).await;
        assert_eq!(got, status, "{path}: {body}");
        assert!(
            h["cache-control"].to_str().unwrap().starts_with("private"),
            "{path}"
        );
        assert!(
            body["error"].as_str().unwrap().contains(needle),
            "{path}: {body}"
        );
    }
    let res = reqwest::Client::new()
        .delete(format!("{base}/api/compound/{benzene}"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 405);
}

#[tokio::test]
async fn badges() {
    let base = start().await;
    let d = &state().release.dataset;
    let benzene = id("71-43-2");
    let res = reqwest::get(format!("{base}/api/badge/{benzene}?style=pill&label=a%3Cb"))
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "image/svg+xml");
    assert_eq!(res.headers()["cache-control"], "public, max-age=86400");
    let body = res.text().await.unwrap();
    let query = vec![
        ("style".to_string(), "pill".to_string()),
        ("label".to_string(), "a<b".to_string()),
    ];
    let want = dispatch::get_static(d, &format!("/api/badge/{benzene}"), &query, None);
    assert_eq!(body.as_bytes(), want.body.as_slice());
    assert!(body.contains("very high") && body.contains("a&#60;b") && !body.contains("a<b"));
    let res = reqwest::get(format!("{base}/api/badge/hq-c-org-999999"))
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    assert_eq!(res.headers()["content-type"], "image/svg+xml");
    assert!(res.text().await.unwrap().contains("not found"));
    // A bad badge URL is a badge too (tests/runtime/badges.rs has every case).
    for (path, needle) in [
        ("/api/badge/nope", "malformed"),
        (
            &format!("/api/badge/{benzene}?style=round") as &str,
            "unknown style",
        ),
    ] {
        let res = reqwest::get(format!("{base}{path}")).await.unwrap();
        assert_eq!(res.status(), 400);
        assert_eq!(res.headers()["content-type"], "image/svg+xml");
        assert!(res.text().await.unwrap().contains(needle), "{path}");
    }
}
