//! Loads `data/fragrance/` into a `Fragrance`. A dataset without the folder (a test corpus)
//! has no fragrance data and no problem; a file that is missing or does not fit the model is
//! a problem with its JSON path, and the rest of the data still loads.

use std::path::Path;

use crate::model::Problem;
use crate::model::fragrance::{CLASSES_FILE, Fragrance, INGREDIENTS_FILE};
use serde::de::DeserializeOwned;

pub fn load(data_dir: &Path) -> (Fragrance, Vec<Problem>) {
    let mut problems = Vec::new();
    if !data_dir.join("fragrance").is_dir() {
        return (Fragrance::default(), problems);
    }
    let fragrance = Fragrance {
        classes: read(&data_dir.join(CLASSES_FILE), &mut problems).unwrap_or_default(),
        ingredients: read(&data_dir.join(INGREDIENTS_FILE), &mut problems).unwrap_or_default(),
    };
    (fragrance, problems)
}

/// Reads one file, reporting the JSON path of the first value that does not fit.
fn read<T: DeserializeOwned>(path: &Path, problems: &mut Vec<Problem>) -> Option<T> {
    let file = path.display().to_string();
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            problems.push(Problem::new(file, "", e.to_string()));
            return None;
        }
    };
    let de = &mut serde_json::Deserializer::from_slice(&bytes);
    match serde_path_to_error::deserialize(de) {
        Ok(v) => Some(v),
        Err(e) => {
            let path = e.path().to_string();
            let path = if path == "." { String::new() } else { path };
            problems.push(Problem::new(file, path, e.inner().to_string()));
            None
        }
    }
}
