//! What a load may take from an earlier one instead of reading or parsing again.

use crate::model::Hash;
use crate::model::file_stamp::FileStamp;

/// Records an earlier load parsed (the build keeps them: `site::LastBuild`).
pub trait RecordCache: Sync {
    /// The JSON (as the snapshot writes a record) of the record parsed from `file` (relative to
    /// the data directory) when the file's bytes hashed to `digest` and the inputs every record
    /// is shaped by hashed to `records_key` (`Dataset::records_key`).
    fn record(&self, records_key: &Hash, file: &str, digest: &Hash) -> Option<&[u8]>;

    /// The digest of `file`'s bytes when the earlier load read it with this stamp: the file
    /// has not been written since, so it need not be read and hashed again.
    fn digest(&self, file: &str, stamp: &FileStamp) -> Option<Hash>;
}
