//! The dataset model: the stored record types, their vocabularies, and the loaded dataset.

pub mod aliases;
pub mod contexts;
pub mod documents;
pub mod material;
pub mod record;
pub mod vocab;

use record::CompoundRecord;

/// The stored form of a record: pretty JSON in field order, with a final newline.
pub fn to_stored_json(record: &CompoundRecord) -> String {
    let mut text = serde_json::to_string_pretty(record).expect("records serialize to JSON");
    text.push('\n');
    text
}
