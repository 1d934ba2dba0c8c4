//! `saferef-generate ingest`: builds and refreshes `data/compounds/` from public tables.
//!
//! Flow: read the catalogue -> parse every table found (in parallel) -> select the corpus ->
//! assign ids -> for each compound (`record`), strip what the re-read tables owned, merge what they say
//! now (`merge` rules), recompute gaps and meta -> write changed files atomically, and the
//! reconciliation of every row read (`reconcile`).
//! Tables that are missing are reported and their values in the records are left alone.

pub mod contribution;
pub mod exact_mass;
mod gaps;
mod groups;
mod names;
pub mod reconcile;
mod record;
pub mod select;
mod set_aside;
mod structures;
pub mod tables;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::Context;
use rayon::prelude::*;
use serde_json::Value;

use crate::build::output::write_if_changed;
use crate::model::alternate_cas::AlternateCas;
use crate::model::cas::Cas;
use crate::model::catalog::{Catalog, SourceDescriptor};
use crate::model::group_rows::GroupRows;
use crate::model::ids::{CompoundKind, IdRegistry};
use crate::model::record::{AlternateCas as AlternateCasRef, CompoundRecord};
use crate::model::to_stored_json;
use contribution::{Contribution, Subject};
use record::{BuildInput, build_record};
use select::Selected;

#[derive(Debug, Clone)]
pub struct IngestOptions {
    pub data_dir: PathBuf,
    /// Directories searched, in order, for each table's catalogue `path`.
    pub source_roots: Vec<PathBuf>,
    /// The date recorded in `meta` for created or changed records (YYYY-MM-DD).
    pub date: String,
    /// Compute everything, write nothing (`check --reconcile`).
    pub dry_run: bool,
}

#[derive(Debug, Default)]
pub struct IngestReport {
    /// (source id, contributions read) for each table found.
    pub tables_read: Vec<(String, usize)>,
    /// Source ids whose table was not found under any root.
    pub tables_missing: Vec<String>,
    pub selected: usize,
    pub created: usize,
    pub updated: usize,
    pub unchanged: usize,
    /// Compounds with a file but no longer selected by any rule (kept, never deleted).
    pub no_longer_selected: Vec<String>,
    pub new_ids: usize,
    /// (source id, CID) of rows keyed by a PubChem CID that no identifier table knows.
    pub unmatched_cids: Vec<(String, u64)>,
    /// What became of every row read.
    pub reconciliation: reconcile::Reconciliation,
    /// Records whose stored file differs from what the tables make of it now.
    pub stale: Vec<String>,
}

/// The catalogue `table` of the isotope table (a reference table, not a per-compound one).
const ISOTOPES: &str = "isotopes";

