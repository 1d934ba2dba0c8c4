//! The regulatory-status layer: limits per analyte, matrix and
//! jurisdiction over time. `cells` is the stored shape of
//! `data/regulatory-status/`, `governance` the lifecycle logic (current and upcoming values as
//! of a date, the change calendar). `load::regulatory_status` reads the folder,
//! `validate::regulatory_status` checks it and `render::regulatory_status` answers
//! `GET /api/regulatory-status`.

mod cells;
pub mod governance;

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

pub use cells::*;

/// The loaded layer.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RegulatoryStatus {
    /// `rs-` and the first 12 hex digits of a SHA-256 over the layer's files in path order:
    /// changes whenever a tranche of data ships (reported by `GET /api/health`).
    pub dataset_version: String,
    pub vocabulary: Vocabulary,
    /// The jurisdiction files in path order.
    pub files: Vec<LoadedFile>,
    /// Each value as `GET /api/regulatory-status` writes it (`render::regulatory_status`).
    #[serde(skip)]
    pub written: Written,
}

/// The JSON of every value of the layer, by file, cell and value in their order: written at
/// the first answer that needs it and kept with the layer, so an answer copies each value's
/// bytes instead of serialising it again. A clone starts empty: a changed copy of the layer
/// never answers with the bytes of the original.
#[derive(Debug, Default)]
pub struct Written(OnceLock<Vec<Vec<Vec<Box<RawValue>>>>>);

impl Written {
    /// The values' JSON, written by `write` (file, cell, value) the first time.
    pub fn get_or_init(
        &self,
        write: impl FnOnce() -> Vec<Vec<Vec<Box<RawValue>>>>,
    ) -> &[Vec<Vec<Box<RawValue>>>] {
        self.0.get_or_init(write)
    }
}

impl Clone for Written {
    fn clone(&self) -> Written {
        Written::default()
    }
}

impl RegulatoryStatus {
    /// Every cell, file by file in path order, each in file order.
    pub fn cells(&self) -> impl Iterator<Item = &Cell> {
        self.files.iter().flat_map(|f| f.content.cells.iter())
    }
}

/// A jurisdiction file and where it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct LoadedFile {
    /// Path below the data directory (`regulatory-status/us.json`), as problems name it.
    pub file: String,
    pub content: JurisdictionFile,
}
