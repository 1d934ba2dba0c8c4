//! The previous build of a tree as the next one starts from it (`LastBuild`): its build state,
//! and the snapshot whose records a load can take instead of parsing the compound files again.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use super::GENERATOR_IDENTITY;
use super::state::{self, Hash};
use crate::load::RecordCache;
use crate::model::Dataset;
use crate::model::file_stamp::FileStamp;
use crate::model::ids::CompoundId;

/// The previous build of a tree, as the next one starts from it: its build state (the sum
/// checked) and, decompressed, the snapshot its records are in. The `RecordCache` of the load
/// before the build.
#[derive(Debug, Default)]
pub struct LastBuild {
    /// Where the tree is.
    pub(super) out: PathBuf,
    /// The state's files and the manifest written with them, their sums checked; of the
    /// shards' manifests, only their lengths (`state::read_heads`).
    pub(super) state: Option<state::Files>,
    /// Each shard's sums as the state's head records them.
    pub(super) sums: Vec<state::Sums>,
    /// Each shard's manifest file, read when a rebuild first needs it (`manifest_shard`).
    pub(super) manifests: Vec<OnceLock<Option<Vec<u8>>>>,
    /// The state's records and the snapshot's JSON, when the snapshot is the one the state
    /// describes and this generator parsed the records.
    pub(super) records: Option<(state::Records, Vec<u8>)>,
    /// The snapshot file's frames (their keys and compressed lengths) and its bytes, when it
    /// is the one the state describes.
    pub(super) snapshot: Option<(Vec<Frame>, Vec<u8>)>,
}

/// A snapshot frame: the key of the records it holds and its compressed length.
pub(super) type Frame = (Hash, u64);

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
    pub(super) fn manifest_shard(&self, i: usize) -> Option<&[u8]> {
        self.manifests
            .get(i)?
            .get_or_init(|| {
                let sums = self.sums.get(i)?;
                state::read_manifest_shard(&self.out, i, sums)
            })
            .as_deref()
    }

    /// The compressed bytes of the previous snapshot's frame with this key.
    pub(super) fn frame(&self, key: &Hash) -> Option<&[u8]> {
        let (frames, file) = self.snapshot.as_ref()?;
        let at = frames.iter().position(|(k, _)| k == key)?;
        frame_slices(frames, file)?.get(at).copied()
    }

    /// The compounds of `dataset` whose records a load with this cache took from it.
    pub fn reused(&self, dataset: &Dataset) -> HashSet<CompoundId> {
        dataset
            .compounds
            .keys()
            .filter(|id| self.record_of(dataset, id).is_some())
            .copied()
            .collect()
    }

    /// Of those, the ones that are checked against the same things as in this build, which
    /// checked them clean: `validate` need not check them again.
    pub fn checked(&self, dataset: &Dataset) -> HashSet<CompoundId> {
        match &self.records {
            Some((r, _)) if r.checks_key == dataset.checks_key => self.reused(dataset),
            _ => HashSet::new(),
        }
    }

    /// The JSON of compound `id`'s record in this build's snapshot, if it came from there.
    pub(super) fn record_of(&self, dataset: &Dataset, id: &CompoundId) -> Option<&[u8]> {
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
pub(super) fn record_file<'a>(
    dataset: &'a Dataset,
    id: &CompoundId,
) -> Option<(&'a str, &'a Hash)> {
    let file = Path::new(dataset.files.get(id)?)
        .strip_prefix(&dataset.dir)
        .ok()?
        .to_str()?;
    Some((file, dataset.digests.get(id)?))
}
