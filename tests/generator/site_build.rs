//! `saferef-generate build` on a small dataset (the ingest fixture): every route's file holds
//! the render function's bytes, two builds are byte-identical but for the manifest's time, an
//! unchanged rebuild writes nothing, a one-compound change rewrites only what it changes, the
//! build state never makes a rebuild differ from a build from scratch (nor do the records a
//! rebuild takes from the previous build instead of parsing them), and the CDN's reading of
//! `_redirects` and `_headers` answers every route as the runtime would.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use saferef_generator::build::site;
use saferef_generator::build::site::cdn::{Resolution, StaticSite};
use saferef_generator::build::site::routes::routes;
use saferef_generator::build::site::{
    BuildOptions, BuildReport, LastBuild, MANIFEST, MAX_RULES, build, build_after, cors_lines,
    header_lines, html_security_lines, listed_files, state,
};
use saferef_generator::ingest::{IngestOptions, run};
use saferef_generator::load::{RecordCache, load, load_with, snapshot};
use saferef_generator::model::file_stamp::FileStamp;
use saferef_generator::model::{Dataset, Problem};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The fixture tables ingested into a fresh data directory.
fn dataset() -> (tempfile::TempDir, Dataset) {
    let dir = tempfile::tempdir().unwrap();
    for f in ["sources.json", "agencies.json", "contexts.json"] {
        std::fs::copy(repo().join("data").join(f), dir.path().join(f)).unwrap();
    }
    for folder in ["documents", "release-notes"] {
        std::fs::create_dir_all(dir.path().join(folder)).unwrap();
        for e in std::fs::read_dir(repo().join("data").join(folder)).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), dir.path().join(folder).join(e.file_name())).unwrap();
        }
    }
    std::fs::create_dir_all(dir.path().join("compounds")).unwrap();
    run(&IngestOptions {
        data_dir: dir.path().to_path_buf(),
        source_roots: vec![repo().join("tests/fixtures/sources")],
        date: "2026-01-01".into(),
        dry_run: false,
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
        full: false,
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
    // contexts, raw, alternatives, 19 contexts, 19 x 3 badges, its page) + 3 CAS lookups +
    // root + the not-found badge + the OpenAPI document and its Postman form + 3 documents and
    // the release notes, each in HTML and JSON + the static 404 + the preview's
    // runtime-required error + the playground, dashboard, compliance and examples pages +
    // _redirects + _headers + the dataset snapshot + the front door, sitemap, robots.txt and
    // name index.
    assert_eq!(d.compounds.len(), 3);
    assert_eq!(
        first.files,
        3 * (24 + 57) + 3 + 1 + 1 + 2 + 8 + 1 + 1 + 4 + 3 + 4
    );
    assert_eq!(first.written, first.files);
    for r in routes(&d) {
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
        if pa != MANIFEST {
            assert_eq!(ba, bb, "{pa} differs between two builds of the same data");
        }
    }
    let rebuild = build(&d, &opts(out.path(), "2026-11-23T10:00:00Z")).unwrap();
    assert_eq!((rebuild.written, rebuild.unchanged), (0, rebuild.files));
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.path().join(MANIFEST)).unwrap()).unwrap();
    assert_eq!(manifest["built_at"], "2026-11-23T10:00:00Z");
    assert_eq!(listed_files(out.path()).unwrap().len(), rebuild.files);
}

#[test]
fn a_one_compound_change_rewrites_its_files_and_the_snapshot_only() {
    let (_data, mut d) = dataset();
    let out = tempfile::tempdir().unwrap();
    build(&d, &opts(out.path(), "2026-11-21T10:00:00Z")).unwrap();
    let before = routes(&d);
    let benzene = d.by_cas("71-43-2").unwrap().hq_id;
    d.compounds.get_mut(&benzene).unwrap().name = "Benzene (renamed)".into();
    let after = routes(&d);
    let changed: Vec<&str> = before
        .iter()
        .zip(&after)
        .filter(|(a, b)| a.rendered.body != b.rendered.body)
        .map(|(_, b)| b.file.as_str())
        .collect();
    assert!(changed.len() > 20, "{changed:?}");
    // Its own files (its page too), its CAS lookup, and the aggregates that name it: the
    // examples, the front door's examples and the name index.
    assert!(changed.contains(&format!("compound/{benzene}.html").as_str()));
    assert!(
        changed.iter().all(|f| f.contains(&benzene.to_string())
            || f.ends_with("cas/71-43-2.json")
            || ["api/examples/index.json", "index.html", "search-index.json"].contains(f)),
        "{changed:?}"
    );
    let report = build(&d, &opts(out.path(), "2026-11-21T11:00:00Z")).unwrap();
    // Its responses, and the dataset snapshot.
    assert_eq!(report.written, changed.len() + 1);
    assert_eq!(report.removed, 0);

    // A compound that leaves the dataset leaves the tree.
    let bpa = d.by_cas("80-05-7").unwrap().hq_id;
    d.compounds.remove(&bpa);
    let report = build(&d, &opts(out.path(), "2026-11-21T12:00:00Z")).unwrap();
    assert_eq!(report.removed, 24 + 57 + 1);
    assert!(!out.path().join(format!("api/compound/{bpa}.json")).exists());
    assert!(
        !out.path()
            .join(format!("api/badge/{bpa}"))
            .join("human_adult/flat.svg")
            .exists()
    );
}

/// The key of the routing files and the snapshot's frames, as the build state at `out` has them.
fn routing_and_frames(out: &Path) -> (state::Hash, Vec<(state::Hash, u64)>) {
    let files = state::read(out).unwrap();
    let s = state::decode(&files).unwrap();
    (s.routing, s.records.frames)
}

