//! `check` rules for materials and products: ids and families or tiers, slugs, references to
//! compounds (by CAS) and materials (by slug), vocabularies, source references, composition
//! lines (a role, a source, a share only with its kind), index rows with their file, and the
//! gaps `entity_gaps` tracks (empty compositions, whole-work citations).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::Sink;
use super::citations::{open_wiki, whole_work};
use super::entity_gaps::{self, EMPTY_COMPOSITION, Gap, WHOLE_WORK_CITATION};
use crate::model::cas::Cas;
use crate::model::material::{
    Component, EntityMeta, Exposure, FINDING_CONTEXTS, Material, Product, ProductFinding, ShareKind,
};
use crate::model::record::SourceRef;
use crate::model::vocab::{
    COMPONENT_ROLES, EXPOSURE_DURATIONS, EXPOSURE_FREQUENCIES, EXPOSURE_ROUTES, EXPOSURE_USERS,
    MATERIAL_FAMILIES, PRODUCT_TIERS,
};
use crate::model::{Dataset, Problem};

/// `hq-<letter>-<3 lowercase letters>-<6 digits>`: returns the middle part.
fn id_middle<'a>(id: &'a str, letter: &str) -> Option<&'a str> {
    let rest = id
        .strip_prefix("hq-")?
        .strip_prefix(letter)?
        .strip_prefix('-')?;
    let (mid, num) = rest.split_once('-')?;
    (mid.len() == 3
        && mid.bytes().all(|b| b.is_ascii_lowercase())
        && num.len() == 6
        && num.bytes().all(|b| b.is_ascii_digit()))
    .then_some(mid)
}

pub fn validate(dataset: &Dataset, problems: &mut Vec<Problem>) {
    let slugs: BTreeMap<&str, &str> = dataset
        .materials
        .values()
        .map(|m| (m.slug.as_str(), m.id.as_str()))
        .collect();
    let mut seen_slugs = BTreeSet::new();
    let mut gaps = Vec::new();
    for m in dataset.materials.values() {
        let file = dataset
            .entity_files
            .get(&m.id)
            .cloned()
            .unwrap_or_else(|| m.id.clone());
        let mut out = Sink {
            file: file.into(),
            problems,
        };
        material(m, dataset, &mut out);
        let c = &m.composition;
        if c.base.is_empty() && c.additives.is_empty() && c.contaminants.is_empty() {
            gaps.push(gap(&m.id, EMPTY_COMPOSITION, ""));
        }
        citation_gaps(&m.id, &m.sources, &mut gaps);
        if !seen_slugs.insert(m.slug.as_str()) {
            out.push(
                "slug",
                format!("slug {:?} is used by another material", m.slug),
            );
        }
        for (i, alt) in m.alternatives.iter().enumerate() {
            if let Some(slug) = &alt.slug
                && !slugs.contains_key(slug.as_str())
            {
                out.push(
                    format!("alternatives[{i}].slug"),
                    format!("dangling reference: no material with slug {slug:?}"),
                );
            }
        }
    }
    for p in dataset.products.values() {
        let file = dataset
            .entity_files
            .get(&p.id)
            .cloned()
            .unwrap_or_else(|| p.id.clone());
        let mut out = Sink {
            file: file.into(),
            problems,
        };
        product(p, dataset, &slugs, &mut out);
        if p.composition.is_empty() {
            gaps.push(gap(&p.id, EMPTY_COMPOSITION, ""));
        }
        citation_gaps(&p.id, &p.sources, &mut gaps);
    }
    let mut out = Sink {
        file: dataset
            .dir
            .join("materials/index.tsv")
            .display()
            .to_string()
            .into(),
        problems,
    };
    // A retired material keeps its row (its slug is never reused) and has no file.
    for id in dataset.material_index.keys() {
        if !dataset.materials.contains_key(id) && !dataset.retired.contains(id) {
            out.push(
                id.clone(),
                format!("{id} is registered but has no file materials/{id}.json"),
            );
        }
    }
    entity_gaps::validate(dataset, &gaps, problems);
}

