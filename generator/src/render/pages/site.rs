//! The site's files for search engines and the notice every page for people carries:
//! `GET /sitemap.xml` (every page, sitemaps.org format) and `GET /robots.txt`.
//!
//! Page addresses are absolute under the public origin the release was built for
//! (`Dataset::site_origin`, `saferef-generate build --site-origin`): the canonical links, the
//! sitemap's `<loc>`s (the sitemaps protocol asks for absolute addresses), robots.txt's
//! `Sitemap:` line and the OpenAPI `servers` all name the same one. A tree built without an
//! origin (a preview, a local build) has root-relative addresses instead (DEPLOY.md).

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

/// A `--site-origin` value as the release keeps it: `http` or `https`, a host (and port), no
/// path, query or fragment; a trailing slash is dropped.
pub fn origin(value: &str) -> Result<String, String> {
    let trimmed = value.trim_end_matches('/');
    let host = trimmed
        .strip_prefix("https://")
        .or_else(|| trimmed.strip_prefix("http://"))
        .ok_or_else(|| format!("{value:?} is not an http:// or https:// origin"))?;
    let bad = |c: char| c.is_whitespace() || c.is_control() || "/?#@\\\"<>".contains(c);
    if host.is_empty() || host.contains(bad) {
        return Err(format!(
            "{value:?} is not an origin: a scheme and a host (and port) only, such as https://saferef.example"
        ));
    }
    Ok(trimmed.to_string())
}

/// The address of the site's `path` (root-relative, such as `/compound/hq-c-org-000001`) as
/// canonical links and the sitemap give it: under the release's origin, when it has one.
pub fn canonical(d: &Dataset, path: &str) -> String {
    format!("{}{path}", d.site_origin.as_deref().unwrap_or_default())
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
            "<url><loc>{}</loc><lastmod>{release}</lastmod></url>",
            canonical(d, &path)
        );
    }
    xml.push_str("</urlset>\n");
    Rendered::bytes(200, xml.into_bytes(), "application/xml", Cache::Reference)
}

/// `GET /robots.txt`: every page may be crawled; the API's answers are data, not pages.
pub fn robots(d: &Dataset) -> Rendered {
    let text = format!(
        "User-agent: *\nAllow: /\nDisallow: /api/\nAllow: /api/docs\nAllow: /api/playground\n\nSitemap: {}\n",
        canonical(d, "/sitemap.xml")
    );
    Rendered::bytes(
        200,
        text.into_bytes(),
        "text/plain; charset=utf-8",
        Cache::Reference,
    )
}

#[cfg(test)]
mod tests {
    use crate::model::Dataset;
    use crate::render::test_data::{fixture, get_in};

    #[test]
    fn an_origin_is_a_scheme_and_a_host_only() {
        assert_eq!(
            super::origin("https://saferef.example/").as_deref(),
            Ok("https://saferef.example")
        );
        assert_eq!(
            super::origin("http://127.0.0.1:8080").as_deref(),
            Ok("http://127.0.0.1:8080")
        );
        for bad in [
            "saferef.example",
            "ftp://saferef.example",
            "https://",
            "https://saferef.example/pages",
            "https://saferef.example?a=1",
            "https://saferef .example",
        ] {
            assert!(super::origin(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn with_an_origin_the_sitemap_robots_and_canonical_links_are_absolute() {
        let d = Dataset {
            site_origin: Some("https://saferef.example".into()),
            compounds: fixture().compounds.clone(),
            materials: fixture().materials.clone(),
            products: fixture().products.clone(),
            documents: fixture().documents.clone(),
            ..Dataset::default()
        };
        let xml = String::from_utf8(super::sitemap(&d).body).unwrap();
        assert!(xml.contains("<loc>https://saferef.example/</loc>"));
        assert!(xml.contains("<loc>https://saferef.example/compound/hq-c-org-000145</loc>"));
        assert!(!xml.contains("<loc>/"), "every address is absolute");
        let robots = String::from_utf8(super::robots(&d).body).unwrap();
        assert!(robots.ends_with("\nSitemap: https://saferef.example/sitemap.xml\n"));
        assert_eq!(
            super::canonical(&d, "/product/hq-p-bdy-000001"),
            "https://saferef.example/product/hq-p-bdy-000001"
        );
    }

    #[test]
    fn the_sitemap_lists_every_page_once() {
        let d = fixture();
        let r = get_in(d, "/sitemap.xml");
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
        let r = get_in(fixture(), "/robots.txt");
        assert_eq!(r.content_type, "text/plain; charset=utf-8");
        assert!(
            String::from_utf8(r.body)
                .unwrap()
                .contains("Sitemap: /sitemap.xml")
        );
    }
}
