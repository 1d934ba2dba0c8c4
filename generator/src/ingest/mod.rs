//! `saferef-generate ingest`: builds and refreshes `data/compounds/` from public tables.
//!
//! Flow: read the catalogue -> parse every table found (in parallel) -> select the corpus ->
//! assign ids -> for each compound, strip what the re-read tables owned, merge what they say
//! now (`merge` rules), recompute gaps and meta -> write changed files atomically, and the
//! reconciliation of every row read (`reconcile`).
//! Tables that are missing are reported and their values in the records are left alone.

pub mod contribution;
pub mod exact_mass;
mod gaps;
mod groups;
mod names;
pub mod reconcile;
pub mod select;
mod set_aside;
mod structures;
pub mod tables;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::Context;
use rayon::prelude::*;
use serde_json::{Value, json};

use crate::build::output::write_if_changed;
use crate::model::alternate_cas::AlternateCas;
use crate::model::cas::Cas;
use crate::model::catalog::{Catalog, SourceDescriptor};
use crate::model::group_rows::GroupRows;
use crate::model::ids::{CompoundKind, IdRegistry};
use crate::model::merge::{merge, order_by_source, referenced_sources, strip_source};
use crate::model::record::{AlternateCas as AlternateCasRef, CompoundRecord};
use crate::model::{to_stored_json, vocab};
use contribution::{Contribution, Subject};
use select::{SELECTION_SOURCE, Selected};

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

