//! Parser stub: not yet written (see ingest/tables/mod.rs).

use std::path::Path;

use super::TableError;
use crate::ingest::catalog::SourceDescriptor;
use crate::ingest::contribution::Contribution;

pub fn read(_path: &Path, _src: &SourceDescriptor) -> Result<Vec<Contribution>, TableError> {
    Ok(Vec::new())
}
