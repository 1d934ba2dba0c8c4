//! Reads `data/regulatory-status/`: `vocabulary.json` and every other `*.json` as a
//! jurisdiction file, collecting problems with their file and JSON path instead of stopping.

use std::path::Path;

use sha2::{Digest, Sha256};

use crate::load::{json_files, parse_json};
use crate::model::Problem;
use crate::model::regulatory_status::{JurisdictionFile, LoadedFile, RegulatoryStatus, Vocabulary};

/// The layer's folder below the data directory.
const FOLDER: &str = "regulatory-status";
const VOCABULARY: &str = "vocabulary.json";

/// Loads `data_dir/regulatory-status/`. A dataset without the folder (a test corpus) has an
/// empty layer and no problem.
pub fn load(data_dir: &Path) -> (RegulatoryStatus, Vec<Problem>) {
    let dir = data_dir.join(FOLDER);
    let mut problems = Vec::new();
    let mut rs = RegulatoryStatus::default();
    let mut hasher = Sha256::new();
    if dir.is_dir() {
        let mut vocabulary = None;
        for path in json_files(&dir) {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let file = format!("{FOLDER}/{name}");
            let bytes = match std::fs::read(&path) {
                Ok(b) => b,
                Err(e) => {
                    problems.push(Problem::new(file, "", e.to_string()));
                    continue;
                }
            };
            hasher.update(&bytes);
            if name == VOCABULARY {
                match parse_json::<Vocabulary>(&file, &bytes) {
                    Ok(v) => vocabulary = Some(v),
                    Err(p) => problems.push(p),
                }
            } else {
                match parse_json::<JurisdictionFile>(&file, &bytes) {
                    Ok(content) => rs.files.push(LoadedFile { file, content }),
                    Err(p) => problems.push(p),
                }
            }
        }
        match vocabulary {
            Some(v) => rs.vocabulary = v,
            // Without it no cell's analyte or matrix can be checked: say so once here.
            None if !problems.iter().any(|p| p.file.ends_with(VOCABULARY)) => {
                problems.push(Problem::new(
                    format!("{FOLDER}/{VOCABULARY}"),
                    "",
                    "missing: the layer's analyte and matrix vocabularies",
                ))
            }
            None => {}
        }
    }
    let digest = hasher.finalize();
    rs.dataset_version = format!(
        "rs-{}",
        digest
            .iter()
            .take(6)
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    );
    (rs, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dataset_without_the_folder_has_an_empty_layer() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (rs, problems) = load(dir.path());
        assert!(problems.is_empty());
        assert_eq!(rs.cells().count(), 0);
        // SHA-256 of nothing.
        assert_eq!(rs.dataset_version, "rs-e3b0c44298fc");
    }

    #[test]
    fn broken_files_are_problems_with_paths() {
        let dir = tempfile::tempdir().expect("temp dir");
        let folder = dir.path().join(FOLDER);
        std::fs::create_dir(&folder).expect("folder");
        std::fs::write(
            folder.join("eu.json"),
            r#"{"jurisdiction":"EU","sources":[],"cells":[{"analyte":"lead","matrix":"x",
                "jurisdiction":"EU","governance_timeline":[{"threshold_ppb":"ten"}]}],"gaps":[]}"#,
        )
        .expect("write");
        let (rs, problems) = load(dir.path());
        assert_eq!(rs.files.len(), 0);
        let shown: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(shown.len(), 2, "{shown:?}");
        assert!(
            shown[0].starts_with("regulatory-status/eu.json: cells[0].governance_timeline[0]"),
            "{shown:?}"
        );
        assert_eq!(
            shown[1],
            "regulatory-status/vocabulary.json: missing: the layer's analyte and matrix vocabularies"
        );
    }

    #[test]
    fn the_version_changes_with_the_bytes() {
        let dir = tempfile::tempdir().expect("temp dir");
        let folder = dir.path().join(FOLDER);
        std::fs::create_dir(&folder).expect("folder");
        std::fs::write(folder.join(VOCABULARY), r#"{"analytes":{},"matrices":{}}"#).expect("write");
        let (first, problems) = load(dir.path());
        assert!(problems.is_empty(), "{problems:?}");
        std::fs::write(folder.join(VOCABULARY), r#"{"analytes":{}, "matrices":{}}"#)
            .expect("write");
        let (second, _) = load(dir.path());
        assert!(first.dataset_version.starts_with("rs-"));
        assert_eq!(first.dataset_version.len(), 15);
        assert_ne!(first.dataset_version, second.dataset_version);
    }
}