fn gap(id: &str, kind: &'static str, detail: &str) -> Gap {
    Gap {
        id: id.to_string(),
        kind,
        detail: detail.to_string(),
    }
}

fn citation_gaps(id: &str, refs: &[SourceRef], gaps: &mut Vec<Gap>) {
    for s in refs {
        if whole_work(s).is_some() {
            gaps.push(gap(id, WHOLE_WORK_CITATION, &s.id));
        }
    }
}

fn material(m: &Material, dataset: &Dataset, out: &mut Sink<'_>) {
    match id_middle(&m.id, "m") {
        None => out.push(
            "id",
            format!(
                "malformed material id {:?} (expected hq-m-<family>-<6 digits>)",
                m.id
            ),
        ),
        Some(mid) if mid != m.family => out.push(
            "family",
            format!("family {:?} differs from the id's {mid:?}", m.family),
        ),
        Some(_) => {}
    }
    match dataset.material_index.get(&m.id) {
        None => out.push(
            "id",
            format!("{} is not registered in materials/index.tsv", m.id),
        ),
        Some(slug) if *slug != m.slug => out.push(
            "slug",
            format!("materials/index.tsv registers {} with slug {slug:?}", m.id),
        ),
        Some(_) => {}
    }
    if !MATERIAL_FAMILIES.contains(&m.family.as_str()) {
        out.push(
            "family",
            format!(
                "unknown family {:?}; one of {}",
                m.family,
                MATERIAL_FAMILIES.join(", ")
            ),
        );
    }
    let slug_ok = !m.slug.is_empty()
        && m.slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if !slug_ok {
        out.push(
            "slug",
            format!(
                "{:?} is not a slug (lowercase letters, digits, hyphens)",
                m.slug
            ),
        );
    }
    for (section, list) in [
        ("base", &m.composition.base),
        ("additives", &m.composition.additives),
        ("contaminants", &m.composition.contaminants),
    ] {
        components(&format!("composition.{section}"), list, dataset, out);
    }
    sources(m, &m.sources, out);
    dates(&m.meta, &m.sources, out);
}

fn product(p: &Product, dataset: &Dataset, slugs: &BTreeMap<&str, &str>, out: &mut Sink<'_>) {
    match id_middle(&p.id, "p") {
        None => out.push(
            "id",
            format!(
                "malformed product id {:?} (expected hq-p-<tier>-<6 digits>)",
                p.id
            ),
        ),
        Some(mid) if mid.to_uppercase() != p.tier => out.push(
            "tier",
            format!("tier {:?} differs from the id's {mid:?}", p.tier),
        ),
        Some(_) => {}
    }
    if !PRODUCT_TIERS.contains(&p.tier.as_str()) {
        out.push(
            "tier",
            format!(
                "unknown tier {:?}; one of {}",
                p.tier,
                PRODUCT_TIERS.join(", ")
            ),
        );
    }
    if p.categories.is_empty() {
        out.push("categories", "a product needs at least one category");
    }
    components("composition", &p.composition, dataset, out);
    findings(&p.findings, &p.exposure, out);
    for (section, list) in [
        ("common", &p.materials.common),
        ("concerning", &p.materials.concerning),
        ("preferred", &p.materials.preferred),
    ] {
        for (i, u) in list.iter().enumerate() {
            if !slugs.contains_key(u.slug.as_str()) {
                out.push(
                    format!("materials.{section}[{i}].slug"),
                    format!("dangling reference: no material with slug {:?}", u.slug),
                );
            }
        }
    }
    exposure(&p.exposure, out);
    if !p.brand_examples.is_empty()
        && p.brand_examples_disclaimer
            .as_deref()
            .is_none_or(str::is_empty)
    {
        out.push(
            "brand_examples_disclaimer",
            "required when brand_examples is not empty",
        );
    }
    sources(p, &p.sources, out);
    dates(&p.meta, &p.sources, out);
}