/// Each frame's bytes in a snapshot file.
fn frames_of<'a>(snapshot: &'a [u8], frames: &[(state::Hash, u64)]) -> Vec<&'a [u8]> {
    let mut at = 0;
    frames
        .iter()
        .map(|(_, len)| {
            let frame = &snapshot[at..at + *len as usize];
            at += *len as usize;
            frame
        })
        .collect()
}

/// The build state's and the manifest's shard files at `out`, each with its inode: a file
/// written again (staged, then renamed into place) is a new one.
fn shard_files(out: &Path) -> std::collections::BTreeMap<String, u64> {
    use std::os::unix::fs::MetadataExt;
    ["_data/manifest", "_data/build-state.d"]
        .iter()
        .flat_map(|dir| std::fs::read_dir(out.join(dir)).unwrap())
        .map(|e| {
            let e = e.unwrap();
            let rel = e.path().strip_prefix(out).unwrap().display().to_string();
            (rel, e.metadata().unwrap().ino())
        })
        .collect()
}

#[test]
fn a_one_compound_change_compresses_its_snapshot_frame_alone_and_keeps_the_routing_files() {
    let (_data, d) = dataset();
    let benzene = d.by_cas("71-43-2").unwrap().hq_id;
    // 30 compounds: the snapshot's head and two frames of records.
    let mut d = saferef_generator::build::site::scale::scaled(d, 10).unwrap();
    let out = tempfile::tempdir().unwrap();
    build(&d, &opts(out.path(), "2026-11-21T10:00:00Z")).unwrap();
    let snapshot_file = out.path().join(snapshot::PATH);
    let (routing, frames) = routing_and_frames(out.path());
    assert_eq!(frames.len(), 3);
    let before = std::fs::read(&snapshot_file).unwrap();
    assert_eq!(
        frames.iter().map(|(_, len)| *len as usize).sum::<usize>(),
        before.len()
    );
    let shards = shard_files(out.path());
    assert!(shards.len() > 2, "{shards:?}");

    // A name is in no routing entry: `_redirects` and `_headers` keep their key, and of the
    // snapshot only the frame holding benzene's record is compressed again; the others are the
    // previous file's bytes. The tree is a build from scratch's.
    d.compounds.get_mut(&benzene).unwrap().name = "Benzene (renamed)".into();
    build(&d, &opts(out.path(), "2026-11-21T11:00:00Z")).unwrap();
    let (routing_after, frames_after) = routing_and_frames(out.path());
    assert_eq!(routing_after, routing);
    let changed: Vec<usize> = (0..frames.len())
        .filter(|&i| frames[i].0 != frames_after[i].0)
        .collect();
    assert_eq!(changed.len(), 1, "{changed:?}");
    let after = std::fs::read(&snapshot_file).unwrap();
    let (old, new) = (
        frames_of(&before, &frames),
        frames_of(&after, &frames_after),
    );
    for i in (0..frames.len()).filter(|i| !changed.contains(i)) {
        assert_eq!(old[i], new[i], "frame {i}");
    }
    assert_ne!(old[changed[0]], new[changed[0]]);
    let read = snapshot::read(&snapshot_file).unwrap();
    assert_eq!(read.compounds.len(), 30);
    assert_eq!(read.compounds[&benzene].name, "Benzene (renamed)");
    // Of the manifest's and the state's shards, only benzene's two are written again.
    let shard = state::shard_of(&benzene.to_string());
    let shards_after = shard_files(out.path());
    let rewritten: Vec<&String> = shards_after
        .iter()
        .filter(|(path, ino)| shards.get(*path) != Some(*ino))
        .map(|(path, _)| path)
        .collect();
    assert_eq!(
        rewritten,
        [&state::state_shard(shard), &state::manifest_shard(shard)],
        "{shards:?}"
    );
    assert_eq!(shards_after.len(), shards.len());
    assert_same_as_fresh(&d, out.path());

    // A compound that leaves takes its routing entries with it: the routing files are made
    // again, and every frame of records from its own on.
    let bpa = d.by_cas("80-05-7").unwrap().hq_id;
    d.compounds.remove(&bpa);
    build(&d, &opts(out.path(), "2026-11-21T12:00:00Z")).unwrap();
    let (routing_gone, _) = routing_and_frames(out.path());
    assert_ne!(routing_gone, routing);
    assert!(
        !std::fs::read_to_string(out.path().join("_headers"))
            .unwrap()
            .contains(&bpa.to_string())
    );
    assert_same_as_fresh(&d, out.path());
}

#[test]
fn a_product_is_rendered_again_when_a_compound_it_names_changes() {
    let (_data, mut d) = dataset();
    // A real product (baby bottles) whose composition names BPA, one of the fixture's compounds.
    let text = std::fs::read_to_string(repo().join("data/products/hq-p-chd-000001.json")).unwrap();
    let product: saferef_generator::model::material::Product = serde_json::from_str(&text).unwrap();
    let id = product.id.clone();
    d.products.insert(id.clone(), product);
    let out = tempfile::tempdir().unwrap();
    build(&d, &opts(out.path(), "2026-11-21T10:00:00Z")).unwrap();
    let bpa = d.by_cas("80-05-7").unwrap().hq_id;
    let page = out.path().join(format!("product/{id}.html"));
    let json = out.path().join(format!("api/product/{id}.json"));
    let read = |p: &Path| std::fs::read_to_string(p).unwrap();
    let link = format!("href=\"/compound/{bpa}\"");
    assert!(read(&page).contains(&link));
    assert!(read(&json).contains(&format!("\"compound_id\":\"{bpa}\"")));

    // Benzene changes: the product does not name it, and nothing of it is written.
    let benzene = d.by_cas("71-43-2").unwrap().hq_id;
    d.compounds.get_mut(&benzene).unwrap().name = "Benzene (renamed)".into();
    build(&d, &opts(out.path(), "2026-11-21T11:00:00Z")).unwrap();
    assert_same_as_fresh(&d, out.path());

    // BPA leaves: the product's page, JSON and badges are rendered again without it.
    d.compounds.remove(&bpa);
    build(&d, &opts(out.path(), "2026-11-21T12:00:00Z")).unwrap();
    assert!(!read(&page).contains(&link));
    assert!(read(&json).contains("\"compound_id\":null"));
    assert_same_as_fresh(&d, out.path());
}

