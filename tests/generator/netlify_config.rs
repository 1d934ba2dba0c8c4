//! Netlify's own parsers (@netlify/redirect-parser, @netlify/headers-parser and
//! @netlify/config, run by `tests/netlify/validate.mjs`) read the `_redirects` and `_headers` of
//! a build of the committed dataset, and netlify.toml: no errors, every rule and header block
//! of ours is one of theirs read as we wrote it, and sample rules mean to Netlify what we
//! intend (query conditions, forcing, proxying, statuses). Needs `node` and
//! `npm ci --prefix tests/netlify` (scripts/test does both).

use std::path::{Path, PathBuf};
use std::process::Command;

use saferef_generator::build::site::{BuildOptions, MAX_RULES, build};
use saferef_generator::load::load;
use saferef_generator::model::vocab::WatchClass;
use serde_json::{Value, json};

const ORIGIN: &str = "https://runtime.example";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Netlify's report on a built site and the repository's netlify.toml.
fn netlify_report(site: &Path) -> Value {
    let package = repo().join("tests/netlify");
    assert!(
        package.join("node_modules/@netlify/config").is_dir(),
        "run `npm ci --prefix tests/netlify` first (scripts/test does)"
    );
    let out = Command::new("node")
        .arg(package.join("validate.mjs"))
        .arg(site)
        .arg(repo().join("netlify.toml"))
        .output()
        .expect("node is installed (scripts/test installs it)");
    assert!(
        out.status.success(),
        "validate.mjs failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Our reading of a `_redirects` rule line, in the shape Netlify's parser gives:
/// `from [k=v ...] to status[!]`.
fn our_rule(line: &str) -> Value {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let to = 1 + fields[1..]
        .iter()
        .position(|f| f.starts_with('/') || f.starts_with("https://"))
        .unwrap_or_else(|| panic!("no target in {line:?}"));
    let query: serde_json::Map<String, Value> = fields[1..to]
        .iter()
        .map(|c| {
            let (k, v) = c.split_once('=').unwrap();
            (k.to_string(), json!(v))
        })
        .collect();
    assert_eq!(fields.len(), to + 2, "{line:?}");
    let status = fields[to + 1];
    json!({
        "from": fields[0],
        "query": query,
        "to": fields[to],
        "status": status.trim_end_matches('!').parse::<u16>().unwrap(),
        "force": status.ends_with('!'),
    })
}

/// The fields of a parsed rule that our files set.
fn as_written(rule: &Value) -> Value {
    json!({
        "from": rule["from"],
        "query": rule["query"],
        "to": rule["to"],
        "status": rule["status"],
        "force": rule["force"],
    })
}

/// Our reading of `_headers`: each block as `{for, values}`.
fn our_blocks(text: &str) -> Vec<Value> {
    let mut blocks: Vec<Value> = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        match line.strip_prefix("  ") {
            Some(header) => {
                let (name, value) = header.split_once(": ").unwrap();
                let values = blocks.last_mut().unwrap()["values"]
                    .as_object_mut()
                    .unwrap();
                assert!(values.insert(name.into(), json!(value)).is_none(), "{line}");
            }
            None => blocks.push(json!({ "for": line, "values": {} })),
        }
    }
    blocks
}

fn find<'a>(rules: &'a [Value], from: &str, query: Value) -> &'a Value {
    rules
        .iter()
        .find(|r| r["from"] == from && r["query"] == query)
        .unwrap_or_else(|| panic!("no rule from {from} with {query}"))
}