pub fn run(opts: &IngestOptions) -> anyhow::Result<IngestReport> {
    let curated = Curated::read(&opts.data_dir)?;
    let mut report = IngestReport::default();
    let isotopes = read_isotopes(&curated.catalog, opts, &mut report)?;
    let tables = read_tables(&curated, opts, &mut report)?;
    let cid_to_cas = pubchem_index(&tables.contributions);
    let (by_cas, selected) = place(&curated, tables.contributions, &cid_to_cas, &mut report);
    report.selected = selected.len();
    report.reconciliation = reconciliation(&curated, &tables.ledgers, &selected, &cid_to_cas);

    let ids_path = opts.data_dir.join("ids.tsv");
    let mut registry = IdRegistry::read(&ids_path)?;
    let before = registry.len();
    let todo = assign_ids(&mut registry, &selected, &by_cas, &curated.kinds);
    report.new_ids = registry.len() - before;
    let write = Write {
        curated: &curated,
        by_cas: &by_cas,
        read_sources: &tables.read_sources,
        isotopes: isotopes.as_ref().map(|(s, t)| (s.id.as_str(), t)),
    };
    write.records(&todo, opts, &mut report)?;
    if !opts.dry_run {
        write_if_changed(&ids_path, registry.to_tsv().as_bytes())
            .with_context(|| format!("writing {}", ids_path.display()))?;
        let path = opts.data_dir.join(reconcile::REPORT);
        write_if_changed(&path, report.reconciliation.to_tsv().as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    report.no_longer_selected = registry
        .iter()
        .filter(|(cas, _)| !selected.contains(*cas))
        .map(|(_, id)| id.to_string())
        .collect();
    Ok(report)
}

/// The catalogue and the curated files that steer the ingest.
struct Curated {
    catalog: Catalog,
    selection: Vec<Selected>,
    kinds: BTreeMap<Cas, CompoundKind>,
    group_rows: GroupRows,
    alternates: AlternateCas,
    mismatches: structures::Mismatches,
    set_aside: set_aside::SetAside,
}

impl Curated {
    fn read(data_dir: &Path) -> anyhow::Result<Self> {
        Ok(Curated {
            catalog: Catalog::read(&data_dir.join("sources.json"))?,
            selection: select::read_selection(&data_dir.join("curated/selection.tsv"))?,
            kinds: select::read_kinds(&data_dir.join("curated/kinds.tsv"))?,
            group_rows: GroupRows::read(data_dir).map_err(anyhow::Error::msg)?,
            alternates: AlternateCas::read(data_dir).map_err(anyhow::Error::msg)?,
            mismatches: structures::Mismatches::read(data_dir)?,
            set_aside: set_aside::SetAside::read(data_dir)?,
        })
    }
}

/// The isotope table, when the catalogue names one and it is found.
fn read_isotopes<'c>(
    catalog: &'c Catalog,
    opts: &IngestOptions,
    report: &mut IngestReport,
) -> anyhow::Result<Option<(&'c SourceDescriptor, exact_mass::IsotopeTable)>> {
    let Some(src) = catalog.sources.iter().find(|s| s.table == ISOTOPES) else {
        return Ok(None);
    };
    match src.locate(&opts.source_roots) {
        Some(path) => Ok(Some((src, exact_mass::IsotopeTable::read(&path)?))),
        None => {
            report.tables_missing.push(src.id.clone());
            Ok(None)
        }
    }
}

/// What the per-compound tables found under the roots say, with each table's ledger.
struct Tables<'c> {
    read_sources: Vec<&'c SourceDescriptor>,
    contributions: Vec<(&'c SourceDescriptor, Contribution)>,
    ledgers: Vec<(&'c SourceDescriptor, tables::ledger::Ledger)>,
}

/// Parses every table found, in parallel; a table not found is reported and its values in the
/// records are left alone.
fn read_tables<'c>(
    curated: &'c Curated,
    opts: &IngestOptions,
    report: &mut IngestReport,
) -> anyhow::Result<Tables<'c>> {
    let parsed: Vec<(&SourceDescriptor, Option<tables::Parsed>)> = curated
        .catalog
        .sources
        .par_iter()
        .filter(|src| src.table != ISOTOPES)
        .map(|src| match src.locate(&opts.source_roots) {
            None => Ok((src, None)),
            Some(path) => tables::parse(src, &path, &curated.set_aside)
                .map(|c| (src, Some(c)))
                .with_context(|| format!("reading {}", src.id)),
        })
        .collect::<anyhow::Result<_>>()?;
    let mut out = Tables {
        read_sources: Vec::new(),
        contributions: Vec::new(),
        ledgers: Vec::new(),
    };
    for (src, table) in parsed {
        let Some(table) = table else {
            report.tables_missing.push(src.id.clone());
            continue;
        };
        report
            .tables_read
            .push((src.id.clone(), table.ledger.rows().len()));
        out.read_sources.push(src);
        out.ledgers.push((src, table.ledger));
        out.contributions
            .extend(table.contributions.into_iter().map(|c| (src, c)));
    }
    if out
        .read_sources
        .iter()
        .any(|s| s.table == "efsa_openfoodtox")
    {
        let unmet = curated.set_aside.unmet();
        anyhow::ensure!(
            unmet.is_empty(),
            "{}: lines that name no row of the table: {unmet:?}",
            set_aside::FILE
        );
    }
    Ok(out)
}

type ByCas<'c> = BTreeMap<Cas, Vec<(&'c SourceDescriptor, Contribution)>>;

