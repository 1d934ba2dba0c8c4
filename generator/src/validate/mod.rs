//! `check`: the dataset's rules beyond its shape (which loading already enforces). One entry,
//! `validate`, runs every part's checks and reports each problem with its file and JSON path.

use std::borrow::Cow;
use std::collections::HashSet;

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
pub mod stats;

/// Every problem found, sorted by file and path.
pub fn validate(dataset: &Dataset) -> Vec<Problem> {
    validate_except(dataset, &HashSet::new())
}

/// As `validate`, without the checks of one record for the compounds in `clean`: records a
/// previous run checked clean against the same inputs (`build::site::LastBuild::checked`).
pub fn validate_except(dataset: &Dataset, clean: &HashSet<String>) -> Vec<Problem> {
    let mut problems = Vec::new();
    compounds::validate(dataset, clean, &mut problems);
    dates::validate(dataset, &mut problems);
    entities::validate(dataset, &mut problems);
    documents::validate(dataset, &mut problems);
    fragrance::validate(&dataset.fragrance, dataset, &mut problems);
    aliases::validate(dataset, &mut problems);
    changelog::validate(dataset, &mut problems);
    regulatory_status::validate(&dataset.regulatory_status, &mut problems);
    provenance::validate(dataset, &mut problems);
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
