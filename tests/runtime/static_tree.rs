//! The real `saferef-serve` binary on the committed dataset: it builds site/ when there is
//! none, then answers public URLs from the files exactly as the CDN would: the same bytes,
//! and the headers `_headers` gives (read here independently of the runtime's reader), with
//! strong ETags; a restart on a current tree does not rebuild it.

use std::collections::BTreeMap;
use std::path::Path;

use saferef_generator::build::site::cdn::{Resolution, StaticSite};
use saferef_generator::build::site::routes::routes;
use saferef_generator::load::snapshot;

use crate::support::binary::{self, Server};
use crate::support::data_dir;

/// An enterprise key in the store under `state` (no quota: thousands of requests follow).
fn enterprise_key(state: &Path) -> String {
    binary::create_key(state, "enterprise")
}

fn serve(site: &Path, state: &Path) -> Server {
    binary::serve(&data_dir(), site, state, &[("SAFEREF_COMMIT", "abc123")])
}

/// `_headers` as paths -> headers (the build writes one block per path, after the `/*`
/// block of CORS headers every path gets; splat blocks such as `/compound/*` add the pages'
/// security headers).
fn header_blocks(site: &Path) -> BTreeMap<String, Vec<(String, String)>> {
    let text = std::fs::read_to_string(site.join("_headers")).unwrap();
    let mut blocks: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    let mut current = String::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        if let Some(header) = line.strip_prefix("  ") {
            let (name, value) = header.split_once(": ").unwrap();
            blocks
                .get_mut(&current)
                .unwrap()
                .push((name.to_ascii_lowercase(), value.to_string()));
        } else {
            assert!(
                line.find('*')
                    .is_none_or(|i| i == line.len() - 1 && line.ends_with("/*")),
                "only a trailing splat is a pattern: {line}"
            );
            current = line.to_string();
            // A path may have two blocks (the pages' security headers, then its cache headers).
            blocks.entry(current.clone()).or_default();
        }
    }
    blocks
}

/// Every header `path` gets, as Netlify merges them: each block whose path or splat matches.
fn headers_for<'a>(
    blocks: &'a BTreeMap<String, Vec<(String, String)>>,
    path: &str,
) -> Vec<&'a (String, String)> {
    blocks
        .iter()
        .filter(|(block, _)| match block.strip_suffix('*') {
            Some(prefix) => path.starts_with(prefix),
            None => block.as_str() == path,
        })
        .flat_map(|(_, headers)| headers)
        .collect()
}

fn content_type(file: &str) -> &'static str {
    match file.rsplit('.').next().unwrap() {
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "html" => "text/html; charset=utf-8",
        "xml" => "application/xml",
        "txt" => "text/plain; charset=utf-8",
        other => panic!("unexpected extension {other}"),
    }
}

