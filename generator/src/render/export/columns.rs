//! CSV columns of the export, per entity kind and detail: one flat cell per field, lists
//! joined with "; ", risk tiers one column per context; the envelope's `_notice` and
//! `_disclaimer_url` are the last two columns of every row.

use serde::Serialize;
use serde_json::Value;

use super::Kind;
use super::mask;
use crate::model::Dataset;
use crate::model::material::Component;
use crate::model::record::CompoundRecord;
use crate::render::lists::{RiskIndex, select};

const COMPOUND_INDEX: &[&str] = &[
    "hq_id",
    "name",
    "cas",
    "type",
    "category",
    "smiles",
    "inchi",
    "inchi_key",
    "exact_mass",
    "molecular_weight",
    "molecular_formula",
    "data_quality",
];
const COMPOUND_FULL: &[&str] = &[
    "iupac_name",
    "synonyms",
    "pubchem_cid",
    "ec_number",
    "dtxsid",
    "watch_class",
    "ghs_h_codes",
    "ghs_signal_word",
    "iarc_group",
    "ntp_roc",
    "prop65",
    "eu_svhc",
    "agencies",
    "found_in",
    "last_reviewed",
];
const MATERIAL_INDEX: &[&str] = &[
    "id",
    "name",
    "slug",
    "family",
    "synonyms",
    "safety_summary",
    "compound_count",
    "alternative_count",
];
const MATERIAL_FULL: &[&str] = &[
    "description",
    "base",
    "additives",
    "contaminants",
    "alternatives",
    "last_reviewed",
];
const PRODUCT_INDEX: &[&str] = &["id", "name", "tier", "categories", "risk_level"];
const PRODUCT_FULL: &[&str] = &[
    "common_names",
    "tags",
    "description",
    "hazard_summary",
    "composition",
    "routes",
    "users",
    "duration",
    "frequency",
    "concerning_materials",
    "regulatory_status",
    "last_reviewed",
];
const ENVELOPE: &[&str] = &["_notice", "_disclaimer_url"];

pub(super) fn header(kind: Kind, full: bool, contexts: &[String]) -> Vec<String> {
    let (index, more): (&[&str], &[&str]) = match kind {
        Kind::Compounds => (COMPOUND_INDEX, COMPOUND_FULL),
        Kind::Materials => (MATERIAL_INDEX, MATERIAL_FULL),
        Kind::Products => (PRODUCT_INDEX, PRODUCT_FULL),
    };
    let mut out: Vec<String> = index.iter().map(|c| c.to_string()).collect();
    if full {
        out.extend(more.iter().map(|c| c.to_string()));
    }
    if kind == Kind::Compounds {
        out.extend(contexts.iter().map(|c| format!("risk_{c}")));
    }
    out.extend(ENVELOPE.iter().map(|c| c.to_string()));
    out
}

/// The row's cells before the envelope columns, in `header` order.
pub(super) fn row(
    kind: Kind,
    full: bool,
    d: &Dataset,
    index: &RiskIndex,
    id: &str,
    contexts: &[String],
) -> Vec<String> {
    match kind {
        Kind::Compounds => d
            .compound(id)
            .map(|r| compound(full, r, index, contexts))
            .unwrap_or_default(),
        Kind::Materials => d
            .materials
            .get(id)
            .map(|m| {
                let c = &m.composition;
                let mut row = vec![
                    m.id.clone(),
                    m.name.clone(),
                    m.slug.clone(),
                    m.family.clone(),
                    m.synonyms.join("; "),
                    m.safety_summary.text.clone(),
                    (c.base.len() + c.additives.len() + c.contaminants.len()).to_string(),
                    m.alternatives.len().to_string(),
                ];
                if full {
                    row.extend([
                        m.description.text.clone(),
                        components(&c.base),
                        components(&c.additives),
                        components(&c.contaminants),
                        join(m.alternatives.iter().map(|a| a.name.as_str())),
                        m.meta.last_reviewed.clone(),
                    ]);
                }
                row
            })
            .unwrap_or_default(),
        Kind::Products => d
            .products
            .get(id)
            .map(|p| {
                let risk = select::product_risk(d, index, p).map_or("", |r| r.as_str());
                let mut row = vec![
                    p.id.clone(),
                    p.name.clone(),
                    p.tier.clone(),
                    p.categories.join("; "),
                    risk.to_string(),
                ];
                if full {
                    row.extend([
                        p.common_names.join("; "),
                        p.tags.join("; "),
                        p.description.text.clone(),
                        p.hazard_summary.text.clone(),
                        components(&p.composition),
                        p.exposure.routes.join("; "),
                        p.exposure.users.join("; "),
                        p.exposure.duration.clone(),
                        p.exposure.frequency.clone(),
                        join(p.materials.concerning.iter().map(|m| m.slug.as_str())),
                        join(
                            p.regulatory_status
                                .iter()
                                .map(|r| format!("{}: {}", r.jurisdiction, r.instrument)),
                        ),
                        p.meta.last_reviewed.clone(),
                    ]);
                }
                row
            })
            .unwrap_or_default(),
    }
}

