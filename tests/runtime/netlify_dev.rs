//! `netlify dev` (netlify-cli, offline) serving a build of the ingest fixture, with the real
//! `saferef-serve` at the build's runtime origin: every kind of route the build writes, and
//! requests only the runtime answers, get through Netlify's own router the status and bytes
//! the runtime gives for the same request, and each answer is the one the generator's model of
//! the CDN (site/cdn.rs) predicts: a file, the runtime, or the CDN's own 404. Where netlify dev
//! differs from production Netlify as its documentation describes it, the test asserts what it
//! does and says why.
//! Needs `node` and `npm ci --ignore-scripts --prefix tests/netlify` (scripts/test does both).

use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use reqwest::blocking::{Client, Response};
use saferef_generator::build::site::cdn::{Resolution, StaticSite};
use saferef_generator::build::site::routes::{Route, routes};
use saferef_generator::build::site::{BuildOptions, build};
use saferef_generator::ingest::{IngestOptions, run};
use saferef_generator::load::load;
use saferef_generator::model::Dataset;

use crate::support::binary::{self, LogFile, Server};

/// The Cache-Control netlify dev's static server sends with every file.
const DEV_FILE_CACHE: &str = "public, max-age=0, must-revalidate";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A loopback port free now, from the OS. Every server here gets one (none keeps a default
/// like netlify dev's 8888 or its static server's 3999), so two runs at once do not collide.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The fixture tables ingested into `root/data`, plus one material and one product of the
/// committed data (the fixture has none; `load` accepts them, only `check` would flag their
/// references to compounds the fixture lacks).
fn dataset(root: &Path) -> (PathBuf, Dataset) {
    let data = root.join("data");
    let committed = repo().join("data");
    for folder in [
        "documents",
        "release-notes",
        "compounds",
        "materials",
        "products",
    ] {
        std::fs::create_dir_all(data.join(folder)).unwrap();
    }
    for f in [
        "sources.json",
        "agencies.json",
        "contexts.json",
        "materials/hq-m-adh-000001.json",
        "products/hq-p-bdy-000001.json",
    ] {
        std::fs::copy(committed.join(f), data.join(f)).unwrap();
    }
    for folder in ["documents", "release-notes"] {
        for e in std::fs::read_dir(committed.join(folder)).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), data.join(folder).join(e.file_name())).unwrap();
        }
    }
    run(&IngestOptions {
        data_dir: data.clone(),
        source_roots: vec![repo().join("tests/fixtures/sources")],
        date: "2026-01-01".into(),
        dry_run: false,
    })
    .unwrap();
    let (dataset, problems) = load(&data).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(
        (
            dataset.compounds.len(),
            dataset.materials.len(),
            dataset.products.len()
        ),
        (3, 1, 1)
    );
    (data, dataset)
}

/// `saferef-serve` on `port`, serving `site` (current, so it is not rebuilt without the
/// runtime origin).
fn serve(port: u16, data: &Path, site: &Path, state: &Path) -> Server {
    let log = LogFile::scratch();
    let child = Command::new(env!("CARGO_BIN_EXE_saferef-serve"))
        .arg("--listen")
        .arg(format!("127.0.0.1:{port}"))
        .arg("--data")
        .arg(data)
        .arg("--site")
        .arg(site)
        .arg("--state")
        .arg(state)
        .env_remove("SAFEREF_REDIS_URL")
        .stdout(Stdio::piped())
        .stderr(log.stderr())
        .spawn()
        .unwrap();
    let server = Server::logged(child, log);
    assert_eq!(server.base, format!("http://127.0.0.1:{port}"));
    server
}

/// `netlify dev` in its own process group (it starts children), killed whole when dropped.
struct NetlifyDev {
    child: Child,
    base: String,
    log: PathBuf,
}

impl Drop for NetlifyDev {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.child.id())])
            .status();
        let _ = self.child.wait();
    }
}

/// netlify.toml publishing `site` with netlify dev's plain static server, on free ports.
fn netlify_toml(root: &Path) -> String {
    let (port, static_port) = (free_port(), free_port());
    let toml = format!(
        "[build]\npublish = \"site\"\n\n[dev]\nframework = \"#static\"\nport = {port}\nstaticServerPort = {static_port}\n"
    );
    std::fs::write(root.join("netlify.toml"), toml).unwrap();
    format!("http://127.0.0.1:{port}")
}