#[test]
fn the_binary_builds_the_tree_and_serves_it_as_the_cdn_would() {
    let site = tempfile::tempdir().unwrap();
    let state = tempfile::tempdir().unwrap();
    let key = enterprise_key(state.path());
    let server = serve(site.path(), state.path());
    assert!(
        site.path()
            .join(saferef_generator::build::site::MANIFEST)
            .is_file()
    );
    let dataset = snapshot::read(&site.path().join(snapshot::PATH)).unwrap();
    // The committed corpus routes with placeholders, and rules naming an id only to send it to
    // the runtime, within the budget (ARCHITECTURE.md, "How the CDN routes").
    let redirects = std::fs::read_to_string(site.path().join("_redirects")).unwrap();
    let rules: Vec<&str> = redirects
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    assert!(
        rules.len() <= saferef_generator::build::site::MAX_RULES,
        "{} rules",
        rules.len()
    );
    // Rules naming an id send it to the runtime, but a retired id's, which forward it.
    let (forwards, to_runtime): (Vec<&&str>, Vec<&&str>) = rules
        .iter()
        .filter(|l| l.contains("/hq-"))
        .partition(|l| l.ends_with(" 301!"));
    for rule in to_runtime {
        let fields: Vec<&str> = rule.split_whitespace().collect();
        assert_eq!(
            fields[fields.len() - 2..],
            ["/api/runtime-required.json", "503!"],
            "{rule}"
        );
    }
    assert!(
        forwards.contains(&&"/api/product/hq-p-wer-000032 /api/product/hq-p-chd-000023 301!"),
        "{forwards:?}"
    );
    let blocks = header_blocks(site.path());
    assert_eq!(
        blocks["/*"],
        [
            ("access-control-allow-origin".to_string(), "*".to_string()),
            (
                "access-control-expose-headers".to_string(),
                saferef_generator::build::site::CORS_EXPOSE_HEADERS.to_string()
            ),
        ]
    );
    let mut with_key = reqwest::header::HeaderMap::new();
    with_key.insert("x-api-key", key.parse().unwrap());
    let client = reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .default_headers(with_key)
        .build()
        .unwrap();

    // Every route of every 25th compound, material and product, and every singleton route.
    let sample: Vec<_> = routes(&dataset)
        .into_iter()
        .enumerate()
        .filter(|(i, r)| i % 25 == 0 || !r.path.contains("/hq-") || r.path.contains("-000001"))
        .map(|(_, r)| r)
        .filter(|r| r.rendered.status == 200 && !r.pattern.contains("not_found"))
        // A keyed caller gets the full form of these (tests/runtime_keys.rs).
        .filter(|r| !["compound_alternatives", "product"].contains(&r.pattern))
        .collect();
    assert!(sample.len() > 5_000, "{}", sample.len());
    let patterns: std::collections::BTreeSet<&str> = sample.iter().map(|r| r.pattern).collect();
    assert!(patterns.len() >= 15, "{patterns:?}");
    for page in [
        "home",
        "compound_page",
        "material_page",
        "product_page",
        "sitemap",
        "robots",
        "name_index",
    ] {
        assert!(patterns.contains(page), "{page} is sampled");
    }
    for (n, r) in sample.iter().enumerate() {
        let query = r.query.as_deref().unwrap_or_default().replace(' ', "&");
        // Every other request goes through the versioned base.
        let path = if n % 2 == 0 {
            r.path.clone()
        } else {
            r.path.replacen("/api", "/api/v1", 1)
        };
        let res = client
            .get(format!("{}{path}?{query}", server.base))
            .send()
            .unwrap();
        assert_eq!(res.status(), 200, "{path}?{query}");
        let headers = res.headers().clone();
        let body = res.bytes().unwrap();
        let file = std::fs::read(site.path().join(&r.file)).unwrap();
        assert!(
            body.as_ref() == file.as_slice(),
            "{path}?{query}: bytes differ from {}",
            r.file
        );
        assert_eq!(headers["content-type"], content_type(&r.file), "{path}");
        for (name, value) in headers_for(&blocks, &r.path) {
            assert_eq!(
                headers[name.as_str()],
                value.as_str(),
                "{path}?{query}: {name}"
            );
        }
        let cache_headers = [
            "cache-control",
            "vary",
            "surrogate-key",
            "netlify-cache-tag",
        ];
        for name in cache_headers {
            assert_eq!(
                headers.contains_key(name),
                headers_for(&blocks, &r.path).iter().any(|(n, _)| n == name),
                "{path}?{query}: {name}"
            );
        }
        assert!(headers["etag"].to_str().unwrap().starts_with('"'));
    }

    // The short forms of the badge URL answer the files of the defaults.
    for id in dataset.compounds.keys().step_by(97) {
        for (query, file) in [
            ("", "human_adult/flat.svg"),
            ("?context=dog", "dog/flat.svg"),
            ("?style=pill", "human_adult/pill.svg"),
        ] {
            let body = client
                .get(format!("{}/api/badge/{id}{query}", server.base))
                .send()
                .unwrap()
                .bytes()
                .unwrap();
            let expected =
                std::fs::read(site.path().join(format!("api/badge/{id}/{file}"))).unwrap();
            assert!(body.as_ref() == expected.as_slice(), "{id}{query}");
        }
    }

    // A strong ETag: the same tag answers 304 with no body.
    let url = format!("{}{}", server.base, sample[0].path);
    let tag = client.get(&url).send().unwrap().headers()["etag"].clone();
    let again = client
        .get(&url)
        .header("if-none-match", tag.clone())
        .send()
        .unwrap();
    assert_eq!(again.status(), 304);
    assert_eq!(again.headers()["etag"], tag);
    assert!(again.bytes().unwrap().is_empty());

    // What the tree does not answer is the runtime's: aliases, unknown ids, build data.
    let benzene = dataset.by_cas("71-43-2").unwrap().hq_id.to_string();
    let res = client
        .get(format!(
            "{}/api/compound/{benzene}?context=adult",
            server.base
        ))
        .send()
        .unwrap();
    assert_eq!(res.status(), 200);
    let body: serde_json::Value = res.json().unwrap();
    assert_eq!(body["context"], "human_adult");
    for (path, status) in [
        ("/api/compound/hq-c-org-999999".to_string(), 404),
        ("/api/compound/not-an-id".to_string(), 400),
        // A page's unknown or malformed id is the same API error.
        ("/compound/hq-c-org-999999".to_string(), 404),
        ("/product/not-an-id".to_string(), 400),
        ("/_data/dataset.json.zst".to_string(), 404),
        ("/manifest.json/../_data/dataset.json.zst".to_string(), 404),
        // Build internals are not published (issue 23: 24 MB, read whole per request).
        ("/manifest.json".to_string(), 404),
        ("/_data/manifest.json".to_string(), 404),
        ("/api/../_data/manifest.json".to_string(), 404),
    ] {
        let res = client.get(format!("{}{path}", server.base)).send().unwrap();
        assert_eq!(res.status(), status, "{path}");
        assert_eq!(
            res.headers()["cache-control"],
            "private, max-age=3600",
            "{path}"
        );
    }
    let redirect = client
        .get(format!(
            "{}/api/compound/cas/71-43-2?redirect=true&context=dog",
            server.base
        ))
        .send()
        .unwrap();
    assert_eq!(redirect.status(), 302);
    assert_eq!(
        redirect.headers()["location"],
        format!("/api/compound/{benzene}?context=dog").as_str()
    );
    // A retired product id: the tree's rule answers a public caller, the render a keyed
    // caller of the product (whose keyed form the tree does not hold), with the same 301.
    let public = reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    for path in [
        "/api/product/{id}?utm_source=feed",
        "/api/product/{id}/raw?utm_source=feed",
        "/product/{id}?utm_source=feed",
        "/api/badge/{id}?style=pill",
    ] {
        let from = path.replace("{id}", "hq-p-wer-000032");
        let to = path.replace("{id}", "hq-p-chd-000023");
        for (who, caller) in [("public", &public), ("keyed", &client)] {
            let res = caller.get(format!("{}{from}", server.base)).send().unwrap();
            assert_eq!(res.status(), 301, "{who} {from}");
            assert_eq!(res.headers()["location"], to.as_str(), "{who} {from}");
        }
    }
    let health: serde_json::Value = client
        .get(format!("{}/api/health", server.base))
        .send()
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(health["commit"], "abc123");
    let freshness: serde_json::Value = client
        .get(format!("{}/api/freshness", server.base))
        .send()
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(freshness["source"], "build");
    assert_eq!(freshness["deploy_age_days"], 0);
    assert_eq!(freshness["deploy_stale"], false);
    files_are_answered_from_memory_and_not_counted(&server, site.path(), &dataset, &blocks);
    drop(server);

    // A restart on the current tree serves it without rebuilding.
    let manifest = site.path().join(saferef_generator::build::site::MANIFEST);
    let built = std::fs::metadata(&manifest).unwrap().modified().unwrap();
    let server = serve(site.path(), state.path());
    let res = client
        .get(format!("{}/api/release-notes?format=json", server.base))
        .send()
        .unwrap();
    assert_eq!(res.status(), 200);
    let notes: serde_json::Value = res.json().unwrap();
    assert_eq!(notes["versions"][0]["version"], "1.7.0");
    assert_eq!(
        std::fs::metadata(&manifest).unwrap().modified().unwrap(),
        built
    );
}

