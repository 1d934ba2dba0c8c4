//! What a build starts from (`Plan`): every entity's inputs hashed into a key, and what the
//! previous build holds that is still right for those keys.

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;

use super::last_build::LastBuild;
use super::manifest::read_manifest_hashes;
use super::rest::Rest;
use super::state::{self, FileEntry, Group, Hash, State};
use super::{BuildOptions, GENERATOR_IDENTITY, key, routes};
use crate::model::Dataset;
use crate::model::ids::CompoundId;

/// What kind of entity a group of routes is of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Compound,
    Material,
    Product,
}

/// What a build starts from: its inputs hashed, and what the previous build holds that is
/// still right for them.
pub(super) struct Plan<'a> {
    pub(super) parts: crate::load::snapshot::Parts<'a>,
    /// Every entity with routes of its own: the compounds, then the materials, then the
    /// products, each in id order.
    pub(super) entities: Vec<(String, Kind)>,
    /// Each entity's key: a compound's is the hash of its record and of everything shared; a
    /// material's or product's the hash of everything shared and of the keys of the compounds
    /// its composition names.
    pub(super) keys: Vec<Hash>,
    /// The key of the rest: every compound key and the dataset's fingerprint.
    pub(super) rest_key: Hash,
    pub(super) previous: Previous<'a>,
    /// By entity, its previous group when its key is unchanged: those are not rendered.
    pub(super) reused: Vec<Option<Group<'a>>>,
    /// The previous rest, when the rest key is unchanged.
    pub(super) rest_reused: Option<Rest<'a>>,
    /// The snapshot's frames (`load::snapshot::frames`): each one's key, and its compressed
    /// bytes in the previous snapshot when a frame there has that key.
    pub(super) frames: Vec<(Hash, Option<&'a [u8]>)>,
    /// The entities to render, by index.
    pub(super) todo: Vec<usize>,
    /// The shards whose entities changed (`touched_shards`): written again.
    pub(super) touched: Vec<bool>,
    /// `--full`: trust nothing the build did not render.
    pub(super) full: bool,
}

impl<'a> Plan<'a> {
    pub(super) fn new(
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
        let Keys {
            entities,
            keys,
            rest_key,
        } = Keys::of(dataset, &parts, &global);
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
    pub(super) fn known(&self, group: Option<&Group<'_>>) -> anyhow::Result<Known<'_>> {
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
    pub(super) fn previous_group(&self, id: &str) -> Option<&Group<'a>> {
        match &self.previous {
            Previous::State(s) => s.groups.get(id),
            Previous::Manifest(_) => None,
        }
    }
}

/// Every entity and its key (`Plan::entities`, `Plan::keys`), and the rest's key.
struct Keys {
    entities: Vec<(String, Kind)>,
    keys: Vec<Hash>,
    rest_key: Hash,
}

impl Keys {
    /// The compounds' keys from their records, the rest's from those, then the materials' and
    /// products' from the keys of the compounds their compositions name; `global` covers the
    /// generator, the runtime origin and the shared fields.
    fn of(dataset: &Dataset, parts: &crate::load::snapshot::Parts<'_>, global: &Hash) -> Keys {
        let mut keys: Vec<Hash> = parts
            .compounds
            .par_iter()
            .map(|(id, json)| key(&[global, id.to_string().as_bytes(), json]))
            .collect();
        let mut rest_inputs: Vec<&[u8]> = vec![parts.fingerprint.as_bytes()];
        rest_inputs.extend(keys.iter().map(|k| k.as_slice()));
        let rest_key = key(&rest_inputs);
        let mut entities: Vec<(String, Kind)> = parts
            .compounds
            .iter()
            .map(|(id, _)| (id.to_string(), Kind::Compound))
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
        let compound_keys: HashMap<&CompoundId, &Hash> = parts
            .compounds
            .iter()
            .map(|(id, _)| id)
            .zip(&keys)
            .collect();
        let entity_keys: Vec<Hash> = entities[keys.len()..]
            .par_iter()
            .map(|(id, kind)| {
                let compounds = match kind {
                    Kind::Material => routes::material_compounds(dataset, id),
                    _ => routes::product_compounds(dataset, id),
                };
                let mut inputs: Vec<&[u8]> = vec![global, id.as_bytes()];
                inputs.extend(compounds.iter().map(|c| match c {
                    Some(c) => compound_keys[c].as_slice(),
                    None => b"".as_slice(),
                }));
                key(&inputs)
            })
            .collect();
        keys.extend(entity_keys);
        Keys {
            entities,
            keys,
            rest_key,
        }
    }
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

/// What the previous build left: its state, or (when the state is missing or unreadable) the
/// files and hashes its manifest lists.
pub(super) enum Previous<'a> {
    State(Box<State<'a>>),
    Manifest(HashMap<String, Hash>),
}

/// The previous hashes of a group's files, where they can be trusted.
pub(super) enum Known<'a> {
    Nothing,
    Files(Vec<FileEntry>),
    Manifest(&'a HashMap<String, Hash>),
}

impl Known<'_> {
    /// The previous hash of the file at `index` of its group (usually at the same index).
    pub(super) fn hash(&self, index: usize, path: &str) -> Option<&Hash> {
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
