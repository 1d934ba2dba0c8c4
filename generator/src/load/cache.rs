//! What a load may take from an earlier one instead of parsing again.

use crate::model::Hash;

/// Records an earlier load parsed (the build keeps them: `site::LastBuild`).
pub trait RecordCache: Sync {
    /// The JSON (as the snapshot writes a record) of the record parsed from `file` (relative to
    /// the data directory) when the file's bytes hashed to `digest` and the inputs every record
    /// is shaped by hashed to `records_key` (`Dataset::records_key`).
    fn record(&self, records_key: &Hash, file: &str, digest: &Hash) -> Option<&[u8]>;
}
