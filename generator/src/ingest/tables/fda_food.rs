//! Parser stub: not yet written (see ingest/tables/mod.rs).

use std::path::Path;

use super::TableError;
use crate::ingest::catalog::SourceDescriptor;
use crate::ingest::contribution::Contribution;

pub fn read_substances_added(_path: &Path, _src: &SourceDescriptor) -> Result<Vec<Contribution>, TableError> {
    Ok(Vec::new())
}

pub fn read_food_contact(_path: &Path, _src: &SourceDescriptor) -> Result<Vec<Contribution>, TableError> {
    Ok(Vec::new())
}
