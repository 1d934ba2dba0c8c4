//! `entity-gaps.tsv`: the known gaps of materials and products that curation has yet to
//! close (an empty composition, a whole-work citation), one a row (data/README.md, "Entity
//! gaps"). `check` rejects a gap that is not listed and a listed gap that is closed, so the
//! list only shrinks and no new entry carries one.

use std::collections::BTreeSet;

use super::Sink;
use crate::model::{Dataset, Problem};

pub const FILE: &str = "entity-gaps.tsv";

/// A gap as `entities` finds it: entity id, gap kind, detail (the source id for a citation).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Gap {
    pub id: String,
    pub kind: &'static str,
    pub detail: String,
}

pub const EMPTY_COMPOSITION: &str = "empty_composition";
pub const WHOLE_WORK_CITATION: &str = "whole_work_citation";

/// The listed gaps: (id, kind, detail) per row after the header; none when the file is absent.
pub fn listed(dataset: &Dataset) -> BTreeSet<(String, String, String)> {
    let text = std::fs::read_to_string(dataset.dir.join(FILE)).unwrap_or_default();
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut cols = l.split('\t');
            let mut next = || cols.next().unwrap_or_default().to_string();
            (next(), next(), next())
        })
        .collect()
}

/// Reports each found gap the file does not list, and each listed gap no longer found.
pub(super) fn validate(dataset: &Dataset, found: &[Gap], problems: &mut Vec<Problem>) {
    let listed = listed(dataset);
    let found_keys: BTreeSet<(String, String, String)> = found
        .iter()
        .map(|g| (g.id.clone(), g.kind.to_string(), g.detail.clone()))
        .collect();
    for g in found {
        let key = (g.id.clone(), g.kind.to_string(), g.detail.clone());
        if listed.contains(&key) {
            continue;
        }
        let file = dataset
            .entity_files
            .get(&g.id)
            .map_or(g.id.as_str(), String::as_str);
        let mut out = Sink {
            file: file.into(),
            problems,
        };
        match g.kind {
            EMPTY_COMPOSITION => out.push(
                "composition",
                "empty composition: list the cited components, or remove the entry",
            ),
            _ => out.push(
                format!("sources[{}]", g.detail),
                "whole-work citation: cite one article by its DOI and edition, or a specific \
                 document (standard, regulation article, paper, safety data sheet)",
            ),
        }
    }
    let mut out = Sink {
        file: dataset.dir.join(FILE).display().to_string().into(),
        problems,
    };
    for (id, kind, detail) in listed.difference(&found_keys) {
        let what = if detail.is_empty() {
            kind.clone()
        } else {
            format!("{kind} {detail}")
        };
        out.push(
            id.clone(),
            format!("listed gap {what} is not found (closed or mistyped): remove the row"),
        );
    }
}
