//! `check` rules of `changelog.jsonl`: ids unique and derived from their entries (so an
//! edited entry cannot pass for the one the diff wrote), dates, and compound references.

use std::collections::BTreeSet;

use crate::model::changelog::{EventType, FILE};
use crate::model::{Dataset, Problem};

pub fn validate(dataset: &Dataset, problems: &mut Vec<Problem>) {
    let file = dataset.dir.join(FILE).display().to_string();
    let mut seen = BTreeSet::new();
    for (i, e) in dataset.changelog.iter().enumerate() {
        let mut push = |field: &str, message: String| {
            problems.push(Problem::new(
                &file,
                format!("entries[{i}].{field}"),
                message,
            ));
        };
        if !seen.insert(e.id.as_str()) {
            push("id", format!("duplicate entry id {}", e.id));
        }
        let expected = e.expected_id();
        if e.id != expected {
            push(
                "id",
                format!(
                    "{} is not the id its release, type, compound and name derive ({expected})",
                    e.id
                ),
            );
        }
        if e.release.trim().is_empty() {
            push("release", "must not be empty".into());
        }
        if chrono::NaiveDate::parse_from_str(&e.date, "%Y-%m-%d").is_err() {
            push("date", format!("{:?} is not a YYYY-MM-DD date", e.date));
        }
        if e.summary.trim().is_empty() {
            push("summary", "must not be empty".into());
        }
        let compound_kind = e.kind != EventType::RegulatoryUpdated;
        match &e.compound_id {
            None if compound_kind => {
                push(
                    "compound_id",
                    format!("a {} entry names its compound", e.kind.as_str()),
                );
            }
            // A removed compound keeps its id in ids.tsv but may have no record.
            Some(id)
                if e.kind != EventType::CompoundRemoved
                    && dataset.compound(id).is_none()
                    && !dataset.unread.contains(id) =>
            {
                push(
                    "compound_id",
                    format!("dangling reference: no compound {id}"),
                );
            }
            _ => {}
        }
    }
}