/// Whether every GHS entry `primary` gives the record came through a group entry (`via`): an
/// Annex VI group entry is a minimum classification shared by all members, so a fallback
/// table's substance-specific entry stays beside it (data/README.md "Groups").
fn only_through_groups(value: &Value, primary: &str) -> bool {
    let mut entries = value
        .pointer("/safety/ghs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|g| g.get("source").and_then(Value::as_str) == Some(primary))
        .peekable();
    entries.peek().is_some() && entries.all(|g| g.get("via").is_some())
}

/// The routes the GHS entries of `fallback` state, each marked with that source, before its
/// entries are left out for the primary's.
fn fallback_routes(value: &Value, fallback: &str) -> Vec<Value> {
    value
        .pointer("/safety/ghs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|g| g.get("source").and_then(Value::as_str) == Some(fallback))
        .filter_map(|g| g.get("routes").and_then(Value::as_array))
        .flatten()
        .filter_map(|r| {
            let mut r = r.as_object()?.clone();
            r.insert("source".into(), json!(fallback));
            Some(Value::Object(r))
        })
        .collect()
}

/// Gives each of `primary`'s GHS entries the routes `kept` states for a code the entry has
/// and states no route for: an authority's route for a substance's organ toxicity class holds
/// beside another authority's entry for the same class (METHODOLOGY.md, rule
/// "organ_toxicity"), so dropping the fallback entry does not drop the route.
fn carry_routes(value: &mut Value, primary: &str, kept: Vec<Value>) {
    let Some(entries) = value
        .pointer_mut("/safety/ghs")
        .and_then(Value::as_array_mut)
    else {
        return;
    };
    for entry in entries
        .iter_mut()
        .filter(|g| g.get("source").and_then(Value::as_str) == Some(primary))
    {
        let Some(obj) = entry.as_object_mut() else {
            continue;
        };
        let has_code = |code: &str| {
            obj.get("h_codes")
                .and_then(Value::as_array)
                .is_some_and(|cs| cs.iter().any(|c| c.as_str() == Some(code)))
        };
        let wanted: Vec<Value> = kept
            .iter()
            .filter(|r| {
                let code = r.get("code").and_then(Value::as_str).unwrap_or_default();
                has_code(code)
                    && !obj
                        .get("routes")
                        .and_then(Value::as_array)
                        .is_some_and(|rs| {
                            rs.iter()
                                .any(|x| x.get("code").and_then(Value::as_str) == Some(code))
                        })
            })
            .cloned()
            .collect();
        if !wanted.is_empty()
            && let Some(routes) = obj
                .entry("routes")
                .or_insert_with(|| json!([]))
                .as_array_mut()
        {
            routes.extend(wanted);
        }
    }
}

/// The catalogue `table` of the isotope table (a reference table, not a per-compound one).
const ISOTOPES: &str = "isotopes";

pub fn run(opts: &IngestOptions) -> anyhow::Result<IngestReport> {
    let catalog = Catalog::read(&opts.data_dir.join("sources.json"))?;
    let selection = select::read_selection(&opts.data_dir.join("curated/selection.tsv"))?;
    let curated_kinds = select::read_kinds(&opts.data_dir.join("curated/kinds.tsv"))?;
    let mut report = IngestReport::default();

    let isotopes = match catalog.sources.iter().find(|s| s.table == ISOTOPES) {
        Some(src) => match src.locate(&opts.source_roots) {
            Some(path) => Some((src, exact_mass::IsotopeTable::read(&path)?)),
            None => {
                report.tables_missing.push(src.id.clone());
                None
            }
        },
        None => None,
    };
    let group_rows = GroupRows::read(&opts.data_dir).map_err(anyhow::Error::msg)?;
    let alternates = AlternateCas::read(&opts.data_dir).map_err(anyhow::Error::msg)?;
    let mismatches = structures::Mismatches::read(&opts.data_dir)?;
    let set_aside = set_aside::SetAside::read(&opts.data_dir)?;
    let parsed: Vec<(&SourceDescriptor, Option<tables::Parsed>)> = catalog
        .sources
        .par_iter()
        .filter(|src| src.table != ISOTOPES)
        .map(|src| match src.locate(&opts.source_roots) {
            None => Ok((src, None)),
            Some(path) => tables::parse(src, &path, &set_aside)
                .map(|c| (src, Some(c)))
                .with_context(|| format!("reading {}", src.id)),
        })
        .collect::<anyhow::Result<_>>()?;

    let mut read_sources: Vec<&SourceDescriptor> = Vec::new();
    let mut all: Vec<(&SourceDescriptor, Contribution)> = Vec::new();
    let mut ledgers = Vec::new();
    for (src, table) in parsed {
        let Some(table) = table else {
            report.tables_missing.push(src.id.clone());
            continue;
        };
        report
            .tables_read
            .push((src.id.clone(), table.ledger.rows().len()));
        read_sources.push(src);
        ledgers.push((src, table.ledger));
        all.extend(table.contributions.into_iter().map(|c| (src, c)));
    }
    if read_sources.iter().any(|s| s.table == "efsa_openfoodtox") {
        let unmet = set_aside.unmet();
        anyhow::ensure!(
            unmet.is_empty(),
            "{}: lines that name no row of the table: {unmet:?}",
            set_aside::FILE
        );
    }
    let cid_to_cas = pubchem_index(&all);
    let mut by_cas: BTreeMap<Cas, Vec<(&SourceDescriptor, Contribution)>> = BTreeMap::new();
    let mut selected: BTreeSet<Cas> = selection.iter().map(|s| s.cas.clone()).collect();
    for (src, mut c) in all {
        if let Subject::PubchemCid(cid) = c.subject {
            match cid_to_cas.get(&cid) {
                Some(cas) => c.subject = Subject::Cas(cas.clone()),
                None => {
                    report.unmatched_cids.push((src.id.clone(), cid));
                    continue;
                }
            }
        }
        for (cas, c) in groups::place(&src.table, c, &group_rows) {
            let Some(c) = mismatches.keep(&cas, &src.id, c) else {
                continue;
            };
            let cas = alternates.primary(&cas).clone();
            if c.selects {
                selected.insert(cas.clone());
            }
            by_cas.entry(cas).or_default().push((src, c));
        }
    }
    by_cas.values_mut().for_each(groups::own_rows_first);
    let formula_of: BTreeMap<Cas, String> = by_cas
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
        .collect();
    let parents = groups::parents(&group_rows, &formula_of);
    report.selected = selected.len();
    let ledger_refs: Vec<(&str, &str, &tables::ledger::Ledger)> = ledgers
        .iter()
        .map(|(src, l)| (src.id.as_str(), src.table.as_str(), l))
        .collect();
    // A row about an alternate number reached its primary's record.
    let reached: BTreeSet<Cas> = alternates
        .iter()
        .filter(|a| selected.contains(&a.primary))
        .map(|a| a.cas.clone())
        .chain(selected.iter().cloned())
        .collect();
    report.reconciliation = reconcile::Reconciliation::of(
        &ledger_refs,
        &reconcile::Known {
            corpus: &reached,
            cid_to_cas: &cid_to_cas,
            placements: &group_rows,
        },
    );

    let ids_path = opts.data_dir.join("ids.tsv");
    let mut registry = IdRegistry::read(&ids_path)?;
    let before = registry.len();
    let curated: BTreeMap<&Cas, &Selected> = selection.iter().map(|s| (&s.cas, s)).collect();
    // Sequential, in CAS order, so that first-time numbering is reproducible.
    let mut in_registry_order: Vec<&Cas> = selected.iter().collect();
    in_registry_order.sort_by_key(|c| (c.sort_key(), c.as_str().to_string()));
    let mut todo: Vec<(Cas, String)> = Vec::new();
    for cas in in_registry_order {
        // A formula from the identifier tables decides; else the curated kind; else `mix`.
        let kind = by_cas
            .get(cas)
            .and_then(|cs| cs.iter().find_map(|(_, c)| c.kind))
            .or_else(|| curated_kinds.get(cas).copied())
            .unwrap_or(CompoundKind::Mix);
        todo.push((cas.clone(), registry.assign(cas, kind).to_string()));
    }
    report.new_ids = registry.len() - before;

    let id_of: BTreeMap<&Cas, &str> = todo.iter().map(|(c, id)| (c, id.as_str())).collect();
    let names = names::unique(
        &todo
            .iter()
            .map(|(cas, _)| {
                let contributions = by_cas.get(cas).map_or(&[][..], Vec::as_slice);
                (
                    cas.clone(),
                    names::candidates(curated.get(cas).copied(), contributions),
                )
            })
            .collect(),
    );
    let compounds_dir = opts.data_dir.join("compounds");
    let empty = Vec::new();
    let stale = std::sync::Mutex::new(Vec::new());
    let outcomes: Vec<Outcome> = todo
        .par_iter()
        .map(|(cas, hq_id)| {
            let path = compounds_dir.join(format!("{hq_id}.json"));
            let old = read_existing(&path)?;
            let new = build_record(BuildInput {
                hq_id,
                name: names[cas].clone(),
                parent: parents.get(cas).and_then(|p| id_of.get(p)).copied(),
                cas,
                alternates: alternates
                    .of(cas)
                    .into_iter()
                    .map(|a| AlternateCasRef {
                        cas: a.cas.to_string(),
                        basis: a.citation.clone(),
                    })
                    .collect(),
                old: old.as_ref(),
                contributions: by_cas.get(cas).unwrap_or(&empty),
                selected: curated.get(cas).copied(),
                read_sources: &read_sources,
                isotopes: isotopes.as_ref().map(|(s, t)| (s.id.as_str(), t)),
                catalog: &catalog,
                date: &opts.date,
            })
            .with_context(|| format!("building {hq_id} (CAS {cas})"))?;
            let text = to_stored_json(&new);
            let wrote = if opts.dry_run {
                old.as_ref() != Some(&new)
            } else {
                write_if_changed(&path, text.as_bytes())
                    .with_context(|| format!("writing {}", path.display()))?
            };
            if wrote {
                stale
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(hq_id.clone());
            }
            Ok(match (old.is_some(), wrote) {
                (false, _) => Outcome::Created,
                (true, true) => Outcome::Updated,
                (true, false) => Outcome::Unchanged,
            })
        })
        .collect::<anyhow::Result<_>>()?;
    for o in outcomes {
        match o {
            Outcome::Created => report.created += 1,
            Outcome::Updated => report.updated += 1,
            Outcome::Unchanged => report.unchanged += 1,
        }
    }
    report.stale = stale.into_inner().unwrap_or_else(|e| e.into_inner());
    report.stale.sort();
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

struct BuildInput<'a> {
    hq_id: &'a str,
    /// (display name, the source it comes from): `names::unique`.
    name: (String, String),
    /// The compound whose group this one belongs to by element (lead for lead acetate).
    parent: Option<&'a str>,
    cas: &'a Cas,
    /// The record's other CAS numbers (`curated/alternate-cas.tsv`).
    alternates: Vec<AlternateCasRef>,
    old: Option<&'a CompoundRecord>,
    contributions: &'a [(&'a SourceDescriptor, Contribution)],
    selected: Option<&'a Selected>,
    read_sources: &'a [&'a SourceDescriptor],
    /// The isotope table, when found: exact masses are recomputed from formulas.
    isotopes: Option<(&'a str, &'a exact_mass::IsotopeTable)>,
    catalog: &'a Catalog,
    date: &'a str,
}

