//! The static site: every public response written into a CDN-ready tree (`saferef-generate
//! build`), with `_redirects`, `_headers`, the dataset snapshot and a manifest, all rendered
//! from one route table.
//!
//! Incremental (`build`): what did not change since the previous build is neither rendered nor
//! written, as `state.rs` records; files no route produces any more are removed.

pub mod cdn;
mod netlify;
pub mod routes;
pub mod scale;
pub mod state;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::{ParallelProgressIterator, ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Deserialize;
use sha2::{Digest, Sha256};

pub use netlify::header_lines;

use routes::RouteMeta;
use state::{FileEntry, Group, Hash, State};

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

#[derive(Deserialize)]
struct ManifestFile {
    path: String,
    sha256: String,
}

#[derive(Deserialize)]
struct Manifest {
    dataset_version: String,
    files: Vec<ManifestFile>,
}

/// The manifest's name under the site root.
pub const MANIFEST: &str = "manifest.json";

/// Renders every route and writes the tree. Deterministic but for the manifest's `built_at`.
///
/// Incremental in two ways. Each compound's routes depend only on its record and on the
/// dataset's shared parts (`routes::compound_group`), so they are rendered only when the hash
/// of those inputs differs from the one the previous build recorded in its state; the rest
/// (materials, products, documents, the routing files, the snapshot) is rendered when any
/// input changed. And of what is rendered, only files whose hash differs from the previous
/// build's are written.
pub fn build(dataset: &Dataset, opts: &BuildOptions) -> anyhow::Result<BuildReport> {
    let started = Instant::now();
    let stage = |what: &str, since: Instant| {
        eprintln!("build: {what} in {:.2}s", since.elapsed().as_secs_f64());
    };
    let t = Instant::now();
    let parts = crate::snapshot::parts(dataset)?;
    let global = generator_identity().map(|identity| {
        key(&[
            identity.as_bytes(),
            opts.runtime_origin.as_deref().unwrap_or("").as_bytes(),
            &[u8::from(opts.runtime_origin.is_some())],
            &parts.shared,
        ])
    });
    let keys: Vec<Hash> = parts
        .compounds
        .par_iter()
        .map(|(id, json)| key(&[&global.unwrap_or_default(), id.as_bytes(), json]))
        .collect();
    let mut rest_inputs: Vec<&[u8]> = vec![parts.fingerprint.as_bytes()];
    rest_inputs.extend(keys.iter().map(|k| k.as_slice()));
    let rest_key = key(&rest_inputs);
    let state_file = state::read(&opts.out);
    let mut previous = match state_file.as_deref().and_then(state::decode) {
        Some(s) => Previous::State(s),
        None => Previous::Manifest(read_manifest_hashes(&opts.out)),
    };
    // Without an identity nothing can be keyed; `--full` trusts nothing it did not render.
    let reuse = global.is_some() && !opts.full;
    let mut groups: Vec<Option<Group<'_>>> = parts
        .compounds
        .iter()
        .zip(&keys)
        .map(|((id, _), k)| match &mut previous {
            Previous::State(s) if reuse && s.compounds.get(id).is_some_and(|g| g.key == *k) => {
                s.compounds.remove(id)
            }
            _ => None,
        })
        .collect();
    let rest_reused = match &mut previous {
        Previous::State(s) if reuse && s.rest.key == rest_key => {
            Some((std::mem::take(&mut s.rest), s.redirect_rules))
        }
        _ => None,
    };
    let todo: Vec<usize> = (0..keys.len()).filter(|&i| groups[i].is_none()).collect();
    let changed = !todo.is_empty() || rest_reused.is_none();
    stage(
        &format!(
            "hashed inputs ({} of {} compounds to render)",
            todo.len(),
            keys.len()
        ),
        t,
    );

    let t = Instant::now();
    if changed {
        // From here until the end the tree is in between two builds: a crash must not leave
        // a manifest or state that describes it.
        for f in [MANIFEST, state::PATH] {
            match std::fs::remove_file(opts.out.join(f)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e.into()),
                _ => {}
            }
        }
    }
    let known = |group: Option<&Group<'_>>| -> anyhow::Result<Known<'_>> {
        Ok(match &previous {
            _ if opts.full => Known::Nothing,
            Previous::State(_) => match group {
                Some(g) => Known::Files(g.file_entries()?),
                None => Known::Nothing,
            },
            Previous::Manifest(m) => Known::Manifest(m),
        })
    };
    let previous_group = |id: &str| match &previous {
        Previous::State(s) => s.compounds.get(id),
        Previous::Manifest(_) => None,
    };
    let progress = progress_bar(todo.len() as u64);
    let (rendered, rest_parts) = rayon::join(
        || {
            todo.par_iter()
                .progress_with(progress.clone())
                .map(|&i| {
                    let id = &parts.compounds[i].0;
                    let routes = routes::compound_group(dataset, id);
                    let entries = netlify::routing_entries(&routes)?;
                    let files = routes.into_iter().map(|r| (r.file, r.rendered.body));
                    let (files, written) =
                        write_files(&opts.out, files, &known(previous_group(id))?)?;
                    let paths: Vec<String> = files.iter().map(|f| f.path.clone()).collect();
                    Ok((i, Group::new(keys[i], &files, &entries), written, paths))
                })
                .collect::<anyhow::Result<Vec<_>>>()
        },
        || {
            if rest_reused.is_some() {
                return Ok(None);
            }
            let (routes, snapshot) = rayon::join(
                || routes::rest_routes(dataset, &dataset.release_date()),
                || crate::snapshot::encode_parts(&parts),
            );
            Ok::<_, anyhow::Error>(Some((routes, snapshot?)))
        },
    );
    progress.finish_and_clear();
    let mut written = 0;
    let mut fresh: HashSet<String> = HashSet::new();
    for (i, group, w, paths) in rendered? {
        written += w;
        fresh.extend(paths);
        groups[i] = Some(group);
    }
    let groups: Vec<Group<'_>> = groups.into_iter().flatten().collect();
    stage(&format!("rendered {} compounds", todo.len()), t);