/// Asserts that `incremental` (a rebuild) holds the tree a build from scratch of `d` writes:
/// the same files with the same bytes, and a manifest listing the same files and hashes.
fn assert_same_as_fresh(d: &Dataset, incremental: &Path) {
    let fresh = tempfile::tempdir().unwrap();
    build(d, &opts(fresh.path(), "2026-11-21T10:00:00Z")).unwrap();
    let (a, b) = (tree(incremental), tree(fresh.path()));
    let names = |t: &[(String, Vec<u8>)]| t.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
    assert_eq!(names(&a), names(&b));
    for ((path, ba), (_, bb)) in a.iter().zip(&b) {
        if path == MANIFEST {
            assert_eq!(
                listed_files(incremental),
                listed_files(fresh.path()),
                "manifest files"
            );
        } else {
            assert_eq!(ba, bb, "{path} differs from a build from scratch");
        }
    }
}

#[test]
fn the_build_state_is_invalidated_by_every_shared_input() {
    let (_data, mut d) = dataset();
    let out = tempfile::tempdir().unwrap();
    build(&d, &opts(out.path(), "2026-11-21T10:00:00Z")).unwrap();
    let benzene = d.by_cas("71-43-2").unwrap().hq_id;

    // A context label is in every compound's context responses: all are rendered again.
    d.contexts
        .contexts
        .iter_mut()
        .find(|c| c.name == "human_child")
        .unwrap()
        .label = "Children (relabelled)".into();
    build(&d, &opts(out.path(), "2026-11-21T11:00:00Z")).unwrap();
    let child = std::fs::read_to_string(
        out.path()
            .join(format!("api/compound/{benzene}/context/human_child.json")),
    )
    .unwrap();
    assert!(child.contains("Children (relabelled)"), "{child}");
    assert_same_as_fresh(&d, out.path());

    // A changed template re-renders the documents.
    let template = saferef_generator::render::documents::BUILTIN_TEMPLATE
        .replace("<body>", "<body><p>edited template</p>");
    assert_ne!(
        template,
        saferef_generator::render::documents::BUILTIN_TEMPLATE
    );
    d.templates.insert("document.html.j2".into(), template);
    let report = build(&d, &opts(out.path(), "2026-11-21T12:00:00Z")).unwrap();
    assert!(report.written > 4, "{report:?}");
    let terms = std::fs::read_to_string(out.path().join("api/terms/index.html")).unwrap();
    assert!(terms.contains("edited template"));
    assert_same_as_fresh(&d, out.path());

    // Another runtime origin changes `_redirects` only.
    let mut o = opts(out.path(), "2026-11-21T13:00:00Z");
    o.runtime_origin = Some("https://other.example".into());
    let report = build(&d, &o).unwrap();
    assert_eq!(report.written, 1);
    let redirects = std::fs::read_to_string(out.path().join("_redirects")).unwrap();
    assert!(redirects.contains("https://other.example/api/:splat"));
}

#[test]
fn the_integrity_check_reads_every_shard_of_the_manifest() {
    let (_data, d) = dataset();
    let out = tempfile::tempdir().unwrap();
    build(&d, &opts(out.path(), "2026-11-21T10:00:00Z")).unwrap();
    assert!(site::verify(out.path(), &d.fingerprint));
    assert!(!site::verify(out.path(), "another dataset"));
    // A file its shard lists, edited: the check fails, and holds again once it is restored.
    let benzene = d.by_cas("71-43-2").unwrap().hq_id;
    let raw = out.path().join(format!("api/compound/{benzene}/raw.json"));
    let original = std::fs::read(&raw).unwrap();
    std::fs::write(&raw, b"edited").unwrap();
    assert!(!site::verify(out.path(), &d.fingerprint));
    std::fs::write(&raw, &original).unwrap();
    assert!(site::verify(out.path(), &d.fingerprint));
    // Its shard gone: the check fails, and the build state reads as none.
    let shard = state::manifest_shard(state::shard_of(&benzene.to_string()));
    std::fs::remove_file(out.path().join(shard)).unwrap();
    assert!(!site::verify(out.path(), &d.fingerprint));
    assert!(state::decode(&state::read(out.path()).unwrap()).is_none());
}

#[test]
fn a_deleted_or_corrupted_build_state_gives_the_same_tree() {
    let (_data, mut d) = dataset();
    let out = tempfile::tempdir().unwrap();
    build(&d, &opts(out.path(), "2026-11-21T10:00:00Z")).unwrap();
    let state_file = out.path().join(state::PATH);
    let bytes = std::fs::read(&state_file).unwrap();
    assert!(state::decode(&state::read(out.path()).unwrap()).is_some());

    // Corrupted (one byte flipped) while a compound changed: everything is rendered again and
    // only what changed is written (the manifest's hashes are trusted instead).
    let benzene = d.by_cas("71-43-2").unwrap().hq_id;
    d.compounds.get_mut(&benzene).unwrap().name = "Benzene (renamed)".into();
    let mut corrupted = bytes.clone();
    corrupted[bytes.len() / 2] ^= 0x20;
    std::fs::write(&state_file, &corrupted).unwrap();
    let report = build(&d, &opts(out.path(), "2026-11-21T11:00:00Z")).unwrap();
    assert!(report.written > 20 && report.written < 30, "{report:?}");
    assert_same_as_fresh(&d, out.path());

    // Deleted, while a compound left: its files still go (the manifest lists them).
    let bpa = d.by_cas("80-05-7").unwrap().hq_id;
    d.compounds.remove(&bpa);
    std::fs::remove_file(&state_file).unwrap();
    let report = build(&d, &opts(out.path(), "2026-11-21T12:00:00Z")).unwrap();
    assert_eq!(report.removed, 24 + 57 + 1);
    assert_same_as_fresh(&d, out.path());

    // Truncated: the same.
    let bytes = std::fs::read(&state_file).unwrap();
    std::fs::write(&state_file, &bytes[..bytes.len() - 10]).unwrap();
    let report = build(&d, &opts(out.path(), "2026-11-21T13:00:00Z")).unwrap();
    assert_eq!(report.written, 0);
    assert_same_as_fresh(&d, out.path());

    // `--full` compares every file on disk: one edited by hand is restored.
    let raw = out.path().join(format!("api/compound/{benzene}/raw.json"));
    let original = std::fs::read(&raw).unwrap();
    std::fs::write(&raw, b"edited").unwrap();
    let mut full = opts(out.path(), "2026-11-21T14:00:00Z");
    full.full = true;
    let report = build(&d, &full).unwrap();
    assert_eq!(report.written, 1);
    assert_eq!(std::fs::read(&raw).unwrap(), original);
}

