//! `GET /material/{id}` and `GET /product/{id}`: the pages for people of a material and a
//! product, beside their JSON (`render::entities`): what it is, what it is made of (each
//! component linked to its compound's page), its safety summary and, for a product, the risk
//! synthesised from its compounds, exposure and regulations, every statement with its source.

use askama::Template;

use super::page;
use super::site::{self, SourceLink, source_link};
use crate::aggregate::synthesis::Synthesized;
use crate::model::Dataset;
use crate::model::material::{Component, MaterialUse, Statement};
use crate::model::record::SourceRef;
use crate::model::vocab::WatchClass;
use crate::render::Rendered;
use crate::render::entities::{material_by_slug, material_of, product_of, synthesis_of};
use crate::render::error::ApiError;

struct Said {
    text: String,
    source: SourceLink,
}

fn said(sources: &[SourceRef], s: &Statement) -> Said {
    Said {
        text: s.text.clone(),
        source: source_link(sources, &s.source),
    }
}

struct Part {
    name: String,
    cas: String,
    page: Option<String>,
    role: String,
    share: String,
    source: SourceLink,
}

fn parts(d: &Dataset, sources: &[SourceRef], list: &[Component]) -> Vec<Part> {
    list.iter()
        .map(|c| Part {
            name: c.name.clone(),
            cas: c.cas.clone(),
            page: d
                .by_cas(&c.cas)
                .filter(|r| r.watch_class != WatchClass::CriticalThreat)
                .map(|r| format!("/compound/{}", r.hq_id)),
            role: c.role.replace('_', " "),
            share: c.share.clone().unwrap_or_default(),
            source: source_link(sources, &c.source),
        })
        .collect()
}

struct Group {
    title: &'static str,
    parts: Vec<Part>,
}

struct Linked {
    name: String,
    page: Option<String>,
    note: String,
}

#[derive(Template)]
#[template(path = "pages/material.html", escape = "html")]
struct MaterialPage<'a> {
    nav: &'static str,
    canonical: String,
    id: &'a str,
    name: &'a str,
    family: &'a str,
    synonyms: &'a [String],
    description: Said,
    groups: Vec<Group>,
    safety: Said,
    alternatives: Vec<Linked>,
    sources: &'a [SourceRef],
    notice: String,
}

/// `GET /material/{id}`.
pub fn material_page(d: &Dataset, id: &str) -> Result<Rendered, ApiError> {
    let m = material_of(d, id)?;
    let c = &m.composition;
    let groups = [
        ("Base", &c.base),
        ("Additives", &c.additives),
        ("Contaminants", &c.contaminants),
    ]
    .into_iter()
    .filter(|(_, list)| !list.is_empty())
    .map(|(title, list)| Group {
        title,
        parts: parts(d, &m.sources, list),
    })
    .collect();
    Ok(page(&MaterialPage {
        nav: "",
        canonical: site::canonical(d, &format!("/material/{}", m.id)),
        id: &m.id,
        name: &m.name,
        family: &m.family,
        synonyms: &m.synonyms,
        description: said(&m.sources, &m.description),
        groups,
        safety: said(&m.sources, &m.safety_summary),
        alternatives: m
            .alternatives
            .iter()
            .map(|a| Linked {
                name: a.name.clone(),
                page: a
                    .slug
                    .as_deref()
                    .and_then(|s| material_by_slug(d, s))
                    .map(|m| format!("/material/{}", m.id)),
                note: a.reason.clone(),
            })
            .collect(),
        sources: &m.sources,
        notice: site::notice(d),
    })
    .keyed(&m.id))
}

#[derive(Template)]
#[template(path = "pages/product.html", escape = "html")]
struct ProductPage<'a> {
    nav: &'static str,
    canonical: String,
    id: &'a str,
    name: &'a str,
    risk: Option<String>,
    categories: &'a [String],
    common_names: &'a [String],
    description: Said,
    hazard: Said,
    /// The product's own findings that count (species, tier, the finding with its source).
    findings: Vec<(&'static str, &'static str, Said)>,
    composition: Vec<Part>,
    materials: Vec<(&'static str, Vec<Linked>)>,
    routes: String,
    users: String,
    duration: &'a str,
    frequency: &'a str,
    regulations: Vec<(String, String, String, SourceLink)>,
    handling: Vec<Said>,
    method: &'static str,
    assessed: usize,
    sources: &'a [SourceRef],
    notice: String,
}