/// A product's own findings: each for a pet, on a product whose users name pets (else the
/// synthesis would never read it).
fn findings(list: &[ProductFinding], e: &Exposure, out: &mut Sink<'_>) {
    for (i, f) in list.iter().enumerate() {
        if !FINDING_CONTEXTS.contains(&f.context.as_str()) {
            out.push(
                format!("findings[{i}].context"),
                format!(
                    "unknown context {:?}; one of {}",
                    f.context,
                    FINDING_CONTEXTS.join(", ")
                ),
            );
        } else if !e.users.iter().any(|u| u == "pets") {
            out.push(
                format!("findings[{i}].context"),
                format!("a {} finding needs pets among exposure.users", f.context),
            );
        }
        if f.finding.trim().is_empty() {
            out.push(format!("findings[{i}].finding"), "states no finding");
        }
    }
}

/// A product's exposure: its routes, users, duration and frequency from the vocabularies.
fn exposure(e: &Exposure, out: &mut Sink<'_>) {
    for (i, r) in e.routes.iter().enumerate() {
        if !EXPOSURE_ROUTES.contains(&r.as_str()) {
            out.push(
                format!("exposure.routes[{i}]"),
                format!("unknown route {r:?}; one of {}", EXPOSURE_ROUTES.join(", ")),
            );
        }
    }
    for (i, u) in e.users.iter().enumerate() {
        if !EXPOSURE_USERS.contains(&u.as_str()) {
            out.push(
                format!("exposure.users[{i}]"),
                format!(
                    "unknown user group {u:?}; one of {}",
                    EXPOSURE_USERS.join(", ")
                ),
            );
        }
    }
    if !EXPOSURE_DURATIONS.contains(&e.duration.as_str()) {
        out.push(
            "exposure.duration",
            format!(
                "unknown duration {:?}; one of {}",
                e.duration,
                EXPOSURE_DURATIONS.join(", ")
            ),
        );
    }
    if !EXPOSURE_FREQUENCIES.contains(&e.frequency.as_str()) {
        out.push(
            "exposure.frequency",
            format!(
                "unknown frequency {:?}; one of {}",
                e.frequency,
                EXPOSURE_FREQUENCIES.join(", ")
            ),
        );
    }
    for (i, a) in e.also.iter().enumerate() {
        if a.routes.is_empty() && a.users.is_empty() {
            out.push(format!("exposure.also[{i}]"), "states no user or route");
        }
        for (field, stated, listed) in [
            ("routes", &a.routes, &e.routes),
            ("users", &a.users, &e.users),
        ] {
            for (j, v) in stated.iter().enumerate() {
                if !listed.contains(v) {
                    out.push(
                        format!("exposure.also[{i}].{field}[{j}]"),
                        format!("{v:?} is not in exposure.{field}"),
                    );
                }
            }
        }
    }
}

fn components(path: &str, list: &[Component], dataset: &Dataset, out: &mut Sink<'_>) {
    for (i, c) in list.iter().enumerate() {
        match Cas::parse(&c.cas) {
            Err(e) => out.push(format!("{path}[{i}].cas"), e.to_string()),
            Ok(_) if dataset.by_cas(&c.cas).is_none() && !dataset.unread.contains(&c.cas) => out
                .push(
                    format!("{path}[{i}].cas"),
                    format!(
                        "dangling reference: CAS {} ({}) is not in the compound corpus",
                        c.cas, c.name
                    ),
                ),
            Ok(_) => {}
        }
        if !COMPONENT_ROLES.contains(&c.role.as_str()) {
            out.push(
                format!("{path}[{i}].role"),
                format!("unknown role {:?}", c.role),
            );
        } else if c.is_repeating_unit() && path != "composition.base" {
            out.push(
                format!("{path}[{i}].role"),
                "repeating_unit belongs in a material's composition.base: it describes the \
                 polymer's chain; free monomer is a monomer_residue line",
            );
        }
        if c.source.trim().is_empty() {
            out.push(
                format!("{path}[{i}].source"),
                "a composition line needs its source",
            );
        }
        match (&c.share, c.share_kind) {
            (Some(_), None) => out.push(
                format!("{path}[{i}].share_kind"),
                format!(
                    "a share needs its kind: one of {}",
                    ShareKind::ALL.map(ShareKind::as_str).join(", ")
                ),
            ),
            (None, Some(_)) => out.push(format!("{path}[{i}].share"), "share_kind without a share"),
            (Some(s), Some(_)) if s.trim().is_empty() => {
                out.push(format!("{path}[{i}].share"), "empty share")
            }
            _ => {}
        }
    }
}

