//! Reads from pages on other origins, against the real `saferef-serve` binary on a snapshot
//! tree: every answer carries `Access-Control-Allow-Origin` (public GETs and errors alike),
//! `OPTIONS` answers a browser's preflight for keyed endpoints with their methods and the
//! `X-API-Key` and `Content-Type` request headers, and `SAFEREF_CORS_ORIGINS` answers a
//! listed origin and not an unlisted one. The static tree's `_headers` side is checked by
//! `static_tree.rs`; a real browser's cross-origin calls by `browser_cors.rs`.

use std::path::Path;
use std::process::Command;

use reqwest::Method;
use reqwest::blocking::{Client, Response};

use crate::support::binary::{self, Server};
use crate::support::{dataset, write_tree};

const PAGE: &str = "http://127.0.0.1:4173";

fn serve(tree: &Path, state: &Path, env: &[(&str, &str)]) -> Server {
    binary::serve(&tree.join("data"), &tree.join("site"), state, env)
}

fn header(res: &Response, name: &str) -> Option<String> {
    res.headers()
        .get(name)
        .map(|v| v.to_str().unwrap().to_string())
}

/// An `OPTIONS` as a browser sends it before a request it may not send unasked.
fn preflight(client: &Client, url: &str, origin: &str, method: &str) -> Response {
    client
        .request(Method::OPTIONS, url)
        .header("origin", origin)
        .header("access-control-request-method", method)
        .header("access-control-request-headers", "content-type,x-api-key")
        .send()
        .unwrap()
}

fn listed(value: Option<String>) -> Vec<String> {
    value
        .unwrap_or_default()
        .split(',')
        .map(|s| s.trim().to_ascii_lowercase())
        .filter(|s| !s.is_empty())
        .collect()
}

#[test]
fn preflights_public_reads_and_errors_all_allow_any_origin_by_default() {
    let tree = tempfile::tempdir().unwrap();
    let dataset = dataset();
    write_tree(tree.path(), &dataset);
    let state = tempfile::tempdir().unwrap();
    let key = binary::create_key(state.path(), "developer");
    let server = serve(tree.path(), state.path(), &[]);
    let client = Client::new();
    let benzene = dataset.by_cas("71-43-2").unwrap().hq_id.to_string();

    // A keyed GET (the key header needs a preflight), then the request itself with the key.
    for base in ["/api", "/api/v1"] {
        let url = format!("{}{base}/compounds?limit=2", server.base);
        let res = preflight(&client, &url, PAGE, "GET");
        assert_eq!(res.status(), 204, "{url}");
        assert_eq!(
            header(&res, "access-control-allow-origin").as_deref(),
            Some("*")
        );
        assert_eq!(
            listed(header(&res, "access-control-allow-methods")),
            ["get", "head", "options"]
        );
        let allowed = listed(header(&res, "access-control-allow-headers"));
        assert!(allowed.contains(&"x-api-key".to_string()), "{allowed:?}");
        assert!(allowed.contains(&"content-type".to_string()), "{allowed:?}");
        assert_eq!(
            header(&res, "access-control-max-age").as_deref(),
            Some("86400")
        );
        assert_eq!(header(&res, "access-control-allow-credentials"), None);
        assert!(res.bytes().unwrap().is_empty());
    }
    let res = client
        .get(format!("{}/api/compounds?limit=2", server.base))
        .header("origin", PAGE)
        .header("x-api-key", &key)
        .send()
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(
        header(&res, "access-control-allow-origin").as_deref(),
        Some("*")
    );
    let exposed = listed(header(&res, "access-control-expose-headers"));
    for name in ["etag", "x-ratelimit-remaining", "x-api-tier", "retry-after"] {
        assert!(exposed.contains(&name.to_string()), "{name}: {exposed:?}");
        assert!(
            name == "retry-after" || res.headers().contains_key(name),
            "{name} is exposed and sent"
        );
    }

    // An endpoint with several methods allows each; a path the catalogue does not declare
    // is a 404 a page can read.
    let res = preflight(
        &client,
        &format!("{}/api/watchlist", server.base),
        PAGE,
        "POST",
    );
    assert_eq!(res.status(), 204);
    let methods = listed(header(&res, "access-control-allow-methods"));
    for m in ["get", "post", "options"] {
        assert!(methods.contains(&m.to_string()), "{methods:?}");
    }
    assert_eq!(listed(header(&res, "allow")), methods);
    let res = preflight(
        &client,
        &format!("{}/api/no-such-endpoint", server.base),
        PAGE,
        "GET",
    );
    assert_eq!(res.status(), 404);
    assert_eq!(
        header(&res, "access-control-allow-origin").as_deref(),
        Some("*")
    );
    assert!(res.text().unwrap().contains("\"error\""));

    // A public read and the errors a page can meet: their JSON bodies are readable.
    for (url, status) in [
        (format!("/api/compound/{benzene}"), 200),
        ("/api/compound/hq-c-org-999999".to_string(), 404),
        ("/api/compound/not-an-id".to_string(), 400),
        ("/api/compounds?limit=2".to_string(), 401),
    ] {
        let res = client
            .get(format!("{}{url}", server.base))
            .header("origin", PAGE)
            .send()
            .unwrap();
        assert_eq!(res.status(), status, "{url}");
        assert_eq!(
            header(&res, "access-control-allow-origin").as_deref(),
            Some("*"),
            "{url}"
        );
        assert!(header(&res, "access-control-expose-headers").is_some());
        let body: serde_json::Value = res.json().unwrap();
        assert_eq!(body.get("error").is_some(), status != 200, "{url}: {body}");
    }
    // A method the path does not take stays a 405, readable too.
    let res = client
        .delete(format!("{}/api/compound/{benzene}", server.base))
        .header("origin", PAGE)
        .send()
        .unwrap();
    assert_eq!(res.status(), 405);
    assert_eq!(
        header(&res, "access-control-allow-origin").as_deref(),
        Some("*")
    );
}

