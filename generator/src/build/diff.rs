//! `saferef-generate diff OLD NEW`: what a release changed, compound by compound (added,
//! removed, field changes, risk tiers per context, regulatory data) and cell by cell of the
//! regulatory-status layer, as changelog entries with a readable unified diff (`similar`).

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::io::Write;
use std::path::Path;

use serde_json::{Map, Value};
use similar::TextDiff;

use crate::aggregate;
use crate::model::Dataset;
use crate::model::changelog::{Change, Entry, EventType};
use crate::model::ids::CompoundId;
use crate::model::record::CompoundRecord;

/// The entries of one release.
#[derive(Debug)]
pub struct Diff {
    pub release: String,
    pub date: String,
    pub entries: Vec<Entry>,
}

impl Diff {
    /// Entries per type, for the command's summary.
    pub fn counts(&self) -> BTreeMap<EventType, usize> {
        let mut out = BTreeMap::new();
        for e in &self.entries {
            *out.entry(e.kind).or_insert(0) += 1;
        }
        out
    }
}

/// Compares `old` with `new`. The release name defaults to NEW's data date and the first
/// digits of its fingerprint, so the same pair of datasets always names the same release.
pub fn diff(old: &Dataset, new: &Dataset, release: Option<&str>) -> Diff {
    let date = new.release_date()[..10].to_string();
    let release = release.map_or_else(
        || {
            format!(
                "{date}-{}",
                &new.fingerprint[..new.fingerprint.len().min(7)]
            )
        },
        str::to_string,
    );
    let at = Release {
        name: &release,
        date: &date,
    };
    let mut entries = Vec::new();
    let ids: BTreeSet<&CompoundId> = old.compounds.keys().chain(new.compounds.keys()).collect();
    for id in ids {
        let (old, new) = (old.compounds.get(id), new.compounds.get(id));
        let id = &id.to_string();
        match (old, new) {
            (None, Some(n)) => entries.push(at.entry(
                EventType::CompoundAdded,
                Some(id),
                &n.name,
                format!("added {} (CAS {})", n.name, n.cas),
                Vec::new(),
                text_diff(id, at.name, "", &identity_lines(n)),
            )),
            (Some(o), None) => entries.push(at.entry(
                EventType::CompoundRemoved,
                Some(id),
                &o.name,
                format!("removed {} (CAS {})", o.name, o.cas),
                Vec::new(),
                text_diff(id, at.name, &identity_lines(o), ""),
            )),
            (Some(o), Some(n)) if o != n => entries.extend(compound_changes(&at, o, n)),
            _ => {}
        }
    }
    entries.extend(cell_changes(&at, old, new));
    Diff {
        release,
        date,
        entries,
    }
}

/// Appends the entries `path` does not hold yet (by id); how many were written. Re-running
/// the same diff writes nothing.
pub fn append(path: &Path, entries: &[Entry]) -> anyhow::Result<usize> {
    let (existing, problems) = crate::load::changelog::read(path);
    if let Some(p) = problems.first() {
        anyhow::bail!("{p}: fix the changelog before appending to it");
    }
    let have: HashSet<&str> = existing.iter().map(|e| e.id.as_str()).collect();
    let mut text = String::new();
    let mut written = 0;
    for e in entries.iter().filter(|e| !have.contains(e.id.as_str())) {
        text.push_str(&serde_json::to_string(e)?);
        text.push('\n');
        written += 1;
    }
    if written > 0 {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        file.write_all(text.as_bytes())?;
    }
    Ok(written)
}

struct Release<'a> {
    name: &'a str,
    date: &'a str,
}

impl Release<'_> {
    fn entry(
        &self,
        kind: EventType,
        compound_id: Option<&str>,
        name: &str,
        summary: String,
        changes: Vec<Change>,
        text_diff: String,
    ) -> Entry {
        Entry {
            id: Entry::id_for(self.name, kind, compound_id, name),
            release: self.name.to_string(),
            date: self.date.to_string(),
            kind,
            compound_id: compound_id.map(str::to_string),
            name: name.to_string(),
            summary,
            changes,
            text_diff,
        }
    }
}

/// A changed compound: its field changes (regulatory ones apart) and its tier changes.
fn compound_changes(at: &Release<'_>, old: &CompoundRecord, new: &CompoundRecord) -> Vec<Entry> {
    let mut out = field_changes(at, old, new);
    out.extend(risk_change(at, old, new));
    out
}

