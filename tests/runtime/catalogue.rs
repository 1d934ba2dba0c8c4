//! The endpoint catalogue against the running service: every catalogued example answers as
//! the catalogue says, paths outside it are 404s and other methods 405s, and the served
//! OpenAPI document lists exactly the catalogue and passes an OpenAPI 3.1 validator
//! (`openapi-spec-validator` from PyPI, which `scripts/test` installs).

use saferef_generator::api::{Access, Answer, ENDPOINTS};
use saferef_runtime::Config;
use saferef_runtime::keys;
use saferef_runtime::tier::Tier;
use serde_json::Value;

use crate::support::{start_with, stores};

#[tokio::test]
async fn every_catalogued_example_answers_as_catalogued() {
    let store = stores("catalogue").await.remove(0);
    let (key, _) = keys::create(&store, Tier::Pro, None, None).await.unwrap();
    let base = start_with(store, Config::default()).await;
    let client = reqwest::Client::new();
    let mut checked = 0;
    // Freshness needs a built tree or the daily job (503 otherwise: tests/runtime_health.rs).
    for e in ENDPOINTS
        .iter()
        .filter(|e| e.method == "GET" && e.name != "freshness")
    {
        let Some(example) = e.example else { continue };
        let mut req = client.get(format!("{base}{example}"));
        if e.access != Access::Public {
            req = req.header("x-api-key", &key);
        }
        let res = req.send().await.unwrap();
        let status = res.status().as_u16();
        let content_type = res.headers()["content-type"].to_str().unwrap().to_string();
        let body = res.text().await.unwrap();
        assert_eq!(
            status,
            e.status,
            "{example}: {}",
            &body[..body.len().min(300)]
        );
        let expected = match e.answer {
            Answer::JsonOrCsv(_) if example.contains("format=csv") => "text/csv",
            Answer::Json(_) | Answer::JsonOrCsv(_) => "application/json",
            Answer::Html => "text/html",
            Answer::Svg => "image/svg+xml",
            Answer::HtmlOrJson(_) if example.contains("format=json") => "application/json",
            Answer::HtmlOrJson(_) => "text/html",
            Answer::Plain(media) => media,
        };
        assert!(
            content_type.starts_with(expected),
            "{example}: {content_type}"
        );
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} examples");
}

#[tokio::test]
async fn only_the_catalogue_answers() {
    let base = crate::support::start().await;
    let client = reqwest::Client::new();
    for path in [
        "/api/nothing",
        "/api/compound",
        "/api/keys",
        "/api/webhooks/a/b/c",
        // The pages for people answer only outside /api, and only their own paths.
        "/api/sitemap.xml",
        "/compound",
        "/health",
    ] {
        let res = client.get(format!("{base}{path}")).send().await.unwrap();
        assert_eq!(res.status(), 404, "{path}");
    }
    for (method, path, allow) in [
        ("DELETE", "/api/compound/hq-c-org-000145", "GET"),
        ("PUT", "/api/watchlist", "GET, POST"),
        ("GET", "/api/keys/trial", "POST"),
        ("POST", "/api/watchlist/hq-c-org-000145", "DELETE"),
    ] {
        let res = client
            .request(method.parse().unwrap(), format!("{base}{path}"))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 405, "{method} {path}");
        assert_eq!(res.headers()["allow"], allow, "{method} {path}");
    }
}

#[tokio::test]
async fn the_openapi_document_is_valid_and_lists_exactly_the_catalogue() {
    let base = crate::support::start().await;
    let doc: Value = reqwest::get(format!("{base}/api/openapi"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut listed: Vec<(String, String)> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, item)| {
            item.as_object()
                .unwrap()
                .keys()
                .map(|m| (path.clone(), m.to_ascii_uppercase()))
                .collect::<Vec<_>>()
        })
        .collect();
    listed.sort();
    let mut catalogue: Vec<(String, String)> = ENDPOINTS
        .iter()
        .map(|e| (e.path.to_string(), e.method.to_string()))
        .collect();
    catalogue.sort();
    assert_eq!(listed, catalogue);

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("openapi.json");
    std::fs::write(&file, serde_json::to_vec(&doc).unwrap()).unwrap();
    let out = std::process::Command::new("python3")
        .args(["-m", "openapi_spec_validator"])
        .arg(&file)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "openapi-spec-validator (pip install openapi-spec-validator; scripts/test does):\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
