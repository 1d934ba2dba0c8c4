//! OpenFoodTox rows set aside by curation (`data/curated/efsa-set-aside.tsv`): where one
//! opinion is filed with two values for the same question, population and substance form, or
//! a later output restates an earlier evaluation in another unit, the line names the row that
//! is not the live value and says why, citing the document that shows which one is
//! (data/README.md "Lifecycle"). The ingest does not serve the row; the reconciliation counts
//! it as set aside.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Mutex;

use anyhow::Context;

/// Where the list lives, relative to the data directory.
pub const FILE: &str = "curated/efsa-set-aside.tsv";

/// The ledger's reason for a set-aside row (one reason, so the report counts them together).
pub const REASON: &str = "not the live value of its question (a second value in the same \
     opinion, or a restatement of an earlier one): set aside by curated/efsa-set-aside.tsv, \
     whose line cites which value is live";

/// One OpenFoodTox reference-value row, as its cells are written.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct RowKey {
    pub substance: String,
    pub output_id: String,
    pub assessment: String,
    pub value: String,
    pub unit: String,
    pub population: String,
}

/// The rows set aside, and which of them a table read has met (a line that meets no row is
/// stale curation, an error).
#[derive(Debug, Default)]
pub struct SetAside {
    rows: BTreeSet<RowKey>,
    met: Mutex<BTreeSet<RowKey>>,
}

impl SetAside {
    /// Reads the list; a data directory without it (a test corpus) sets nothing aside.
    pub fn read(data_dir: &Path) -> anyhow::Result<SetAside> {
        let path = data_dir.join(FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(SetAside::default()),
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        SetAside::parse(&text).with_context(|| format!("reading {}", path.display()))
    }

    pub fn parse(text: &str) -> anyhow::Result<SetAside> {
        let mut rows = BTreeSet::new();
        for (n, line) in text.lines().enumerate().skip(1) {
            if line.trim().is_empty() {
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            let [
                substance,
                output_id,
                assessment,
                value,
                unit,
                population,
                live,
                reason,
            ] = cols[..]
            else {
                anyhow::bail!(
                    "line {}: expected 8 tab-separated columns (substance, output_id, \
                     assessment, value, unit, population, live, reason)",
                    n + 1
                );
            };
            if live.trim().is_empty() || reason.trim().is_empty() {
                anyhow::bail!(
                    "line {}: say which value is live and cite why this one is not",
                    n + 1
                );
            }
            rows.insert(RowKey {
                substance: substance.into(),
                output_id: output_id.into(),
                assessment: assessment.into(),
                value: value.into(),
                unit: unit.into(),
                population: population.into(),
            });
        }
        Ok(SetAside {
            rows,
            met: Mutex::default(),
        })
    }

    /// Whether the row is set aside (and notes that the line met its row).
    pub fn excludes(&self, row: &RowKey) -> bool {
        let hit = self.rows.contains(row);
        if hit {
            self.met
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .insert(row.clone());
        }
        hit
    }

    /// Lines that met no row of the table read (the table changed, or a line is mistyped).
    pub fn unmet(&self) -> Vec<&RowKey> {
        let met = self
            .met
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        self.rows.iter().filter(|r| !met.contains(*r)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "substance\toutput_id\tassessment\tvalue\tunit\tpopulation\tlive\treason\n";

    fn key(value: &str) -> RowKey {
        RowKey {
            substance: "Nicotinamide".into(),
            output_id: "197".into(),
            assessment: "UL".into(),
            value: value.into(),
            unit: "mg/kg bw/day".into(),
            population: "Consumers - Adults".into(),
        }
    }

    #[test]
    fn a_line_sets_aside_exactly_its_row_and_reports_lines_that_met_none() {
        let text = format!(
            "{HEAD}Nicotinamide\t197\tUL\t12.0\tmg/kg bw/day\tConsumers - Adults\t12.5\tsame opinion\n"
        );
        let list = SetAside::parse(&text).unwrap();
        assert_eq!(list.unmet().len(), 1);
        assert!(!list.excludes(&key("12.5")));
        assert!(list.excludes(&key("12.0")));
        assert!(list.unmet().is_empty());
    }

    #[test]
    fn a_line_without_its_reason_is_refused() {
        let text = format!(
            "{HEAD}Nicotinamide\t197\tUL\t12.0\tmg/kg bw/day\tConsumers - Adults\t12.5\t\n"
        );
        assert!(SetAside::parse(&text).is_err());
    }
}