/// Applies the merge rules to one compound; pure, so it is tested without files.
fn build_record(input: BuildInput<'_>) -> anyhow::Result<CompoundRecord> {
    let rank = |s: &str| input.catalog.rank(s);
    let mut value = match input.old {
        Some(old) => serde_json::to_value(old)?,
        None => json!({}),
    };
    for src in input.read_sources {
        strip_source(&mut value, &src.id);
    }
    strip_source(&mut value, SELECTION_SOURCE);
    for (_, c) in input.contributions {
        merge(&mut value, c.fragment.clone(), &rank);
    }
    if let Some(class) = input.selected.and_then(|s| s.group.as_ref()) {
        merge(
            &mut value,
            json!({"use_classes": [{"class": class, "source": SELECTION_SOURCE}]}),
            &rank,
        );
    }
    for src in input.catalog.sources.iter() {
        if let Some(primary) = &src.fallback_for
            && referenced_sources(&value).contains(primary)
            && !only_through_groups(&value, primary)
        {
            let kept = fallback_routes(&value, &src.id);
            strip_source(&mut value, &src.id);
            carry_routes(&mut value, primary, kept);
        }
    }

    if let Some((source, table)) = input.isotopes {
        set_exact_mass(&mut value, source, table);
    }
    order_by_source(&mut value, &rank);
    let (name, name_source) = input.name.clone();
    let obj = value.as_object_mut().context("a record is a JSON object")?;
    obj.insert("hq_id".into(), json!(input.hq_id));
    obj.insert("name".into(), json!(name));
    obj.insert("name_source".into(), json!(name_source));
    obj.insert("cas".into(), json!(input.cas.as_str()));
    if input.alternates.is_empty() {
        obj.remove("alternate_cas");
    } else {
        obj.insert("alternate_cas".into(), json!(input.alternates));
    }
    let (mut curated, mut from_tables) = (Vec::new(), Vec::new());
    for u in obj
        .get("use_classes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let class = u
            .get("class")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        if u.get("source").and_then(Value::as_str) == Some(SELECTION_SOURCE) {
            curated.push(class);
        } else {
            from_tables.push(class);
        }
    }
    let kind = vocab::primary_use_class(&curated, &from_tables);
    obj.insert("type".into(), json!(kind));
    obj.insert("category".into(), json!(kind.and_then(vocab::category_of)));
    for section in ["identity", "crossrefs", "safety", "regulatory", "hierarchy"] {
        obj.entry(section).or_insert_with(|| json!({}));
    }
    if let Some(hierarchy) = obj.get_mut("hierarchy").and_then(Value::as_object_mut) {
        match input.parent {
            Some(parent) => hierarchy.insert("parent".into(), json!(parent)),
            None => hierarchy.remove("parent"),
        };
    }
    obj.entry("properties")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .context("properties is an object")?
        .entry("chemical_properties")
        .or_insert_with(|| json!({}));
    obj.remove("sources");
    obj.remove("meta");
    obj.remove("_data_gaps");
    obj.insert("sources".into(), json!([]));
    obj.insert(
        "meta".into(),
        json!({"created": "", "last_reviewed": "", "version": 0}),
    );

    let mut record: CompoundRecord = {
        let text = serde_json::to_string(&value)?;
        let de = &mut serde_json::Deserializer::from_str(&text);
        serde_path_to_error::deserialize(de).map_err(|e| {
            anyhow::anyhow!(
                "merged record does not fit the model at {}: {}",
                e.path(),
                e.inner()
            )
        })?
    };
    record.sources = source_refs(&value, input.catalog, input.old);
    record.data_gaps = gaps::data_gaps(&record, input.catalog);
    record.meta = next_meta(input.old, &record, input.date, input.contributions);
    Ok(record)
}

