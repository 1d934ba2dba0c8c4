//! Identifier rows that do not describe the substance their CAS names
//! (`data/curated/structure-mismatch.tsv`): a PubChem record of the parent acid filed under a
//! platinum complex's CAS, a hydrate with the wrong number of waters. The ingest leaves such a
//! row out, so the record's structure is absent (a `_data_gaps` entry) rather than another
//! substance's.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::Context;

use crate::model::cas::Cas;

/// Where the list lives, relative to the data directory.
pub const FILE: &str = "curated/structure-mismatch.tsv";

/// (CAS, source id) of the identifier rows left out.
#[derive(Debug, Default)]
pub struct Mismatches(BTreeSet<(Cas, String)>);

impl Mismatches {
    /// Reads the list; a data directory without it (a test corpus) leaves nothing out.
    pub fn read(data_dir: &Path) -> anyhow::Result<Mismatches> {
        let path = data_dir.join(FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Mismatches::default()),
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        Mismatches::parse(&text).with_context(|| format!("reading {}", path.display()))
    }

    fn parse(text: &str) -> anyhow::Result<Mismatches> {
        let mut out = BTreeSet::new();
        for (n, line) in text.lines().enumerate().skip(1) {
            if line.trim().is_empty() {
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            let [cas, source, describes, reason] = cols[..] else {
                anyhow::bail!(
                    "line {}: expected 4 tab-separated columns (cas, source, describes, reason)",
                    n + 1
                );
            };
            if describes.trim().is_empty() || reason.trim().is_empty() {
                anyhow::bail!(
                    "line {}: say what the row describes and why it is not the CAS",
                    n + 1
                );
            }
            let cas = Cas::parse(cas).with_context(|| format!("line {}", n + 1))?;
            out.insert((cas, source.to_string()));
        }
        Ok(Mismatches(out))
    }

    /// Whether the row of `source` about `cas` describes another substance.
    pub fn excludes(&self, cas: &Cas, source: &str) -> bool {
        self.0.contains(&(cas.clone(), source.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_left_out_by_cas_and_source() {
        let m = Mismatches::parse(
            "cas\tsource\tdescribes\treason\n41575-94-4\tpubchem-large\tthe ligand acid\tno ammines\n",
        )
        .unwrap();
        let carboplatin = Cas::parse("41575-94-4").unwrap();
        assert!(m.excludes(&carboplatin, "pubchem-large"));
        assert!(!m.excludes(&carboplatin, "pubchem-small"));
    }

    #[test]
    fn a_line_without_its_reason_is_refused() {
        let err = Mismatches::parse("h\n41575-94-4\tp\tthe acid\t\n").unwrap_err();
        assert!(
            format!("{err:#}").contains("say what the row describes"),
            "{err:#}"
        );
    }
}