#[test]
fn a_damaged_shard_manifest_gives_the_same_tree_whether_its_shard_is_written_again_or_not() {
    let (_data, mut d) = dataset();
    let out = tempfile::tempdir().unwrap();
    build(&d, &opts(out.path(), "2026-11-21T10:00:00Z")).unwrap();
    let benzene = d.by_cas("71-43-2").unwrap().hq_id;
    let own = out
        .path()
        .join(state::manifest_shard(state::shard_of(&benzene.to_string())));
    let other = (0..state::SHARDS)
        .map(|i| out.path().join(state::manifest_shard(i)))
        .find(|p| p.is_file() && *p != own)
        .unwrap();

    // The shard benzene's files are listed in, which the rebuild reads and writes again: a byte
    // flipped (its length kept) is seen, and everything is rendered again.
    d.compounds.get_mut(&benzene).unwrap().name = "Benzene (renamed)".into();
    let mut bytes = std::fs::read(&own).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x01;
    std::fs::write(&own, &bytes).unwrap();
    build(&d, &opts(out.path(), "2026-11-21T11:00:00Z")).unwrap();
    assert_same_as_fresh(&d, out.path());

    // Another shard, which the rebuild neither reads nor writes: its length on disk is checked.
    d.compounds.get_mut(&benzene).unwrap().name = "Benzene".into();
    let bytes = std::fs::read(&other).unwrap();
    std::fs::write(&other, &bytes[..bytes.len() - 2]).unwrap();
    build(&d, &opts(out.path(), "2026-11-21T12:00:00Z")).unwrap();
    assert_same_as_fresh(&d, out.path());
    assert_eq!(std::fs::read(&other).unwrap(), bytes);
}

/// What `saferef-generate build` does: data/ loaded with the previous build's records, checked
/// but for the records it checked clean, built. Returns the problems instead when there are.
struct Rebuild {
    dataset: Dataset,
    /// Compounds whose records came from the previous build, and those not checked again.
    reused: usize,
    clean: usize,
    result: Result<BuildReport, Vec<Problem>>,
}

fn rebuild(data: &Path, out: &Path, at: &str) -> Rebuild {
    let last = LastBuild::read(out);
    let (dataset, mut problems) = load_with(data, Some(&last)).unwrap();
    let clean = last.checked(&dataset);
    problems.extend(saferef_generator::validate::validate_except(
        &dataset, &clean,
    ));
    let result = if problems.is_empty() {
        Ok(build_after(&dataset, &opts(out, at), &last).unwrap())
    } else {
        Err(problems)
    };
    Rebuild {
        reused: last.reused(&dataset).len(),
        clean: clean.len(),
        dataset,
        result,
    }
}

/// Rewrites benzene's record file in `data` through `edit`.
fn edit_benzene(d: &Dataset, edit: impl Fn(&mut serde_json::Value)) {
    let benzene = d.by_cas("71-43-2").unwrap().hq_id;
    let file = PathBuf::from(&d.files[&benzene]);
    let mut record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    edit(&mut record);
    let text = serde_json::to_string_pretty(&record).unwrap() + "\n";
    std::fs::write(&file, text).unwrap();
}

#[test]
fn records_taken_from_the_previous_build_give_the_tree_of_a_build_from_scratch() {
    let (data, d) = dataset();
    let out = tempfile::tempdir().unwrap();
    let first = rebuild(data.path(), out.path(), "2026-11-21T10:00:00Z");
    assert_eq!((first.reused, first.clean), (0, 0));
    first.result.unwrap();

    // Nothing changed: every record comes from the previous build, none is checked again.
    let again = rebuild(data.path(), out.path(), "2026-11-21T10:30:00Z");
    assert_eq!((again.reused, again.clean), (3, 3));
    assert_eq!(again.result.unwrap().written, 0);

    // One compound changed: it alone is parsed and checked, and the tree is the one a build
    // from scratch (a plain load, nothing reused) writes.
    edit_benzene(&d, |r| r["name"] = "Benzene (renamed)".into());
    let one = rebuild(data.path(), out.path(), "2026-11-21T11:00:00Z");
    assert_eq!((one.reused, one.clean), (2, 2));
    assert!(one.result.unwrap().written > 20);
    let (scratch, problems) = load(data.path()).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(one.dataset.compounds, scratch.compounds);
    assert_eq!(one.dataset.fingerprint, scratch.fingerprint);
    assert_same_as_fresh(&scratch, out.path());

    // A problem in the changed record is found, though the others are not checked again.
    edit_benzene(&d, |r| r["category"] = "no such category".into());
    let broken = rebuild(data.path(), out.path(), "2026-11-21T12:00:00Z");
    assert_eq!(broken.clean, 2);
    let problems = broken.result.unwrap_err();
    assert!(
        problems.iter().any(|p| p.path == "category"),
        "{problems:?}"
    );
    edit_benzene(&d, |r| {
        r.as_object_mut().unwrap().remove("category");
    });

    // What shapes every record (sources.json: the ranks merged values are ordered by) changed:
    // nothing is reused; what is checked against changed (ids.tsv): everything is checked.
    let sources = data.path().join("sources.json");
    let text = std::fs::read_to_string(&sources).unwrap();
    std::fs::write(&sources, format!("{text}\n")).unwrap();
    let reshaped = rebuild(data.path(), out.path(), "2026-11-21T13:00:00Z");
    assert_eq!((reshaped.reused, reshaped.clean), (0, 0));
    reshaped.result.unwrap();
    let ids = data.path().join("ids.tsv");
    let text = std::fs::read_to_string(&ids).unwrap();
    std::fs::write(&ids, format!("{text}# a comment\n")).unwrap();
    let rechecked = rebuild(data.path(), out.path(), "2026-11-21T14:00:00Z");
    assert_eq!((rechecked.reused, rechecked.clean), (3, 0));
    rechecked.result.unwrap();
    let (scratch, _) = load(data.path()).unwrap();
    assert_same_as_fresh(&scratch, out.path());
}

