//! The static site: every public response written into a CDN-ready tree (`saferef-generate
//! build`), with `_redirects`, `_headers`, the dataset snapshot and a manifest, all rendered
//! from one route table.
//!
//! Incremental: the previous manifest's hashes say which files already hold their bytes, so
//! an unchanged file is neither read nor rewritten; files no route produces any more are
//! removed.

pub mod cdn;
mod netlify;
pub mod routes;
pub mod scale;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::{ParallelProgressIterator, ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

pub use netlify::header_lines;

use crate::load::Dataset;
use crate::output::write_if_changed;

#[derive(Debug, Clone)]
pub struct BuildOptions {
    pub out: PathBuf,
    /// Where requests the tree does not answer go (the runtime), e.g. `https://api.example`.
    pub runtime_origin: Option<String>,
    /// Wall-clock time of the build, recorded only in the manifest.
    pub built_at: String,
    /// Compare every file on disk instead of trusting the previous manifest.
    pub full: bool,
}

#[derive(Debug, Default, PartialEq, Eq)]
pub struct BuildReport {
    pub files: usize,
    pub written: usize,
    pub unchanged: usize,
    pub removed: usize,
    pub bytes: u64,
    pub redirect_rules: usize,
}

#[derive(Serialize, Deserialize)]
struct ManifestFile {
    path: String,
    sha256: String,
    size: u64,
}

#[derive(Serialize, Deserialize)]
struct Manifest {
    dataset_version: String,
    built_at: String,
    files: Vec<ManifestFile>,
}

/// The manifest's name under the site root.
pub const MANIFEST: &str = "manifest.json";

/// Renders every route and writes the tree. Deterministic but for the manifest's `built_at`.
pub fn build(dataset: &Dataset, opts: &BuildOptions) -> anyhow::Result<BuildReport> {
    let started = Instant::now();
    let stage = |what: &str, since: Instant| {
        eprintln!("build: {what} in {:.2}s", since.elapsed().as_secs_f64());
    };
    let t = Instant::now();
    let routes = routes::routes(dataset, &dataset.release_date());
    stage(&format!("rendered {} responses", routes.len()), t);
    let t = Instant::now();
    let mut files: Vec<(String, Vec<u8>)> = routes
        .iter()
        .map(|r| (r.file.clone(), r.rendered.body.clone()))
        .collect();
    let (redirects, rules) = netlify::redirects(&routes, dataset, opts.runtime_origin.as_deref());
    files.push(("_redirects".into(), redirects.into_bytes()));
    files.push(("_headers".into(), netlify::headers(&routes)?.into_bytes()));
    files.push((
        crate::snapshot::PATH.into(),
        crate::snapshot::encode(dataset)?,
    ));
    drop(routes);
    stage("routing files and dataset snapshot", t);

    let t = Instant::now();
    let previous = read_manifest(&opts.out);
    let hashed: Vec<(String, Vec<u8>, String)> = files
        .into_par_iter()
        .map(|(path, bytes)| {
            let hash = hex(&Sha256::digest(&bytes));
            (path, bytes, hash)
        })
        .collect();
    let progress = progress_bar(hashed.len() as u64);
    let written: Vec<bool> = hashed
        .par_iter()
        .progress_with(progress.clone())
        .map(|(path, bytes, hash)| {
            let target = opts.out.join(path);
            // The previous manifest is trusted: site/ is the build's alone (`--full` rewrites
            // every file regardless).
            let known = !opts.full && previous.get(path.as_str()).is_some_and(|(h, _)| h == hash);
            if known {
                Ok(false)
            } else {
                write_if_changed(&target, bytes)
            }
        })
        .collect::<std::io::Result<_>>()?;
    progress.finish_and_clear();
    let current: std::collections::HashSet<&str> =
        hashed.iter().map(|(p, _, _)| p.as_str()).collect();
    let mut removed = 0;
    for stale in previous.keys().filter(|p| !current.contains(p.as_str())) {
        if std::fs::remove_file(opts.out.join(stale)).is_ok() {
            removed += 1;
        }
    }
    stage("wrote changed files", t);

    let mut manifest = Manifest {
        dataset_version: dataset.fingerprint.clone(),
        built_at: opts.built_at.clone(),
        files: hashed
            .iter()
            .map(|(path, bytes, hash)| ManifestFile {
                path: path.clone(),
                sha256: hash.clone(),
                size: bytes.len() as u64,
            })
            .collect(),
    };
    manifest.files.sort_by(|a, b| a.path.cmp(&b.path));
    let mut text = serde_json::to_vec(&manifest)?;
    text.push(b'\n');
    write_if_changed(&opts.out.join(MANIFEST), &text)?;
    let written_count = written.iter().filter(|w| **w).count();
    let report = BuildReport {
        files: hashed.len(),
        written: written_count,
        unchanged: hashed.len() - written_count,
        removed,
        bytes: hashed.iter().map(|(_, b, _)| b.len() as u64).sum(),
        redirect_rules: rules,
    };
    print_summary(&opts.out, &report, started);
    Ok(report)
}

/// Whether the tree at `out` is the build of the dataset with this fingerprint and every file
/// the manifest lists holds the bytes it hashes (the runtime's integrity check).
pub fn verify(out: &Path, fingerprint: &str) -> bool {
    let Some(manifest) = std::fs::read(out.join(MANIFEST))
        .ok()
        .and_then(|b| serde_json::from_slice::<Manifest>(&b).ok())
    else {
        return false;
    };
    manifest.dataset_version == fingerprint
        && manifest.files.par_iter().all(|f| {
            std::fs::read(out.join(&f.path))
                .is_ok_and(|bytes| hex(&Sha256::digest(&bytes)) == f.sha256)
        })
}

/// When the tree at `out` was built (the manifest's `built_at`).
pub fn built_at(out: &Path) -> Option<String> {
    #[derive(Deserialize)]
    struct Head {
        built_at: String,
    }
    let bytes = std::fs::read(out.join(MANIFEST)).ok()?;
    serde_json::from_slice::<Head>(&bytes)
        .ok()
        .map(|h| h.built_at)
}

/// The previous build's files (path -> hash and size); empty when there is none.
fn read_manifest(out: &Path) -> HashMap<String, (String, u64)> {
    std::fs::read(out.join(MANIFEST))
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Manifest>(&bytes).ok())
        .map(|m| {
            m.files
                .into_iter()
                .map(|f| (f.path, (f.sha256, f.size)))
                .collect()
        })
        .unwrap_or_default()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A bar with counts and rate on a terminal; hidden otherwise (the stage lines say enough).
fn progress_bar(len: u64) -> ProgressBar {
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template("writing {bar:40} {pos}/{len} files, {per_sec}, {eta} left")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// The summary line of a build.
fn print_summary(out: &Path, r: &BuildReport, started: Instant) {
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "build: {} files ({} written, {} unchanged, {} removed), {:.1} MB, {} redirect rules, into {} in {:.2}s ({:.0} files/s)",
        r.files,
        r.written,
        r.unchanged,
        r.removed,
        r.bytes as f64 / 1e6,
        r.redirect_rules,
        out.display(),
        secs,
        r.files as f64 / secs.max(1e-9)
    );
}
