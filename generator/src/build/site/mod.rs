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
mod netlify;
pub mod routes;
pub mod scale;
pub mod state;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

use indicatif::{ParallelProgressIterator, ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Deserialize;
use sha2::{Digest, Sha256};

pub use netlify::{CORS_EXPOSE_HEADERS, MAX_RULES, cors_lines, header_lines, html_security_lines};

use routes::RouteMeta;
use state::{FileEntry, Group, Hash, State};

use crate::model::Dataset;
use crate::model::file_stamp::FileStamp;

use crate::build::output::{CommitError, Staged};
use crate::load::RecordCache;

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

/// The manifest's head: the rest's files, and the shards that list the entities' files
/// (`state::manifest_shard`).
#[derive(Deserialize)]
struct Manifest {
    dataset_version: String,
    #[serde(default)]
    shards: Vec<String>,
    files: Vec<ManifestFile>,
}

/// The manifest's place under the site root: under `_data/`, which `_redirects` keeps from
/// the public (it lists every file of the build, megabytes of build internals), beside the
/// build state and the snapshot that the build and the runtime read.
pub const MANIFEST: &str = "_data/manifest.json";
/// Where builds before this one put the manifest.
const FORMER_MANIFEST: &str = "manifest.json";

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

/// The previous build of a tree, as the next one starts from it: its build state (the sum
/// checked) and, decompressed, the snapshot its records are in. The `RecordCache` of the load
/// before the build.
#[derive(Debug, Default)]
pub struct LastBuild {
    /// Where the tree is.
    out: PathBuf,
    /// The state's files and the manifest written with them, their sums checked; of the
    /// shards' manifests, only their lengths (`state::read_heads`).
    state: Option<state::Files>,
    /// Each shard's sums as the state's head records them.
    sums: Vec<state::Sums>,
    /// Each shard's manifest file, read when a rebuild first needs it (`manifest_shard`).
    manifests: Vec<OnceLock<Option<Vec<u8>>>>,
    /// The state's records and the snapshot's JSON, when the snapshot is the one the state
    /// describes and this generator parsed the records.
    records: Option<(state::Records, Vec<u8>)>,
    /// The snapshot file's frames (their keys and compressed lengths) and its bytes, when it
    /// is the one the state describes.
    snapshot: Option<(Vec<Frame>, Vec<u8>)>,
}

/// A snapshot frame: the key of the records it holds and its compressed length.
type Frame = (Hash, u64);

impl LastBuild {
    /// The build at `out`; nothing when there is none or its state is unreadable.
    pub fn read(out: &Path) -> LastBuild {
        let Some(files) = state::read_heads(out).filter(state::verify) else {
            return LastBuild::default();
        };
        let Some((mut records, sums)) =
            state::decode_verified(&files, &|_| None).map(|s| (s.records, s.shards))
        else {
            return LastBuild::default();
        };
        let snapshot = std::fs::read(out.join(crate::load::snapshot::PATH))
            .ok()
            .filter(|file| Sha256::digest(file).as_slice() == records.snapshot)
            .map(|file| (std::mem::take(&mut records.frames), file));
        let records = match &snapshot {
            Some((frames, file)) if records.identity == GENERATOR_IDENTITY => {
                decompress_frames(frames, file).map(|json| (records, json))
            }
            _ => None,
        };
        LastBuild {
            out: out.to_path_buf(),
            state: Some(files),
            manifests: sums.iter().map(|_| OnceLock::new()).collect(),
            sums,
            records,
            snapshot,
        }
    }

    /// Shard `i`'s manifest file, when it is the one the state's head describes.
    fn manifest_shard(&self, i: usize) -> Option<&[u8]> {
        self.manifests
            .get(i)?
            .get_or_init(|| {
                let sums = self.sums.get(i)?;
                state::read_manifest_shard(&self.out, i, sums)
            })
            .as_deref()
    }

    /// The compressed bytes of the previous snapshot's frame with this key.
    fn frame(&self, key: &Hash) -> Option<&[u8]> {
        let (frames, file) = self.snapshot.as_ref()?;
        let at = frames.iter().position(|(k, _)| k == key)?;
        frame_slices(frames, file)?.get(at).copied()
    }

    /// The compounds of `dataset` whose records a load with this cache took from it.
    pub fn reused(&self, dataset: &Dataset) -> HashSet<String> {
        dataset
            .compounds
            .keys()
            .filter(|id| self.record_of(dataset, id).is_some())
            .cloned()
            .collect()
    }

    /// Of those, the ones that are checked against the same things as in this build, which
    /// checked them clean: `validate` need not check them again.
    pub fn checked(&self, dataset: &Dataset) -> HashSet<String> {
        match &self.records {
            Some((r, _)) if r.checks_key == dataset.checks_key => self.reused(dataset),
            _ => HashSet::new(),
        }
    }

    /// The JSON of compound `id`'s record in this build's snapshot, if it came from there.
    fn record_of(&self, dataset: &Dataset, id: &str) -> Option<&[u8]> {
        let (file, digest) = record_file(dataset, id)?;
        self.record(&dataset.records_key, file, digest)
    }
}

impl RecordCache for LastBuild {
    fn record(&self, records_key: &Hash, file: &str, digest: &Hash) -> Option<&[u8]> {
        let (records, json) = self.records.as_ref()?;
        let entry = records.files.get(file)?;
        if records.records_key != *records_key || entry.digest != *digest {
            return None;
        }
        let start = usize::try_from(entry.start).ok()?;
        json.get(start..start.checked_add(usize::try_from(entry.len).ok()?)?)
    }

    fn digest(&self, file: &str, stamp: &FileStamp) -> Option<Hash> {
        let (records, _) = self.records.as_ref()?;
        let entry = records.files.get(file)?;
        (entry.stamp.as_ref() == Some(stamp)).then_some(entry.digest)
    }
}

/// Each frame's bytes in a snapshot file, from the frames' lengths; none unless they add up to
/// the file.
fn frame_slices<'f>(frames: &[(Hash, u64)], file: &'f [u8]) -> Option<Vec<&'f [u8]>> {
    let mut at = 0usize;
    let mut slices = Vec::with_capacity(frames.len());
    for (_, len) in frames {
        let end = at.checked_add(usize::try_from(*len).ok()?)?;
        slices.push(file.get(at..end)?);
        at = end;
    }
    (at == file.len()).then_some(slices)
}

