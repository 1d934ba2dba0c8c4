//! `saferef-generate build` and `diff`: the static tree written from the dataset (`site`),
//! the one way its files are written (`output`) and the release changelog (`diff`).

pub mod diff;
pub mod output;
pub mod site;