/// Replaces the exact masses with those computed from the current formula (or removes them
/// when there is no formula to compute from).
fn set_exact_mass(value: &mut Value, source: &str, table: &exact_mass::IsotopeTable) {
    let mass = value
        .pointer("/properties/chemical_properties/molecular_formula")
        .and_then(Value::as_str)
        .and_then(|f| table.exact_mass(f));
    // Both blocks exist in every stored record; creating them here keeps a rerun identical.
    if let Some(obj) = value.as_object_mut() {
        obj.entry("identity").or_insert_with(|| json!({}));
        let props = obj.entry("properties").or_insert_with(|| json!({}));
        if let Some(props) = props.as_object_mut() {
            props
                .entry("chemical_properties")
                .or_insert_with(|| json!({}));
        }
    }
    for pointer in ["/identity", "/properties/chemical_properties"] {
        let Some(block) = value.pointer_mut(pointer).and_then(Value::as_object_mut) else {
            continue;
        };
        block.remove("exact_mass");
        block.remove("exact_mass_source");
        if let Some(m) = mass {
            block.insert("exact_mass".into(), json!(m));
            block.insert("exact_mass_source".into(), json!(source));
        }
    }
}

/// `sources[]`: a reference for each source id the record uses, from the catalogue (or kept
/// from the old record for ids the catalogue no longer has).
fn source_refs(
    value: &Value,
    catalog: &Catalog,
    old: Option<&CompoundRecord>,
) -> Vec<crate::model::record::SourceRef> {
    referenced_sources(value)
        .into_iter()
        .filter_map(|id| {
            if id == SELECTION_SOURCE {
                return Some(select::selection_source_ref());
            }
            catalog
                .get(&id)
                .map(SourceDescriptor::to_ref)
                .or_else(|| old.and_then(|o| o.sources.iter().find(|s| s.id == id).cloned()))
        })
        .collect()
}