/// A snapshot's JSON, its frames decompressed in parallel.
fn decompress_frames(frames: &[(Hash, u64)], file: &[u8]) -> Option<Vec<u8>> {
    let parts = frame_slices(frames, file)?
        .par_iter()
        .map(|f| crate::load::snapshot::decompress(f))
        .collect::<std::io::Result<Vec<_>>>()
        .ok()?;
    Some(parts.concat())
}

/// The file compound `id` was loaded from (relative to the data directory) and its digest.
fn record_file<'a>(dataset: &'a Dataset, id: &str) -> Option<(&'a str, &'a Hash)> {
    let file = Path::new(dataset.files.get(id)?)
        .strip_prefix(&dataset.dir)
        .ok()?
        .to_str()?;
    Some((file, dataset.digests.get(id)?))
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
    let progress = progress_bar(plan.todo.len() as u64);
    let (rendered, rest_parts) = rayon::join(
        || render_groups(dataset, &plan, &staged, &progress),
        || render_rest(dataset, &plan),
    );
    progress.finish_and_clear();
    let mut written = 0;
    let mut fresh: HashSet<String> = HashSet::new();
    let mut groups = std::mem::take(&mut plan.reused);
    for (i, group, w, paths) in rendered? {
        written += w;
        fresh.extend(paths);
        groups[i] = Some(group);
    }
    let groups: Vec<Group<'_>> = groups.into_iter().flatten().collect();
    stage(
        &format!(
            "rendered {} compounds, materials and products",
            plan.todo.len()
        ),
        t,
    );

    let t = Instant::now();
    let rest = match (plan.rest_reused.take(), rest_parts?) {
        (Some(rest), _) => rest,
        (None, Some(rendered)) => {
            let (rest, w, paths) = write_rest(dataset, opts, &plan, &staged, &groups, rendered)?;
            written += w;
            fresh.extend(paths);
            rest
        }
        (None, None) => unreachable!("the rest is rendered whenever it is not reused"),
    };
    let Rest {
        group: rest,
        redirect_rules,
        routing,
        frames,
    } = rest;
    let touched = std::mem::take(&mut plan.touched);
    let mut stale = stale(&plan.previous, &fresh)?;
    // Earlier builds wrote the manifest at the root, where the CDN published it; it goes.
    if opts.out.join(FORMER_MANIFEST).is_file() {
        stale.push(FORMER_MANIFEST.to_string());
    }
    let records = records(dataset, &plan.parts, &rest, frames)?;
    stage("routing files and snapshot", t);

    let t = Instant::now();
    let totals = groups
        .iter()
        .chain([&rest])
        .fold((0, 0), |(files, bytes), g| {
            (files + g.files, bytes + g.size)
        });
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
    let emptied: Vec<String> = write_manifest(dataset, opts, &staged, &state, &touched)?
        .into_iter()
        .filter(|shard| opts.out.join(shard).is_file())
        .collect();
    let emptied_count = emptied.len();
    stale.extend(emptied);
    stage("manifest and build state", t);

    let t = Instant::now();
    let removed = staged
        .commit(&stale, &[MANIFEST, state::PATH])
        .map_err(Failure::Commit)?
        - emptied_count;
    stage(
        &format!("moved {written} files into place, removed {removed}"),
        t,
    );
    let (files, bytes) = totals;
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

/// How long a stage of the build took, on stderr.
fn stage(what: &str, since: Instant) {
    eprintln!("build: {what} in {:.2}s", since.elapsed().as_secs_f64());
}

/// What kind of entity a group of routes is of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Compound,
    Material,
    Product,
}

