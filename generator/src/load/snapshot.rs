//! The dataset snapshot (`site/_data/dataset.json.zst`): the loaded, validated dataset as one
//! zstd-compressed JSON document, written by the build so the runtime starts without
//! re-reading and re-validating data/.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::model::aliases::Alias;
use crate::model::contexts::Contexts;
use crate::model::documents::MarkdownFile;
use crate::model::ids::{CompoundId, IdRegistry};
use crate::model::material::{Material, Product};
use crate::model::record::CompoundRecord;
use crate::model::{Agency, Dataset};

/// Where the snapshot lives inside the site tree.
pub const PATH: &str = "_data/dataset.json.zst";

/// Bumped when the snapshot's shape changes; an older snapshot is rebuilt, not misread.
const FORMAT: u32 = 6;

/// The snapshot as read back (`encode_frames` writes the same fields, compounds last).
#[derive(Deserialize)]
struct Snapshot {
    format: u32,
    fingerprint: String,
    ids: String,
    agencies: Vec<Agency>,
    contexts: Contexts,
    // Defaulted so a format-1 snapshot still parses and is refused by its format number.
    #[serde(default)]
    aliases: Vec<Alias>,
    compounds: Vec<CompoundRecord>,
    materials: Vec<Material>,
    products: Vec<Product>,
    material_index: BTreeMap<String, String>,
    retired: crate::model::retired::Retired,
    documents: BTreeMap<String, MarkdownFile>,
    release_notes: Vec<MarkdownFile>,
    templates: BTreeMap<String, String>,
    #[serde(default)]
    fragrance: crate::model::fragrance::Fragrance,
    #[serde(default)]
    regulatory_status: crate::model::regulatory_status::RegulatoryStatus,
    #[serde(default)]
    changelog: Vec<crate::model::changelog::Entry>,
    #[serde(default)]
    site_origin: Option<String>,
}

/// The fields of the snapshot beside the compounds, borrowed from the dataset. Everything a
/// response is rendered from is in here or in a compound record (the runtime renders from the
/// snapshot alone), which is what lets the build key its cache on these bytes.
#[derive(Serialize)]
struct Shared<'a> {
    ids: String,
    agencies: &'a [Agency],
    contexts: &'a Contexts,
    aliases: &'a [Alias],
    materials: Vec<&'a Material>,
    products: Vec<&'a Product>,
    material_index: &'a BTreeMap<String, String>,
    retired: &'a crate::model::retired::Retired,
    documents: &'a BTreeMap<String, MarkdownFile>,
    release_notes: &'a [MarkdownFile],
    templates: &'a BTreeMap<String, String>,
    fragrance: &'a crate::model::fragrance::Fragrance,
    regulatory_status: &'a crate::model::regulatory_status::RegulatoryStatus,
    changelog: &'a [crate::model::changelog::Entry],
    // Absent without an origin, so such a snapshot is what it was before the field existed.
    #[serde(skip_serializing_if = "Option::is_none")]
    site_origin: Option<&'a str>,
}

#[derive(Serialize)]
struct Head<'a> {
    format: u32,
    generator_version: &'a str,
    fingerprint: &'a str,
}

/// The snapshot's JSON in pieces: the build hashes them to tell what changed since the
/// previous build, then joins them (`encode_frames`).
#[derive(Debug)]
pub struct Parts<'a> {
    /// Every field but the compounds and the fingerprint, as the inside of a JSON object.
    pub shared: Vec<u8>,
    /// Each compound record's JSON, in id order.
    pub compounds: Vec<(CompoundId, Cow<'a, [u8]>)>,
    pub fingerprint: String,
}

/// `dataset` serialized in pieces (the compounds in parallel).
pub fn parts(dataset: &Dataset) -> anyhow::Result<Parts<'static>> {
    parts_with(dataset, |_| None)
}

/// As `parts`, with a record's JSON taken from `reuse` where it has it: the bytes an earlier
/// snapshot holds for the record, which the record was parsed from (`load::RecordCache`), so
/// serializing it again would give them back.
pub fn parts_with<'a>(
    dataset: &Dataset,
    reuse: impl Fn(&CompoundId) -> Option<&'a [u8]> + Sync,
) -> anyhow::Result<Parts<'a>> {
    let shared = serde_json::to_vec(&Shared {
        ids: dataset.ids.to_tsv(),
        agencies: &dataset.agencies,
        contexts: &dataset.contexts,
        aliases: &dataset.aliases,
        materials: dataset.materials.values().collect(),
        products: dataset.products.values().collect(),
        material_index: &dataset.material_index,
        retired: &dataset.retired,
        documents: &dataset.documents,
        release_notes: &dataset.release_notes,
        templates: &dataset.templates,
        fragrance: &dataset.fragrance,
        regulatory_status: &dataset.regulatory_status,
        changelog: &dataset.changelog,
        site_origin: dataset.site_origin.as_deref(),
    })?;
    let records: Vec<&CompoundRecord> = dataset.compounds.values().collect();
    let compounds = records
        .par_iter()
        .map(|r| {
            let json = match reuse(&r.hq_id) {
                Some(bytes) => Cow::Borrowed(bytes),
                None => Cow::Owned(serde_json::to_vec(r)?),
            };
            Ok((r.hq_id, json))
        })
        .collect::<serde_json::Result<_>>()?;
    Ok(Parts {
        // Without its braces, to be joined into the snapshot object.
        shared: shared[1..shared.len() - 1].to_vec(),
        compounds,
        fingerprint: dataset.fingerprint.clone(),
    })
}

