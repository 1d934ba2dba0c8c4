//! The regulatory section of a one-context comparison: each agency's classifications of each
//! compound, and which agencies classify all of the compounds or only some.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::value::RawValue;

use super::compared::{Compared, InOrder};
use super::profile::written;
use crate::model::ids::CompoundId;
use crate::model::record::CompoundRecord;

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
    pub(super) compounds: Vec<&'a CompoundId>,
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
    #[schemars(with = "BTreeMap<&'a str, InOrder<&'a str, Option<Vec<Classified<'a>>>>>")]
    matrix: InOrder<&'a str, InOrder<&'a CompoundId, Option<&'a RawValue>>>,
    pub(super) agreement: Agreement<'a>,
}

/// Each agency classifying the record (ascending) with its classifications by that agency,
/// written once (`profile`).
pub(super) fn by_agency(record: &CompoundRecord) -> Vec<(String, Box<RawValue>)> {
    let classifications = &record.regulatory.classifications;
    let agencies: BTreeSet<&str> = classifications.iter().map(|x| x.agency.as_str()).collect();
    agencies
        .into_iter()
        .map(|agency| {
            let cells: Vec<Classified<'_>> = classifications
                .iter()
                .filter(|x| x.agency == agency)
                .map(|x| Classified {
                    attribution: &x.attribution,
                    classification: &x.classification,
                    year: x.year,
                })
                .collect();
            (agency.to_owned(), written(&cells))
        })
        .collect()
}

pub(super) fn regulatory<'a>(all: &'a [Compared<'a>]) -> RegulatoryComparison<'a> {
    let agencies: BTreeSet<&str> = all.iter().flat_map(|c| c.profile.agencies()).collect();
    let mut matrix = Vec::with_capacity(agencies.len());
    let mut agreement = Agreement {
        classify_all: Vec::new(),
        classify_some: Vec::new(),
    };
    for agency in agencies {
        let row = Compared::each(all, |c| c.profile.classified_by(agency));
        let classified: Vec<&CompoundId> = row
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
        matrix.push((agency, row));
    }
    RegulatoryComparison {
        matrix: InOrder(matrix),
        agreement,
    }
}