#[test]
fn netlify_reads_the_routing_files_and_netlify_toml_as_we_mean_them() {
    let (dataset, problems) = load(&repo().join("data")).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    // Named `site` like the checkout's tree: validate.mjs resolves netlify.toml (which
    // publishes `site`) with the temporary directory as the repository root.
    let root = tempfile::tempdir().unwrap();
    let site = root.path().join("site");
    let report = build(
        &dataset,
        &BuildOptions {
            out: site.clone(),
            runtime_origin: Some(ORIGIN.into()),
            built_at: "2026-11-21T10:00:00Z".into(),
            full: false,
        },
    )
    .unwrap();
    let netlify = netlify_report(&site);
    for part in ["redirects", "headers", "netlify_toml"] {
        assert_eq!(netlify[part]["errors"], json!([]), "{part}");
    }

    // Every rule line of ours is one Netlify rule, in our order (first match wins), read as
    // we wrote it.
    let redirects = std::fs::read_to_string(site.join("_redirects")).unwrap();
    let ours: Vec<Value> = redirects
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(our_rule)
        .collect();
    let rules = netlify["redirects"]["rules"].as_array().unwrap();
    // Placeholders, and the exceptions that fit in the budget, every one counted by the build.
    assert!(ours.len() <= MAX_RULES, "{}", ours.len());
    assert_eq!(netlify["redirects"]["count"], ours.len());
    assert_eq!(rules.len(), ours.len());
    assert_eq!(report.redirect_rules, ours.len());
    for (n, (theirs, ours)) in rules.iter().zip(&ours).enumerate() {
        assert_eq!(&as_written(theirs), ours, "rule {}", n + 1);
    }

    // A rule with a query condition must beat the file at its path (a page's index.html,
    // which Netlify serves before any unforced rule).
    assert!(site.join("api/release-notes/index.html").is_file());
    for r in rules.iter().filter(|r| r["query"] != json!({})) {
        assert_eq!(r["force"], true, "{r}");
    }
    let benzene = &dataset.by_cas("71-43-2").unwrap().hq_id;
    // CAS lookups with redirect=true: the runtime's 302, one rule for every CAS.
    let cas = find(
        rules,
        "/api/compound/cas/:cas",
        json!({ "redirect": ":redirect" }),
    );
    assert_eq!(
        (&cas["to"], &cas["status"], &cas["force"], &cas["proxy"]),
        (
            &json!(format!("{ORIGIN}/api/compound/cas/:cas")),
            &json!(200),
            &json!(true),
            &json!(true)
        )
    );
    let position = |r: &Value| rules.iter().position(|x| x == r).unwrap();
    // The service's own base is the runtime's, before every file rule.
    let v1 = find(rules, "/api/v1/*", json!({}));
    assert_eq!(
        (&v1["to"], &v1["force"], &v1["proxy"]),
        (
            &json!(format!("{ORIGIN}/api/v1/:splat")),
            &json!(true),
            &json!(true)
        )
    );
    assert_eq!(position(v1), 1);
    // A context is its file where every compound answers it, but those an exception rule sends
    // to the runtime first; else the runtime's for all.
    let dog = find(rules, "/api/compound/:id", json!({ "context": "dog" }));
    let file = json!("/api/compound/:id/context/dog.json");
    let runtime = json!(format!("{ORIGIN}/api/compound/:id"));
    assert!(dog["to"] == file || dog["to"] == runtime, "{dog}");
    assert_eq!(dog["proxy"], json!(dog["to"] == runtime));
    assert_eq!((&dog["status"], &dog["force"]), (&json!(200), &json!(true)));
    let notes = find(rules, "/api/release-notes", json!({ "format": "json" }));
    assert_eq!(
        (&notes["to"], &notes["status"], &notes["force"]),
        (
            &json!("/api/release-notes/index.json"),
            &json!(200),
            &json!(true)
        )
    );
    // Other values of an enumerated parameter and custom badge labels: proxied to the runtime.
    let label = find(rules, "/api/badge/:id", json!({ "label": ":label" }));
    assert_eq!(
        (&label["to"], &label["status"], &label["proxy"]),
        (
            &json!(format!("{ORIGIN}/api/badge/:id")),
            &json!(200),
            &json!(true)
        )
    );
    // A critical-threat compound answers 403 on every path: rules of its own send each to the
    // runtime before the placeholders, which then rewrite every other compound to its file.
    let threat = dataset
        .compounds
        .values()
        .find(|c| c.watch_class == WatchClass::CriticalThreat)
        .unwrap();
    let record = find(rules, "/api/compound/:id", json!({}));
    assert_eq!(record["to"], "/api/compound/:id.json");
    let id = &threat.hq_id;
    for from in [
        format!("/api/compound/{id}"),
        format!("/api/compound/{id}/raw"),
        format!("/api/compound/{id}/alternatives"),
        format!("/api/compound/cas/{}", threat.cas),
        format!("/api/badge/{id}"),
    ] {
        let rule = find(rules, &from, json!({}));
        assert_eq!(
            (&rule["to"], &rule["force"], &rule["proxy"]),
            (
                &json!(format!("{ORIGIN}{from}")),
                &json!(true),
                &json!(true)
            )
        );
        assert!(position(rule) < position(dog));
    }
    // A retired product id (data/retired.tsv): a forced 301 to the same path for its
    // replacement on each path that names it, before the placeholders; Netlify passes the
    // query on to the target of a rule without query conditions.
    for retirement in dataset.retired.iter() {
        for (from, to) in [
            ("/api/product/{id}", "/api/product/{id}"),
            ("/api/product/{id}/raw", "/api/product/{id}/raw"),
            ("/product/{id}", "/product/{id}"),
            ("/api/badge/{id}", "/api/badge/{id}"),
            (
                "/api/relationships/{id}/graph",
                "/api/relationships/{id}/graph",
            ),
        ] {
            let rule = find(rules, &from.replace("{id}", &retirement.id), json!({}));
            assert_eq!(
                (&rule["to"], &rule["status"], &rule["force"], &rule["proxy"]),
                (
                    &json!(to.replace("{id}", &retirement.replaced_by)),
                    &json!(301),
                    &json!(true),
                    &json!(false)
                ),
                "{from}"
            );
            assert!(position(rule) < position(dog));
        }
    }
    assert!(dataset.retired.get("hq-p-wer-000032").is_some());
    let alias = find(rules, "/api/compound/:id", json!({ "context": ":context" }));
    assert_eq!(alias["to"], format!("{ORIGIN}/api/compound/:id"));
    assert!(position(dog) < position(alias));
    // Build data is never served, whatever file is there; the runtime takes the rest, files
    // first (not forced). Pages need no rule: Netlify serves `compound/{id}.html` at
    // `/compound/{id}` and sends an id without a page on to the runtime.
    assert!(rules.iter().all(|r| r["from"] != "/compound/:id"));
    let first = &rules[0];
    assert_eq!(
        (
            &first["from"],
            &first["to"],
            &first["status"],
            &first["force"]
        ),
        (
            &json!("/_data/*"),
            &json!("/api/404.json"),
            &json!(404),
            &json!(true)
        )
    );
    let fallback = rules.last().unwrap();
    assert_eq!(
        as_written(fallback),
        json!({
            "from": "/api/*",
            "query": {},
            "to": format!("{ORIGIN}/api/:splat"),
            "status": 200,
            "force": false,
        })
    );
    assert_eq!(fallback["proxy"], true);

    // Every header block of ours is one Netlify block with exactly our values.
    let headers = std::fs::read_to_string(site.join("_headers")).unwrap();
    let ours = our_blocks(&headers);
    let blocks = netlify["headers"]["blocks"].as_array().unwrap();
    assert!(ours.len() > 5 * dataset.compounds.len(), "{}", ours.len());
    assert_eq!(netlify["headers"]["count"], ours.len());
    assert_eq!(blocks, &ours);
    let compound = blocks
        .iter()
        .find(|b| b["for"] == format!("/api/compound/{benzene}"))
        .unwrap();
    assert_eq!(
        compound["values"],
        json!({
            "Cache-Control": "public, max-age=3600, s-maxage=3600, stale-while-revalidate=7200",
            "Vary": "X-API-Key, X-Marketplace-Subscription",
            "Surrogate-Key": benzene,
            "Netlify-Cache-Tag": benzene,
        })
    );

    // netlify.toml: valid for Netlify's build, which publishes the tree the generator's build
    // writes; it adds no rules or headers of its own (they would follow ours or override
    // them), so Netlify's whole routing is the generated files.
    let toml = &netlify["netlify_toml"];
    assert_eq!(toml["build"]["publish"], site.display().to_string());
    let command = toml["build"]["command"].as_str().unwrap();
    assert!(
        command.contains("--bin saferef-generate -- build --out site"),
        "{command}"
    );
    assert_eq!(
        (&toml["redirects"], &toml["headers"]),
        (&json!([]), &json!([]))
    );
    assert_eq!(
        toml["merged"],
        json!({
            "redirects": rules.len(),
            "headers": blocks.len(),
        })
    );
}
