//! Which compounds are in the corpus.
//!
//! Rules, in order (documented in data/README.md):
//! 1. every agent with a CAS number on a selecting list: IARC, NTP RoC, Prop 65, ECHA SVHC
//!    (tables whose parser marks contributions `selects`);
//! 2. every row of `data/curated/selection.tsv`, the hand-picked classes a reference service
//!    must hold (food additives, fragrance allergens, pesticides, PFAS, warfare agents...).

use std::path::Path;

use std::collections::BTreeMap;

use crate::cas::Cas;
use crate::ids::CompoundKind;
use crate::model::record::SourceRef;

/// The source id of `data/curated/selection.tsv`.
pub const SELECTION_SOURCE: &str = "saferef-curated-selection";

/// One hand-picked compound.
#[derive(Debug, Clone, PartialEq)]
pub struct Selected {
    pub cas: Cas,
    pub name: String,
    /// A use class (model::vocab::USE_CLASSES).
    pub group: String,
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
    let shown = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => parse_selection(&text, &shown),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(SelectionError {
            path: shown,
            line: 0,
            message: e.to_string(),
        }),
    }
}

/// Parses `cas<TAB>name<TAB>group<TAB>note` rows after a header; `#` starts a comment line.
pub fn parse_selection(text: &str, path: &str) -> Result<Vec<Selected>, SelectionError> {
    let mut out: Vec<Selected> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if i == 0 || line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |message: String| SelectionError {
            path: path.to_string(),
            line: i + 1,
            message,
        };
        let cols: Vec<&str> = line.split('\t').map(str::trim).collect();
        let cas = Cas::parse(cols[0]).map_err(|e| err(e.to_string()))?;
        let name = cols.get(1).copied().unwrap_or_default();
        let group = cols.get(2).copied().unwrap_or_default();
        if name.is_empty() || group.is_empty() {
            return Err(err("every row needs a name and a group".into()));
        }
        if !crate::model::vocab::USE_CLASSES.contains(&group) {
            return Err(err(format!("unknown group {group:?} (see USE_CLASSES)")));
        }
        if out.iter().any(|s| s.cas == cas) {
            return Err(err(format!("CAS {cas} is listed twice")));
        }
        out.push(Selected {
            cas,
            name: name.to_string(),
            group: group.to_string(),
            note: cols.get(3).copied().unwrap_or_default().to_string(),
        });
    }
    Ok(out)
}

/// `data/curated/kinds.tsv`: the id kind of compounds no identifier table gives a formula for
/// (`cas<TAB>kind<TAB>basis`). Used only when a CAS is first given an id.
pub fn read_kinds(path: &Path) -> Result<BTreeMap<Cas, CompoundKind>, SelectionError> {
    let shown = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(e) => {
            return Err(SelectionError {
                path: shown,
                line: 0,
                message: e.to_string(),
            });
        }
    };
    parse_kinds(&text, &shown)
}

pub fn parse_kinds(text: &str, path: &str) -> Result<BTreeMap<Cas, CompoundKind>, SelectionError> {
    let mut out = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        if i == 0 || line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |message: String| SelectionError {
            path: path.to_string(),
            line: i + 1,
            message,
        };
        let cols: Vec<&str> = line.split('\t').map(str::trim).collect();
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
            "cas\tname\tgroup\tnote\n87-99-0\tXylitol\tspecies_toxicant\ttoxic to dogs\n# c\n",
            "s",
        )
        .unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].cas.as_str(), "87-99-0");
        assert_eq!(got[0].group, "species_toxicant");
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
