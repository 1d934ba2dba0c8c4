//! The release changelog (DESIGN.md "Changelog"): `saferef-generate diff OLD NEW` compares two
//! datasets and appends one entry per changed compound or regulatory-status cell to NEW's
//! `changelog.jsonl`; the loader reads that file into the dataset, `check` validates it and
//! the runtime serves it (`GET /api/changelog`) and emits its newest release as events.
//!
//! `model` is the entry shape, `diff` the comparison and the idempotent append, `load` the
//! reader and `validate` the `check` rules.

mod diff;
mod load;
pub mod model;
mod validate;

pub use diff::{Diff, append, diff};
pub use load::read;
pub use model::{Change, Entry, EventType, FILE};
pub use validate::validate;