/// Whether the state of the build at `out` knows `file`'s digest by the file's stamp now: a
/// load would take it without reading the file.
fn known_by_stamp(out: &Path, data: &Path, file: &Path) -> bool {
    let stamp = FileStamp::of(&std::fs::metadata(file).unwrap(), SystemTime::now());
    let rel = file.strip_prefix(data).unwrap().to_str().unwrap();
    stamp.is_some_and(|s| LastBuild::read(out).digest(rel, &s).is_some())
}

/// The stamp the state of the build at `out` holds for `file`.
fn recorded_stamp(out: &Path, data: &Path, file: &Path) -> Option<FileStamp> {
    let rel = file.strip_prefix(data).unwrap().to_str().unwrap();
    let files = state::read(out).unwrap();
    state::decode(&files).unwrap().records.files[rel].stamp
}

#[test]
fn a_file_untouched_since_the_previous_build_is_known_by_its_stamp_and_one_written_is_read() {
    let (data, d) = dataset();
    let out = tempfile::tempdir().unwrap();
    let benzene = d.by_cas("71-43-2").unwrap().hq_id;
    let file = PathBuf::from(&d.files[&benzene]);
    // Written just before the build read it: too recent for its stamp to tell a later write
    // in the same tick of the file system's clock, so none is kept.
    std::fs::write(&file, std::fs::read(&file).unwrap()).unwrap();
    rebuild(data.path(), out.path(), "2026-11-21T10:00:00Z")
        .result
        .unwrap();
    assert_eq!(recorded_stamp(out.path(), data.path(), &file), None);
    std::thread::sleep(std::time::Duration::from_millis(1100));
    rebuild(data.path(), out.path(), "2026-11-21T10:30:00Z")
        .result
        .unwrap();
    assert!(recorded_stamp(out.path(), data.path(), &file).is_some());
    assert!(known_by_stamp(out.path(), data.path(), &file));

    // The load takes the digest the stamp is known by and does not hash the file: a cache
    // that answers benzene's stamp with another digest, and that digest with a renamed
    // record, gives the renamed record.
    let last = LastBuild::read(out.path());
    let rel = file.strip_prefix(data.path()).unwrap().to_str().unwrap();
    let mut renamed = d.compounds[&benzene].clone();
    renamed.name = "Benzene (by its stamp)".into();
    let stamped = Stamped {
        last: &last,
        file: rel,
        json: serde_json::to_vec(&renamed).unwrap(),
    };
    let (by_stamp, problems) = load_with(data.path(), Some(&stamped)).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(by_stamp.compounds[&benzene].name, "Benzene (by its stamp)");
    assert_eq!(by_stamp.digests[&benzene], [0; 32]);

    // Written again to the same length, its modification time put back: its change time
    // moved, so it is read again, and the tree is the one a build from scratch writes.
    let before = std::fs::metadata(&file).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let name = serde_json::to_string(&d.compounds[&benzene].name).unwrap();
    let field = format!("\"name\": {name}");
    assert!(text.contains(&field), "{field}");
    let upper = format!("\"name\": {}", name.to_uppercase());
    std::fs::write(&file, text.replacen(&field, &upper, 1)).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_modified(before.modified().unwrap())
        .unwrap();
    assert_eq!(std::fs::metadata(&file).unwrap().len(), before.len());
    assert!(!known_by_stamp(out.path(), data.path(), &file));
    let one = rebuild(data.path(), out.path(), "2026-11-21T11:00:00Z");
    assert_eq!(one.reused, 2);
    one.result.unwrap();
    let (scratch, problems) = load(data.path()).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(one.dataset.compounds, scratch.compounds);
    assert_ne!(scratch.compounds[&benzene].name, d.compounds[&benzene].name);
    assert_same_as_fresh(&scratch, out.path());
}

/// The previous build as a cache, but for `file`: its known stamp answers the digest `[0; 32]`,
/// which no file has, and that digest the record `json`.
struct Stamped<'a> {
    last: &'a LastBuild,
    file: &'a str,
    json: Vec<u8>,
}

impl RecordCache for Stamped<'_> {
    fn record(&self, records_key: &state::Hash, file: &str, digest: &state::Hash) -> Option<&[u8]> {
        match file == self.file && *digest == [0; 32] {
            true => Some(&self.json),
            false => self.last.record(records_key, file, digest),
        }
    }

    fn digest(&self, file: &str, stamp: &FileStamp) -> Option<state::Hash> {
        let digest = self.last.digest(file, stamp)?;
        Some(if file == self.file { [0; 32] } else { digest })
    }
}

