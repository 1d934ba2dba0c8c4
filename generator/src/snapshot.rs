//! The dataset snapshot (`site/_data/dataset.json.zst`): the loaded, validated dataset as one
//! zstd-compressed JSON document, written by the build so the runtime starts without
//! re-reading and re-validating data/.

use std::collections::BTreeMap;
use std::path::Path;

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
const FORMAT: u32 = 4;

#[derive(Serialize, Deserialize)]
struct Snapshot {
    format: u32,
    generator_version: String,
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
}

/// The compressed snapshot of `dataset`.
pub fn encode(dataset: &Dataset) -> anyhow::Result<Vec<u8>> {
    let snapshot = Snapshot {
        format: FORMAT,
        generator_version: env!("CARGO_PKG_VERSION").into(),
        fingerprint: dataset.fingerprint.clone(),
        ids: dataset.ids.to_tsv(),
        agencies: dataset.agencies.clone(),
        contexts: dataset.contexts.clone(),
        aliases: dataset.aliases.clone(),
        compounds: dataset.compounds.values().cloned().collect(),
        materials: dataset.materials.values().cloned().collect(),
        products: dataset.products.values().cloned().collect(),
        material_index: dataset.material_index.clone(),
        documents: dataset.documents.clone(),
        release_notes: dataset.release_notes.clone(),
        templates: dataset.templates.clone(),
        fragrance: dataset.fragrance.clone(),
        regulatory_status: dataset.regulatory_status.clone(),
    };
    let json = serde_json::to_vec(&snapshot)?;
    // Level 3 (zstd's default): the snapshot is rewritten by every build, so speed matters
    // more than the last few percent of size.
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
        ..Dataset::default()
    })
}
