//! The fragrance view (issue 11): fragrance ingredients over the compound corpus, with
//! their EU allergen labelling, IFRA Standards status, odour families and chemical classes,
//! read from `data/fragrance/` (`model`, `load`), checked (`validate`) and served by three
//! keyed endpoints (`render`).

pub mod load;
pub mod model;
pub mod render;
pub mod validate;

pub use load::{Fragrance, load};
pub use validate::validate;

#[cfg(test)]
mod tests;