/// Meta of the new record: the old one if nothing else changed, else the next version.
fn next_meta(
    old: Option<&CompoundRecord>,
    new: &CompoundRecord,
    date: &str,
    contributions: &[(&SourceDescriptor, Contribution)],
) -> crate::model::record::Meta {
    use crate::model::record::{Meta, Revision};
    let Some(old) = old else {
        let mut from: Vec<&str> = contributions.iter().map(|(s, _)| s.id.as_str()).collect();
        from.dedup();
        return Meta {
            created: date.into(),
            last_reviewed: date.into(),
            version: 1,
            revision_history: vec![Revision {
                version: 1,
                date: date.into(),
                summary: format!("created by ingest from {}", from.join(", ")),
            }],
        };
    };
    let mut compare = new.clone();
    compare.meta = old.meta.clone();
    if compare == *old {
        return old.meta.clone();
    }
    let (a, b) = (
        serde_json::to_value(old).unwrap_or_default(),
        serde_json::to_value(&compare).unwrap_or_default(),
    );
    let changed: Vec<&str> = match (a.as_object(), b.as_object()) {
        (Some(a), Some(b)) => b
            .keys()
            .chain(a.keys())
            .filter(|k| a.get(*k) != b.get(*k))
            .map(String::as_str)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect(),
        _ => Vec::new(),
    };
    let version = old.meta.version + 1;
    let mut history = old.meta.revision_history.clone();
    history.push(Revision {
        version,
        date: date.into(),
        summary: format!("ingest refresh: changed {}", changed.join(", ")),
    });
    Meta {
        created: old.meta.created.clone(),
        last_reviewed: date.into(),
        version,
        revision_history: history,
    }
}

#[cfg(test)]
mod tests;
