//! Badges on the real `saferef-serve` binary: material and product badges, the name and
//! context text, and an SVG with its 4xx for every error a badge URL can hit (a malformed id,
//! an unknown style or context, a bad label or flag, an unknown id, a key that is not valid,
//! the quota spent), each the one dispatch's bytes where the dispatch answers.

use saferef_generator::api;
use saferef_generator::render::dispatch;

use crate::support::binary::{Served, Server};
use crate::support::dataset;

struct Answer {
    status: u16,
    content_type: String,
    cache: String,
    body: String,
}

fn get(server: &Server, url: &str, key: Option<&str>) -> Answer {
    let mut req = reqwest::blocking::Client::new().get(format!("{}{url}", server.base));
    if let Some(k) = key {
        req = req.header("x-api-key", k);
    }
    let res = req.send().unwrap();
    let header = |name: &str| {
        res.headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default()
    };
    let (status, content_type, cache) = (
        res.status().as_u16(),
        header("content-type"),
        header("cache-control"),
    );
    Answer {
        status,
        content_type,
        cache,
        body: res.text().unwrap(),
    }
}

#[test]
fn badges_for_every_entity_and_an_svg_for_every_error() {
    let d = dataset();
    let served = Served::of(&d, "developer", &[]);
    let server = &served.server;
    let rendered = |path: &str| {
        let (route, query) = path.split_once('?').unwrap_or((path, ""));
        dispatch::get_static(&d, route, &api::pairs(query), None)
    };
    let benzene = d.by_cas("71-43-2").unwrap().hq_id.to_string();
    let product = d
        .products
        .values()
        .find(|p| {
            saferef_generator::aggregate::synthesis::synthesize(&d, p)
                .0
                .risk_level
                .is_some()
        })
        .unwrap();
    let material = d.materials.values().next().unwrap();

    // A product shows its synthesised risk level, a material that it has none of its own.
    let risk = saferef_generator::aggregate::synthesis::synthesize(&d, product)
        .0
        .risk_level
        .unwrap()
        .as_str()
        .replace('_', " ");
    for (path, needle) in [
        (format!("/api/badge/{}", product.id), risk.as_str()),
        (
            format!("/api/badge/{}?context=human_adult&style=pill", product.id),
            risk.as_str(),
        ),
        (format!("/api/badge/{}", material.id), "not assessed"),
        (
            format!("/api/badge/{}?show_name=true", product.id),
            product.name.chars().take(20).collect::<String>().as_str(),
        ),
    ] {
        let a = get(server, &path, None);
        assert_eq!(a.status, 200, "{path}: {}", a.body);
        assert_eq!(a.content_type, "image/svg+xml", "{path}");
        assert_eq!(a.cache, "public, max-age=86400", "{path}");
        assert!(a.body.contains(needle), "{path}: {needle} in {}", a.body);
        assert_eq!(a.body.as_bytes(), rendered(&path).body.as_slice(), "{path}");
    }

    // The compound's name and context text.
    let path = format!("/api/badge/{benzene}?show_name=true&show_context=true&context=children");
    let a = get(server, &path, None);
    assert_eq!(a.status, 200);
    assert!(a.body.contains("saferef · Benzene"), "{}", a.body);
    assert!(a.body.contains(">Children: "), "{}", a.body);
    assert_eq!(a.body.as_bytes(), rendered(&path).body.as_slice());

    // Every error is a gray SVG with its status, private, its reason in the title.
    let long_label = "x".repeat(41);
    for (path, status, shown, reason) in [
        ("/api/badge/nope".to_string(), 400, "bad id", "malformed id"),
        (
            format!("/api/badge/{benzene}?style=round"),
            400,
            "bad style",
            "unknown style",
        ),
        (
            format!("/api/badge/{benzene}?context=horse"),
            400,
            "bad context",
            "horse",
        ),
        (
            format!("/api/badge/{benzene}?label="),
            400,
            "bad label",
            "label must be",
        ),
        (
            format!("/api/badge/{benzene}?label={long_label}"),
            400,
            "bad label",
            "label must be",
        ),
        (
            format!("/api/badge/{benzene}?show_name=yes"),
            400,
            "bad parameter",
            "show_name must be true or false",
        ),
        (
            format!("/api/badge/{}?context=dog", product.id),
            400,
            "bad context",
            "compound badges",
        ),
        (
            format!("/api/badge/{}?show_context=true", material.id),
            400,
            "bad context",
            "compound badges",
        ),
        (
            "/api/badge/hq-c-org-999999".to_string(),
            404,
            "not found",
            "not found",
        ),
        (
            "/api/badge/hq-p-zzz-999999?style=pill".to_string(),
            404,
            "not found",
            "not found",
        ),
        (
            "/api/badge/hq-m-zzz-999999".to_string(),
            404,
            "not found",
            "not found",
        ),
    ] {
        let a = get(server, &path, None);
        assert_eq!(a.status, status, "{path}: {}", a.body);
        assert_eq!(a.content_type, "image/svg+xml", "{path}");
        assert!(a.cache.starts_with("private"), "{path}: {}", a.cache);
        assert!(
            a.body.contains(&format!(">{shown}</text>")),
            "{path}: {}",
            a.body
        );
        let title = a.body.split("<title>").nth(1).unwrap();
        assert!(title.contains(reason), "{path}: {title}");
        assert_eq!(a.body.as_bytes(), rendered(&path).body.as_slice(), "{path}");
    }
    // The error badge keeps a valid style.
    let pill = get(server, "/api/badge/hq-c-org-999999?style=pill", None);
    assert!(pill.body.contains("rx=\"10\""), "{}", pill.body);

    // Refusals before the badge is drawn are badges too: a key that is not valid...
    let a = get(
        server,
        &format!("/api/badge/{benzene}"),
        Some("sr_live_00000000000000000000000000000000"),
    );
    assert_eq!((a.status, a.content_type.as_str()), (401, "image/svg+xml"));
    assert!(a.body.contains(">bad key</text>"), "{}", a.body);
    // ... and the public quota spent (500 a day per address), while other endpoints keep
    // their JSON refusal.
    let client = reqwest::blocking::Client::new();
    let mut spent = 0;
    while spent < 600 {
        let res = client
            .get(format!("{}/api/health", server.base))
            .send()
            .unwrap();
        if res.status() == 429 {
            break;
        }
        spent += 1;
    }
    assert!(spent < 600, "the public quota ends");
    // A badge the CDN may keep is not counted (the docs page, "Limits"); a badge's error is.
    let a = get(server, &format!("/api/badge/{benzene}"), None);
    assert_eq!((a.status, a.content_type.as_str()), (200, "image/svg+xml"));
    let a = get(server, &format!("/api/badge/{benzene}?context=horse"), None);
    assert_eq!((a.status, a.content_type.as_str()), (429, "image/svg+xml"));
    assert!(a.body.contains(">quota used up</text>"), "{}", a.body);
    let a = get(server, "/api/lookup?q=benzene", None);
    assert_eq!(
        (a.status, a.content_type.as_str()),
        (429, "application/json")
    );
}
