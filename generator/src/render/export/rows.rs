//! JSON rows of the export: the standard index (the list items' fields, plus the structural
//! fields masks) or the full stored record, per entity kind.

use serde_json::{Map, Value, json};

use super::Kind;
use super::mask;
use crate::model::Dataset;
use crate::render::lists::{RiskIndex, select};

pub(super) fn json(kind: Kind, full: bool, d: &Dataset, index: &RiskIndex, id: &str) -> Value {
    match kind {
        Kind::Compounds => compound(full, d, index, id),
        Kind::Materials => material(full, d, id),
        Kind::Products => product(full, d, index, id),
    }
}

fn compound(full: bool, d: &Dataset, index: &RiskIndex, id: &str) -> Value {
    let Some(r) = d.compound(id) else {
        return Value::Null;
    };
    let tiers = select::tiers(index, r);
    if full {
        let mut v = mask::full_record(r);
        if let Some(obj) = v.as_object_mut() {
            obj.insert("risk_levels".into(), json!(*tiers));
        }
        return v;
    }
    let mut row = Map::new();
    row.insert("hq_id".into(), json!(r.hq_id));
    row.insert("name".into(), json!(r.name));
    row.insert("cas".into(), json!(r.cas));
    if let Some(k) = &r.kind {
        row.insert("type".into(), json!(k));
    }
    if let Some(c) = &r.category {
        row.insert("category".into(), json!(c));
    }
    for (name, value) in mask::structural(r) {
        if !value.is_null() {
            row.insert(name.into(), value);
        }
    }
    row.insert("risk_levels".into(), json!(*tiers));
    if mask::under_review(r) {
        row.insert("data_quality".into(), json!(r.data_quality));
    }
    Value::Object(row)
}

fn material(full: bool, d: &Dataset, id: &str) -> Value {
    let Some(m) = d.materials.get(id) else {
        return Value::Null;
    };
    if full {
        return serde_json::to_value(m).expect("materials serialize");
    }
    let c = &m.composition;
    json!({
        "id": m.id,
        "name": m.name,
        "slug": m.slug,
        "family": m.family,
        "synonyms": m.synonyms,
        "safety_summary": m.safety_summary.text,
        "compound_count": c.base.len() + c.additives.len() + c.contaminants.len(),
        "alternative_count": m.alternatives.len(),
    })
}

fn product(full: bool, d: &Dataset, index: &RiskIndex, id: &str) -> Value {
    let Some(p) = d.products.get(id) else {
        return Value::Null;
    };
    let risk = select::product_risk(d, index, p).map(|r| r.as_str());
    if full {
        let mut v = serde_json::to_value(p).expect("products serialize");
        if let Some(obj) = v.as_object_mut() {
            obj.insert("risk_level".into(), json!(risk));
        }
        return v;
    }
    json!({
        "id": p.id,
        "name": p.name,
        "tier": p.tier,
        "categories": p.categories,
        "risk_level": risk,
    })
}
