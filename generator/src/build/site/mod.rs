//! The static site: every public response written into a CDN-ready tree (`saferef-generate
//! build`), with `_redirects`, `_headers`, the dataset snapshot and a manifest, all rendered
//! from one route table.
//!
//! Incremental (`build`): what did not change since the previous build is neither rendered nor
//! written, as `state.rs` records; files no route produces any more are removed.
//!
//! All or nothing: the files are staged (`output::Staged`) and move into the tree only once
//! every one is written; a build that fails (a full disk, a read-only directory) leaves the
//! previous tree as it was.

pub mod cdn;
mod exceptions;
mod last_build;
mod manifest;
mod netlify;
mod plan;
mod rest;
pub mod routes;
pub mod scale;
pub mod state;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::{ParallelProgressIterator, ProgressBar, ProgressStyle};
use rayon::prelude::*;
use sha2::{Digest, Sha256};

pub use last_build::LastBuild;
pub use manifest::{MANIFEST, built_at, listed_files, verify};
pub use netlify::{CORS_EXPOSE_HEADERS, MAX_RULES, cors_lines, header_lines, html_security_lines};

use manifest::{FORMER_MANIFEST, write_manifest};
use plan::{Kind, Known, Plan, Previous};
use rest::{RenderedRest, Rest, records, render_rest, write_rest};
use state::{FileEntry, Group, Hash, State};

use crate::build::output::{CommitError, Staged};
use crate::model::Dataset;

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

/// Renders every route and writes the tree. Deterministic but for the manifest's `built_at`.
///
/// Incremental in two ways. Each compound's routes depend only on its record and on the
/// dataset's shared parts (`routes::compound_group`), and each material's and product's only
/// on its own record, the shared parts and the compounds its composition names
/// (`routes::material_group`, `routes::product_group`), so an entity's routes are rendered
/// only when the hash of those inputs differs from the one the previous build recorded in its
/// state; the rest (the pages and documents of no entity, the routing files, the snapshot) is
/// rendered when any input changed. And of what is rendered, only files whose hash differs
/// from the previous build's are written.
///
/// When anything fails, the tree at `opts.out` is left as it was (or not created), and the
/// error says so after the path and the OS error.
pub fn build(dataset: &Dataset, opts: &BuildOptions) -> anyhow::Result<BuildReport> {
    // Its records are not taken: the dataset need not be what a load from them gave.
    let last = LastBuild {
        records: None,
        ..LastBuild::read(&opts.out)
    };
    build_after(dataset, opts, &last)
}

/// As `build`, with the previous build already read, and `dataset` what `load_with` gave with
/// `last` as its cache (unchanged since): the records it took from there are taken as JSON
/// too, not serialized again.
pub fn build_after(
    dataset: &Dataset,
    opts: &BuildOptions,
    last: &LastBuild,
) -> anyhow::Result<BuildReport> {
    let out = opts.out.display();
    let outcome = if opts.out.is_dir() {
        format!("the previous {out} is unchanged")
    } else {
        format!("{out} was not created")
    };
    let staged = Staged::begin(&opts.out)
        .map_err(|e| anyhow::Error::from(e).context(format!("the build failed and {outcome}")))?;
    match build_staged(dataset, opts, last, staged) {
        Ok(report) => Ok(report),
        Err(Failure::Staging(e)) => Err(e.context(format!("the build failed and {outcome}"))),
        Err(Failure::Commit(CommitError { cause, undo: None })) => {
            Err(anyhow::Error::from(cause).context(format!("the build failed and {outcome}")))
        }
        Err(Failure::Commit(CommitError {
            cause,
            undo: Some(undo),
        })) => Err(anyhow::Error::from(cause).context(format!(
            "the build failed and {out} could not be restored ({undo}: {}); `saferef-generate \
             build --full` repairs it",
            undo.source
        ))),
    }
}

/// How a build failed: while rendering and staging (the tree untouched), or while moving the
/// staged files in (and then undone, unless `undo` says otherwise).
enum Failure {
    Staging(anyhow::Error),
    Commit(CommitError),
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Failure {
        Failure::Staging(e)
    }
}

impl From<crate::build::output::FsError> for Failure {
    fn from(e: crate::build::output::FsError) -> Failure {
        Failure::Staging(e.into())
    }
}

