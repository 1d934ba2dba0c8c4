//! `check`: the dataset's rules beyond its shape (which loading already enforces). One entry,
//! `validate`, runs every part's checks and reports each problem with its file and JSON path.

use std::borrow::Cow;
use std::collections::HashSet;

use rayon::prelude::*;

use crate::model::ids::CompoundId;
use crate::model::{Dataset, Problem};

mod aliases;
mod changelog;
mod citations;
mod compounds;
mod dates;
mod documents;
mod entities;
pub mod entity_gaps;
pub mod entity_stats;
pub(crate) mod fragrance;
mod provenance;
pub(crate) mod regulatory_status;
mod retired;
pub mod stats;

/// Every problem found, sorted by file and path.
pub fn validate(dataset: &Dataset) -> Vec<Problem> {
    validate_except(dataset, &HashSet::new())
}

/// As `validate`, without the checks of one record for the compounds in `clean`: records a
/// previous run checked clean against the same inputs (`build::site::LastBuild::checked`).
pub fn validate_except(dataset: &Dataset, clean: &HashSet<CompoundId>) -> Vec<Problem> {
    // The parts read the dataset alone, so they run side by side (the materials' and
    // products' checks take as long as all the others on a rebuild that checks one record).
    type Part<'a> = Box<dyn Fn(&mut Vec<Problem>) + Send + Sync + 'a>;
    let parts: Vec<Part<'_>> = vec![
        Box::new(|p| entities::validate(dataset, p)),
        Box::new(|p| compounds::validate(dataset, clean, p)),
        Box::new(|p| dates::validate(dataset, p)),
        Box::new(|p| documents::validate(dataset, p)),
        Box::new(|p| fragrance::validate(&dataset.fragrance, dataset, p)),
        Box::new(|p| aliases::validate(dataset, p)),
        Box::new(|p| changelog::validate(dataset, p)),
        Box::new(|p| regulatory_status::validate(&dataset.regulatory_status, p)),
        Box::new(|p| provenance::validate(dataset, p)),
        Box::new(|p| retired::validate(dataset, p)),
    ];
    let mut problems: Vec<Problem> = parts
        .par_iter()
        .flat_map_iter(|part| {
            let mut found = Vec::new();
            part(&mut found);
            found
        })
        .collect();
    problems.sort();
    problems
}

/// Where a part's checks report: the file they are reading and the list problems go to.
struct Sink<'a> {
    file: Cow<'a, str>,
    problems: &'a mut Vec<Problem>,
}

impl Sink<'_> {
    fn push(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.problems
            .push(Problem::new(self.file.as_ref(), path, message));
    }
}
