//! The reconciliation: what became of every row of every table the ingest read. A row is
//! matched (its CAS, or the compound its PubChem CID names, is in the corpus), matched through
//! a group (it names a group that the ingest applies to member compounds), or
//! unmatched with a reason. A row with no reason is a defect that `check --reconcile` fails on.
//! Rows that name no CAS are placed by `data/curated/group-rows.tsv` (`model::group_rows`):
//! each with its members (a group), its qualifier (a qualified agent), or why it reaches no
//! corpus compound.
//!
//! The report is written to `data/reconciliation.tsv` by every ingest and committed, so a
//! reviewer sees it change in `git diff`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::contribution::Subject;
use super::groups;
use super::tables::ledger::{Fate, Ledger};
use crate::model::cas::Cas;
use crate::model::group_rows::{Disposition, FILE, GroupRows};

/// Where the report lives, relative to the data directory.
pub const REPORT: &str = "reconciliation.tsv";

/// What the reconciliation knows besides the ledgers: the corpus, the CID index, and the
/// placements of rows that name no CAS.
#[derive(Debug)]
pub struct Known<'a> {
    pub corpus: &'a BTreeSet<Cas>,
    pub cid_to_cas: &'a BTreeMap<u64, Cas>,
    pub placements: &'a GroupRows,
}

/// How a row that names no CAS fares: reaching members through its placement, or the reason
/// it reaches none.
fn placed(table: &str, names: [&str; 2], cx: &Known<'_>) -> Option<Outcome> {
    let p = names.iter().find_map(|n| cx.placements.get(table, n))?;
    Some(match p.disposition {
        Disposition::Unmatched => Outcome::Unmatched(p.reason.clone()),
        _ if !groups::applies_rows_of(table) => Outcome::Unmatched(format!(
            "{} row placed in {FILE}; this table's group rows are applied by curated files",
            if p.disposition == Disposition::Group {
                "group"
            } else {
                "qualified"
            }
        )),
        _ if p.members.iter().any(|m| cx.corpus.contains(m)) => Outcome::ViaGroup,
        _ => Outcome::Unmatched(format!("placed in {FILE}, but no member is in the corpus")),
    })
}

/// Why a row naming no CAS reaches no compound, for tables whose such rows are not placed one
/// by one. The tables whose group rows carry listings (Proposition 65, NTP, IARC) have none:
/// each of their rows must be placed in `curated/group-rows.tsv`.
fn unplaced_reason(table: &str) -> Option<&'static str> {
    match table {
        "clp" => Some(
            "Annex VI entry with no CAS number (a reaction mass, a substance without one, or \
             a group entry with no corpus member, not placed in curated/group-rows.tsv)",
        ),
        "efsa_openfoodtox" => Some(
            "OpenFoodTox gives the substance no CAS number (a metabolite, isomer mixture or \
             group)",
        ),
        "mn_ihb" => Some("a group code or a form suffix stands in place of a CAS number"),
        _ => None,
    }
}

/// The outcome of one row.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Matched,
    ViaGroup,
    Unmatched(String),
    Unexplained(String),
}

fn outcome_of(table: &str, fate: &Fate, label: &str, cx: &Known<'_>) -> Outcome {
    let subjects = match fate {
        Fate::Skipped(reason) => return Outcome::Unmatched(reason.clone()),
        Fate::Unexplained => {
            return Outcome::Unexplained("the parser settled the row neither way".into());
        }
        Fate::About(subjects) => subjects,
    };
    let each: Vec<Outcome> = subjects
        .iter()
        .map(|s| match s {
            Subject::Cas(cas) if cx.corpus.contains(cas) => Outcome::Matched,
            Subject::Cas(_) => Outcome::Unmatched("CAS number outside the corpus".into()),
            Subject::PubchemCid(cid) => match cx.cid_to_cas.get(cid) {
                Some(cas) if cx.corpus.contains(cas) => Outcome::Matched,
                Some(_) => Outcome::Unmatched("CAS number outside the corpus".into()),
                None => Outcome::Unmatched("PubChem CID in no identifier table".into()),
            },
            Subject::Named(name) => placed(table, [name.as_str(), label], cx)
                .or_else(|| unplaced_reason(table).map(|r| Outcome::Unmatched(r.into())))
                .unwrap_or_else(|| {
                    Outcome::Unexplained(format!(
                        "names no CAS number and {FILE} does not place it"
                    ))
                }),
        })
        .collect();
    each.into_iter()
        .min()
        .unwrap_or_else(|| Outcome::Unexplained("about nothing".into()))
}

/// Per table: rows, and how many had each outcome and reason.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Reconciliation {
    tables: BTreeMap<String, Tally>,
}

#[derive(Debug, Default, Clone, PartialEq)]
struct Tally {
    rows: usize,
    matched: usize,
    via_group: usize,
    unmatched: BTreeMap<String, usize>,
    unexplained: Vec<String>,
}