/// The build, stage by stage, into `staged`: hash the inputs against the previous build
/// (`Plan`), render the entities that changed beside the rest, write the routing files and
/// the snapshot, write the manifest and the build state, and move it all into place.
fn build_staged(
    dataset: &Dataset,
    opts: &BuildOptions,
    last: &LastBuild,
    staged: Staged,
) -> Result<BuildReport, Failure> {
    let started = Instant::now();
    let t = Instant::now();
    let mut plan = Plan::new(dataset, opts, last)?;
    stage(
        &format!(
            "hashed inputs ({} of {} compounds, materials and products to render)",
            plan.todo.len(),
            plan.keys.len()
        ),
        t,
    );

    let t = Instant::now();
    let mut produced = Produced::default();
    let (groups, rendered_rest) = render_entities(dataset, &mut plan, &staged, &mut produced)?;
    stage(
        &format!(
            "rendered {} compounds, materials and products",
            plan.todo.len()
        ),
        t,
    );

    let t = Instant::now();
    let rest = place_rest(
        dataset,
        opts,
        &mut plan,
        &staged,
        &groups,
        rendered_rest,
        &mut produced,
    )?;
    let mut stale = stale(&plan.previous, &produced.paths)?;
    // Earlier builds wrote the manifest at the root, where the CDN published it; it goes.
    if opts.out.join(FORMER_MANIFEST).is_file() {
        stale.push(FORMER_MANIFEST.to_string());
    }
    stage("routing files and snapshot", t);

    let t = Instant::now();
    let (files, bytes) = groups
        .iter()
        .chain([&rest.group])
        .fold((0, 0), |(files, bytes), g| {
            (files + g.files, bytes + g.size)
        });
    let redirect_rules = rest.redirect_rules;
    let emptied = write_state(dataset, opts, &mut plan, &staged, groups, rest)?;
    let emptied_count = emptied.len();
    stale.extend(emptied);
    stage("manifest and build state", t);

    let t = Instant::now();
    let removed = staged
        .commit(&stale, &[MANIFEST, state::PATH])
        .map_err(Failure::Commit)?
        - emptied_count;
    let written = produced.written;
    stage(
        &format!("moved {written} files into place, removed {removed}"),
        t,
    );
    let report = BuildReport {
        files: files as usize,
        written,
        unchanged: files as usize - written,
        removed,
        bytes,
        redirect_rules,
    };
    print_summary(&opts.out, &report, started);
    Ok(report)
}

/// What the stages staged: how many files were written, and the path of every file the build
/// produced (written or unchanged); the previous build's files beyond those are stale.
#[derive(Default)]
struct Produced {
    written: usize,
    paths: HashSet<String>,
}

impl Produced {
    fn add(&mut self, written: usize, paths: Vec<String>) {
        self.written += written;
        self.paths.extend(paths);
    }
}

/// Renders and stages the entities the plan names beside the rest's routes and snapshot
/// (unless the rest is reused): every entity's group in the plan's order, the reused ones
/// taken from the plan.
fn render_entities<'a>(
    dataset: &Dataset,
    plan: &mut Plan<'a>,
    staged: &Staged,
    produced: &mut Produced,
) -> Result<(Vec<Group<'a>>, Option<RenderedRest>), Failure> {
    let progress = progress_bar(plan.todo.len() as u64);
    let shared: &Plan<'a> = plan;
    let (rendered, rest) = rayon::join(
        || render_groups(dataset, shared, staged, &progress),
        || render_rest(dataset, shared),
    );
    progress.finish_and_clear();
    let mut groups = std::mem::take(&mut plan.reused);
    for (i, group, written, paths) in rendered? {
        produced.add(written, paths);
        groups[i] = Some(group);
    }
    Ok((groups.into_iter().flatten().collect(), rest?))
}

/// The rest as this build leaves it: the previous build's when its key is unchanged, else the
/// one just rendered, staged.
fn place_rest<'a>(
    dataset: &Dataset,
    opts: &BuildOptions,
    plan: &mut Plan<'a>,
    staged: &Staged,
    groups: &[Group<'_>],
    rendered: Option<RenderedRest>,
    produced: &mut Produced,
) -> anyhow::Result<Rest<'a>> {
    Ok(match (plan.rest_reused.take(), rendered) {
        (Some(rest), _) => rest,
        (None, Some(rendered)) => {
            let (rest, written, paths) = write_rest(dataset, opts, plan, staged, groups, rendered)?;
            produced.add(written, paths);
            rest
        }
        (None, None) => unreachable!("the rest is rendered whenever it is not reused"),
    })
}

