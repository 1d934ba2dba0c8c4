//! Which compounds are in the corpus.
//!
//! Rules, in order (documented in data/README.md):
//! 1. every agent with a CAS number on a selecting list: IARC, NTP RoC, Prop 65, ECHA SVHC
//!    (tables whose parser marks contributions `selects`);
//! 2. every row of `data/curated/selection.tsv`, the hand-picked classes a reference service
//!    must hold (food additives, fragrance allergens, pesticides, PFAS, warfare agents...).

use std::path::Path;

use std::collections::BTreeMap;

use crate::model::cas::Cas;
use crate::model::ids::CompoundKind;
use crate::model::record::SourceRef;

/// The source id of `data/curated/selection.tsv`.
pub const SELECTION_SOURCE: &str = "saferef-curated-selection";

/// One hand-picked compound.
#[derive(Debug, Clone, PartialEq)]
pub struct Selected {
    pub cas: Cas,
    pub name: String,
    /// A use class (model::vocab::USE_CLASSES); `None` (`-` in the file) when the row only
    /// names a compound that is in the corpus through a list, and no source states its use.
    pub group: Option<String>,
    pub note: String,
}

#[derive(Debug, thiserror::Error)]
#[error("{path}:{line}: {message}")]
pub struct SelectionError {
    pub path: String,
    pub line: usize,
    pub message: String,
}

/// The reference for values taken from the selection list (names and use classes).
pub fn selection_source_ref() -> SourceRef {
    SourceRef {
        id: SELECTION_SOURCE.into(),
        title: "saferef curated corpus selection (data/curated/selection.tsv)".into(),
        publisher: "saferef data team".into(),
        edition: "current revision in the repository".into(),
        url: "data/curated/selection.tsv".into(),
        accessed: None,
    }
}

pub fn read_selection(path: &Path) -> Result<Vec<Selected>, SelectionError> {
    match read_optional(path)? {
        Some(text) => parse_selection(&text, &path.display().to_string()),
        None => Ok(Vec::new()),
    }
}

/// The file's text, or `None` if it does not exist (a dataset need not curate anything).
fn read_optional(path: &Path) -> Result<Option<String>, SelectionError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(SelectionError {
            path: path.display().to_string(),
            line: 0,
            message: e.to_string(),
        }),
    }
}

/// Data rows of a curated TSV: the line number and trimmed columns of every line after the
/// header that is neither blank nor a `#` comment.
fn rows(text: &str) -> impl Iterator<Item = (usize, Vec<&str>)> {
    text.lines()
        .enumerate()
        .skip(1)
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| (i + 1, l.split('\t').map(str::trim).collect()))
}

/// Parses `cas<TAB>name<TAB>group<TAB>note` rows after a header; `#` starts a comment line.
/// A group of `-` names the compound without giving it a use class.
pub fn parse_selection(text: &str, path: &str) -> Result<Vec<Selected>, SelectionError> {
    let mut out: Vec<Selected> = Vec::new();
    for (line, cols) in rows(text) {
        let err = |message: String| SelectionError {
            path: path.to_string(),
            line,
            message,
        };
        let cas = Cas::parse(cols[0]).map_err(|e| err(e.to_string()))?;
        let name = cols.get(1).copied().unwrap_or_default();
        let group = cols.get(2).copied().unwrap_or_default();
        if name.is_empty() || group.is_empty() {
            return Err(err("every row needs a name and a group".into()));
        }
        if group != "-" && !crate::model::vocab::USE_CLASSES.contains(&group) {
            return Err(err(format!("unknown group {group:?} (see USE_CLASSES)")));
        }
        if out.iter().any(|s| s.cas == cas) {
            return Err(err(format!("CAS {cas} is listed twice")));
        }
        out.push(Selected {
            cas,
            name: name.to_string(),
            group: (group != "-").then(|| group.to_string()),
            note: cols.get(3).copied().unwrap_or_default().to_string(),
        });
    }
    Ok(out)
}

/// `data/curated/kinds.tsv`: the id kind of compounds no identifier table gives a formula for
/// (`cas<TAB>kind<TAB>basis`). Used only when a CAS is first given an id.
pub fn read_kinds(path: &Path) -> Result<BTreeMap<Cas, CompoundKind>, SelectionError> {
    match read_optional(path)? {
        Some(text) => parse_kinds(&text, &path.display().to_string()),
        None => Ok(BTreeMap::new()),
    }
}

pub fn parse_kinds(text: &str, path: &str) -> Result<BTreeMap<Cas, CompoundKind>, SelectionError> {
    let mut out = BTreeMap::new();
    for (line, cols) in rows(text) {
        let err = |message: String| SelectionError {
            path: path.to_string(),
            line,
            message,
        };
        let cas = Cas::parse(cols[0]).map_err(|e| err(e.to_string()))?;
        let kind = match cols.get(1).copied() {
            Some("org") => CompoundKind::Org,
            Some("ino") => CompoundKind::Ino,
            Some("mix") => CompoundKind::Mix,
            other => return Err(err(format!("kind must be org, ino or mix, not {other:?}"))),
        };
        if cols.get(2).is_none_or(|b| b.is_empty()) {
            return Err(err("every row needs a basis".into()));
        }
        if out.insert(cas.clone(), kind).is_some() {
            return Err(err(format!("CAS {cas} is listed twice")));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rows() {
        let got = parse_selection(
            "cas\tname\tgroup\tnote\n87-99-0\tXylitol\tspecies_toxicant\ttoxic to dogs\n# c\n\
             16984-48-8\tFluoride\t-\tnamed only\n",
            "s",
        )
        .unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[1].group, None, "a group of - gives no use class");
        assert_eq!(got[0].cas.as_str(), "87-99-0");
        assert_eq!(got[0].group.as_deref(), Some("species_toxicant"));
    }

    #[test]
    fn kinds() {
        let got = parse_kinds("cas\tkind\tbasis\n54-11-5\torg\talkaloid\n", "k").unwrap();
        assert_eq!(got.values().next(), Some(&CompoundKind::Org));
        assert!(parse_kinds("h\n54-11-5\tgas\tx\n", "k").is_err());
        assert!(parse_kinds("h\n54-11-5\torg\t\n", "k").is_err());
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse_selection("h\n87-99-1\tXylitol\tspecies_toxicant\t\n", "s").unwrap_err();
        assert_eq!(e.line, 2);
        let e = parse_selection("h\n87-99-0\tXylitol\tcandy\t\n", "s").unwrap_err();
        assert!(e.message.contains("unknown group"));
        let e = parse_selection("h\n87-99-0\tX\tsolvent\n87-99-0\tX\tsolvent\n", "s").unwrap_err();
        assert!(e.message.contains("twice"));
    }
}