/// What a build starts from: its inputs hashed, and what the previous build holds that is
/// still right for them.
struct Plan<'a> {
    parts: crate::load::snapshot::Parts<'a>,
    /// Every entity with routes of its own: the compounds, then the materials, then the
    /// products, each in id order.
    entities: Vec<(String, Kind)>,
    /// Each entity's key: a compound's is the hash of its record and of everything shared; a
    /// material's or product's the hash of everything shared and of the keys of the compounds
    /// its composition names.
    keys: Vec<Hash>,
    /// The key of the rest: every compound key and the dataset's fingerprint.
    rest_key: Hash,
    previous: Previous<'a>,
    /// By entity, its previous group when its key is unchanged: those are not rendered.
    reused: Vec<Option<Group<'a>>>,
    /// The previous rest, when the rest key is unchanged.
    rest_reused: Option<Rest<'a>>,
    /// The snapshot's frames (`load::snapshot::frames`): each one's key, and its compressed
    /// bytes in the previous snapshot when a frame there has that key.
    frames: Vec<(Hash, Option<&'a [u8]>)>,
    /// The entities to render, by index.
    todo: Vec<usize>,
    /// The shards whose entities changed (`touched_shards`): written again.
    touched: Vec<bool>,
    /// `--full`: trust nothing the build did not render.
    full: bool,
}