/// One entry for the changed fields outside `regulatory`, one for those inside it.
fn field_changes(at: &Release<'_>, old: &CompoundRecord, new: &CompoundRecord) -> Vec<Entry> {
    let (a, b) = (record_value(old), record_value(new));
    let mut changes = Vec::new();
    walk("", Some(&a), Some(&b), &DERIVED_DATES, None, &mut changes);
    let (regulatory, fields): (Vec<Change>, Vec<Change>) = changes
        .into_iter()
        .partition(|c| top_key(&c.path) == "regulatory");
    let id = &new.hq_id.to_string();
    let mut out = Vec::new();
    for (kind, changes, what) in [
        (EventType::CompoundUpdated, fields, "updated"),
        (
            EventType::RegulatoryUpdated,
            regulatory,
            "regulatory data updated",
        ),
    ] {
        if changes.is_empty() {
            continue;
        }
        let keys: BTreeSet<&str> = changes.iter().map(|c| top_key(&c.path)).collect();
        let summary = format!(
            "{}: {what} ({} field{} in {})",
            new.name,
            changes.len(),
            if changes.len() == 1 { "" } else { "s" },
            keys.iter().copied().collect::<Vec<_>>().join(", ")
        );
        let diff = text_diff(
            id,
            at.name,
            &pretty(&subset(&a, &keys)),
            &pretty(&subset(&b, &keys)),
        );
        out.push(at.entry(kind, Some(id), &new.name, summary, changes, diff));
    }
    out
}

