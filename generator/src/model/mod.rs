//! The dataset model: the stored record types, their vocabularies, and the loaded dataset.

/// The JSON schema of a newtype published as the plain string it is written as: inline, as
/// `String`'s (a derived transparent schema would be a named definition).
macro_rules! plain_string_schema {
    ($ty:ty) => {
        impl schemars::JsonSchema for $ty {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                String::schema_name()
            }

            fn inline_schema() -> bool {
                true
            }

            fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
                String::json_schema(generator)
            }
        }
    };
}

pub mod aliases;
pub mod alternate_cas;
pub mod as_of;
pub mod cas;
pub mod catalog;
pub mod changelog;
pub mod contexts;
pub mod dating;
pub mod documents;
pub mod exposure;
pub mod file_stamp;
pub mod formula;
pub mod fragrance;
pub mod group_rows;
pub mod ids;
pub mod material;
pub mod merge;
pub mod names;
pub mod record;
pub mod regulatory_status;
pub mod retired;
pub mod timeline;
pub mod vocab;

mod dataset;
mod problem;

pub use dataset::{
    Agency, AgencyFile, CuratedEntry, CuratedFile, Dataset, Ended, Hash, RouteStatement,
};
pub use problem::Problem;

use record::CompoundRecord;

/// The stored form of a record: pretty JSON in field order, with a final newline.
pub fn to_stored_json(record: &CompoundRecord) -> String {
    let mut text = serde_json::to_string_pretty(record).expect("records serialize to JSON");
    text.push('\n');
    text
}

/// A query value echoed in an error: debug-quoted and cut, so a hostile value cannot make
/// the error body large.
pub fn quoted(value: &str) -> String {
    const MAX: usize = 64;
    if value.chars().count() <= MAX {
        format!("{value:?}")
    } else {
        let cut: String = value.chars().take(MAX).collect();
        format!("{cut:?}...")
    }
}