fn compound(full: bool, r: &CompoundRecord, index: &RiskIndex, contexts: &[String]) -> Vec<String> {
    let mut row = vec![
        r.hq_id.to_string(),
        r.name.clone(),
        r.cas.to_string(),
        r.kind.clone().unwrap_or_default(),
        r.category.clone().unwrap_or_default(),
    ];
    row.extend(mask::structural(r).into_iter().map(|(_, v)| cell(&v)));
    row.push(if mask::under_review(r) {
        join(
            r.data_quality
                .iter()
                .flatten()
                .map(|q| format!("{} ({}, {}): {}", q.field, q.finding, q.status, q.reference)),
        )
    } else {
        String::new()
    });
    if full {
        row.extend(compound_full(r));
    }
    let tiers = select::tiers(index, r);
    row.extend(contexts.iter().map(|c| {
        tiers
            .get(c.as_str())
            .map_or(String::new(), |t| t.as_str().to_string())
    }));
    row
}

/// The columns only `full` exports carry: identity, cross-references, hazard and regulatory
/// listings, uses and the review date.
fn compound_full(r: &CompoundRecord) -> Vec<String> {
    let l = &r.regulatory.listings;
    let ghs = r.safety.ghs.iter().find(|g| g.is_current());
    vec![
        r.identity.iupac_name.clone().unwrap_or_default(),
        r.identity.synonyms.join("; "),
        r.crossrefs
            .pubchem_cid
            .map(|c| c.to_string())
            .unwrap_or_default(),
        r.crossrefs
            .ec_number
            .as_ref()
            .map(|v| v.value.clone())
            .unwrap_or_default(),
        r.crossrefs
            .dtxsid
            .as_ref()
            .map(|v| v.value.clone())
            .unwrap_or_default(),
        label(&r.watch_class),
        join(
            r.safety
                .ghs
                .iter()
                .filter(|g| g.is_current())
                .flat_map(|g| g.h_codes.iter().map(String::as_str)),
        ),
        ghs.and_then(|g| g.signal_word.as_ref())
            .map(label)
            .unwrap_or_default(),
        l.iarc_group
            .as_ref()
            .map(|g| label(&g.group))
            .unwrap_or_default(),
        l.ntp_roc
            .as_ref()
            .map(|n| label(&n.listing))
            .unwrap_or_default(),
        join(l.prop65.iter().map(|p| label(&p.toxicity))),
        l.eu_svhc
            .as_ref()
            .map(|s| s.reasons.join("; "))
            .unwrap_or_default(),
        join(unique(
            r.regulatory
                .classifications
                .iter()
                .map(|c| c.agency.as_str()),
        )),
        join(unique(r.found_in.iter().map(|f| f.category.as_str()))),
        r.meta.last_reviewed.clone(),
    ]
}

/// A JSON value as one cell: strings as they are, absent as empty.
fn cell(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A vocabulary value as its wire name.
fn label<T: Serialize>(v: &T) -> String {
    cell(&serde_json::to_value(v).unwrap_or_default())
}

fn join<S: AsRef<str>>(items: impl Iterator<Item = S>) -> String {
    items
        .map(|s| s.as_ref().to_string())
        .collect::<Vec<_>>()
        .join("; ")
}

/// First occurrences, in order.
fn unique<'a>(items: impl Iterator<Item = &'a str>) -> impl Iterator<Item = &'a str> {
    let mut seen = std::collections::HashSet::new();
    items.filter(move |s| seen.insert(*s))
}

fn components(items: &[Component]) -> String {
    join(items.iter().map(|c| format!("{} ({})", c.name, c.cas)))
}