/// Starts `netlify dev --offline` in `root` and waits until it answers.
fn netlify_dev(root: &Path) -> NetlifyDev {
    let cli = repo().join("tests/netlify/node_modules/netlify-cli/bin/run.js");
    assert!(
        cli.is_file(),
        "run `npm ci --ignore-scripts --prefix tests/netlify` first (scripts/test does)"
    );
    let base = netlify_toml(root);
    // A home of its own: netlify-cli keeps its global config there, with telemetry off.
    let home = root.join("home");
    std::fs::create_dir_all(home.join(".config/netlify")).unwrap();
    std::fs::write(
        home.join(".config/netlify/config.json"),
        r#"{"telemetryDisabled":true}"#,
    )
    .unwrap();
    let log = root.join("netlify-dev.log");
    let out = std::fs::File::create(&log).unwrap();
    let child = Command::new("node")
        .arg(cli)
        // The hidden flag skips the Edge Functions runtime, which would download Deno (the
        // site has no edge functions).
        .args([
            "dev",
            "--offline",
            "--no-open",
            "--internal-disable-edge-functions",
        ])
        .current_dir(root)
        .env("HOME", &home)
        .env("NO_UPDATE_NOTIFIER", "1")
        .env("BROWSER", "none")
        .stdin(Stdio::null())
        .stdout(out.try_clone().unwrap())
        .stderr(out)
        .process_group(0)
        .spawn()
        .expect("node is installed (scripts/test installs it)");
    let mut dev = NetlifyDev { child, base, log };
    wait_until_up(&mut dev);
    dev
}