/// Files every contribution under the CAS it is about (a CID resolved to its CAS, a group row
/// placed on its members, an alternate number under its primary), and the corpus it selects.
fn place<'c>(
    curated: &Curated,
    contributions: Vec<(&'c SourceDescriptor, Contribution)>,
    cid_to_cas: &BTreeMap<u64, Cas>,
    report: &mut IngestReport,
) -> (ByCas<'c>, BTreeSet<Cas>) {
    let mut by_cas = ByCas::new();
    let mut selected: BTreeSet<Cas> = curated.selection.iter().map(|s| s.cas.clone()).collect();
    for (src, mut c) in contributions {
        if let Subject::PubchemCid(cid) = c.subject {
            match cid_to_cas.get(&cid) {
                Some(cas) => c.subject = Subject::Cas(cas.clone()),
                None => {
                    report.unmatched_cids.push((src.id.clone(), cid));
                    continue;
                }
            }
        }
        for (cas, c) in groups::place(&src.table, c, &curated.group_rows) {
            let Some(c) = curated.mismatches.keep(&cas, &src.id, c) else {
                continue;
            };
            let cas = curated.alternates.primary(&cas).clone();
            if c.selects {
                selected.insert(cas.clone());
            }
            by_cas.entry(cas).or_default().push((src, c));
        }
    }
    by_cas.values_mut().for_each(groups::own_rows_first);
    (by_cas, selected)
}

/// What became of every row read, against the corpus the rows reached.
fn reconciliation(
    curated: &Curated,
    ledgers: &[(&SourceDescriptor, tables::ledger::Ledger)],
    selected: &BTreeSet<Cas>,
    cid_to_cas: &BTreeMap<u64, Cas>,
) -> reconcile::Reconciliation {
    let ledger_refs: Vec<(&str, &str, &tables::ledger::Ledger)> = ledgers
        .iter()
        .map(|(src, l)| (src.id.as_str(), src.table.as_str(), l))
        .collect();
    // A row about an alternate number reached its primary's record.
    let reached: BTreeSet<Cas> = curated
        .alternates
        .iter()
        .filter(|a| selected.contains(&a.primary))
        .map(|a| a.cas.clone())
        .chain(selected.iter().cloned())
        .collect();
    reconcile::Reconciliation::of(
        &ledger_refs,
        &reconcile::Known {
            corpus: &reached,
            cid_to_cas,
            placements: &curated.group_rows,
        },
    )
}

/// (CAS, id) of every selected compound, issuing ids sequentially in CAS order so that
/// first-time numbering is reproducible.
fn assign_ids(
    registry: &mut IdRegistry,
    selected: &BTreeSet<Cas>,
    by_cas: &ByCas<'_>,
    curated_kinds: &BTreeMap<Cas, CompoundKind>,
) -> Vec<(Cas, String)> {
    let mut in_registry_order: Vec<&Cas> = selected.iter().collect();
    in_registry_order.sort_by_key(|c| (c.sort_key(), c.as_str().to_string()));
    in_registry_order
        .into_iter()
        .map(|cas| {
            // A formula from the identifier tables decides; else the curated kind; else `mix`.
            let kind = by_cas
                .get(cas)
                .and_then(|cs| cs.iter().find_map(|(_, c)| c.kind))
                .or_else(|| curated_kinds.get(cas).copied())
                .unwrap_or(CompoundKind::Mix);
            (cas.clone(), registry.assign(cas, kind).to_string())
        })
        .collect()
}

/// What every record is built from, beside its own contributions.
struct Write<'a> {
    curated: &'a Curated,
    by_cas: &'a ByCas<'a>,
    read_sources: &'a [&'a SourceDescriptor],
    isotopes: Option<(&'a str, &'a exact_mass::IsotopeTable)>,
}

