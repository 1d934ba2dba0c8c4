//! The merge rules between sources, applied to records as JSON trees.
//!
//! Ingest and curation meet here, so the rules are written once:
//! 1. Re-ingesting a source first removes every value that source owns (an object whose
//!    `source` is that id, wherever it sits), then adds what the new edition holds.
//! 2. Objects merge key by key. Two objects that both name a `source` are two sources'
//!    answers to one question: the higher-ranked source's object is kept whole.
//! 3. Arrays append, without repeating an equal element.
//! 4. Anything else (a scalar) is replaced by the incoming value.
//!
//! Curated overlays rank above every ingested table, so they are never overwritten, and the
//! ingest never writes to `data/curated/` at all.

use serde_json::{Map, Value};

/// Ranks a source id: lower is more authoritative.
pub trait Rank {
    fn rank(&self, source: &str) -> usize;
}

impl<F: Fn(&str) -> usize> Rank for F {
    fn rank(&self, source: &str) -> usize {
        self(source)
    }
}

fn owned_by(value: &Value, source: &str) -> bool {
    value.get("source").and_then(Value::as_str) == Some(source)
}

/// Removes every value owned by `source` from the tree (rule 1).
pub fn strip_source(value: &mut Value, source: &str) {
    match value {
        Value::Object(map) => {
            map.retain(|_, v| !owned_by(v, source));
            for v in map.values_mut() {
                strip_source(v, source);
            }
        }
        Value::Array(items) => {
            items.retain(|v| !owned_by(v, source));
            for v in items {
                strip_source(v, source);
            }
        }
        _ => {}
    }
}

/// Merges `incoming` into `base` by rules 2 to 4.
pub fn merge(base: &mut Value, incoming: Value, rank: &dyn Rank) {
    match (base, incoming) {
        (Value::Object(base), Value::Object(incoming)) => merge_objects(base, incoming, rank),
        (Value::Array(base), Value::Array(incoming)) => {
            for item in incoming {
                if !base.contains(&item) {
                    base.push(item);
                }
            }
        }
        (base, incoming) => *base = incoming,
    }
}

fn merge_objects(base: &mut Map<String, Value>, incoming: Map<String, Value>, rank: &dyn Rank) {
    for (key, new) in incoming {
        match base.get_mut(&key) {
            None => {
                base.insert(key, new);
            }
            Some(old) => {
                let sources = (
                    old.get("source").and_then(Value::as_str),
                    new.get("source").and_then(Value::as_str),
                );
                match sources {
                    (Some(a), Some(b)) if a != b => {
                        if rank.rank(b) <= rank.rank(a) {
                            *old = new;
                        }
                    }
                    _ => merge(old, new, rank),
                }
            }
        }
    }
}

/// Orders every array of sourced objects by source rank (stable within a source), so that
/// the order of a record's lists does not depend on which tables were re-read last.
pub fn order_by_source(value: &mut Value, rank: &dyn Rank) {
    match value {
        Value::Object(map) => map.values_mut().for_each(|v| order_by_source(v, rank)),
        Value::Array(items) => {
            items.iter_mut().for_each(|v| order_by_source(v, rank));
            items.sort_by_key(|v| {
                v.get("source")
                    .and_then(Value::as_str)
                    .map_or(usize::MAX, |s| rank.rank(s))
            });
        }
        _ => {}
    }
}

/// Keys whose string value names a source id.
const SOURCE_KEYS: [&str; 3] = ["source", "name_source", "exact_mass_source"];

/// Every source id the tree refers to.
pub fn referenced_sources(value: &Value) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    collect_sources(value, &mut out);
    out
}

