//! One parser per public table. Each turns a table into `Contribution`s keyed by CAS and a
//! `Ledger` saying what became of every row; parsers know nothing of records, ids or merging;
//! `parse` dispatches on the catalogue's `table`.

use std::path::Path;

use super::contribution::Contribution;
use super::set_aside::SetAside;
use crate::model::catalog::SourceDescriptor;
use ledger::Ledger;

mod call;
mod clp;
mod cosing;
mod cpdat;
mod dose;
mod efsa;
mod efsa_points;
mod fda_food;
mod hcis;
mod iarc;
mod identifiers;
pub mod ledger;
mod mn_ihb;
mod ntp;
mod ontario_oel;
mod osha;
mod physical;
mod prop65;
mod rcra;
mod svhc;
mod text;
mod toxvaldb;

pub use text::display_name;

#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Csv { path: String, source: csv::Error },
    #[error("{path}: {message}")]
    Format { path: String, message: String },
    #[error("no parser named {0:?} (see ingest/tables/mod.rs)")]
    UnknownTable(String),
}

/// What a parser made of a table.
#[derive(Debug, Default)]
pub struct Parsed {
    pub contributions: Vec<Contribution>,
    pub ledger: Ledger,
}

/// Reads the table at `path` with the parser the catalogue names for it; `set_aside` names the
/// OpenFoodTox rows curation does not serve.
pub fn parse(
    src: &SourceDescriptor,
    path: &Path,
    set_aside: &SetAside,
) -> Result<Parsed, TableError> {
    match src.table.as_str() {
        "identifiers" => identifiers::read(path, src, false),
        "identifiers_inorganic" => identifiers::read(path, src, true),
        "iarc" => iarc::read(path, src),
        "ntp_roc" => ntp::read(path, src),
        "prop65" => prop65::read(path, src),
        "clp" => clp::read(path, src),
        "hcis" => hcis::read(path, src),
        "svhc" => svhc::read(path, src),
        "efsa_openfoodtox" => efsa::read(path, src, set_aside),
        "toxvaldb_cancer" => toxvaldb::read(path, src),
        "mn_ihb" => mn_ihb::read(path, src),
        "ontario_oel" => ontario_oel::read(path, src),
        "rcra" => rcra::read(path, src),
        "osha_carcinogens" => osha::read(path, src),
        "cosing_annex_ii" => cosing::read(path, src),
        "fda_substances_added_to_food" => fda_food::read_substances_added(path, src),
        "fda_food_contact" => fda_food::read_food_contact(path, src),
        "cpdat" => cpdat::read(path, src),
        "physical_constants" => physical::read_constants(path, src),
        "logp" => physical::read_logp(path, src),
        "flammability" => physical::read_flammability(path, src),
        "gwp" => physical::read_gwp(path, src),
        "odp" => physical::read_odp(path, src),
        other => Err(TableError::UnknownTable(other.to_string())),
    }
}

#[cfg(test)]
pub(crate) mod testing {
    use crate::model::catalog::SourceDescriptor;

    /// A catalogue entry for parser tests.
    pub fn descriptor(id: &str) -> SourceDescriptor {
        SourceDescriptor {
            id: id.to_string(),
            table: id.to_string(),
            path: String::new(),
            title: format!("{id} table"),
            publisher: "Test".into(),
            edition: "test".into(),
            url: format!("https://example.org/{id}"),
            accessed: None,
            fallback_for: None,
            states_purpose: true,
        }
    }
}
