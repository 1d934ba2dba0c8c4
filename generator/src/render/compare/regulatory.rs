//! The regulatory section of a one-context comparison: each agency's classifications of each
//! compound, and which agencies classify all of the compounds or only some.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::compared::{Compared, InOrder};

#[derive(Serialize, schemars::JsonSchema)]
struct Classified<'a> {
    attribution: &'a str,
    classification: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    year: Option<i32>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct Partial<'a> {
    pub(super) agency: &'a str,
    pub(super) compounds: Vec<&'a str>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct Agreement<'a> {
    /// Agencies with a classification of every compared compound.
    pub(super) classify_all: Vec<&'a str>,
    /// Agencies that classify some of them, and which.
    pub(super) classify_some: Vec<Partial<'a>>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct RegulatoryComparison<'a> {
    /// Agency -> compound -> its classifications, or null where the agency has none.
    matrix: BTreeMap<&'a str, InOrder<&'a str, Option<Vec<Classified<'a>>>>>,
    pub(super) agreement: Agreement<'a>,
}

pub(super) fn regulatory<'a>(all: &'a [Compared<'a>]) -> RegulatoryComparison<'a> {
    let mut agencies: BTreeSet<&str> = BTreeSet::new();
    for c in all {
        agencies.extend(
            c.record
                .regulatory
                .classifications
                .iter()
                .map(|x| x.agency.as_str()),
        );
    }
    let mut matrix = BTreeMap::new();
    let mut agreement = Agreement {
        classify_all: Vec::new(),
        classify_some: Vec::new(),
    };
    for agency in agencies {
        let row = Compared::each(all, |c| {
            let cells: Vec<Classified<'_>> = c
                .record
                .regulatory
                .classifications
                .iter()
                .filter(|x| x.agency == agency)
                .map(|x| Classified {
                    attribution: &x.attribution,
                    classification: &x.classification,
                    year: x.year,
                })
                .collect();
            (!cells.is_empty()).then_some(cells)
        });
        let classified: Vec<&str> = row
            .0
            .iter()
            .filter(|(_, cells)| cells.is_some())
            .map(|(id, _)| *id)
            .collect();
        if classified.len() == all.len() {
            agreement.classify_all.push(agency);
        } else {
            agreement.classify_some.push(Partial {
                agency,
                compounds: classified,
            });
        }
        matrix.insert(agency, row);
    }
    RegulatoryComparison { matrix, agreement }
}
