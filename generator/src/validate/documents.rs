//! `check` rules for the published documents and release notes: the front matter each needs,
//! dates that parse, unique versions, and templates that render.

use std::collections::BTreeSet;

use crate::model::{Dataset, Problem};
use crate::render::documents::{self, DOCUMENTS};

pub fn validate(dataset: &Dataset, problems: &mut Vec<Problem>) {
    let date = |s: &str| chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").is_ok();
    // Responses cite `data/...`; problems name the file where it really is.
    let file = |source_file: &str| {
        let rel = source_file.strip_prefix("data/").unwrap_or(source_file);
        dataset.dir.join(rel).display().to_string()
    };
    for name in DOCUMENTS {
        let Some(doc) = dataset.documents.get(name) else {
            problems.push(Problem::new(
                file(&format!("data/documents/{name}.md")),
                "",
                format!("missing: GET /api/{name} serves it"),
            ));
            continue;
        };
        let mut required = vec!["title", "updated"];
        if name == "disclaimer" {
            required.push("envelope_notice");
        }
        for key in required {
            if let Err(m) = doc.require(key) {
                problems.push(Problem::new(file(&doc.source_file), key, m));
            }
        }
        if doc.require("updated").is_ok_and(|d| !date(d)) {
            problems.push(Problem::new(
                file(&doc.source_file),
                "updated",
                "not a YYYY-MM-DD date",
            ));
        }
        if documents::document(dataset, name, documents::Format::Html).status != 200 {
            problems.push(Problem::new(
                "templates/document.html.j2",
                "",
                format!("does not render {name}"),
            ));
        }
    }
    if dataset.release_notes.is_empty() {
        problems.push(Problem::new(
            file("data/release-notes/"),
            "",
            "no release notes: GET /api/release-notes lists at least the current version",
        ));
    }
    let mut versions = BTreeSet::new();
    for note in &dataset.release_notes {
        for key in ["version", "date", "title"] {
            if let Err(m) = note.require(key) {
                problems.push(Problem::new(file(&note.source_file), key, m));
            }
        }
        if note.require("date").is_ok_and(|d| !date(d)) {
            problems.push(Problem::new(
                file(&note.source_file),
                "date",
                "not a YYYY-MM-DD date",
            ));
        }
        if let Ok(v) = note.require("version")
            && !versions.insert(v)
        {
            problems.push(Problem::new(
                file(&note.source_file),
                "version",
                format!("version {v} has another release note"),
            ));
        }
    }
}