    let t = Instant::now();
    let (rest, redirect_rules) = match (rest_reused, rest_parts?) {
        (Some(rest), _) => rest,
        (None, Some((routes, snapshot))) => {
            let entries = netlify::routing_entries(&routes)?;
            let decoded = groups
                .iter()
                .map(Group::route_entries)
                .collect::<anyhow::Result<Vec<_>>>()?;
            // Route order: every compound's own routes, then the CAS lookups, then the rest.
            let mut all: Vec<RouteMeta> = Vec::new();
            for cas in [false, true] {
                all.extend(
                    decoded
                        .iter()
                        .flatten()
                        .filter(|r| (r.pattern == routes::CAS_PATTERN) == cas)
                        .cloned(),
                );
            }
            all.extend(entries);
            let (redirects, rules) =
                netlify::redirects(&all, dataset, opts.runtime_origin.as_deref());
            let headers = netlify::headers(&all);
            let files = routes
                .into_iter()
                .map(|r| (r.file, r.rendered.body))
                .chain([
                    ("_redirects".to_string(), redirects.into_bytes()),
                    ("_headers".to_string(), headers.into_bytes()),
                    (crate::snapshot::PATH.to_string(), snapshot),
                ]);
            let known = match &previous {
                Previous::State(s) => known(Some(&s.rest))?,
                Previous::Manifest(_) => known(None)?,
            };
            let (files, w) = write_files(&opts.out, files, &known)?;
            written += w;
            fresh.extend(files.iter().map(|f| f.path.clone()));
            (Group::new(rest_key, &files, &[]), rules)
        }
        (None, None) => unreachable!("the rest is rendered whenever it is not reused"),
    };
    let removed = remove_stale(&opts.out, &previous, &fresh)?;
    stage("routing files, snapshot and removals", t);

    let t = Instant::now();
    let all = || groups.iter().chain([&rest]);
    let files: u64 = all().map(|g| g.files).sum();
    let report = BuildReport {
        files: files as usize,
        written,
        unchanged: files as usize - written,
        removed,
        bytes: all().map(|g| g.size).sum(),
        redirect_rules,
    };
    write_manifest(&opts.out, dataset, opts, all())?;
    // An unchanged tree's state is the one read.
    if global.is_some() && changed {
        let state = State {
            compounds: parts
                .compounds
                .iter()
                .map(|(id, _)| id.clone())
                .zip(groups)
                .collect(),
            rest,
            redirect_rules,
        };
        write_if_changed(&opts.out.join(state::PATH), &state::encode(&state))?;
    }
    stage("manifest and build state", t);
    print_summary(&opts.out, &report, started);
    Ok(report)
}

/// What the previous build left: its state, or (when the state is missing or unreadable) the
/// files and hashes its manifest lists.
enum Previous<'a> {
    State(State<'a>),
    Manifest(HashMap<String, Hash>),
}

/// The previous hashes of a group's files, where they can be trusted.
enum Known<'a> {
    Nothing,
    Files(Vec<FileEntry>),
    Manifest(&'a HashMap<String, Hash>),
}

