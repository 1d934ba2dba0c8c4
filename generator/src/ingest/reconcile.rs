//! The reconciliation: what became of every row of every table the ingest read. A row is
//! matched (its CAS, or the compound its PubChem CID names, is in the corpus), matched through
//! a group (it names a group, and a curated group file applies it to member compounds), or
//! unmatched with a reason. A row with no reason is a defect that `check --reconcile` fails on.
//! Rows that name no CAS are placed by `data/curated/group-rows.tsv`: each with its members
//! (a group), its qualifier (a qualified agent), or why it reaches no corpus compound.
//!
//! The report is written to `data/reconciliation.tsv` by every ingest and committed, so a
//! reviewer sees it change in `git diff`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context;
use serde_json::Value;

use super::contribution::Subject;
use super::tables::ledger::{Fate, Ledger};
use crate::model::cas::Cas;

/// Where the report lives, relative to the data directory.
pub const REPORT: &str = "reconciliation.tsv";
/// Table rows that name a group or an agent with no CAS, each placed or explained.
pub const PLACEMENTS: &str = "curated/group-rows.tsv";
/// Curated files whose listings reach group members, each marked with the row (`via`), and
/// the table whose rows they apply.
const GROUP_FILES: [(&str, &str); 2] = [
    ("curated/prop65-groups.json", "prop65"),
    ("curated/iarc-groups.json", "iarc"),
];

/// What the reconciliation knows besides the ledgers: the corpus, the CID index, and the
/// curated placements of rows that name no CAS.
#[derive(Debug)]
pub struct Known<'a> {
    pub corpus: &'a BTreeSet<Cas>,
    pub cid_to_cas: &'a BTreeMap<u64, Cas>,
    pub placements: &'a Placements,
}

/// `curated/group-rows.tsv` (per table row that names a group or a qualified agent: its
/// disposition, members and reason) and the rows the curated group files apply (their `via`).
#[derive(Debug, Default)]
pub struct Placements {
    rows: BTreeMap<(String, String), Placement>,
    /// (table, row name) of the rows a curated group file applies.
    applied: BTreeSet<(String, String)>,
}

#[derive(Debug, Clone)]
struct Placement {
    disposition: String,
    reason: String,
}

impl Placements {
    pub fn read(data_dir: &Path) -> anyhow::Result<Placements> {
        let mut placements = Placements::default();
        let path = data_dir.join(PLACEMENTS);
        for (n, line) in read_if_present(&path)?.lines().enumerate().skip(1) {
            if line.trim().is_empty() {
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            let [
                table,
                row,
                _key,
                disposition,
                _rule,
                _members,
                _qualifier,
                reason,
            ] = cols[..]
            else {
                anyhow::bail!(
                    "{}:{}: expected 8 tab-separated columns (table, row_name, row_key, \
                     disposition, rule, members, qualifier, reason)",
                    path.display(),
                    n + 1
                );
            };
            placements.rows.insert(
                (table.to_string(), key(row)),
                Placement {
                    disposition: disposition.to_string(),
                    reason: reason.to_string(),
                },
            );
        }
        for (file, table) in GROUP_FILES {
            let path = data_dir.join(file);
            let text = read_if_present(&path)?;
            if text.is_empty() {
                continue;
            }
            let doc: Value = serde_json::from_str(&text)
                .with_context(|| format!("parsing {}", path.display()))?;
            let mut vias = BTreeSet::new();
            collect_via(&doc, &mut vias);
            placements
                .applied
                .extend(vias.into_iter().map(|v| (table.to_string(), v)));
        }
        Ok(placements)
    }

    /// Why a row naming no CAS reaches no compound, if the placements say.
    fn unmatched_reason(&self, table: &str, name: &str) -> Option<String> {
        let p = self.rows.get(&(table.to_string(), key(name)))?;
        Some(match p.disposition.as_str() {
            "unmatched" => p.reason.clone(),
            other => format!(
                "{other} row placed in {PLACEMENTS} (members or qualifier named there), not yet \
                 applied by a curated file"
            ),
        })
    }
}

/// A data directory without curated files (a test fixture) places nothing.
fn read_if_present(path: &Path) -> anyhow::Result<String> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
    }
}

/// Row names compare without case and inner spacing ("Lead and Lead Compounds").
fn key(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

fn collect_via(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(via)) = map.get("via") {
                out.insert(key(via));
            }
            map.values().for_each(|v| collect_via(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_via(v, out)),
        _ => {}
    }
}

/// Why a row naming no CAS reaches no compound, for tables whose such rows are not placed one
/// by one. The tables whose group rows carry listings (Proposition 65, NTP, IARC) have none:
/// each of their rows must be placed in `curated/group-rows.tsv`.
fn unplaced_reason(table: &str) -> Option<&'static str> {
    match table {
        "clp" => Some(
            "Annex VI entry with no CAS number (a group entry, reaction mass or substance \
             without one); group entries are not applied to members",
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
            Subject::Named(name) => {
                let names = [name.as_str(), label];
                if names
                    .iter()
                    .any(|n| cx.placements.applied.contains(&(table.to_string(), key(n))))
                {
                    Outcome::ViaGroup
                } else if let Some(reason) = names
                    .iter()
                    .find_map(|n| cx.placements.unmatched_reason(table, n))
                {
                    Outcome::Unmatched(reason)
                } else if let Some(reason) = unplaced_reason(table) {
                    Outcome::Unmatched(reason.into())
                } else {
                    Outcome::Unexplained(format!(
                        "names no CAS number and {PLACEMENTS} does not place it"
                    ))
                }
            }
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

    fn cas(s: &str) -> Cas {
        Cas::parse(s).unwrap()
    }

    #[test]
    fn every_row_gets_one_outcome() {
        let corpus: BTreeSet<Cas> = [cas("50-00-0"), cas("7439-92-1")].into();
        let cids: BTreeMap<u64, Cas> = [(712, cas("50-00-0")), (1, cas("71-43-2"))].into();
        let mut placements = Placements::default();
        placements
            .applied
            .insert(("prop65".into(), key("Lead and lead compounds")));
        placements.rows.insert(
            ("prop65".into(), key("Alcoholic beverages")),
            Placement {
                disposition: "unmatched".into(),
                reason: "an exposure, not a substance".into(),
            },
        );
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
        let placements = Placements::default();
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