fn collect_sources(value: &Value, out: &mut std::collections::BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                match v {
                    Value::String(s) if SOURCE_KEYS.contains(&k.as_str()) => {
                        out.insert(s.clone());
                    }
                    _ => collect_sources(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_sources(v, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Curated sources rank first, then tables in a fixed order.
    fn rank(source: &str) -> usize {
        ["curated", "clp", "hcis", "efsa"]
            .iter()
            .position(|s| *s == source)
            .unwrap_or(usize::MAX)
    }

    fn merged(base: Value, incoming: Value) -> Value {
        let mut base = base;
        merge(&mut base, incoming, &rank);
        base
    }

    #[test]
    fn reingest_replaces_only_that_sources_values() {
        let mut record = json!({
            "regulatory": {"classifications": [
                {"agency": "IARC", "classification": "2B", "source": "iarc"},
                {"agency": "ECHA", "classification": "SVHC", "source": "svhc"},
                {"agency": "IARC", "classification": "1", "source": "curated"}
            ]},
            "identity": {"smiles": "C", "source": "pubchem"}
        });
        strip_source(&mut record, "iarc");
        merge(
            &mut record,
            json!({"regulatory": {"classifications": [
                {"agency": "IARC", "classification": "2A", "source": "iarc"}
            ]}}),
            &rank,
        );
        assert_eq!(
            record,
            json!({
                "regulatory": {"classifications": [
                    {"agency": "ECHA", "classification": "SVHC", "source": "svhc"},
                    {"agency": "IARC", "classification": "1", "source": "curated"},
                    {"agency": "IARC", "classification": "2A", "source": "iarc"}
                ]},
                "identity": {"smiles": "C", "source": "pubchem"}
            })
        );
    }

    #[test]
    fn stripping_removes_owned_blocks_everywhere() {
        let mut record = json!({
            "identity": {"smiles": "C", "source": "pubchem"},
            "properties": {"physical_properties": {
                "melting_point": {"value": 1.0, "unit": "°C", "source": "pubchem"},
                "density": {"value": 1.0, "unit": "g/cm3", "source": "crc"}
            }}
        });
        strip_source(&mut record, "pubchem");
        assert_eq!(
            record,
            json!({"properties": {"physical_properties": {
                "density": {"value": 1.0, "unit": "g/cm3", "source": "crc"}
            }}})
        );
    }

    #[test]
    fn curated_is_never_overwritten_by_a_table() {
        let base = json!({"listings": {"iarc_group": {"group": "1", "source": "curated"}}});
        let got = merged(
            base.clone(),
            json!({"listings": {"iarc_group": {"group": "2B", "source": "efsa"}}}),
        );
        assert_eq!(got, base);
    }

    #[test]
    fn higher_ranked_source_replaces_whole_object() {
        let got = merged(
            json!({"ghs": {"h_codes": ["H302"], "pictograms": ["GHS07"], "source": "hcis"}}),
            json!({"ghs": {"h_codes": ["H350"], "source": "clp"}}),
        );
        assert_eq!(got, json!({"ghs": {"h_codes": ["H350"], "source": "clp"}}));
    }

    #[test]
    fn arrays_append_without_repeats_and_scalars_replace() {
        let got = merged(
            json!({"synonyms": ["a", "b"], "name": "x", "n": {"k": 1}}),
            json!({"synonyms": ["b", "c"], "name": "y", "n": {"j": 2}}),
        );
        assert_eq!(
            got,
            json!({"synonyms": ["a", "b", "c"], "name": "y", "n": {"k": 1, "j": 2}})
        );
    }

    #[test]
    fn arrays_are_ordered_by_source_rank() {
        let mut v = json!({"a": [
            {"n": 1, "source": "efsa"}, {"n": 2, "source": "clp"},
            {"n": 3, "source": "efsa"}, {"n": 4, "source": "curated"}, {"n": 5}
        ], "names": ["b", "a"]});
        order_by_source(&mut v, &rank);
        let order: Vec<i64> = v["a"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["n"].as_i64().unwrap())
            .collect();
        assert_eq!(order, [4, 2, 1, 3, 5]);
        assert_eq!(v["names"], json!(["b", "a"]));
    }

    #[test]
    fn referenced_sources_are_collected() {
        let v = json!({"name_source": "sel", "a": [{"source": "x"}, {"b": {"source": "y"}}],
                       "chemical_properties": {"exact_mass_source": "z", "source": "x"}});
        let got: Vec<String> = referenced_sources(&v).into_iter().collect();
        assert_eq!(got, ["sel", "x", "y", "z"]);
    }

    #[test]
    fn same_source_objects_merge_key_by_key() {
        let got = merged(
            json!({"p": {"a": 1, "source": "efsa"}}),
            json!({"p": {"b": 2, "source": "efsa"}}),
        );
        assert_eq!(got, json!({"p": {"a": 1, "b": 2, "source": "efsa"}}));
    }
}