#[test]
fn a_configured_origin_list_answers_listed_origins_only() {
    let tree = tempfile::tempdir().unwrap();
    let dataset = dataset();
    write_tree(tree.path(), &dataset);
    let state = tempfile::tempdir().unwrap();
    let listed_origins = format!("https://shop.example, {PAGE}");
    let server = serve(
        tree.path(),
        state.path(),
        &[("SAFEREF_CORS_ORIGINS", listed_origins.as_str())],
    );
    let client = Client::new();
    let benzene = dataset.by_cas("71-43-2").unwrap().hq_id.to_string();
    let record = format!("{}/api/compound/{benzene}", server.base);
    let keyed = format!("{}/api/compounds?limit=2", server.base);

    for origin in [PAGE, "https://SHOP.example"] {
        let res = client.get(&record).header("origin", origin).send().unwrap();
        assert_eq!(res.status(), 200);
        assert_eq!(
            header(&res, "access-control-allow-origin").as_deref(),
            Some(origin)
        );
        let vary = listed(header(&res, "vary"));
        assert!(vary.contains(&"origin".to_string()), "{vary:?}");
        assert!(vary.contains(&"x-api-key".to_string()), "{vary:?}");
        let res = preflight(&client, &keyed, origin, "GET");
        assert_eq!(res.status(), 204);
        assert_eq!(
            header(&res, "access-control-allow-origin").as_deref(),
            Some(origin)
        );
        assert!(header(&res, "access-control-allow-headers").is_some());
    }

    // An unlisted origin gets the same answer without any Access-Control header, so its
    // page cannot read it; so does a request without an Origin (not a browser's page).
    for origin in [Some("http://127.0.0.1:4174"), Some("null"), None] {
        let mut req = client.get(&record);
        if let Some(o) = origin {
            req = req.header("origin", o);
        }
        let res = req.send().unwrap();
        assert_eq!(res.status(), 200, "{origin:?}");
        assert!(
            listed(header(&res, "vary")).contains(&"origin".to_string()),
            "{origin:?}"
        );
        let names: Vec<&str> = res.headers().keys().map(|n| n.as_str()).collect();
        assert!(
            !names.iter().any(|n| n.starts_with("access-control-")),
            "{origin:?}: {names:?}"
        );
    }
    let res = preflight(&client, &keyed, "http://127.0.0.1:4174", "GET");
    assert_eq!(res.status(), 204);
    let names: Vec<&str> = res.headers().keys().map(|n| n.as_str()).collect();
    assert!(
        !names.iter().any(|n| n.starts_with("access-control-")),
        "{names:?}"
    );
    let res = client
        .get(format!("{}/api/compound/not-an-id", server.base))
        .header("origin", "http://127.0.0.1:4174")
        .send()
        .unwrap();
    assert_eq!(res.status(), 400);
    assert!(!res.headers().contains_key("access-control-allow-origin"));
}

#[test]
fn an_origin_list_that_is_not_one_stops_the_service_from_starting() {
    let state = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_saferef-serve"))
        .args(["--listen", "127.0.0.1:0", "--state"])
        .arg(state.path())
        .env_remove("SAFEREF_REDIS_URL")
        .env("SAFEREF_CORS_ORIGINS", "https://shop.example/path")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("SAFEREF_CORS_ORIGINS"), "{stderr}");
    assert!(out.stdout.is_empty(), "it never listened");
}
