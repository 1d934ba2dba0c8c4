//! `saferef-generate build` on a small dataset (the ingest fixture): every route's file holds
//! the render function's bytes, two builds are byte-identical but for the manifest's time, an
//! unchanged rebuild writes nothing, and `_redirects` keeps statuses and falls through.

use std::path::{Path, PathBuf};

use saferef_generator::ingest::{IngestOptions, run};
use saferef_generator::load::{Dataset, load};
use saferef_generator::site::{BuildOptions, build, routes::routes};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The fixture tables ingested into a fresh data directory.
fn dataset() -> (tempfile::TempDir, Dataset) {
    let dir = tempfile::tempdir().unwrap();
    for f in ["sources.json", "agencies.json", "contexts.json"] {
        std::fs::copy(repo().join("data").join(f), dir.path().join(f)).unwrap();
    }
    std::fs::create_dir_all(dir.path().join("compounds")).unwrap();
    run(&IngestOptions {
        data_dir: dir.path().to_path_buf(),
        source_roots: vec![repo().join("tests/fixtures/sources")],
        date: "2026-01-01".into(),
    })
    .unwrap();
    let (dataset, problems) = load(dir.path()).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    (dir, dataset)
}

fn opts(out: &Path, at: &str) -> BuildOptions {
    BuildOptions {
        out: out.to_path_buf(),
        runtime_origin: Some("https://runtime.example".into()),
        built_at: at.into(),
    }
}

fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap().display().to_string();
            (rel, std::fs::read(e.path()).unwrap())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn the_tree_is_the_render_functions_applied_ahead_of_time() {
    let (_data, d) = dataset();
    let out = tempfile::tempdir().unwrap();
    let first = build(&d, &opts(out.path(), "2026-11-21T10:00:00Z")).unwrap();
    // Formaldehyde, benzene and BPA (the listed agents of the fixture tables) x (default, all
    // contexts, raw, alternatives, 19 contexts, 19 x 3 badges) + 3 CAS lookups + root + the
    // not-found badge + the OpenAPI document and its Postman form + _redirects + _headers.
    assert_eq!(d.compounds.len(), 3);
    assert_eq!(first.files, 3 * (23 + 57) + 3 + 1 + 1 + 2 + 2);
    assert_eq!(first.written, first.files);
    for r in routes(&d, &d.release_date()) {
        let bytes = std::fs::read(out.path().join(&r.file)).unwrap();
        assert_eq!(bytes, r.rendered.body, "{}", r.file);
    }

    // Same data, later time: only the manifest differs, and nothing is rewritten.
    let again = tempfile::tempdir().unwrap();
    build(&d, &opts(again.path(), "2026-11-22T10:00:00Z")).unwrap();
    let (a, b) = (tree(out.path()), tree(again.path()));
    assert_eq!(a.len(), b.len());
    for ((pa, ba), (pb, bb)) in a.iter().zip(&b) {
        assert_eq!(pa, pb);
        if pa != "manifest.json" {
            assert_eq!(ba, bb, "{pa} differs between two builds of the same data");
        }
    }
    let rebuild = build(&d, &opts(out.path(), "2026-11-23T10:00:00Z")).unwrap();
    assert_eq!((rebuild.written, rebuild.unchanged), (0, rebuild.files));
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.path().join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["built_at"], "2026-11-23T10:00:00Z");
    assert_eq!(manifest["files"].as_array().unwrap().len(), rebuild.files);
}

#[test]
fn redirects_keep_statuses_and_fall_through_to_the_runtime() {
    let (_data, d) = dataset();
    let out = tempfile::tempdir().unwrap();
    build(&d, &opts(out.path(), "2026-11-21T10:00:00Z")).unwrap();
    let redirects = std::fs::read_to_string(out.path().join("_redirects")).unwrap();
    let benzene = d.by_cas("71-43-2").unwrap().hq_id.clone();
    // Benzene has no pollinator evidence: the precomputed 422 keeps its status, before the
    // generic context rule.
    let status_rule = format!(
        "/api/compound/{benzene} context=pollinator /api/compound/{benzene}/context/pollinator.json 422"
    );
    let generic =
        "/api/compound/:id context=pollinator /api/compound/:id/context/pollinator.json 200";
    let (s, g) = (
        redirects.find(&status_rule).unwrap(),
        redirects.find(generic).unwrap(),
    );
    assert!(s < g);
    assert!(redirects.contains(&format!(
        "/api/compound/cas/71-43-2 redirect=true /api/compound/{benzene} 302"
    )));
    assert!(
        !redirects.contains("context=:context /api/compound/:id"),
        "aliases are not rewritten: the runtime resolves them"
    );
    assert!(
        redirects
            .trim_end()
            .ends_with("/api/* https://runtime.example/api/:splat 200")
    );
    assert!(
        redirects.contains("/api/badge/:id context=dog style=pill /api/badge/:id/dog/pill.svg 200")
    );
    assert!(redirects.contains("/api/badge/:id /api/badge/:id/human_adult/flat.svg 200"));
    let label = redirects
        .find("/api/badge/* label=:label https://runtime.example/api/badge/:splat 200")
        .unwrap();
    assert!(
        label < redirects.find("/api/badge/:id context=").unwrap(),
        "custom labels go to the runtime first"
    );
    let svg = std::fs::read_to_string(
        out.path()
            .join(format!("api/badge/{benzene}/human_adult/flat.svg")),
    )
    .unwrap();
    assert!(svg.contains("very high"));
    let headers = std::fs::read_to_string(out.path().join("_headers")).unwrap();
    assert!(headers.contains(
        "/api/badge/*\n  Content-Type: image/svg+xml\n  Cache-Control: public, max-age=86400\n"
    ));
    assert!(headers.contains(&format!(
        "/api/compound/{benzene}*\n  Netlify-Cache-Tag: {benzene}\n"
    )));
    assert!(headers.starts_with("# Generated"));
}