/// A large file of the tree is streamed (chunked, never held whole: 20 slow readers of the
/// 24 MB manifest took the service from 171 to 597 MB, issue 23) with the ETag of its bytes,
/// and the build's manifest is not published at all.
#[test]
fn a_large_file_is_streamed_with_its_etag_and_the_manifest_is_not_published() {
    use sha2::Digest;
    let tree = tempfile::tempdir().unwrap();
    crate::support::write_tree(tree.path(), &crate::support::dataset());
    let site = tree.path().join("site");
    let big: Vec<u8> = (0..3u32 << 20).map(|i| b'a' + (i % 26) as u8).collect();
    std::fs::create_dir_all(site.join("api/big")).unwrap();
    std::fs::write(site.join("api/big/index.json"), &big).unwrap();
    let state = tempfile::tempdir().unwrap();
    let server = binary::serve(&tree.path().join("data"), &site, state.path(), &[]);
    let client = reqwest::blocking::Client::new();
    let res = client
        .get(format!("{}/api/big/index.json", server.base))
        .send()
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["transfer-encoding"], "chunked");
    let digest = sha2::Sha256::digest(&big);
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(res.headers()["etag"], format!("\"{hex}\"").as_str());
    assert!(res.bytes().unwrap() == big);
    assert!(
        site.join(saferef_generator::build::site::MANIFEST)
            .is_file()
    );
    for path in [
        "/manifest.json",
        "/_data/manifest.json",
        "/api/../_data/manifest.json",
    ] {
        let res = client.get(format!("{}{path}", server.base)).send().unwrap();
        assert_eq!(res.status(), 404, "{path}");
    }
}

