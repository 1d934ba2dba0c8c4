//! The regulatory-status layer (SPEC 2.8, 2.9, 3, 4.6): limits per analyte, matrix and
//! jurisdiction over time. `model` is the stored shape, `load` reads
//! `data/regulatory-status/`, `validate` holds its `check` rules, `governance` the SPEC 3
//! logic (current and upcoming values as of a date, the change calendar) and `render` the
//! `GET /api/regulatory-status` response.

pub mod governance;
mod load;
pub mod model;
pub mod render;
#[cfg(test)]
mod tests;
mod validate;

use serde::{Deserialize, Serialize};

pub use load::load;
pub use validate::validate;

use model::{Cell, JurisdictionFile, Vocabulary};

/// The loaded layer.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct RegulatoryStatus {
    /// `rs-` and the first 12 hex digits of a SHA-256 over the layer's files in path order:
    /// changes whenever a tranche of data ships (reported by `GET /api/health`, SPEC 9).
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadedFile {
    /// Path below the data directory (`regulatory-status/us.json`), as problems name it.
    pub file: String,
    pub content: JurisdictionFile,
}
