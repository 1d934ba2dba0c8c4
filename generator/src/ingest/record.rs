//! One compound's record from what the tables say of it now: strip what re-read tables owned,
//! merge their contributions by source rank, let a fallback table's entries give way to its
//! primary's (keeping the routes they state), then identity, use type, sources, gaps and meta.

use std::collections::BTreeSet;

use anyhow::Context;
use serde_json::{Value, json};

use super::contribution::Contribution;
use super::select::{self, SELECTION_SOURCE, Selected};
use super::{exact_mass, gaps};
use crate::model::cas::Cas;
use crate::model::catalog::{Catalog, SourceDescriptor};
use crate::model::merge::{merge, order_by_source, referenced_sources, strip_source};
use crate::model::record::{AlternateCas as AlternateCasRef, CompoundRecord};
use crate::model::vocab;

pub(super) struct BuildInput<'a> {
    pub(super) hq_id: &'a str,
    /// (display name, the source it comes from): `names::unique`.
    pub(super) name: (String, String),
    /// The compound whose group this one belongs to by element (lead for lead acetate).
    pub(super) parent: Option<&'a str>,
    pub(super) cas: &'a Cas,
    /// The record's other CAS numbers (`curated/alternate-cas.tsv`).
    pub(super) alternates: Vec<AlternateCasRef>,
    pub(super) old: Option<&'a CompoundRecord>,
    pub(super) contributions: &'a [(&'a SourceDescriptor, Contribution)],
    pub(super) selected: Option<&'a Selected>,
    pub(super) read_sources: &'a [&'a SourceDescriptor],
    /// The isotope table, when found: exact masses are recomputed from formulas.
    pub(super) isotopes: Option<(&'a str, &'a exact_mass::IsotopeTable)>,
    pub(super) catalog: &'a Catalog,
    pub(super) date: &'a str,
}

/// Applies the merge rules to one compound; pure, so it is tested without files.
pub(super) fn build_record(input: BuildInput<'_>) -> anyhow::Result<CompoundRecord> {
    let mut value = merged(&input)?;
    let obj = value.as_object_mut().context("a record is a JSON object")?;
    set_identity(obj, &input);
    set_use_type(obj);
    reset_derived(obj)?;
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

/// The old record without what the re-read tables owned, with what they say now merged in by
/// source rank; a fallback table's entries give way to its primary's but keep their routes.
fn merged(input: &BuildInput<'_>) -> anyhow::Result<Value> {
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
    Ok(value)
}

/// Id, name, CAS numbers and group parent: the ingest's own, whatever the tables say.
fn set_identity(obj: &mut serde_json::Map<String, Value>, input: &BuildInput<'_>) {
    let (name, name_source) = input.name.clone();
    obj.insert("hq_id".into(), json!(input.hq_id));
    obj.insert("name".into(), json!(name));
    obj.insert("name_source".into(), json!(name_source));
    obj.insert("cas".into(), json!(input.cas.as_str()));
    if input.alternates.is_empty() {
        obj.remove("alternate_cas");
    } else {
        obj.insert("alternate_cas".into(), json!(input.alternates));
    }
    let hierarchy = obj.entry("hierarchy").or_insert_with(|| json!({}));
    if let Some(hierarchy) = hierarchy.as_object_mut() {
        match input.parent {
            Some(parent) => hierarchy.insert("parent".into(), json!(parent)),
            None => hierarchy.remove("parent"),
        };
    }
}

/// `type` and `category` from the use classes: a curated class (the selection's) before the
/// tables' (`vocab::primary_use_class`).
fn set_use_type(obj: &mut serde_json::Map<String, Value>) {
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
}

/// Every section a stored record has, and placeholders for what `build_record` recomputes
/// (sources, meta, gaps) so that the merged value fits the model.
fn reset_derived(obj: &mut serde_json::Map<String, Value>) -> anyhow::Result<()> {
    for section in ["identity", "crossrefs", "safety", "regulatory", "hierarchy"] {
        obj.entry(section).or_insert_with(|| json!({}));
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
    Ok(())
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
