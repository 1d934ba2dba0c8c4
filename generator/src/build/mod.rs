//! `saferef-generate build` and `diff`: the static tree written from the dataset (`site`),
//! the one way its files are written (`output`), the release changelog (`diff`) and the
//! release notes made from it (`release_notes`).

pub mod diff;
pub mod output;
pub mod release_notes;
pub mod site;