/// The entry for the contexts whose risk tier changed, if any did.
fn risk_change(at: &Release<'_>, old: &CompoundRecord, new: &CompoundRecord) -> Option<Entry> {
    let (before, after) = (tiers(old), tiers(new));
    let contexts: BTreeSet<&str> = before.keys().chain(after.keys()).copied().collect();
    let risk: Vec<Change> = contexts
        .into_iter()
        .filter(|c| before.get(c) != after.get(c))
        .map(|c| Change {
            path: format!("risk_levels.{c}"),
            old: before.get(c).map_or(Value::Null, |t| Value::from(*t)),
            new: after.get(c).map_or(Value::Null, |t| Value::from(*t)),
            effective: None,
        })
        .collect();
    if risk.is_empty() {
        return None;
    }
    let shown = |t: &Value| t.as_str().unwrap_or("none").to_string();
    let summary = format!(
        "{}: risk tier changed in {} context{}: {}",
        new.name,
        risk.len(),
        if risk.len() == 1 { "" } else { "s" },
        risk.iter()
            .map(|c| format!(
                "{} {} -> {}",
                &c.path["risk_levels.".len()..],
                shown(&c.old),
                shown(&c.new)
            ))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let lines = |m: &BTreeMap<&str, &str>| {
        m.iter()
            .map(|(c, t)| format!("{c}: {t}\n"))
            .collect::<String>()
    };
    let id = &new.hq_id.to_string();
    let diff = text_diff(id, at.name, &lines(&before), &lines(&after));
    Some(at.entry(
        EventType::CompoundRiskChanged,
        Some(id),
        &new.name,
        summary,
        risk,
        diff,
    ))
}

/// Cells of the regulatory-status layer added, removed or changed, by jurisdiction, analyte
/// and matrix; linked to the analyte's compound when the corpus holds one.
fn cell_changes(at: &Release<'_>, old: &Dataset, new: &Dataset) -> Vec<Entry> {
    let cells = |d: &Dataset| -> BTreeMap<(String, String, String), Value> {
        d.regulatory_status
            .cells()
            .map(|c| {
                let key = (c.jurisdiction.clone(), c.analyte.clone(), c.matrix.clone());
                (key, serde_json::to_value(c).unwrap_or_default())
            })
            .collect()
    };
    let (before, after) = (cells(old), cells(new));
    let keys: BTreeSet<&(String, String, String)> = before.keys().chain(after.keys()).collect();
    let mut out = Vec::new();
    for key in keys {
        let (a, b) = (before.get(key), after.get(key));
        if a == b {
            continue;
        }
        let (jurisdiction, analyte, matrix) = key;
        let name = format!("{analyte} / {matrix} / {jurisdiction}");
        let mut changes = Vec::new();
        match (a, b) {
            (Some(a), Some(b)) => walk("", Some(a), Some(b), &[], None, &mut changes),
            _ => changes.push(Change {
                path: "cell".into(),
                old: a.cloned().unwrap_or(Value::Null),
                new: b.cloned().unwrap_or(Value::Null),
                effective: None,
            }),
        }
        let what = match (a, b) {
            (None, _) => "added".to_string(),
            (_, None) => "removed".to_string(),
            _ => format!(
                "changed ({} field{})",
                changes.len(),
                if changes.len() == 1 { "" } else { "s" }
            ),
        };
        let compound = analyte_compound(new, analyte).or_else(|| analyte_compound(old, analyte));
        let diff = text_diff(
            &name,
            at.name,
            &a.map(pretty).unwrap_or_default(),
            &b.map(pretty).unwrap_or_default(),
        );
        out.push(at.entry(
            EventType::RegulatoryUpdated,
            compound.as_deref(),
            &name,
            format!("regulatory-status cell {name} {what}"),
            changes,
            diff,
        ));
    }
    out
}

/// The compound of an analyte that names exactly one CAS the corpus holds.
fn analyte_compound(d: &Dataset, analyte: &str) -> Option<String> {
    let a = d.regulatory_status.vocabulary.analytes.get(analyte)?;
    match a.cas.as_slice() {
        [cas] => d.by_cas(cas).map(|r| r.hq_id.to_string()),
        _ => None,
    }
}

/// The record as JSON without `meta` (version, review date and history move with every
/// change and would only repeat it).
fn record_value(r: &CompoundRecord) -> Value {
    let mut v = serde_json::to_value(r).unwrap_or_default();
    if let Some(map) = v.as_object_mut() {
        map.remove("meta");
    }
    v
}

fn tiers(r: &CompoundRecord) -> BTreeMap<&'static str, &'static str> {
    aggregate::assess(r)
        .contexts
        .iter()
        .map(|c| (c.context, c.risk_level.as_str()))
        .collect()
}

/// The dates the load derives from a compound value's stored fields (data/README.md "Dates"):
/// a change to them is the change of the stored field they follow, so it is not listed again,
/// and the new `effective_from` is given as that change's `effective`. (A regulatory-status
/// cell stores its own `effective_from`, so a cell's are changes like any other.)
const DERIVED_DATES: [&str; 3] = ["effective_from", "date_precision", "effective_until"];

/// Leaf changes between two JSON trees, leaving out the keys `skip`: objects key by key,
/// equal-length arrays element by element, anything else as one change, dated by the new
/// value's own `effective_from` or, for a field of a dated value, by that value's.
fn walk(
    path: &str,
    a: Option<&Value>,
    b: Option<&Value>,
    skip: &[&str],
    effective: Option<&str>,
    out: &mut Vec<Change>,
) {
    match (a, b) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            let effective = y
                .get("effective_from")
                .and_then(Value::as_str)
                .or(effective);
            let keys = x.keys().chain(y.keys().filter(|k| !x.contains_key(*k)));
            for k in keys.filter(|k| !skip.contains(&k.as_str())) {
                let sub = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                walk(&sub, x.get(k), y.get(k), skip, effective, out);
            }
        }
        (Some(Value::Array(x)), Some(Value::Array(y))) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                walk(
                    &format!("{path}[{i}]"),
                    Some(p),
                    Some(q),
                    skip,
                    effective,
                    out,
                );
            }
        }
        _ if a != b => out.push(Change {
            path: path.to_string(),
            old: a.cloned().unwrap_or(Value::Null),
            new: b.cloned().unwrap_or(Value::Null),
            effective: b
                .and_then(|v| v.get("effective_from"))
                .and_then(Value::as_str)
                .or(effective)
                .map(str::to_string),
        }),
        _ => {}
    }
}

/// `identity.smiles` -> `identity`, `found_in[2].examples` -> `found_in`.
fn top_key(path: &str) -> &str {
    path.split(['.', '[']).next().unwrap_or(path)
}

fn subset(v: &Value, keys: &BTreeSet<&str>) -> Value {
    let mut out = Map::new();
    if let Some(map) = v.as_object() {
        for (k, x) in map.iter().filter(|(k, _)| keys.contains(k.as_str())) {
            out.insert(k.clone(), x.clone());
        }
    }
    Value::Object(out)
}

fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}

fn identity_lines(r: &CompoundRecord) -> String {
    let mut s = format!("hq_id: {}\nname: {}\ncas: {}\n", r.hq_id, r.name, r.cas);
    if let Some(kind) = &r.kind {
        s.push_str(&format!("type: {kind}\n"));
    }
    s
}

fn text_diff(subject: &str, release: &str, old: &str, new: &str) -> String {
    TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(
            &format!("{subject} (before)"),
            &format!("{subject} ({release})"),
        )
        .to_string()
}