/// `GET /product/{id}`; `synthesized` as `render::entities::synthesis_of` takes it.
pub fn product_page(
    d: &Dataset,
    id: &str,
    synthesized: Option<&Synthesized>,
) -> Result<Rendered, ApiError> {
    let p = product_of(d, id)?;
    let made = synthesis_of(d, p, synthesized);
    let synthesis = &made.0;
    let uses = |list: &[MaterialUse]| -> Vec<Linked> {
        list.iter()
            .map(|u| {
                let m = material_by_slug(d, &u.slug);
                Linked {
                    name: m.map_or_else(|| u.slug.clone(), |m| m.name.clone()),
                    page: m.map(|m| format!("/material/{}", m.id)),
                    note: u
                        .reason
                        .clone()
                        .or_else(|| u.role.clone())
                        .unwrap_or_default(),
                }
            })
            .collect()
    };
    let materials = [
        ("Common materials", uses(&p.materials.common)),
        ("Materials of concern", uses(&p.materials.concerning)),
        ("Preferred materials", uses(&p.materials.preferred)),
    ]
    .into_iter()
    .filter(|(_, l)| !l.is_empty())
    .collect();
    Ok(page(&ProductPage {
        nav: "",
        canonical: site::canonical(d, &format!("/product/{}", p.id)),
        id: &p.id,
        name: &p.name,
        risk: synthesis.risk_level.map(|r| r.as_str().replace('_', " ")),
        categories: &p.categories,
        common_names: &p.common_names,
        description: said(&p.sources, &p.description),
        hazard: said(&p.sources, &p.hazard_summary),
        findings: synthesis
            .product_findings
            .iter()
            .map(|f| {
                let stated = Statement {
                    text: f.finding.clone(),
                    source: f.source.clone(),
                };
                (f.context, f.tier.as_str(), said(&p.sources, &stated))
            })
            .collect(),
        composition: parts(d, &p.sources, &p.composition),
        materials,
        routes: p.exposure.routes.join(", ").replace('_', " "),
        users: p.exposure.users.join(", ").replace('_', " "),
        duration: &p.exposure.duration,
        frequency: &p.exposure.frequency,
        regulations: p
            .regulatory_status
            .iter()
            .map(|r| {
                (
                    r.jurisdiction.clone(),
                    r.instrument.clone(),
                    r.requirement.clone(),
                    source_link(&p.sources, &r.source),
                )
            })
            .collect(),
        handling: p.handling.iter().map(|s| said(&p.sources, s)).collect(),
        method: synthesis.methodology_note,
        assessed: synthesis.compounds_assessed,
        sources: &p.sources,
        notice: site::notice(d),
    })
    .keyed(&p.id))
}

#[cfg(test)]
mod tests {
    use crate::render::test_data::{fixture, get_in};

    #[test]
    fn a_product_page_links_its_compounds_and_materials() {
        let d = fixture();
        let (id, p) = d
            .products
            .iter()
            .find(|(_, p)| !p.composition.is_empty() && !p.materials.common.is_empty())
            .unwrap();
        let r = get_in(d, &format!("/product/{id}"));
        assert_eq!(r.status, 200);
        let html = String::from_utf8(r.body).unwrap();
        assert!(html.contains(&format!("<h1>{}</h1>", askama_escape(&p.name))));
        assert!(html.contains("href=\"/compound/hq-c-"));
        assert!(html.contains("href=\"/material/hq-m-"));
        assert!(html.contains(&format!("href=\"/api/product/{id}\"")));
        assert!(html.contains(&format!("<img src=\"/api/badge/{id}\"")));
        assert!(html.contains(&format!("<link rel=\"canonical\" href=\"/product/{id}\">")));
    }

    #[test]
    fn a_material_page_shows_its_composition() {
        let d = fixture();
        let (id, m) = d
            .materials
            .iter()
            .find(|(_, m)| !m.composition.base.is_empty())
            .unwrap();
        let r = get_in(d, &format!("/material/{id}"));
        assert_eq!(r.status, 200);
        let html = String::from_utf8(r.body).unwrap();
        assert!(html.contains(&askama_escape(&m.composition.base[0].name)));
        assert!(html.contains(&format!("href=\"/api/material/{id}\"")));
        assert!(html.contains(&format!("<img src=\"/api/badge/{id}\"")));
    }

    #[test]
    fn unknown_and_malformed_entities_are_the_api_errors() {
        let get = |url: &str| get_in(fixture(), url);
        assert_eq!(get("/material/hq-m-adh-999999").status, 404);
        assert_eq!(get("/product/hq-p-bdy-999999").status, 404);
        assert_eq!(get("/product/shampoo").status, 400);
    }

    fn askama_escape(s: &str) -> String {
        s.replace('&', "&#38;")
            .replace('<', "&#60;")
            .replace('>', "&#62;")
            .replace('"', "&#34;")
            .replace('\'', "&#39;")
    }
}
