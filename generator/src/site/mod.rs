//! The static site: every public response written into a CDN-ready tree (`saferef-generate
//! build`), with `_redirects`, `_headers` and a manifest rendered from one route table.

mod netlify;
pub mod routes;

use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::{ParallelProgressIterator, ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::load::Dataset;
use crate::output::write_if_changed;

#[derive(Debug, Clone)]
pub struct BuildOptions {
    pub out: PathBuf,
    /// Where requests the tree does not answer go (the runtime), e.g. `https://api.example`.
    pub runtime_origin: Option<String>,
    /// Wall-clock time of the build, recorded only in the manifest.
    pub built_at: String,
}

#[derive(Debug, Default, PartialEq, Eq)]
pub struct BuildReport {
    pub files: usize,
    pub written: usize,
    pub unchanged: usize,
    pub bytes: u64,
    pub redirect_rules: usize,
}

#[derive(Serialize)]
struct ManifestFile<'a> {
    path: &'a str,
    sha256: String,
    size: usize,
}

#[derive(Serialize)]
struct Manifest<'a> {
    dataset_version: &'a str,
    built_at: &'a str,
    files: Vec<ManifestFile<'a>>,
}

/// Renders every route and writes the tree; files whose bytes did not change are not
/// rewritten. Deterministic but for the manifest's `built_at`.
pub fn build(dataset: &Dataset, opts: &BuildOptions) -> anyhow::Result<BuildReport> {
    let started = Instant::now();
    let routes = routes::routes(dataset, &dataset.release_date());
    eprintln!(
        "build: rendered {} responses in {:.2}s",
        routes.len(),
        started.elapsed().as_secs_f64()
    );
    let mut files: Vec<(String, Vec<u8>)> = routes
        .iter()
        .map(|r| (r.file.clone(), r.rendered.body.clone()))
        .collect();
    let (redirects, rules) = netlify::redirects(&routes, dataset, opts.runtime_origin.as_deref());
    files.push(("_redirects".into(), redirects.into_bytes()));
    files.push(("_headers".into(), netlify::headers(dataset).into_bytes()));
    let progress = progress_bar(files.len() as u64);
    let written: Vec<bool> = files
        .par_iter()
        .progress_with(progress.clone())
        .map(|(file, bytes)| write_if_changed(&opts.out.join(file), bytes))
        .collect::<std::io::Result<_>>()?;
    progress.finish_and_clear();
    let manifest = Manifest {
        dataset_version: &dataset.fingerprint,
        built_at: &opts.built_at,
        files: files
            .iter()
            .map(|(path, bytes)| ManifestFile {
                path,
                sha256: Sha256::digest(bytes)
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect(),
                size: bytes.len(),
            })
            .collect(),
    };
    let mut text = serde_json::to_vec_pretty(&manifest)?;
    text.push(b'\n');
    write_if_changed(&opts.out.join("manifest.json"), &text)?;
    let written_count = written.iter().filter(|w| **w).count();
    let report = BuildReport {
        files: files.len(),
        written: written_count,
        unchanged: files.len() - written_count,
        bytes: files.iter().map(|(_, b)| b.len() as u64).sum(),
        redirect_rules: rules,
    };
    print_summary(&opts.out, &report, started);
    Ok(report)
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
        "build: {} files ({} written, {} unchanged), {:.1} MB, {} redirect rules, into {} in {:.2}s ({:.0} files/s)",
        r.files,
        r.written,
        r.unchanged,
        r.bytes as f64 / 1e6,
        r.redirect_rules,
        out.display(),
        secs,
        r.files as f64 / secs.max(1e-9)
    );
}
