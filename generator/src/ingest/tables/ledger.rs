//! What became of every row a parser read: the subjects it is about, or why it was skipped.
//! Parsers aggregate rows into contributions per compound, so contributions cannot say which
//! rows they came from; the ledger does, and the reconciliation (`ingest::reconcile`) reads it
//! to account for every row.

use super::super::contribution::Subject;

/// One data row of a table, as the parser left it.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The row's own name for what it is about (a chemical name, a code), for the report.
    pub label: String,
    pub fate: Fate,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Fate {
    /// The row gave values about these subjects (one, or several for multi-CAS rows).
    About(Vec<Subject>),
    /// The row gave nothing, for this reason.
    Skipped(String),
    /// The parser read the row and said nothing of it: a parser defect, reported as such.
    Unexplained,
}

/// Rows in table order; a parser opens each row with `row` and settles it with `about` or
/// `skip`. A row never settled stays `Unexplained`, so a forgotten branch shows in the
/// reconciliation instead of vanishing.
#[derive(Debug, Default, Clone)]
pub struct Ledger {
    rows: Vec<Row>,
}

/// A row's place in its ledger.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowId(usize);

impl Ledger {
    pub fn row(&mut self, label: &str) -> RowId {
        self.rows.push(Row {
            label: label.split_whitespace().collect::<Vec<_>>().join(" "),
            fate: Fate::Unexplained,
        });
        RowId(self.rows.len() - 1)
    }

    /// The row is about these subjects (adds to what it was already about).
    pub fn about(&mut self, row: RowId, subjects: impl IntoIterator<Item = Subject>) {
        let entry = &mut self.rows[row.0];
        match &mut entry.fate {
            Fate::About(list) => list.extend(subjects),
            fate => *fate = Fate::About(subjects.into_iter().collect()),
        }
        if matches!(&entry.fate, Fate::About(list) if list.is_empty()) {
            entry.fate = Fate::Unexplained;
        }
    }

    pub fn skip(&mut self, row: RowId, reason: impl Into<String>) {
        self.rows[row.0].fate = Fate::Skipped(reason.into());
    }

    /// Skips the row for this reason unless it was already settled (after a loop over a
    /// cell's CAS numbers that may have found none).
    pub fn otherwise(&mut self, row: RowId, reason: impl Into<String>) {
        if self.rows[row.0].fate == Fate::Unexplained {
            self.skip(row, reason);
        }
    }

    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// Appends another file's rows (tables read from several files).
    pub fn extend(&mut self, other: Ledger) {
        self.rows.extend(other.rows);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::cas::Cas;

    #[test]
    fn rows_left_unsettled_are_unexplained() {
        let mut ledger = Ledger::default();
        let a = ledger.row("Formaldehyde");
        ledger.row("  Soot \n");
        let c = ledger.row("Lead and lead compounds");
        ledger.about(a, [Subject::Cas(Cas::parse("50-00-0").unwrap())]);
        ledger.skip(c, "no toxicity type");
        let fates: Vec<_> = ledger.rows().iter().map(|r| &r.fate).collect();
        assert!(matches!(fates[0], Fate::About(s) if s.len() == 1));
        assert_eq!(fates[1], &Fate::Unexplained);
        assert_eq!(ledger.rows()[1].label, "Soot");
        assert_eq!(fates[2], &Fate::Skipped("no toxicity type".into()));
    }

    #[test]
    fn a_row_about_nothing_is_unexplained() {
        let mut ledger = Ledger::default();
        let a = ledger.row("x");
        ledger.about(a, []);
        assert_eq!(ledger.rows()[0].fate, Fate::Unexplained);
    }
}