/// Stages the build state of `groups` (in the plan's entity order) and the rest, with the
/// manifest; returns the files of the shards left empty, which go.
fn write_state(
    dataset: &Dataset,
    opts: &BuildOptions,
    plan: &mut Plan<'_>,
    staged: &Staged,
    groups: Vec<Group<'_>>,
    rest: Rest<'_>,
) -> Result<Vec<String>, Failure> {
    let Rest {
        group: rest,
        redirect_rules,
        routing,
        frames,
    } = rest;
    let records = records(dataset, &plan.parts, &rest, frames)?;
    let shards = match &mut plan.previous {
        Previous::State(s) => std::mem::take(&mut s.shards),
        Previous::Manifest(_) => Vec::new(),
    };
    let state = State {
        shards,
        groups: plan
            .entities
            .iter()
            .map(|(id, _)| id.clone())
            .zip(groups)
            .collect(),
        rest,
        redirect_rules,
        routing,
        records,
    };
    // The shards left empty go too, but are no file of the tree's to report.
    Ok(
        write_manifest(dataset, opts, staged, &state, &plan.touched)?
            .into_iter()
            .filter(|shard| opts.out.join(shard).is_file())
            .collect(),
    )
}

/// How long a stage of the build took, on stderr.
fn stage(what: &str, since: Instant) {
    eprintln!("build: {what} in {:.2}s", since.elapsed().as_secs_f64());
}

/// A rendered entity: its index, its new group, how many files were written, their paths.
type RenderedGroup = (usize, Group<'static>, usize, Vec<String>);

/// Renders and stages the routes of every entity the plan names, in parallel.
fn render_groups(
    dataset: &Dataset,
    plan: &Plan<'_>,
    staged: &Staged,
    progress: &ProgressBar,
) -> anyhow::Result<Vec<RenderedGroup>> {
    plan.todo
        .par_iter()
        .progress_with(progress.clone())
        .map(|&i| {
            let (id, kind) = &plan.entities[i];
            let routes = match kind {
                Kind::Compound => routes::compound_group(dataset, id),
                Kind::Material => routes::material_group(dataset, id),
                Kind::Product => routes::product_group(dataset, id),
            };
            let entries = netlify::routing_entries(&routes)?;
            let files = routes.into_iter().map(|r| (r.file, r.rendered.body));
            let (files, written) =
                write_files(staged, 0, files, &plan.known(plan.previous_group(id))?)?;
            let paths: Vec<String> = files.iter().map(|f| f.path.clone()).collect();
            Ok((
                i,
                Group::new(plan.keys[i], &files, &entries),
                written,
                paths,
            ))
        })
        .collect()
}

/// Stages the files whose hash differs from the known one (`first` is the first one's index in
/// its group); returns every file's entry and how many were staged.
fn write_files(
    staged: &Staged,
    first: usize,
    files: impl Iterator<Item = (String, Vec<u8>)>,
    known: &Known<'_>,
) -> Result<(Vec<FileEntry>, usize), crate::build::output::FsError> {
    let mut written = 0;
    let mut entries = Vec::new();
    for (i, (path, bytes)) in (first..).zip(files) {
        let sha256: Hash = Sha256::digest(&bytes).into();
        // The previous build's hashes are trusted: site/ is the build's alone (`--full`
        // compares with every file on disk instead).
        if known.hash(i, &path) != Some(&sha256) && staged.write(&path, &bytes)? {
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

/// The previous build's files that this one did not produce. Reused groups were taken out of
/// `previous` (they produce what they did), so what is left are the files of groups rendered
/// again or gone.
fn stale(previous: &Previous<'_>, fresh: &HashSet<String>) -> anyhow::Result<Vec<String>> {
    let before: Vec<String> = match previous {
        Previous::State(s) => {
            let mut paths = Vec::new();
            for g in s.groups.values().chain([&s.rest]) {
                paths.extend(g.file_entries()?.into_iter().map(|f| f.path));
            }
            paths
        }
        Previous::Manifest(m) => m.keys().cloned().collect(),
    };
    Ok(before.into_iter().filter(|p| !fresh.contains(p)).collect())
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

/// What tells this generator's output from another build's: a hash of the sources, templates
/// and lock file it was compiled from (`build.rs`), so any change to how it renders makes a
/// rebuild start from scratch, and recompiling the same sources does not.
const GENERATOR_IDENTITY: &str = env!("SAFEREF_GENERATOR_SOURCE");

/// A bar with counts and rate on a terminal; hidden otherwise (the stage lines say enough).
fn progress_bar(len: u64) -> ProgressBar {
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(
            "writing {bar:40} {pos}/{len} entities, {per_sec}, {eta} left",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// The summary line of a build.
fn print_summary(out: &Path, r: &BuildReport, started: Instant) {
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "build: {} files ({} written, {} unchanged, {} removed), {:.1} MB, {} redirect rules (at most {}), into {} in {:.2}s ({:.0} files/s)",
        r.files,
        r.written,
        r.unchanged,
        r.removed,
        r.bytes as f64 / 1e6,
        r.redirect_rules,
        MAX_RULES,
        out.display(),
        secs,
        r.files as f64 / secs.max(1e-9)
    );
}
