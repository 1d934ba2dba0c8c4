//! The manifest: every file of the tree with its SHA-256 (the rest's in `_data/manifest.json`,
//! the entities' in its shards), what the runtime's integrity check and `--full` read back.

use std::collections::HashMap;
use std::path::Path;

use rayon::prelude::*;
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::state::{self, Hash, State};
use super::{BuildOptions, Failure};
use crate::build::output::Staged;
use crate::model::Dataset;

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
pub(super) const FORMER_MANIFEST: &str = "manifest.json";

/// Stages the manifest (the rest's files with their hashes and sizes, and the shards that list
/// the entities' files, compound by compound in id order; joined from the groups' entries, most
/// of them the previous manifest's bytes) and the build state: of the shards, those `touched`
/// names. Returns the files of the shards left empty, which go.
pub(super) fn write_manifest(
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
pub(super) fn read_manifest_hashes(out: &Path) -> HashMap<String, Hash> {
    manifest_files(out)
        .map(|(_, files)| {
            files
                .into_iter()
                .filter_map(|f| Some((f.path, state::unhex(&f.sha256)?)))
                .collect()
        })
        .unwrap_or_default()
}