impl Write<'_> {
    /// Builds every record in parallel and writes those that changed (none on a dry run),
    /// counting created, updated and unchanged and listing the stale.
    fn records(
        &self,
        todo: &[(Cas, String)],
        opts: &IngestOptions,
        report: &mut IngestReport,
    ) -> anyhow::Result<()> {
        let id_of: BTreeMap<&Cas, &str> = todo.iter().map(|(c, id)| (c, id.as_str())).collect();
        let selection: BTreeMap<&Cas, &Selected> =
            self.curated.selection.iter().map(|s| (&s.cas, s)).collect();
        let names = names::unique(
            &todo
                .iter()
                .map(|(cas, _)| {
                    let contributions = self.by_cas.get(cas).map_or(&[][..], Vec::as_slice);
                    (
                        cas.clone(),
                        names::candidates(selection.get(cas).copied(), contributions),
                    )
                })
                .collect(),
        );
        let parents = groups::parents(&self.curated.group_rows, &formulas(self.by_cas));
        let compounds_dir = opts.data_dir.join("compounds");
        let outcomes: Vec<(Outcome, &str)> = todo
            .par_iter()
            .map(|(cas, hq_id)| {
                let path = compounds_dir.join(format!("{hq_id}.json"));
                let old = read_existing(&path)?;
                let new = build_record(BuildInput {
                    hq_id,
                    name: names[cas].clone(),
                    parent: parents.get(cas).and_then(|p| id_of.get(p)).copied(),
                    cas,
                    alternates: self
                        .curated
                        .alternates
                        .of(cas)
                        .into_iter()
                        .map(|a| AlternateCasRef {
                            cas: a.cas.clone(),
                            basis: a.citation.clone(),
                        })
                        .collect(),
                    old: old.as_ref(),
                    contributions: self.by_cas.get(cas).map_or(&[][..], Vec::as_slice),
                    selected: selection.get(cas).copied(),
                    read_sources: self.read_sources,
                    isotopes: self.isotopes,
                    catalog: &self.curated.catalog,
                    date: &opts.date,
                })
                .with_context(|| format!("building {hq_id} (CAS {cas})"))?;
                let wrote = if opts.dry_run {
                    old.as_ref() != Some(&new)
                } else {
                    write_if_changed(&path, to_stored_json(&new).as_bytes())
                        .with_context(|| format!("writing {}", path.display()))?
                };
                let outcome = match (old.is_some(), wrote) {
                    (false, _) => Outcome::Created,
                    (true, true) => Outcome::Updated,
                    (true, false) => Outcome::Unchanged,
                };
                Ok((outcome, hq_id.as_str()))
            })
            .collect::<anyhow::Result<_>>()?;
        for (outcome, hq_id) in outcomes {
            match outcome {
                Outcome::Created => report.created += 1,
                Outcome::Updated => report.updated += 1,
                Outcome::Unchanged => report.unchanged += 1,
            }
            if !matches!(outcome, Outcome::Unchanged) {
                report.stale.push(hq_id.to_string());
            }
        }
        report.stale.sort();
        Ok(())
    }
}

/// Each compound's formula, from the first contribution that states one (for group parents).
fn formulas(by_cas: &ByCas<'_>) -> BTreeMap<Cas, String> {
    by_cas
        .iter()
        .filter_map(|(cas, list)| {
            list.iter()
                .find_map(|(_, c)| {
                    c.fragment
                        .pointer("/properties/chemical_properties/molecular_formula")
                        .and_then(Value::as_str)
                })
                .map(|f| (cas.clone(), f.to_string()))
        })
        .collect()
}

/// PubChem CID -> CAS, from the identifier tables' contributions (first table wins).
fn pubchem_index(all: &[(&SourceDescriptor, Contribution)]) -> BTreeMap<u64, Cas> {
    let mut index = BTreeMap::new();
    for (_, c) in all {
        let cid = c
            .fragment
            .pointer("/crossrefs/pubchem_cid")
            .and_then(Value::as_u64);
        if let (Some(cid), Subject::Cas(cas)) = (cid, &c.subject) {
            index.entry(cid).or_insert_with(|| cas.clone());
        }
    }
    index
}

enum Outcome {
    Created,
    Updated,
    Unchanged,
}

fn read_existing(path: &Path) -> anyhow::Result<Option<CompoundRecord>> {
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let record = serde_json::from_str(&text).with_context(|| {
                format!(
                    "{} is not a valid record; fix it or run check",
                    path.display()
                )
            })?;
            Ok(Some(record))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
    }
}

#[cfg(test)]
mod tests;