impl Reconciliation {
    /// `ledgers`: (source id, catalogue table name, ledger) for each table read.
    pub fn of(ledgers: &[(&str, &str, &Ledger)], cx: &Known<'_>) -> Reconciliation {
        let mut tables = BTreeMap::new();
        for (source, table, ledger) in ledgers {
            let tally: &mut Tally = tables.entry(source.to_string()).or_default();
            for row in ledger.rows() {
                tally.rows += 1;
                match outcome_of(table, &row.fate, &row.label, cx) {
                    Outcome::Matched => tally.matched += 1,
                    Outcome::ViaGroup => tally.via_group += 1,
                    Outcome::Unmatched(reason) => *tally.unmatched.entry(reason).or_default() += 1,
                    Outcome::Unexplained(why) => {
                        tally.unexplained.push(format!("{:?}: {why}", row.label))
                    }
                }
            }
        }
        Reconciliation { tables }
    }

    /// Rows no reason accounts for, as "source: row: why" lines.
    pub fn unexplained(&self) -> Vec<String> {
        self.tables
            .iter()
            .flat_map(|(source, t)| t.unexplained.iter().map(move |u| format!("{source}: {u}")))
            .collect()
    }

    /// The committed report: a summary line per table, then each unmatched reason's count.
    pub fn to_tsv(&self) -> String {
        let mut out = String::from(
            "# What became of every row of every table the ingest read (saferef-generate ingest).\n\
             # matched: the row's compound is in the corpus; via_group: a curated group file\n\
             # applies the row to member compounds; unmatched: the reason column says why not.\n\
             table\trows\tmatched\tvia_group\tunmatched\tunexplained\treason\n",
        );
        for (source, t) in &self.tables {
            let unmatched: usize = t.unmatched.values().sum();
            let _ = writeln!(
                out,
                "{source}\t{}\t{}\t{}\t{unmatched}\t{}\t-",
                t.rows,
                t.matched,
                t.via_group,
                t.unexplained.len()
            );
            for (reason, n) in &t.unmatched {
                let _ = writeln!(out, "{source}\t\t\t\t{n}\t\t{reason}");
            }
            for line in &t.unexplained {
                let _ = writeln!(out, "{source}\t\t\t\t\t1\t{line}");
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::cas::cas;

    #[test]
    fn every_row_gets_one_outcome() {
        let corpus: BTreeSet<Cas> = [cas("50-00-0"), cas("7439-92-1")].into();
        let cids: BTreeMap<u64, Cas> = [(712, cas("50-00-0")), (1, cas("71-43-2"))].into();
        let placements = GroupRows::parse(
            "table\trow_name\trow_key\tdisposition\trule\tmembers\tqualifier\treason\n\
             prop65\tLead and lead compounds\tcancer|1-Oct-92\tgroup\telement:Pb\t7439-92-1\t-\tPb\n\
             prop65\tAlcoholic beverages\tcancer|29-Apr-11\tunmatched\t-\t-\t-\tan exposure, not a substance\n",
        )
        .unwrap();
        let cx = Known {
            corpus: &corpus,
            cid_to_cas: &cids,
            placements: &placements,
        };
        let mut ledger = Ledger::default();
        for (label, subject) in [
            ("Formaldehyde", Some(Subject::Cas(cas("50-00-0")))),
            ("Benzene", Some(Subject::Cas(cas("71-43-2")))),
            ("by CID", Some(Subject::PubchemCid(712))),
            ("unknown CID", Some(Subject::PubchemCid(9))),
            (
                "Lead and Lead  Compounds",
                Some(Subject::Named("Lead and Lead  Compounds".into())),
            ),
            (
                "Alcoholic beverages",
                Some(Subject::Named("Alcoholic beverages".into())),
            ),
            ("Soot", Some(Subject::Named("Soot".into()))),
            ("forgotten", None),
        ] {
            let id = ledger.row(label);
            if let Some(s) = subject {
                ledger.about(id, [s]);
            }
        }
        let skipped = ledger.row("cross-reference");
        ledger.skip(skipped, "no type of toxicity");
        let r = Reconciliation::of(&[("p65-2023", "prop65", &ledger)], &cx);
        let t = &r.tables["p65-2023"];
        assert_eq!((t.rows, t.matched, t.via_group), (9, 2, 1));
        assert_eq!(t.unmatched["CAS number outside the corpus"], 1);
        assert_eq!(t.unmatched["PubChem CID in no identifier table"], 1);
        assert_eq!(t.unmatched["an exposure, not a substance"], 1);
        assert_eq!(t.unmatched["no type of toxicity"], 1);
        assert_eq!(r.unexplained().len(), 2, "{:?}", r.unexplained());
        assert!(r.to_tsv().contains("p65-2023\t9\t2\t1\t4\t2\t-\n"));
    }

    #[test]
    fn a_row_about_several_compounds_is_matched_if_one_is() {
        let corpus: BTreeSet<Cas> = [cas("50-00-0")].into();
        let placements = GroupRows::default();
        let cx = Known {
            corpus: &corpus,
            cid_to_cas: &BTreeMap::new(),
            placements: &placements,
        };
        let mut ledger = Ledger::default();
        let id = ledger.row("two");
        ledger.about(
            id,
            [Subject::Cas(cas("71-43-2")), Subject::Cas(cas("50-00-0"))],
        );
        let r = Reconciliation::of(&[("t", "t", &ledger)], &cx);
        assert_eq!(r.tables["t"].matched, 1);
    }
}
