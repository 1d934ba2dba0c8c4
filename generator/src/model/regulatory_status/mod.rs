//! The regulatory-status layer: limits per analyte, matrix and
//! jurisdiction over time. `cells` is the stored shape of
//! `data/regulatory-status/`, `governance` the lifecycle logic (current and upcoming values as
//! of a date, the change calendar). `load::regulatory_status` reads the folder,
//! `validate::regulatory_status` checks it and `render::regulatory_status` answers
//! `GET /api/regulatory-status`.

mod cells;
pub mod governance;

use serde::{Deserialize, Serialize};

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
