//! Reads `changelog.jsonl`: one entry per line; a missing file is an empty changelog (a
//! dataset before its first diff), a line that does not parse is a problem with its number.

use std::path::Path;

use crate::model::Problem;
use crate::model::changelog::Entry;

pub fn read(path: &Path) -> (Vec<Entry>, Vec<Problem>) {
    let file = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (Vec::new(), Vec::new()),
        Err(e) => return (Vec::new(), vec![Problem::new(file, "", e.to_string())]),
    };
    let mut entries = Vec::new();
    let mut problems = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match crate::load::parse_json::<Entry>(&file, line.as_bytes()) {
            Ok(e) => entries.push(e),
            Err(mut p) => {
                let at = format!("line {}", i + 1);
                p.path = if p.path.is_empty() {
                    at
                } else {
                    format!("{at}: {}", p.path)
                };
                problems.push(p);
            }
        }
    }
    (entries, problems)
}