/// A file of the tree is answered from memory after its first request (the same bytes, headers
/// and ETag: the release's tree does not change while it is served, so a file changed on disk
/// under it is not read again), and, as on the CDN, it is not counted against the public
/// per-IP quota and carries no rate-limit headers (issue 22).
fn files_are_answered_from_memory_and_not_counted(
    server: &Server,
    site: &Path,
    dataset: &saferef_generator::model::Dataset,
    blocks: &BTreeMap<String, Vec<(String, String)>>,
) {
    // An answer the CDN serves from a file (the model says which): a compound in a context.
    let model = StaticSite::open(site).unwrap();
    let route = routes(dataset)
        .into_iter()
        .rev()
        .filter(|r| r.pattern == "compound_context" && r.rendered.status == 200)
        .find(|r| {
            let query: Vec<(String, String)> = r
                .query
                .iter()
                .filter_map(|q| q.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            matches!(model.resolve(&r.path, &query), Resolution::File { .. })
        })
        .expect("a compound in a context from a file");
    let url = format!(
        "{}{}?{}",
        server.base,
        route.path,
        route.query.as_deref().unwrap_or_default()
    );
    let public = reqwest::blocking::Client::new();
    let file = std::fs::read(site.join(&route.file)).unwrap();
    let first = public.get(&url).send().unwrap();
    assert_eq!(first.status(), 200);
    let first_headers = first.headers().clone();
    assert!(first.bytes().unwrap() == file);
    // A public caller's file may be kept by the CDN when proxied (`/api/v1/`): its tags add
    // the release's (`http/edge_cache.rs`).
    let release = format!("saferef-release-{}", dataset.fingerprint);
    for (name, value) in headers_for(blocks, &route.path) {
        let want = match name.as_str() {
            "netlify-cache-tag" => format!("{value},{release}"),
            _ => value.clone(),
        };
        assert_eq!(first_headers[name.as_str()], want.as_str(), "{name}");
    }
    std::fs::write(site.join(&route.file), b"{\"changed\":true}").unwrap();
    // More than the public quota (500 a day per address), none counted.
    for n in 0..600 {
        let res = public.get(&url).send().unwrap();
        assert_eq!(res.status(), 200, "request {n}");
        assert_eq!(res.headers()["etag"], first_headers["etag"], "request {n}");
        for name in ["x-ratelimit-limit", "x-ratelimit-remaining", "ratelimit"] {
            assert!(!res.headers().contains_key(name), "{name} on request {n}");
        }
        if n == 599 {
            assert!(res.bytes().unwrap() == file);
        }
    }
    std::fs::write(site.join(&route.file), &file).unwrap();
    let tag = first_headers["etag"].clone();
    let cached = public
        .get(&url)
        .header("if-none-match", tag.clone())
        .send()
        .unwrap();
    assert_eq!(cached.status(), 304);
    assert_eq!(cached.headers()["etag"], tag);
    // A request the runtime answers (an unknown id) is the first one counted.
    let counted = public
        .get(format!("{}/api/compound/hq-c-org-999999", server.base))
        .send()
        .unwrap();
    assert_eq!(counted.status(), 404);
    assert_eq!(counted.headers()["x-ratelimit-remaining"], "499");
}
