//! The site's files for search engines and the notice every page for people carries:
//! `GET /sitemap.xml` (every page, sitemaps.org format) and `GET /robots.txt`.
//!
//! The dataset does not know the public origin the site is served from (the same tree serves
//! a preview, a deploy and `saferef-serve`), so page addresses are root-relative: canonical
//! links resolve against the page's own address, and the sitemap's `<loc>`s and robots.txt's
//! `Sitemap:` line are absolute paths a deploy prefixes with its origin (DEPLOY.md).

use std::fmt::Write;

use crate::model::Dataset;
use crate::model::record::SourceRef;
use crate::model::vocab::{RiskLevel, WatchClass};
use crate::render::badge::tier_color;
use crate::render::{Cache, Rendered};

/// A link to a source: its title and address when the entity's source list names it.
#[derive(Debug)]
pub struct SourceLink {
    pub title: String,
    pub url: Option<String>,
}

/// The entry for source `id` in an entity's source list, or the id itself (a source listed
/// only by id still names where the value came from).
pub fn source_link(sources: &[SourceRef], id: &str) -> SourceLink {
    match sources.iter().find(|s| s.id == id) {
        Some(s) => SourceLink {
            title: format!("{} ({})", s.title, s.edition),
            url: Some(s.url.clone()),
        },
        None => SourceLink {
            title: id.to_string(),
            url: None,
        },
    }
}

/// A risk level as a page shows it: the words, and the colour that only repeats them.
#[derive(Debug)]
pub struct Level {
    pub text: &'static str,
    pub color: &'static str,
}

impl Level {
    pub fn of(level: RiskLevel) -> Level {
        Level {
            text: super::compound_page::words(level),
            color: tier_color(level),
        }
    }
}

/// The disclaimer's one-sentence notice (`data/documents/disclaimer.md`, `envelope_notice`).
pub fn notice(d: &Dataset) -> String {
    d.documents
        .get("disclaimer")
        .and_then(|m| m.front.get("envelope_notice"))
        .cloned()
        .unwrap_or_default()
}

/// Every page for people: the front door, then each served compound, material and product.
pub fn page_paths(d: &Dataset) -> Vec<String> {
    let mut out = vec!["/".to_string()];
    out.extend(
        d.compounds
            .values()
            .filter(|r| r.watch_class != WatchClass::CriticalThreat)
            .map(|r| format!("/compound/{}", r.hq_id)),
    );
    out.extend(d.materials.keys().map(|id| format!("/material/{id}")));
    out.extend(d.products.keys().map(|id| format!("/product/{id}")));
    out
}

/// `GET /sitemap.xml`.
pub fn sitemap(d: &Dataset) -> Rendered {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    let release = d.release_date();
    for path in page_paths(d) {
        let _ = writeln!(
            xml,
            "<url><loc>{path}</loc><lastmod>{release}</lastmod></url>"
        );
    }
    xml.push_str("</urlset>\n");
    Rendered::bytes(200, xml.into_bytes(), "application/xml", Cache::Reference)
}

/// `GET /robots.txt`: every page may be crawled; the API's answers are data, not pages.
pub fn robots() -> Rendered {
    let text = "User-agent: *\nAllow: /\nDisallow: /api/\nAllow: /api/docs\nAllow: /api/playground\n\nSitemap: /sitemap.xml\n";
    Rendered::bytes(
        200,
        text.as_bytes().to_vec(),
        "text/plain; charset=utf-8",
        Cache::Reference,
    )
}

#[cfg(test)]
mod tests {
    use crate::render::test_data::{dataset, get};

    #[test]
    fn the_sitemap_lists_every_page_once() {
        let d = dataset();
        let r = get("/sitemap.xml");
        assert_eq!((r.status, r.content_type), (200, "application/xml"));
        let xml = String::from_utf8(r.body).unwrap();
        let locs = xml.matches("<loc>").count();
        assert_eq!(locs, super::page_paths(d).len());
        assert!(locs > d.compounds.len() / 2 + d.materials.len() + d.products.len());
        assert!(xml.contains("<loc>/compound/hq-c-org-000145</loc>"));
        assert!(xml.contains("<loc>/</loc>"));
    }

    #[test]
    fn robots_points_at_the_sitemap() {
        let r = get("/robots.txt");
        assert_eq!(r.content_type, "text/plain; charset=utf-8");
        assert!(
            String::from_utf8(r.body)
                .unwrap()
                .contains("Sitemap: /sitemap.xml")
        );
    }
}