impl Known<'_> {
    /// The previous hash of the file at `index` of its group (usually at the same index).
    fn hash(&self, index: usize, path: &str) -> Option<&Hash> {
        match self {
            Known::Nothing => None,
            Known::Files(files) => files
                .get(index)
                .filter(|f| f.path == path)
                .or_else(|| files.iter().find(|f| f.path == path))
                .map(|f| &f.sha256),
            Known::Manifest(m) => m.get(path),
        }
    }
}

/// Writes the files whose hash differs from the known one; returns every file's entry and how
/// many were written.
fn write_files(
    out: &Path,
    files: impl Iterator<Item = (String, Vec<u8>)>,
    known: &Known<'_>,
) -> std::io::Result<(Vec<FileEntry>, usize)> {
    let mut written = 0;
    let mut entries = Vec::new();
    for (i, (path, bytes)) in files.enumerate() {
        let sha256: Hash = Sha256::digest(&bytes).into();
        // The previous build's hashes are trusted: site/ is the build's alone (`--full`
        // compares with every file on disk instead).
        if known.hash(i, &path) != Some(&sha256) && write_if_changed(&out.join(&path), &bytes)? {
            written += 1;
        }
        entries.push(FileEntry {
            path,
            sha256,
            size: bytes.len() as u64,
        });
    }
    Ok((entries, written))
}

/// Removes the previous build's files that this one did not produce. Reused groups were taken
/// out of `previous` (they produce what they did), so what is left are the files of groups
/// rendered again or gone.
fn remove_stale(
    out: &Path,
    previous: &Previous<'_>,
    fresh: &HashSet<String>,
) -> anyhow::Result<usize> {
    let before: Vec<String> = match previous {
        Previous::State(s) => {
            let mut paths = Vec::new();
            for g in s.compounds.values().chain([&s.rest]) {
                paths.extend(g.file_entries()?.into_iter().map(|f| f.path));
            }
            paths
        }
        Previous::Manifest(m) => m.keys().cloned().collect(),
    };
    Ok(before
        .iter()
        .filter(|p| !fresh.contains(*p))
        .filter(|p| std::fs::remove_file(out.join(p)).is_ok())
        .count())
}

/// `manifest.json`: every file with its hash and size, compound by compound in id order, then
/// the rest; joined from the groups' entries, most of them copied from the previous state.
fn write_manifest<'a>(
    out: &Path,
    dataset: &Dataset,
    opts: &BuildOptions,
    groups: impl Iterator<Item = &'a Group<'a>> + Clone,
) -> anyhow::Result<()> {
    let mut text = serde_json::to_vec(&serde_json::json!({
        "dataset_version": dataset.fingerprint,
        "built_at": opts.built_at,
    }))?;
    text.pop();
    text.reserve(groups.clone().map(|g| g.manifest.len() + 1).sum::<usize>() + 16);
    text.extend_from_slice(b",\"files\":[");
    for (i, g) in groups.filter(|g| !g.manifest.is_empty()).enumerate() {
        if i > 0 {
            text.push(b',');
        }
        text.extend_from_slice(&g.manifest);
    }
    text.extend_from_slice(b"]}\n");
    write_if_changed(&out.join(MANIFEST), &text)?;
    Ok(())
}

/// SHA-256 over `parts`, each preceded by its length (so no two lists of parts collide).
fn key(parts: &[&[u8]]) -> Hash {
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    h.finalize().into()
}

/// What tells this generator's output from another build's: its version and the executable's
/// size and modification time (a rebuilt binary may render differently). `None` when the
/// executable cannot be inspected, and then nothing is reused.
fn generator_identity() -> Option<String> {
    let meta = std::fs::metadata(std::env::current_exe().ok()?).ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    Some(format!(
        "{} {} {}",
        env!("CARGO_PKG_VERSION"),
        meta.len(),
        modified.as_nanos()
    ))
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
                .is_ok_and(|bytes| state::hex(&Sha256::digest(&bytes)) == f.sha256)
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

/// The files and hashes the manifest at `out` lists; empty when there is none.
fn read_manifest_hashes(out: &Path) -> HashMap<String, Hash> {
    std::fs::read(out.join(MANIFEST))
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Manifest>(&bytes).ok())
        .map(|m| {
            m.files
                .into_iter()
                .filter_map(|f| Some((f.path, state::unhex(&f.sha256)?)))
                .collect()
        })
        .unwrap_or_default()
}

/// A bar with counts and rate on a terminal; hidden otherwise (the stage lines say enough).
fn progress_bar(len: u64) -> ProgressBar {
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(
            "writing {bar:40} {pos}/{len} compounds, {per_sec}, {eta} left",
        )
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