/// Every `source` in the entity names an entry of its `sources[]`.
/// `meta`'s dates and the sources' `accessed` are `YYYY-MM-DD`, as the OpenAPI document states
/// (`format: date`).
fn dates(meta: &EntityMeta, refs: &[SourceRef], out: &mut Sink<'_>) {
    let meta_dates = [
        ("meta.created".to_string(), Some(&meta.created)),
        ("meta.last_reviewed".to_string(), Some(&meta.last_reviewed)),
    ];
    let accessed = refs
        .iter()
        .enumerate()
        .map(|(i, s)| (format!("sources[{i}].accessed"), s.accessed.as_ref()));
    for (path, date) in meta_dates.into_iter().chain(accessed) {
        if let Some(date) = date
            && chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").is_err()
        {
            out.push(path, format!("{date:?} is not a YYYY-MM-DD date"));
        }
    }
}

fn sources<T: Serialize>(entity: &T, refs: &[SourceRef], out: &mut Sink<'_>) {
    let ids: BTreeSet<&str> = refs.iter().map(|s| s.id.as_str()).collect();
    if ids.len() != refs.len() {
        out.push("sources", "duplicate source ids");
    }
    for (i, s) in refs.iter().enumerate() {
        if open_wiki(s) {
            out.push(
                format!("sources[{i}].url"),
                "Wikipedia or a copy of it is no citation: cite the document it rests on",
            );
        }
    }
    let value = serde_json::to_value(entity).unwrap_or_default();
    let mut found = Vec::new();
    super::compounds::collect_refs(&value, String::new(), &mut found);
    for (path, id) in found {
        if !ids.contains(id.as_str()) {
            out.push(path, format!("source {id:?} is not defined in sources[]"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding_problems(context: &str, users: &[&str]) -> Vec<Problem> {
        let f = ProductFinding {
            context: context.into(),
            severity: crate::model::vocab::RiskLevel::High,
            finding: "acute kidney injury".into(),
            source: "s".into(),
        };
        let e = Exposure {
            routes: vec!["ingestion".into()],
            users: users.iter().map(|u| (*u).to_string()).collect(),
            duration: "momentary".into(),
            frequency: "occasional".into(),
            source: "s".into(),
            also: Vec::new(),
        };
        let mut problems = Vec::new();
        findings(
            &[f],
            &e,
            &mut Sink {
                file: "p.json".into(),
                problems: &mut problems,
            },
        );
        problems
    }

    #[test]
    fn a_product_finding_is_for_a_pet_the_product_names() {
        assert!(finding_problems("dog", &["pets"]).is_empty());
        assert_eq!(finding_problems("horse", &["pets"]).len(), 1);
        assert_eq!(finding_problems("cat", &["adults"]).len(), 1);
    }

    #[test]
    fn id_shapes() {
        assert_eq!(id_middle("hq-m-ply-000001", "m"), Some("ply"));
        assert_eq!(id_middle("hq-p-hom-000123", "p"), Some("hom"));
        for bad in [
            "hq-m-ply-00001",
            "hq-m-PLY-000001",
            "hq-p-ply-000001x",
            "hq-m-pl-000001",
        ] {
            assert_eq!(id_middle(bad, "m").or(id_middle(bad, "p")), None, "{bad}");
        }
    }
}