/// The compressed snapshot of `dataset`.
pub fn encode(dataset: &Dataset) -> anyhow::Result<Vec<u8>> {
    Ok(encode_frames(&parts(dataset)?, |_| None)?.0)
}

/// The head fields as the start of a JSON object (no closing brace).
fn head(parts: &Parts<'_>) -> serde_json::Result<Vec<u8>> {
    let mut head = serde_json::to_vec(&Head {
        format: FORMAT,
        generator_version: env!("CARGO_PKG_VERSION"),
        fingerprint: &parts.fingerprint,
    })?;
    head.pop();
    Ok(head)
}

/// What comes between the shared fields and the first compound.
const COMPOUNDS: &[u8] = b",\"compounds\":[";

/// How many compound records one zstd frame of the snapshot holds: a rebuild compresses again
/// only the frames whose records changed and copies the others (`build::site`).
const RECORDS_PER_FRAME: usize = 16;

/// The snapshot's zstd frames, in order: `None` is the head and the shared fields up to the
/// array of records, `Some(range)` the records at those indices of `parts.compounds` (each
/// after a comma but the first). The last frame also ends the document.
pub fn frames(parts: &Parts<'_>) -> Vec<Option<Range<usize>>> {
    let n = parts.compounds.len();
    let mut frames = vec![None];
    frames.extend(
        (0..n)
            .step_by(RECORDS_PER_FRAME)
            .map(|start| Some(start..(start + RECORDS_PER_FRAME).min(n))),
    );
    frames
}

/// The compressed snapshot made of `parts`: one JSON object, the compounds last, compressed
/// frame by frame (`frames`; a zstd reader reads concatenated frames as one stream), with
/// frame `i`'s compressed bytes taken from `reuse(i)` where it has them. Also each frame's
/// compressed length.
pub fn encode_frames<'r>(
    parts: &Parts<'_>,
    reuse: impl Fn(usize) -> Option<&'r [u8]> + Sync,
) -> anyhow::Result<(Vec<u8>, Vec<u64>)> {
    let head = head(parts)?;
    let frames = frames(parts);
    let last = frames.len() - 1;
    let compressed = frames
        .par_iter()
        .enumerate()
        .map(|(i, frame)| {
            if let Some(bytes) = reuse(i) {
                return Ok(Cow::Borrowed(bytes));
            }
            let mut json = Vec::new();
            match frame {
                None => {
                    json.extend_from_slice(&head);
                    json.push(b',');
                    json.extend_from_slice(&parts.shared);
                    json.extend_from_slice(COMPOUNDS);
                }
                Some(range) => {
                    for (i, (_, record)) in parts.compounds[range.clone()].iter().enumerate() {
                        if i + range.start > 0 {
                            json.push(b',');
                        }
                        json.extend_from_slice(record);
                    }
                }
            }
            if i == last {
                json.extend_from_slice(b"]}");
            }
            // Level 1: the snapshot is rewritten whenever the data changes, so speed matters
            // more than the last tenth of its size (level 3 takes 2.5 times as long for 10%
            // less).
            Ok(Cow::Owned(zstd::encode_all(json.as_slice(), 1)?))
        })
        .collect::<std::io::Result<Vec<Cow<'_, [u8]>>>>()?;
    let lens = compressed.iter().map(|c| c.len() as u64).collect();
    Ok((compressed.concat(), lens))
}

/// Where each compound's JSON is in the document `encode_frames` compresses, in the parts'
/// order (the layout above: head, a comma, the shared fields, the array of records).
pub fn record_ranges(parts: &Parts<'_>) -> serde_json::Result<Vec<Range<usize>>> {
    let mut at = head(parts)?.len() + 1 + parts.shared.len() + COMPOUNDS.len();
    Ok(parts
        .compounds
        .iter()
        .map(|(_, record)| {
            let range = at..at + record.len();
            at = range.end + 1;
            range
        })
        .collect())
}

/// The JSON document of a snapshot file's bytes.
pub fn decompress(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    zstd::decode_all(bytes)
}

/// Reads a snapshot written by `encode`.
pub fn read(path: &Path) -> anyhow::Result<Dataset> {
    let file = std::fs::File::open(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let json = zstd::decode_all(std::io::BufReader::new(file))?;
    let s: Snapshot = serde_json::from_slice(&json)
        .map_err(|e| anyhow::anyhow!("{}: not a dataset snapshot: {e}", path.display()))?;
    if s.format != FORMAT {
        anyhow::bail!(
            "{}: snapshot format {} (this build reads {FORMAT}); rebuild the site",
            path.display(),
            s.format
        );
    }
    let ids = IdRegistry::parse(&s.ids, PATH)?;
    Ok(Dataset {
        compounds: s.compounds.into_iter().map(|r| (r.hq_id, r)).collect(),
        ids,
        agencies: s.agencies,
        fingerprint: s.fingerprint,
        dir: path.to_path_buf(),
        contexts: s.contexts,
        aliases: s.aliases,
        materials: s.materials.into_iter().map(|m| (m.id.clone(), m)).collect(),
        products: s.products.into_iter().map(|p| (p.id.clone(), p)).collect(),
        material_index: s.material_index,
        retired: s.retired,
        documents: s.documents,
        release_notes: s.release_notes,
        templates: s.templates,
        fragrance: s.fragrance,
        regulatory_status: s.regulatory_status,
        changelog: s.changelog,
        site_origin: s.site_origin,
        ..Dataset::default()
    })
}