fn wait_until_up(dev: &mut NetlifyDev) {
    let client = Client::new();
    let deadline = Instant::now() + Duration::from_secs(40);
    loop {
        if client.get(format!("{}/api", dev.base)).send().is_ok() {
            return;
        }
        let exited = dev.child.try_wait().unwrap();
        if exited.is_some() || Instant::now() > deadline {
            panic!(
                "netlify dev is not answering ({exited:?}):\n{}",
                std::fs::read_to_string(&dev.log).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// What the test compares of a response.
#[derive(Debug)]
struct Answer {
    status: u16,
    headers: BTreeMap<String, String>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(String::as_str)
    }

    /// The media type without parameters (netlify dev adds `charset=UTF-8` to JSON).
    fn media_type(&self) -> String {
        let value = self.header("content-type").unwrap_or_default();
        value.split(';').next().unwrap().trim().to_ascii_lowercase()
    }
}

fn answer(res: Response) -> Answer {
    let status = res.status().as_u16();
    let headers = res
        .headers()
        .iter()
        .map(|(k, v)| (k.as_str().to_string(), v.to_str().unwrap().to_string()))
        .collect();
    Answer {
        status,
        headers,
        body: res.bytes().unwrap().to_vec(),
    }
}

fn get(client: &Client, base: &str, url: &str, key: Option<&str>) -> Answer {
    let mut req = client.get(format!("{base}{url}"));
    if let Some(k) = key {
        req = req.header("x-api-key", k);
    }
    answer(req.send().unwrap())
}

/// A route's request URL: its path and query (`a=1 b=2` in the route table).
fn url(route: &Route) -> String {
    match &route.query {
        Some(q) => format!("{}?{}", route.path, q.replace(' ', "&")),
        None => route.path.clone(),
    }
}

/// The first route of each pattern, and the first of each that the runtime answers with
/// another status than 200 (a context without evidence), skipping the fallback bodies.
fn sample(dataset: &Dataset) -> Vec<Route> {
    let mut seen: Vec<(&str, bool)> = Vec::new();
    let mut out = Vec::new();
    for r in routes(dataset) {
        let kind = (r.pattern, r.rendered.status == 200);
        if ["not_found", "badge_not_found", "runtime_required"].contains(&r.pattern)
            || seen.contains(&kind)
        {
            continue;
        }
        seen.push(kind);
        out.push(r);
    }
    out
}

/// A response netlify dev proxied from the runtime: everything the test compares is equal,
/// the headers telling the CDN what it may keep included (netlify dev keeps nothing and passes
/// them on; production Netlify reads them and removes them). Their policy's `max-age` counts
/// down by the second, so of it only what precedes the number is compared.
fn assert_proxied(url: &str, dev: &Answer, runtime: &Answer) {
    assert_eq!(dev.status, runtime.status, "{url}");
    assert_eq!(dev.body, runtime.body, "{url}");
    for h in [
        "content-type",
        "cache-control",
        "netlify-cache-tag",
        "netlify-vary",
    ] {
        assert_eq!(dev.header(h), runtime.header(h), "{url}: {h}");
    }
    let policy = |a: &Answer| {
        a.header("netlify-cdn-cache-control")
            .map(|v| v.split("max-age=").next().unwrap().to_string())
    };
    assert!(
        policy(runtime).is_some(),
        "{url}: the runtime says what the CDN may keep"
    );
    assert_eq!(policy(dev), policy(runtime), "{url}");
}

/// A response netlify dev served from a file of the tree: the runtime's status and bytes, and
/// its media type. Not its cache headers: netlify dev matches `_headers` blocks against the
/// path of the file it serves (`/api/compound/ID.json`), which no block names, not the
/// request path the blocks are written for (site/cdn.rs's reading; Netlify's docs do not say
/// which path production matches), and its static server's Cache-Control overrides a
/// matching block's anyway.
fn assert_from_file(url: &str, dev: &Answer, runtime: &Answer) {
    assert_eq!(dev.status, runtime.status, "{url}");
    assert_eq!(dev.body, runtime.body, "{url}");
    assert_eq!(dev.media_type(), runtime.media_type(), "{url}");
    assert_eq!(dev.header("cache-control"), Some(DEV_FILE_CACHE), "{url}");
    assert_eq!(dev.header("surrogate-key"), None, "{url}");
    assert_eq!(
        dev.header("netlify-cdn-cache-control"),
        None,
        "{url}: a file is the deploy's"
    );
    assert!(runtime.header("cache-control").is_some(), "{url}");
}

/// The query pairs of a URL, as the CDN model takes them.
fn pairs(url: &str) -> (String, Vec<(String, String)>) {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let pairs = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (k.to_string(), v.to_string())
        })
        .collect();
    (path.to_string(), pairs)
}

/// netlify dev's answer to `url` is what the model predicts: the file (the runtime's status
/// and bytes), the runtime's answer proxied, or the CDN's own 404 for a rewrite to a file the
/// tree lacks (netlify dev's static server says `404 Not Found`; the runtime, asked itself,
/// answers the OpenAPI's error instead).
fn assert_as_modelled(site: &StaticSite, url: &str, dev: &Answer, runtime: &Answer) {
    let (path, query) = pairs(url);
    match site.resolve(&path, &query) {
        Resolution::File { .. } => assert_from_file(url, dev, runtime),
        Resolution::Runtime => assert_proxied(url, dev, runtime),
        Resolution::Missing { .. } => {
            assert_eq!(dev.body, b"404 Not Found", "{url}");
            assert!(runtime.status >= 400, "{url}");
        }
        other => panic!("{url}: {other:?}"),
    }
}

#[test]
fn netlify_dev_answers_as_the_runtime_does() {
    let root = tempfile::tempdir().unwrap();
    let (data, dataset) = dataset(root.path());
    let runtime_port = free_port();
    let site = root.path().join("site");
    build(
        &dataset,
        &BuildOptions {
            out: site.clone(),
            runtime_origin: Some(format!("http://127.0.0.1:{runtime_port}")),
            built_at: "2026-11-21T10:00:00Z".into(),
            full: false,
        },
    )
    .unwrap();
    let redirects = std::fs::read(site.join("_redirects")).unwrap();
    let model = StaticSite::open(&site).unwrap();
    let state = root.path().join("state");
    let key = binary::create_key(&state, "developer");
    let runtime = serve(runtime_port, &data, &site, &state);
    // The runtime took the tree as current: it did not rebuild it without the origin.
    assert_eq!(std::fs::read(site.join("_redirects")).unwrap(), redirects);
    let dev = netlify_dev(root.path());
    let client = Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let both = |url: &str, key: Option<&str>| {
        (
            get(&client, &dev.base, url, key),
            get(&client, &runtime.base, url, key),
        )
    };

    let sample = sample(&dataset);
    let patterns: Vec<&str> = sample.iter().map(|r| r.pattern).collect();
    for p in [
        "compound",
        "compound_context",
        "compound_all",
        "compound_raw",
        "compound_cas",
        "material",
        "product",
        "badge_context_style",
        "release_notes",
        "release_notes_json",
        "document",
        "openapi",
    ] {
        assert!(patterns.contains(&p), "no {p} route in {patterns:?}");
    }
    for r in &sample {
        let url = url(r);
        let (d, rt) = both(&url, None);
        assert_eq!(rt.status, r.rendered.status, "{url}");
        if r.rendered.status != 200 {
            // Every status but 200 is the runtime's (a rule proxies it there).
            assert_proxied(&url, &d, &rt);
        }
        assert_as_modelled(&model, &url, &d, &rt);
        let (path, query) = pairs(&url);
        assert!(
            !matches!(model.resolve(&path, &query), Resolution::Missing { .. }),
            "{url}: a route the tree answers meets a rule to a file it lacks"
        );
    }

    // Badge URLs the route table lists under `context= style=` only, with rules of their own:
    // the default context's from files, another context's from the runtime (a material's or
    // product's badge id has no file there).
    let benzene = dataset.by_cas("71-43-2").unwrap().hq_id.to_string();
    for query in ["", "?style=pill", "?context=human_child"] {
        let url = format!("/api/badge/{benzene}{query}");
        let (d, rt) = both(&url, None);
        assert_eq!(rt.status, 200, "{url}");
        assert_as_modelled(&model, &url, &d, &rt);
    }
    let (d, rt) = both(&format!("/api/badge/{benzene}?context=human_child"), None);
    assert_proxied("benzene's child badge", &d, &rt);

    // A material's and a product's badges: the files of the default context; in any other
    // context the runtime's 400 badge, for the CDN has no file of those for any id (a rule to
    // one would be Netlify's 200 or 404, never the 400).
    let product = dataset.products.keys().next().unwrap().clone();
    let material = dataset.materials.keys().next().unwrap().clone();
    for id in [&product, &material] {
        for query in ["", "?style=flat-square", "?context=human_adult&style=pill"] {
            let url = format!("/api/badge/{id}{query}");
            let (d, rt) = both(&url, None);
            assert_eq!(rt.status, 200, "{url}");
            assert_from_file(&url, &d, &rt);
            assert_as_modelled(&model, &url, &d, &rt);
        }
        for query in [
            "?context=dog",
            "?context=human_child&style=pill",
            "?context=pollinator&style=flat",
        ] {
            let url = format!("/api/badge/{id}{query}");
            let (d, rt) = both(&url, None);
            assert_eq!(rt.status, 400, "{url}");
            assert_eq!(rt.media_type(), "image/svg+xml", "{url}");
            assert_proxied(&url, &d, &rt);
            assert_as_modelled(&model, &url, &d, &rt);
        }
    }

    // Values the tree has no file for, keyed endpoints, unknown paths: the runtime answers.
    for (url, key) in [
        (format!("/api/badge/{benzene}?label=Benzene"), None),
        (format!("/api/compound/{benzene}?context=adult"), None),
        (format!("/api/compound/{benzene}?context=kids"), None),
        (format!("/api/compound/{benzene}?context=horse"), None),
        (
            format!("/api/compound/{benzene}?context=dog&all_contexts=true"),
            None,
        ),
        (format!("/api/badge/{benzene}?style=for-the-badge"), None),
        (
            format!("/api/badge/{benzene}?context=dog&style=plastic"),
            None,
        ),
        ("/api/compound/cas/71-43-2?context=dog".to_string(), None),
        (format!("/api/badge/{benzene}?show_name=true"), None),
        (
            format!("/api/badge/{benzene}?context=dog&show_context=true"),
            None,
        ),
        ("/api/lookup?q=benzene".to_string(), None),
        ("/api/lookup?q=71432".to_string(), None),
        ("/api/search?q=benzene".to_string(), Some(key.as_str())),
        ("/api/no-such-endpoint".to_string(), None),
    ] {
        let (d, rt) = both(&url, key);
        assert_proxied(&url, &d, &rt);
    }
    let (d, _) = both("/api/search?q=benzene", Some(&key));
    assert_eq!(d.status, 200);
    assert_eq!(d.header("netlify-cdn-cache-control"), Some("no-store"));

    // A public answer of an endpoint with files, proxied: the CDN may keep it until midnight
    // UTC, under its release's tag; the same URL with a key may not be kept.
    let record = format!("/api/v1/compound/{benzene}");
    let (d, rt) = both(&record, None);
    assert_eq!(d.status, 200);
    assert_proxied(&record, &d, &rt);
    assert!(
        d.header("netlify-cdn-cache-control")
            .unwrap()
            .starts_with("public, max-age="),
        "{record}"
    );
    let release = format!("saferef-release-{}", dataset.fingerprint);
    assert!(
        d.header("netlify-cache-tag").unwrap().contains(&release),
        "{record}"
    );
    let (d, rt) = both(&record, Some(&key));
    assert_proxied(&record, &d, &rt);
    assert_eq!(
        d.header("netlify-cdn-cache-control"),
        Some("no-store"),
        "{record}"
    );

    // CAS lookups with redirect=true: the runtime's 302, proxied with its own Location.
    let target = format!("/api/compound/{benzene}");
    for (url, location) in [
        (
            "/api/compound/cas/71-43-2?redirect=true&context=dog",
            format!("{target}?context=dog"),
        ),
        ("/api/compound/cas/71-43-2?redirect=true", target.clone()),
    ] {
        let (d, rt) = both(url, None);
        assert_eq!((d.status, rt.status), (302, 302), "{url}");
        assert_eq!(d.header("location"), Some(location.as_str()), "{url}");
        assert_eq!(rt.header("location"), Some(location.as_str()), "{url}");
    }

    // A key in the X-API-Key header: on the public paths the CDN serves the public file (it
    // routes on the query only); under /api/v1/, the runtime's alone, the keyed form.
    for path in [
        format!("/api/compound/{benzene}/alternatives"),
        format!("/api/product/{product}"),
    ] {
        let keyed = format!("/api/v1{}", path.trim_start_matches("/api"));
        let (d, rt) = both(&keyed, Some(&key));
        assert_eq!(rt.status, 200, "{keyed}");
        assert_proxied(&keyed, &d, &rt);
        let (public, _) = both(&path, None);
        let (header_on_cdn, keyed_on_runtime) = both(&path, Some(&key));
        assert_eq!(header_on_cdn.body, public.body, "{path}");
        assert_eq!(keyed_on_runtime.body, d.body, "{path}");
        assert_ne!(d.body, public.body, "{path}: the keyed form has more");
    }
    let (d, _) = both(&format!("/api/v1/product/{product}"), Some(&key));
    let body: serde_json::Value = serde_json::from_slice(&d.body).unwrap();
    assert!(body.get("compound_traces").is_some(), "{body}");

    // Ids the tree does not know meet a placeholder rule to a file it lacks: Netlify answers
    // its own 404 and tries no rule below (the model's `Missing`), where the runtime answers
    // the OpenAPI's JSON 404 or gray badge. netlify dev gives such a forced rewrite the rule's
    // 200 over its static server's 404 body; production Netlify answers 404.
    for url in [
        "/api/compound/hq-c-org-000099",
        "/api/compound/hq-c-org-000099?context=human_child",
        "/api/badge/hq-c-org-000099",
        "/api/badge/hq-p-bdy-000099?style=pill",
        "/api/product/hq-p-bdy-000099",
        "/api/material/hq-m-adh-000099",
    ] {
        let (d, rt) = both(url, None);
        assert_eq!(rt.status, 404, "{url}");
        let (path, query) = pairs(url);
        assert!(
            matches!(model.resolve(&path, &query), Resolution::Missing { .. }),
            "{url}"
        );
        assert_as_modelled(&model, url, &d, &rt);
    }
    let (d, _) = both("/api/compound/hq-c-org-000099", None);
    assert_eq!(d.status, 404);
    // A page of an id without one has no rule of its own: the runtime's 404 page.
    let (d, rt) = both("/compound/hq-c-org-000099", None);
    assert_eq!(rt.status, 404);
    assert_proxied("/compound/hq-c-org-000099", &d, &rt);
}
