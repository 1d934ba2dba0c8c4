//! Paginated lists of the keyed endpoints: compounds (the `GET /api/compounds`),
//! materials and products and the compound filter (`/api/filter`).
//!
//! Tiers come from a `RiskIndex` built once per dataset: assessing all compounds (and
//! synthesising all products) on every request would make each list cost as much as a build.
//!
//! Vocabularies (case-insensitive):
//! - `risk`: low, moderate, high, very_high, critical (the tier in `context`, default
//!   `human_adult`; aliases resolve).
//! - `hazard`: a hazard class of `HAZARD_CLASSES` (read from the record's hazard signals: GHS
//!   codes, IARC/NTP/Prop 65/SVHC listings, agency positions, environmental fate), a GHS
//!   hazard statement code (`h350` = `H350`, which also matches `H350i`; `H360` matches every
//!   H360 form; effect letters keep their case, since it carries the category: `H360Fd` is
//!   not `H360FD`), or a use class of `vocab::USE_CLASSES` (for example herbicide,
//!   plasticizer, flame_retardant).
//! - `type_filter` and filter `type`: a use class, matched against the compound's `type`.
//! - `functional_use`: a use class, matched against `type` and every `use_classes[]` entry.
//! - `category_filter`: a category of `vocab::CATEGORIES` (matched against `category`), or a
//!   use class (for example food_additive, dietary_supplement; matched like
//!   `functional_use`).

mod compound_filter;
mod compounds;
mod filter;
mod materials;
mod params;
mod products;
mod risk_index;
pub(crate) mod select;
#[cfg(test)]
mod tests;

pub use compound_filter::HAZARD_CLASSES;
pub(crate) use compounds::CompoundList;
pub use compounds::{CompoundsQuery, compounds};
pub use filter::{FilterQuery, filter};
pub(crate) use materials::MaterialsBody;
pub use materials::{MaterialsQuery, materials};
pub(crate) use products::ProductsBody;
pub use products::{ProductsQuery, products};
pub use risk_index::RiskIndex;

pub(crate) use compounds::served;
pub use params::quoted;
