//! The endpoint catalogue against the running service: every catalogued example answers as
//! the catalogue says, paths outside it are 404s and other methods 405s, and the served
//! OpenAPI document lists exactly the catalogue and passes an OpenAPI 3.1 validator
//! (`openapi-spec-validator` from PyPI, which `scripts/test` installs).

use std::collections::BTreeSet;

use saferef_generator::api::{self, Access, Answer, ENDPOINTS, Endpoint};
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

/// A template's segments as routing reads them: after `/api` for an endpoint under it, of the
/// whole path for a page.
fn template_segments(e: &Endpoint) -> Vec<&'static str> {
    let path: &'static str = e.path;
    path.strip_prefix("/api")
        .filter(|_| e.under_api())
        .unwrap_or(path)
        .split('/')
        .filter(|s| !s.is_empty())
        .collect()
}

/// What routing gave before its index (`api/routing.rs`): every template tried in catalogue
/// order, the most specific kept.
fn trying_every_template<'a>(
    segments: &[&'a str],
    under_api: bool,
) -> Vec<(&'static str, Vec<&'a str>)> {
    let specificity = |path: &str| {
        let literal = |s: &&str| !s.starts_with('{');
        let leading = path.split('/').take_while(literal).count();
        (leading, path.split('/').filter(literal).count())
    };
    let found: Vec<_> = ENDPOINTS
        .iter()
        .filter(|e| e.under_api() == under_api)
        .filter_map(|e| e.matches(segments).map(|c| (e, c)))
        .collect();
    let best = found
        .iter()
        .map(|(e, _)| specificity(e.path))
        .max()
        .unwrap_or_default();
    found
        .into_iter()
        .filter(|(e, _)| specificity(e.path) == best)
        .map(|(e, c)| (e.name, c.to_vec()))
        .collect()
}

#[test]
fn routing_finds_what_trying_every_template_finds() {
    // Every literal segment of the catalogue, a parameter's value and a word no template has,
    // put in each parameter's place of every template, and each such path also one segment
    // shorter and one longer, asked under `/api` and outside it: every shape a path can take
    // against the catalogue.
    let mut words: BTreeSet<&str> = ENDPOINTS
        .iter()
        .flat_map(template_segments)
        .filter(|s| !s.starts_with('{'))
        .collect();
    words.extend(["hq-c-org-000145", "50-00-0", "nothing"]);
    let mut paths: Vec<Vec<&str>> = Vec::new();
    for e in ENDPOINTS {
        let mut filled: Vec<Vec<&str>> = vec![Vec::new()];
        for t in template_segments(e) {
            let options: Vec<&str> = match t.starts_with('{') {
                true => words.iter().copied().collect(),
                false => vec![t],
            };
            filled = filled
                .iter()
                .flat_map(|done| {
                    options.iter().map(move |w| {
                        let mut next = done.clone();
                        next.push(*w);
                        next
                    })
                })
                .collect();
        }
        for path in filled {
            let mut longer = path.clone();
            longer.push("nothing");
            paths.push(path[..path.len().saturating_sub(1)].to_vec());
            paths.push(longer);
            paths.push(path);
        }
    }
    paths.push(vec!["a"; 12]);
    let mut named = BTreeSet::new();
    for path in &paths {
        for under_api in [true, false] {
            let found = match under_api {
                true => api::resolve(path),
                false => api::resolve_site(path),
            };
            let found: Vec<_> = found.iter().map(|(e, c)| (e.name, c.to_vec())).collect();
            assert_eq!(
                found,
                trying_every_template(path, under_api),
                "{under_api} {path:?}"
            );
            named.extend(found.iter().map(|(name, _)| *name));
        }
    }
    // Every template is found at its own paths.
    assert_eq!(
        named.len(),
        ENDPOINTS
            .iter()
            .map(|e| e.name)
            .collect::<BTreeSet<_>>()
            .len()
    );
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
        // A known first segment with a segment too many, and a path longer than any template.
        "/api/health/now",
        "/api/v1/compound/hq-c-org-000145/timeline/all",
        "/api/a/b/c/d/e/f/g/h/i/j",
    ] {
        let res = client.get(format!("{base}{path}")).send().await.unwrap();
        assert_eq!(res.status(), 404, "{path}");
        if !path.starts_with("/api") {
            continue;
        }
        // Under `/api`, the JSON error of every refusal.
        assert!(
            res.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("application/json"),
            "{path}"
        );
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["code"], "not_found", "{path}: {body}");
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