impl<'a> Plan<'a> {
    fn new(
        dataset: &'a Dataset,
        opts: &BuildOptions,
        last: &'a LastBuild,
    ) -> anyhow::Result<Plan<'a>> {
        let parts = crate::load::snapshot::parts_with(dataset, |id| last.record_of(dataset, id))?;
        let global = key(&[
            GENERATOR_IDENTITY.as_bytes(),
            opts.runtime_origin.as_deref().unwrap_or("").as_bytes(),
            &[u8::from(opts.runtime_origin.is_some())],
            &parts.shared,
        ]);
        let mut keys: Vec<Hash> = parts
            .compounds
            .par_iter()
            .map(|(id, json)| key(&[&global, id.as_bytes(), json]))
            .collect();
        let mut rest_inputs: Vec<&[u8]> = vec![parts.fingerprint.as_bytes()];
        rest_inputs.extend(keys.iter().map(|k| k.as_slice()));
        let rest_key = key(&rest_inputs);
        let mut entities: Vec<(String, Kind)> = parts
            .compounds
            .iter()
            .map(|(id, _)| (id.clone(), Kind::Compound))
            .collect();
        entities.extend(
            dataset
                .materials
                .keys()
                .map(|id| (id.clone(), Kind::Material)),
        );
        entities.extend(
            dataset
                .products
                .keys()
                .map(|id| (id.clone(), Kind::Product)),
        );
        let compound_keys: HashMap<&str, &Hash> = parts
            .compounds
            .iter()
            .map(|(id, _)| id.as_str())
            .zip(&keys)
            .collect();
        let entity_keys: Vec<Hash> = entities[keys.len()..]
            .par_iter()
            .map(|(id, kind)| {
                let compounds = match kind {
                    Kind::Material => routes::material_compounds(dataset, id),
                    _ => routes::product_compounds(dataset, id),
                };
                let mut inputs: Vec<&[u8]> = vec![&global, id.as_bytes()];
                inputs.extend(compounds.iter().map(|c| match c {
                    Some(c) => compound_keys[c].as_slice(),
                    None => b"".as_slice(),
                }));
                key(&inputs)
            })
            .collect();
        keys.extend(entity_keys);
        // `--full` trusts nothing it did not render.
        let reuse = !opts.full;
        let (decoded, touched) = previous_state(last, &entities, &keys, reuse);
        let mut previous = match decoded {
            Some(s) => Previous::State(Box::new(s)),
            None => Previous::Manifest(read_manifest_hashes(&opts.out)),
        };
        let reused: Vec<Option<Group<'_>>> = entities
            .iter()
            .zip(&keys)
            .map(|((id, _), k)| match &mut previous {
                Previous::State(s) if reuse && s.groups.get(id).is_some_and(|g| g.key == *k) => {
                    s.groups.remove(id)
                }
                _ => None,
            })
            .collect();
        let rest_reused = match &mut previous {
            Previous::State(s) if reuse && s.rest.key == rest_key => Some(Rest {
                group: std::mem::take(&mut s.rest),
                redirect_rules: s.redirect_rules,
                routing: s.routing,
                frames: std::mem::take(&mut s.records.frames),
            }),
            _ => None,
        };
        let frames = frame_keys(&parts, &global, &keys)
            .into_iter()
            .map(|k| (k, last.frame(&k).filter(|_| reuse)))
            .collect();
        let todo: Vec<usize> = (0..keys.len()).filter(|&i| reused[i].is_none()).collect();
        Ok(Plan {
            parts,
            entities,
            keys,
            rest_key,
            previous,
            reused,
            rest_reused,
            frames,
            todo,
            touched,
            full: opts.full,
        })
    }

    /// The previous hashes of `group`'s files (an entity's, or the rest's), where they can be
    /// trusted: a file whose hash is known and unchanged is not written again.
    fn known(&self, group: Option<&Group<'_>>) -> anyhow::Result<Known<'_>> {
        Ok(match &self.previous {
            _ if self.full => Known::Nothing,
            Previous::State(_) => match group {
                Some(g) => Known::Files(g.file_entries()?),
                None => Known::Nothing,
            },
            Previous::Manifest(m) => Known::Manifest(m),
        })
    }

    /// An entity's group in the previous build, when it is rendered again.
    fn previous_group(&self, id: &str) -> Option<&Group<'a>> {
        match &self.previous {
            Previous::State(s) => s.groups.get(id),
            Previous::Manifest(_) => None,
        }
    }
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

/// The rest's routes and the dataset snapshot (with its frames' compressed lengths), unless
/// the previous build's rest is reused. Of the snapshot, only the frames whose key is not the
/// previous snapshot's are compressed.
fn render_rest(dataset: &Dataset, plan: &Plan<'_>) -> anyhow::Result<Option<RenderedRest>> {
    if plan.rest_reused.is_some() {
        return Ok(None);
    }
    let (routes, snapshot) = rayon::join(
        || routes::rest_routes(dataset),
        || crate::load::snapshot::encode_frames(&plan.parts, |i| plan.frames[i].1),
    );
    let (snapshot, lens) = snapshot?;
    Ok(Some((routes, snapshot, lens)))
}

/// The rest's routes, the snapshot and its frames' compressed lengths.
type RenderedRest = (Vec<routes::Route>, Vec<u8>, Vec<u64>);

/// The rest as a build leaves it: its group, its `_redirects` rule count, the key of the
/// routing files (`State::routing`) and the snapshot's frames.
struct Rest<'a> {
    group: Group<'a>,
    redirect_rules: usize,
    routing: Hash,
    frames: Vec<Frame>,
}

