//! The dataset snapshot (`site/_data/dataset.json.zst`): the loaded, validated dataset as one
//! zstd-compressed JSON document, written by the build so the runtime starts without
//! re-reading and re-validating data/.

use std::collections::BTreeMap;
use std::path::Path;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ids::IdRegistry;
use crate::load::{Agency, Dataset};
use crate::model::aliases::Alias;
use crate::model::contexts::Contexts;
use crate::model::documents::MarkdownFile;
use crate::model::material::{Material, Product};
use crate::model::record::CompoundRecord;

/// Where the snapshot lives inside the site tree.
pub const PATH: &str = "_data/dataset.json.zst";

/// Bumped when the snapshot's shape changes; an older snapshot is rebuilt, not misread.
const FORMAT: u32 = 5;

/// The snapshot as read back (`encode_parts` writes the same fields, compounds last).
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
    documents: BTreeMap<String, MarkdownFile>,
    release_notes: Vec<MarkdownFile>,
    templates: BTreeMap<String, String>,
    #[serde(default)]
    fragrance: crate::fragrance::Fragrance,
    #[serde(default)]
    regulatory_status: crate::regulatory_status::RegulatoryStatus,
    #[serde(default)]
    changelog: Vec<crate::changelog::Entry>,
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
    documents: &'a BTreeMap<String, MarkdownFile>,
    release_notes: &'a [MarkdownFile],
    templates: &'a BTreeMap<String, String>,
    fragrance: &'a crate::fragrance::Fragrance,
    regulatory_status: &'a crate::regulatory_status::RegulatoryStatus,
    changelog: &'a [crate::changelog::Entry],
}

#[derive(Serialize)]
struct Head<'a> {
    format: u32,
    generator_version: &'a str,
    fingerprint: &'a str,
}

/// The snapshot's JSON in pieces: the build hashes them to tell what changed since the
/// previous build, then joins them (`encode_parts`).
#[derive(Debug)]
pub struct Parts {
    /// Every field but the compounds and the fingerprint, as the inside of a JSON object.
    pub shared: Vec<u8>,
    /// Each compound record's JSON, in id order.
    pub compounds: Vec<(String, Vec<u8>)>,
    pub fingerprint: String,
}

/// `dataset` serialized in pieces (the compounds in parallel).
pub fn parts(dataset: &Dataset) -> anyhow::Result<Parts> {
    let shared = serde_json::to_vec(&Shared {
        ids: dataset.ids.to_tsv(),
        agencies: &dataset.agencies,
        contexts: &dataset.contexts,
        aliases: &dataset.aliases,
        materials: dataset.materials.values().collect(),
        products: dataset.products.values().collect(),
        material_index: &dataset.material_index,
        documents: &dataset.documents,
        release_notes: &dataset.release_notes,
        templates: &dataset.templates,
        fragrance: &dataset.fragrance,
        regulatory_status: &dataset.regulatory_status,
        changelog: &dataset.changelog,
    })?;
    let records: Vec<&CompoundRecord> = dataset.compounds.values().collect();
    let compounds = records
        .par_iter()
        .map(|r| Ok((r.hq_id.clone(), serde_json::to_vec(r)?)))
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
    encode_parts(&parts(dataset)?)
}

/// The compressed snapshot made of `parts`: one JSON object, the compounds last.
pub fn encode_parts(parts: &Parts) -> anyhow::Result<Vec<u8>> {
    let head = serde_json::to_vec(&Head {
        format: FORMAT,
        generator_version: env!("CARGO_PKG_VERSION"),
        fingerprint: &parts.fingerprint,
    })?;
    let size = parts
        .compounds
        .iter()
        .map(|(_, c)| c.len() + 1)
        .sum::<usize>();
    let mut json = Vec::with_capacity(head.len() + parts.shared.len() + size + 32);
    json.extend_from_slice(&head[..head.len() - 1]);
    json.push(b',');
    json.extend_from_slice(&parts.shared);
    json.extend_from_slice(b",\"compounds\":[");
    for (i, (_, record)) in parts.compounds.iter().enumerate() {
        if i > 0 {
            json.push(b',');
        }
        json.extend_from_slice(record);
    }
    json.extend_from_slice(b"]}");
    // Level 3 (zstd's default): the snapshot is rewritten whenever the data changes, so speed
    // matters more than the last few percent of size.
    Ok(zstd::encode_all(json.as_slice(), 3)?)
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
        compounds: s
            .compounds
            .into_iter()
            .map(|r| (r.hq_id.clone(), r))
            .collect(),
        ids,
        agencies: s.agencies,
        fingerprint: s.fingerprint,
        dir: path.to_path_buf(),
        contexts: s.contexts,
        aliases: s.aliases,
        materials: s.materials.into_iter().map(|m| (m.id.clone(), m)).collect(),
        products: s.products.into_iter().map(|p| (p.id.clone(), p)).collect(),
        material_index: s.material_index,
        documents: s.documents,
        release_notes: s.release_notes,
        templates: s.templates,
        fragrance: s.fragrance,
        regulatory_status: s.regulatory_status,
        changelog: s.changelog,
        ..Dataset::default()
    })
}
