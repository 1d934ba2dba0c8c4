//! Parser stub: not yet written (see ingest/tables/mod.rs).

use std::path::Path;

use super::TableError;
use crate::ingest::catalog::SourceDescriptor;
use crate::ingest::contribution::Contribution;

pub fn read_constants(_path: &Path, _src: &SourceDescriptor) -> Result<Vec<Contribution>, TableError> {
    Ok(Vec::new())
}
pub fn read_logp(_path: &Path, _src: &SourceDescriptor) -> Result<Vec<Contribution>, TableError> {
    Ok(Vec::new())
}
pub fn read_flammability(_path: &Path, _src: &SourceDescriptor) -> Result<Vec<Contribution>, TableError> {
    Ok(Vec::new())
}
pub fn read_gwp(_path: &Path, _src: &SourceDescriptor) -> Result<Vec<Contribution>, TableError> {
    Ok(Vec::new())
}
pub fn read_odp(_path: &Path, _src: &SourceDescriptor) -> Result<Vec<Contribution>, TableError> {
    Ok(Vec::new())
}