/// The key of each frame of the snapshot (`load::snapshot::frames`): the head's is the hash of
/// `global` (which covers the shared fields and the generator) and the fingerprint; a frame
/// of records' the hash of those records' keys. Either says where the frame is (first, last),
/// since that changes its bytes.
fn frame_keys(parts: &crate::load::snapshot::Parts<'_>, global: &Hash, keys: &[Hash]) -> Vec<Hash> {
    let frames = crate::load::snapshot::frames(parts);
    let last = frames.len() - 1;
    frames
        .iter()
        .enumerate()
        .map(|(i, frame)| {
            let at = [u8::from(i == last)];
            match frame {
                None => key(&[b"head", &at, global, parts.fingerprint.as_bytes()]),
                Some(range) => {
                    let start = (range.start as u64).to_le_bytes();
                    let mut inputs: Vec<&[u8]> = vec![b"records", &at, &start];
                    inputs.extend(keys[range.clone()].iter().map(|k| k.as_slice()));
                    key(&inputs)
                }
            }
        })
        .collect()
}

/// The key of `_redirects` and `_headers`: what they are rendered from (every group's routing
/// entries, in order, the rest's, the runtime origin, and whether there are materials or
/// products: `routes::every_id_has`), and the generator.
fn routing_key(
    dataset: &Dataset,
    opts: &BuildOptions,
    plan: &Plan<'_>,
    groups: &[Group<'_>],
    rest: &[RouteMeta],
) -> Hash {
    let rest = state::encode_routes(rest);
    let flags = [
        u8::from(opts.runtime_origin.is_some()),
        u8::from(dataset.materials.is_empty()),
        u8::from(dataset.products.is_empty()),
    ];
    let mut inputs: Vec<&[u8]> = vec![
        GENERATOR_IDENTITY.as_bytes(),
        opts.runtime_origin.as_deref().unwrap_or("").as_bytes(),
        &flags,
    ];
    for ((id, kind), group) in plan.entities.iter().zip(groups) {
        inputs.push(id.as_bytes());
        inputs.push(match kind {
            Kind::Compound => b"c",
            Kind::Material => b"m",
            Kind::Product => b"p",
        });
        inputs.push(&group.routes);
    }
    inputs.push(&rest);
    key(&inputs)
}

/// Stages the rest: its routes, `_redirects` and `_headers` (from every route, in the route
/// table's order: `routes::routes`; the previous build's when their key is unchanged), and the
/// snapshot. The rest, how many files were written and their paths.
fn write_rest(
    dataset: &Dataset,
    opts: &BuildOptions,
    plan: &Plan<'_>,
    staged: &Staged,
    groups: &[Group<'_>],
    (routes, snapshot, lens): RenderedRest,
) -> anyhow::Result<(Rest<'static>, usize, Vec<String>)> {
    let entries = netlify::routing_entries(&routes)?;
    let routing = routing_key(dataset, opts, plan, groups, &entries);
    let known = match &plan.previous {
        Previous::State(s) => plan.known(Some(&s.rest))?,
        Previous::Manifest(_) => plan.known(None)?,
    };
    let (mut files, mut written) = write_files(
        staged,
        0,
        routes.into_iter().map(|r| (r.file, r.rendered.body)),
        &known,
    )?;
    let reused = match (&plan.previous, &known) {
        (Previous::State(s), Known::Files(before)) if s.routing == routing => {
            let find = |path: &str| before.iter().find(|f| f.path == path).cloned();
            find(REDIRECTS)
                .zip(find(HEADERS))
                .map(|(r, h)| ([r, h], s.redirect_rules))
        }
        _ => None,
    };
    let redirect_rules = match reused {
        // The same entries render the same files, which the tree holds.
        Some((entries, rules)) => {
            files.extend(entries);
            rules
        }
        None => {
            let (redirects, headers, rules) = routing_files(dataset, opts, plan, groups, entries)?;
            let routing_files = [
                (REDIRECTS.to_string(), redirects.into_bytes()),
                (HEADERS.to_string(), headers.into_bytes()),
            ];
            let (entries, w) = write_files(staged, files.len(), routing_files.into_iter(), &known)?;
            files.extend(entries);
            written += w;
            rules
        }
    };
    let snapshot = [(crate::load::snapshot::PATH.to_string(), snapshot)];
    let (entries, w) = write_files(staged, files.len(), snapshot.into_iter(), &known)?;
    files.extend(entries);
    written += w;
    let paths = files.iter().map(|f| f.path.clone()).collect();
    let rest = Rest {
        group: Group::new(plan.rest_key, &files, &[]),
        redirect_rules,
        routing,
        frames: plan.frames.iter().map(|(k, _)| *k).zip(lens).collect(),
    };
    Ok((rest, written, paths))
}

/// The routing files' places in the tree.
const REDIRECTS: &str = "_redirects";
const HEADERS: &str = "_headers";

/// `_redirects`, `_headers` and the number of redirect rules, from every group's routing
/// entries and the rest's (`entries`).
fn routing_files(
    dataset: &Dataset,
    opts: &BuildOptions,
    plan: &Plan<'_>,
    groups: &[Group<'_>],
    entries: Vec<RouteMeta>,
) -> anyhow::Result<(String, String, usize)> {
    let decoded = groups
        .iter()
        .map(Group::route_entries)
        .collect::<anyhow::Result<Vec<_>>>()?;
    let compounds = plan
        .entities
        .iter()
        .take_while(|(_, kind)| *kind == Kind::Compound)
        .count();
    let (compound_entries, entity_entries) = decoded.split_at(compounds);
    // Route order: every compound's own routes, then the CAS lookups, then the materials' and
    // products', then the rest.
    let mut all: Vec<RouteMeta> = Vec::new();
    for cas in [false, true] {
        all.extend(
            compound_entries
                .iter()
                .flatten()
                .filter(|r| (r.pattern == routes::CAS_PATTERN) == cas)
                .cloned(),
        );
    }
    all.extend(routes::entity_order(entity_entries, |r| r.pattern));
    all.extend(entries);
    let (redirects, rules) = netlify::redirects(&all, dataset, opts.runtime_origin.as_deref());
    Ok((redirects, netlify::headers(&all), rules))
}

/// Stages the manifest (the rest's files with their hashes and sizes, and the shards that list
/// the entities' files, compound by compound in id order; joined from the groups' entries, most
/// of them the previous manifest's bytes) and the build state: of the shards, those `touched`
/// names. Returns the files of the shards left empty, which go.
fn write_manifest(
    dataset: &Dataset,
    opts: &BuildOptions,
    staged: &Staged,
    state: &State<'_>,
    touched: &[bool],
) -> Result<Vec<String>, Failure> {
    let mut head = serde_json::to_vec(&serde_json::json!({
        "dataset_version": dataset.fingerprint,
        "built_at": opts.built_at,
    }))
    .map_err(anyhow::Error::from)?;
    head.pop();
    let encoded = state::encode(state, &head, &|i| touched[i]);
    staged.write_new(MANIFEST, &encoded.manifest)?;
    staged.write_new(state::PATH, &encoded.state)?;
    for (i, manifest, shard) in &encoded.shards {
        staged.write_new(&state::manifest_shard(*i), manifest)?;
        staged.write_new(&state::state_shard(*i), shard)?;
    }
    Ok(encoded
        .empty
        .iter()
        .flat_map(|&i| [state::manifest_shard(i), state::state_shard(i)])
        .collect())
}

/// The previous build's state, with the manifest entries of the groups in the shards whose
/// entities changed (`touched_shards`: the shards written again, whose manifest files are
/// read now), and those shards; no state and every shard when there is none, or when a shard
/// read is not the one the head describes.
fn previous_state<'a>(
    last: &'a LastBuild,
    entities: &[(String, Kind)],
    keys: &[Hash],
    reuse: bool,
) -> (Option<State<'a>>, Vec<bool>) {
    let every = || vec![true; state::SHARDS];
    let Some(files) = last.state.as_ref() else {
        return (None, every());
    };
    let Some(summary) = state::decode_verified(files, &|_| None) else {
        return (None, every());
    };
    let kept: HashSet<&str> = entities
        .iter()
        .zip(keys)
        .filter(|((id, _), k)| reuse && summary.groups.get(id).is_some_and(|g| g.key == **k))
        .map(|((id, _), _)| id.as_str())
        .collect();
    let touched = touched_shards(
        entities.iter().map(|(id, _)| id.as_str()),
        summary.groups.keys().map(String::as_str),
        &kept,
    );
    let manifests: Option<Vec<Option<&[u8]>>> = (0..state::SHARDS)
        .map(|i| match touched[i] {
            true => last.manifest_shard(i).map(Some),
            false => Some(None),
        })
        .collect();
    match manifests.and_then(|m| state::decode_verified(files, &|i| m[i])) {
        Some(decoded) => (Some(decoded), touched),
        None => (None, every()),
    }
}

/// The shards whose entities changed: one rendered again (or new), or one of the previous
/// build's that is not kept (rendered again or gone).
fn touched_shards<'i>(
    entities: impl Iterator<Item = &'i str>,
    previous: impl Iterator<Item = &'i str>,
    kept: &HashSet<&str>,
) -> Vec<bool> {
    let mut touched = vec![false; state::SHARDS];
    for id in entities.chain(previous) {
        if !kept.contains(id) {
            touched[state::shard_of(id)] = true;
        }
    }
    touched
}

/// Where each compound file's record is in the snapshot of the tree (`rest` lists its hash).
fn records(
    dataset: &Dataset,
    parts: &crate::load::snapshot::Parts<'_>,
    rest: &Group<'_>,
    frames: Vec<Frame>,
) -> anyhow::Result<state::Records> {
    let ranges = crate::load::snapshot::record_ranges(parts)?;
    let files = parts
        .compounds
        .iter()
        .zip(ranges)
        .filter_map(|((id, _), range)| {
            let (file, digest) = record_file(dataset, id)?;
            let entry = state::RecordEntry {
                digest: *digest,
                start: range.start as u64,
                len: range.len() as u64,
                stamp: dataset.stamps.get(id).copied(),
            };
            Some((file.to_string(), entry))
        })
        .collect();
    Ok(state::Records {
        identity: GENERATOR_IDENTITY.to_string(),
        records_key: dataset.records_key,
        checks_key: dataset.checks_key,
        snapshot: rest
            .file_entries()?
            .into_iter()
            .find(|f| f.path == crate::load::snapshot::PATH)
            .map(|f| f.sha256)
            .unwrap_or_default(),
        files,
        frames,
    })
}

/// What the previous build left: its state, or (when the state is missing or unreadable) the
/// files and hashes its manifest lists.
enum Previous<'a> {
    State(Box<State<'a>>),
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

/// Whether the tree at `out` is the build of the dataset with this fingerprint and every file
/// the manifest lists holds the bytes it hashes (the runtime's integrity check).
pub fn verify(out: &Path, fingerprint: &str) -> bool {
    let Some((version, files)) = manifest_files(out) else {
        return false;
    };
    version == fingerprint
        && files.par_iter().all(|f| {
            std::fs::read(out.join(&f.path))
                .is_ok_and(|bytes| state::hex(&Sha256::digest(&bytes)) == f.sha256)
        })
}

/// The dataset version and every file the manifest at `out` lists (the rest's, then each
/// shard's), with their hashes; none when it or a shard it names is missing or unreadable.
fn manifest_files(out: &Path) -> Option<(String, Vec<ManifestFile>)> {
    let bytes = std::fs::read(out.join(MANIFEST)).ok()?;
    let Manifest {
        dataset_version,
        shards,
        mut files,
    } = serde_json::from_slice(&bytes).ok()?;
    for shard in shards {
        // Only the shards a build writes: the head names nothing outside them.
        if !shard.starts_with("_data/manifest/") || shard.contains("..") {
            return None;
        }
        let bytes = std::fs::read(out.join(shard)).ok()?;
        files.extend(serde_json::from_slice::<Vec<ManifestFile>>(&bytes).ok()?);
    }
    Some((dataset_version, files))
}

/// Every file the manifest at `out` lists (the rest's and every shard's), with its SHA-256 in
/// hexadecimal; none when there is no readable manifest.
pub fn listed_files(out: &Path) -> Option<Vec<(String, String)>> {
    manifest_files(out).map(|(_, files)| files.into_iter().map(|f| (f.path, f.sha256)).collect())
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
    manifest_files(out)
        .map(|(_, files)| {
            files
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