#[test]
fn the_cdn_reading_of_the_routing_files_answers_every_route_as_rendered() {
    let (_data, d) = dataset();
    let out = tempfile::tempdir().unwrap();
    build(&d, &opts(out.path(), "2026-11-21T10:00:00Z")).unwrap();
    let site = StaticSite::open(out.path()).unwrap();
    let all = routes(&d);
    let pages: std::collections::BTreeSet<&str> = all
        .iter()
        .filter(|r| r.rendered.status == 200 && r.file.ends_with(".html"))
        .map(|r| r.path.as_str())
        .collect();
    let page = |path: &str| pages.contains(path);
    // The fixture has a context without evidence for some compounds only (dog, a 422
    // for benzene): exception rules send those ids to the runtime, the others get the file.
    let dog = |status: u16| {
        all.iter().any(|r| {
            r.pattern == "compound_context"
                && r.query.as_deref() == Some("context=dog")
                && r.rendered.status == status
        })
    };
    assert!(dog(422) && dog(200));
    let mut from_files = 0;
    for r in all
        .iter()
        .filter(|r| !["not_found", "badge_not_found", "runtime_required"].contains(&r.pattern))
    {
        let query: Vec<(String, String)> = r
            .query
            .iter()
            .flat_map(|q| q.split(' '))
            .filter_map(|c| c.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let resolved = site.resolve(&r.path, &query);
        // An id that answers otherwise is the runtime's: the CDN never rewrites to a file an
        // id it knows lacks.
        if r.rendered.status != 200 {
            assert_eq!(resolved, Resolution::Runtime, "{} {:?}", r.path, r.query);
            continue;
        }
        from_files += 1;
        let Resolution::File {
            file,
            status,
            headers,
        } = resolved
        else {
            panic!("{} {:?}: {resolved:?}", r.path, r.query)
        };
        assert_eq!((file.as_str(), status), (r.file.as_str(), 200));
        let mut expected: Vec<(String, String)> =
            vec![("content-type".into(), r.rendered.content_type.to_string())];
        expected.extend(
            cors_lines()
                .into_iter()
                .map(|(n, v)| (n.to_ascii_lowercase(), v.to_string())),
        );
        // A path with a page among its answers gets the pages' security block on every
        // answer (the CDN matches headers by path, so a document's JSON form gets it too;
        // the runtime adds the same to every answer of such an endpoint).
        if page(&r.path) {
            expected.extend(
                html_security_lines()
                    .into_iter()
                    .map(|(n, v)| (n.to_ascii_lowercase(), v.to_string())),
            );
        }
        expected.extend(
            header_lines(&r.rendered)
                .into_iter()
                .map(|(n, v)| (n.to_ascii_lowercase(), v)),
        );
        assert_eq!(headers, expected, "{} {:?}", r.path, r.query);
    }
    // The fixture's exceptions fit in the budget: every 200 answer is its file.
    let answered = all
        .iter()
        .filter(|r| r.rendered.status == 200)
        .filter(|r| !["not_found", "badge_not_found", "runtime_required"].contains(&r.pattern))
        .count();
    assert_eq!(from_files, answered);
    let benzene = d.by_cas("71-43-2").unwrap().hq_id;
    let q = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    // A CAS redirect is the runtime's, which checks the context and encodes it: a CDN rule
    // would copy the value into Location as given (issue 23).
    for context in [
        "dog",
        "%0D%0ASet-Cookie:%20x=1",
        "\r\nSet-Cookie: x=1",
        "dog\"><script>",
    ] {
        assert_eq!(
            site.resolve(
                "/api/compound/cas/71-43-2",
                &q(&[("redirect", "true"), ("context", context)])
            ),
            Resolution::Runtime,
            "{context:?}"
        );
    }
    // Aliases, custom labels, CAS redirects (the runtime's 302), the service's own base,
    // pages of ids without one and the build's own data are the runtime's.
    let compound = format!("/api/compound/{benzene}");
    let badge = format!("/api/badge/{benzene}");
    let keyed = format!("/api/v1/compound/{benzene}/alternatives");
    for (path, query) in [
        (compound.as_str(), q(&[("context", "adult")])),
        (badge.as_str(), q(&[("context", "dog"), ("label", "x")])),
        (
            "/api/compound/cas/71-43-2",
            q(&[("redirect", "true"), ("context", "dog")]),
        ),
        ("/api/compound/cas/71-43-2", q(&[("redirect", "true")])),
        (keyed.as_str(), vec![]),
        ("/api/v1/compound/cas/71-43-2", vec![]),
        ("/compound/hq-c-org-999999", vec![]),
        ("/_data/dataset.json.zst", vec![]),
        ("/api/compounds", vec![]),
    ] {
        assert_eq!(
            site.resolve(path, &query),
            Resolution::Runtime,
            "{path} {query:?}"
        );
    }
    // An id the tree does not know meets a placeholder rule to a file it lacks: the CDN's
    // own 404, as Netlify answers it (tests/runtime/netlify_dev.rs).
    for (path, target) in [
        (
            "/api/compound/hq-c-org-999999",
            "/api/compound/hq-c-org-999999.json",
        ),
        (
            "/api/compound/not-an-id/raw",
            "/api/compound/not-an-id/raw.json",
        ),
    ] {
        assert_eq!(
            site.resolve(path, &[]),
            Resolution::Missing {
                target: target.into()
            },
            "{path}"
        );
    }
}

/// The rules are placeholders: their number does not grow with the corpus (the dataset cloned
/// ten times gives as many) and stays under the bound the build prints.
#[test]
fn the_number_of_redirect_rules_stays_within_its_budget_at_any_scale() {
    let (_data, d) = dataset();
    // The rules, and those of them that name an id (the exceptions' section).
    let count = |d: &Dataset| {
        let out = tempfile::tempdir().unwrap();
        let report = build(d, &opts(out.path(), "2026-11-21T10:00:00Z")).unwrap();
        let text = std::fs::read_to_string(out.path().join("_redirects")).unwrap();
        let rules = |text: &str| {
            text.lines()
                .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
                .count()
        };
        let lines = rules(&text);
        assert_eq!(report.redirect_rules, lines);
        let section = text
            .split("\n\n")
            .find(|s| s.starts_with("# Ids that answer"));
        (lines, section.map_or(0, rules))
    };
    let (one, one_ids) = count(&d);
    let compounds = d.compounds.len();
    let scaled = saferef_generator::build::site::scale::scaled(d, 10).unwrap();
    assert_eq!(scaled.compounds.len(), compounds * 10);
    let (ten, ten_ids) = count(&scaled);
    // The placeholders do not grow with the corpus; the exceptions grow with the ids that
    // answer otherwise, within the budget.
    assert_eq!(one - one_ids, ten - ten_ids);
    assert!(0 < one_ids && one_ids < ten_ids, "{one_ids} {ten_ids}");
    assert!(ten <= MAX_RULES, "{ten} rules");
}

#[test]
fn routing_files_send_what_the_tree_cannot_answer_to_the_runtime() {
    let (_data, d) = dataset();
    let out = tempfile::tempdir().unwrap();
    build(&d, &opts(out.path(), "2026-11-21T10:00:00Z")).unwrap();
    let redirects = std::fs::read_to_string(out.path().join("_redirects")).unwrap();
    let benzene = d.by_cas("71-43-2").unwrap().hq_id;
    // A compound without dog evidence (a 422) has its own rule to the runtime, and the
    // placeholder rewrites every other compound to its file. Only such rules name an id.
    let all = routes(&d);
    let dog = |status: u16| {
        all.iter()
            .find(|r| {
                r.pattern == "compound_context"
                    && r.query.as_deref() == Some("context=dog")
                    && r.rendered.status == status
            })
            .unwrap()
    };
    let lacking = &dog(422).path;
    assert!(redirects.contains(&format!(
        "{lacking} context=dog https://runtime.example{lacking} 200!\n"
    )));
    let exception = redirects.find(&format!("{lacking} ")).unwrap();
    let placeholder = redirects
        .find("/api/compound/:id context=dog /api/compound/:id/context/dog.json 200!\n")
        .unwrap();
    assert!(exception < placeholder);
    assert!(redirects.contains(
        "/api/compound/:id context=human_child /api/compound/:id/context/human_child.json 200!\n"
    ));
    for line in redirects.lines().filter(|l| l.contains("hq-c-")) {
        assert!(
            line.starts_with("/api/compound/hq-c-")
                && line.ends_with(" 200!")
                && line.contains(" https://runtime.example/api/compound/hq-c-"),
            "{line}"
        );
    }
    assert!(!redirects.contains("71-43-2"));
    assert!(redirects.contains(
        "/api/compound/cas/:cas redirect=:redirect https://runtime.example/api/compound/cas/:cas 200!\n"
    ));
    // The service's own base before any other rule but build data's.
    let rules: Vec<&str> = redirects
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    assert_eq!(
        rules[..2],
        [
            "/_data/* /api/404.json 404!",
            "/api/v1/* https://runtime.example/api/v1/:splat 200!"
        ]
    );
    // Pages and files at their own path have no rule.
    assert!(!redirects.contains("\n/compound/:id "));
    assert!(!redirects.contains("/sitemap.xml"));
    assert!(
        redirects
            .trim_end()
            .ends_with("/api/* https://runtime.example/api/:splat 200")
    );
    let label = redirects
        .find("/api/badge/:id label=:label https://runtime.example/api/badge/:id 200")
        .unwrap();
    assert!(label < redirects.find("/api/badge/:id context=").unwrap());
    let headers = std::fs::read_to_string(out.path().join("_headers")).unwrap();
    assert!(headers.contains(&format!(
        "/api/badge/{benzene}\n  Cache-Control: public, max-age=86400\n  Surrogate-Key: {benzene}\n"
    )));
    assert!(headers.contains(&format!(
        "/api/compound/{benzene}\n  Cache-Control: public, max-age=3600, s-maxage=3600, stale-while-revalidate=7200\n  Vary: X-API-Key, X-Marketplace-Subscription\n"
    )));
    // The pages' security block: one per entity page prefix, and the other pages by path
    // (issue 23: no CSP, nosniff, frame-ancestors or referrer policy).
    let security: String = html_security_lines()
        .iter()
        .map(|(n, v)| format!("  {n}: {v}\n"))
        .collect();
    // A document's path too, though its JSON form is listed first (issue 23: the HTML form
    // of /api/privacy, /api/terms and /api/disclaimer had none on the CDN).
    for page in [
        "/",
        "/compound/*",
        "/api/compliance",
        "/api/dashboard",
        "/api/privacy",
        "/api/terms",
        "/api/disclaimer",
        "/api/release-notes",
    ] {
        assert!(headers.contains(&format!("\n{page}\n{security}")), "{page}");
    }
    assert!(!headers.contains(&format!("\n/compound/{benzene}\n{security}")));

    // Without a runtime, a preview: statuses kept; what only the runtime answers is the
    // preview's JSON error, never a default file with a 200.
    let preview = tempfile::tempdir().unwrap();
    let mut o = opts(preview.path(), "2026-11-21T10:00:00Z");
    o.runtime_origin = None;
    build(&d, &o).unwrap();
    let redirects = std::fs::read_to_string(preview.path().join("_redirects")).unwrap();
    assert!(redirects.contains(&format!(
        "{lacking} context=dog /api/runtime-required.json 503!\n"
    )));
    assert!(
        redirects
            .trim_end()
            .ends_with("/api/* /api/runtime-required.json 503")
    );
    assert!(!redirects.contains("https://"));
    let error: serde_json::Value = serde_json::from_slice(
        &std::fs::read(preview.path().join("api/runtime-required.json")).unwrap(),
    )
    .unwrap();
    assert!(
        error["error"].as_str().unwrap().contains("runtime origin"),
        "{error}"
    );
    let deployed = StaticSite::open(out.path()).unwrap();
    let preview = StaticSite::open(preview.path()).unwrap();
    let needs_runtime = Resolution::NeedsRuntime {
        file: "api/runtime-required.json".into(),
        status: 503,
    };
    let q = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    let compound = format!("/api/compound/{benzene}");
    let badge = format!("/api/badge/{benzene}");
    let cas = "/api/compound/cas/71-43-2";
    for (path, query) in [
        (compound.as_str(), q(&[("context", "kids")])),
        (compound.as_str(), q(&[("context", "children")])),
        (compound.as_str(), q(&[("context", "human_chlid")])),
        (compound.as_str(), q(&[("context", "horse")])),
        (compound.as_str(), q(&[("all_contexts", "false")])),
        (
            compound.as_str(),
            q(&[("context", "human_adult"), ("all_contexts", "true")]),
        ),
        (badge.as_str(), q(&[("label", "Benzene")])),
        (badge.as_str(), q(&[("style", "for-the-badge")])),
        (badge.as_str(), q(&[("context", "children")])),
        (
            badge.as_str(),
            q(&[("context", "dog"), ("style", "plastic")]),
        ),
        (badge.as_str(), q(&[("context", "kids"), ("style", "pill")])),
        (cas, q(&[("context", "dog")])),
        (cas, q(&[("redirect", "yes")])),
        (cas, q(&[("redirect", "true"), ("context", "dog")])),
        (cas, q(&[("redirect", "true")])),
        (lacking.as_str(), q(&[("context", "dog")])),
        ("/api/openapi", q(&[("format", "yaml")])),
        ("/api/search", q(&[("q", "benzene")])),
    ] {
        assert_eq!(
            preview.resolve(path, &query),
            needs_runtime,
            "{path} {query:?}"
        );
        assert_eq!(
            deployed.resolve(path, &query),
            Resolution::Runtime,
            "{path} {query:?}"
        );
    }
    // The precomputed values still come from files, in both, and so does the dog context of
    // a compound that has evidence for it.
    let having = dog(200);
    for site in [&preview, &deployed] {
        for (path, query, file) in [
            (
                having.path.as_str(),
                q(&[("context", "dog")]),
                having.file.clone(),
            ),
            (
                compound.as_str(),
                q(&[("context", "human_child")]),
                format!("api/compound/{benzene}/context/human_child.json"),
            ),
            (
                badge.as_str(),
                q(&[("context", "dog"), ("style", "pill")]),
                format!("api/badge/{benzene}/dog/pill.svg"),
            ),
            (
                badge.as_str(),
                q(&[("style", "pill")]),
                format!("api/badge/{benzene}/human_adult/pill.svg"),
            ),
            (
                compound.as_str(),
                vec![],
                format!("api/compound/{benzene}.json"),
            ),
        ] {
            let Resolution::File { file: got, .. } = site.resolve(path, &query) else {
                panic!("{path} {query:?}: not a file")
            };
            assert_eq!(got, file);
        }
    }
}

#[test]
fn the_file_list_and_the_routing_files_are_as_reviewed() {
    let (_data, d) = dataset();
    let out = tempfile::tempdir().unwrap();
    build(&d, &opts(out.path(), "2026-11-21T10:00:00Z")).unwrap();
    // The build state and the dataset snapshot are the build's own, their bytes held by the
    // other tests; the list says which files a release publishes.
    let files: Vec<String> = tree(out.path()).into_iter().map(|(path, _)| path).collect();
    insta::assert_snapshot!("file_list", files.join("\n"));
    let read = |name: &str| std::fs::read_to_string(out.path().join(name)).unwrap();
    insta::assert_snapshot!("redirects", read("_redirects"));
    insta::assert_snapshot!("headers", read("_headers"));
}

/// One page for people as reviewed: benzene of the fixture tables (a small record, so every
/// section of the page shows in a few screens).
#[test]
fn the_compound_page_is_as_reviewed() {
    let (_data, d) = dataset();
    let benzene = d.by_cas("71-43-2").unwrap().hq_id;
    let r = saferef_generator::render::dispatch::get_static(
        &d,
        &format!("/compound/{benzene}"),
        &saferef_generator::api::pairs(""),
        None,
    );
    assert_eq!(r.status, 200);
    let html = String::from_utf8(r.body).unwrap();
    // The inline stylesheet and scripts are the layout's, the same on every page.
    let main = &html[html.find("<main").unwrap()..html.find("</main>").unwrap()];
    insta::assert_snapshot!("compound_page", main);
}

#[test]
fn the_openapi_document_is_as_reviewed() {
    let (d, problems) = load(&repo().join("data")).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    let doc = saferef_generator::render::openapi::openapi(
        &d,
        saferef_generator::render::openapi::Format::OpenApi,
    );
    let json: serde_json::Value = serde_json::from_slice(&doc.body).unwrap();
    insta::assert_json_snapshot!("openapi", json);
}

#[test]
fn the_manifest_is_kept_under_data_and_one_left_at_the_root_by_an_earlier_build_goes() {
    let (_data, d) = dataset();
    let out = tempfile::tempdir().unwrap();
    std::fs::write(out.path().join("manifest.json"), "{}").unwrap();
    build(&d, &opts(out.path(), "2026-11-21T10:00:00Z")).unwrap();
    assert!(!out.path().join("manifest.json").exists());
    assert!(
        MANIFEST.starts_with("_data/"),
        "_redirects keeps _data/ private"
    );
    assert!(out.path().join(MANIFEST).is_file());
}
