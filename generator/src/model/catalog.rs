//! The catalogue of ingestable tables, `data/sources.json`: where each table is, which parser
//! reads it, and the edition and publisher every value from it is attributed to.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::model::record::SourceRef;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceDescriptor {
    pub id: String,
    /// The parser (see `tables::parser_for`).
    pub table: String,
    /// Path of the table, or of its folder, relative to a `--sources` directory.
    pub path: String,
    pub title: String,
    pub publisher: String,
    pub edition: String,
    pub url: String,
    #[serde(default)]
    pub accessed: Option<String>,
    /// A table used only where another has nothing: its values are dropped from any record
    /// that holds a value of the named source (HCIS stands in for CLP).
    #[serde(default)]
    pub fallback_for: Option<String>,
    /// Whether the table says what a substance is used for (FDA's technical effects, the
    /// food contact inventory). Only such tables may give a record `use_classes`.
    #[serde(default)]
    pub states_purpose: bool,
}

impl SourceDescriptor {
    /// The reference written into each record that holds a value from this table.
    pub fn to_ref(&self) -> SourceRef {
        SourceRef {
            id: self.id.clone(),
            title: self.title.clone(),
            publisher: self.publisher.clone(),
            edition: self.edition.clone(),
            url: self.url.clone(),
            accessed: self.accessed.clone(),
        }
    }

    /// The first of `roots` that holds this table.
    pub fn locate(&self, roots: &[PathBuf]) -> Option<PathBuf> {
        roots
            .iter()
            .map(|root| root.join(&self.path))
            .find(|p| p.exists())
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalog {
    #[serde(default)]
    pub description: String,
    pub sources: Vec<SourceDescriptor>,
}

impl Catalog {
    pub fn read(path: &Path) -> anyhow::Result<Catalog> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let catalog: Catalog =
            serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        Ok(catalog)
    }

    /// Precedence of a source id: its position in the catalogue (curated sources, which are
    /// not in it, rank above all: see `merge`).
    pub fn rank(&self, source: &str) -> usize {
        self.sources
            .iter()
            .position(|s| s.id == source)
            .map_or(0, |i| i + 1)
    }

    pub fn get(&self, id: &str) -> Option<&SourceDescriptor> {
        self.sources.iter().find(|s| s.id == id)
    }
}
