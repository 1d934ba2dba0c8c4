//! `GET /api/compliance`: where the data comes from and under what terms, who processes
//! personal data, how long it is kept and how to have it erased. The sources are those the
//! compound records cite (`sources[]`, so the page lists exactly what the data rests on); the
//! processors, retention and erasure are the privacy document's own sections, so this page
//! never promises more or less than `GET /api/privacy`.

use std::collections::BTreeMap;

use askama::Template;

use super::page;
use crate::model::Dataset;
use crate::model::record::SourceRef;
use crate::render::Rendered;

/// The privacy document's sections shown here, in page order.
const PRIVACY_SECTIONS: [(&str, &str); 4] = [
    ("processors", "Who else processes data"),
    ("logs", "Request logs"),
    ("retention", "How long data is kept"),
    ("erasure", "Erasure"),
];

struct Source<'a> {
    id: &'a str,
    title: &'a str,
    publisher: &'a str,
    edition: &'a str,
    url: &'a str,
    /// Whether `url` is a web address (curated sources cite a file in the repository).
    linked: bool,
    licence: String,
    records: usize,
}

struct Section {
    id: &'static str,
    title: &'static str,
    html: String,
}

#[derive(Template)]
#[template(path = "pages/compliance.html", escape = "html")]
struct Page<'a> {
    nav: &'static str,
    sources: Vec<Source<'a>>,
    compounds: usize,
    privacy_updated: &'a str,
    sections: Vec<Section>,
}

/// The terms a source's data is used under, as far as the catalogue states them: a table
/// shipped in a package names the package licence in its publisher ("PyPI, MIT").
fn licence(s: &SourceRef) -> String {
    if let Some(inner) = s
        .publisher
        .rsplit_once('(')
        .and_then(|(_, r)| r.strip_suffix(')'))
        && let Some((_, licence)) = inner.split_once(", ")
    {
        return format!("{licence} (licence of the package that ships the table)");
    }
    if s.url.starts_with("http") {
        "The publisher's terms of use (see its address)".into()
    } else {
        "saferef curation; each value cites its public source".into()
    }
}

/// The text of `## {title}` up to the next `## ` heading, as HTML.
fn section(markdown: &str, title: &str) -> Option<String> {
    let heading = format!("## {title}\n");
    let start = markdown.find(&heading)? + heading.len();
    let rest = &markdown[start..];
    let text = rest.find("\n## ").map_or(rest, |end| &rest[..end]);
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, pulldown_cmark::Parser::new(text));
    Some(html)
}

/// `GET /api/compliance`
pub fn compliance(d: &Dataset) -> Rendered {
    let mut by_id: BTreeMap<&str, (&SourceRef, usize)> = BTreeMap::new();
    for s in d.compounds.values().flat_map(|r| &r.sources) {
        by_id.entry(s.id.as_str()).or_insert((s, 0)).1 += 1;
    }
    let mut sources: Vec<Source> = by_id
        .into_values()
        .map(|(s, records)| Source {
            id: &s.id,
            title: &s.title,
            publisher: &s.publisher,
            edition: &s.edition,
            url: &s.url,
            linked: s.url.starts_with("https://") || s.url.starts_with("http://"),
            licence: licence(s),
            records,
        })
        .collect();
    sources.sort_by(|a, b| b.records.cmp(&a.records).then(a.id.cmp(b.id)));
    let privacy = d.documents.get("privacy");
    let sections = PRIVACY_SECTIONS
        .iter()
        .filter_map(|(id, title)| {
            let html = section(&privacy?.body, title)?;
            Some(Section { id, title, html })
        })
        .collect();
    page(&Page {
        nav: "compliance",
        sources,
        compounds: d.compounds.len(),
        privacy_updated: privacy
            .and_then(|p| p.front.get("updated"))
            .map_or("", String::as_str),
        sections,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::test_data::fixture;

    #[test]
    fn shows_sources_processors_retention_and_erasure() {
        let html = String::from_utf8(compliance(fixture()).body).unwrap();
        for needed in [
            "IARC Monographs",
            "MIT (licence of the package that ships the table)",
            "payment provider",
            "mail provider",
            "30 days",
            "POST /api/keys/erasure",
        ] {
            assert!(html.contains(needed), "{needed}");
        }
        assert_eq!(html.matches("<h2 id=\"processors\"").count(), 1);
    }

    #[test]
    fn a_section_ends_at_the_next_heading() {
        let md = "intro\n## A\none\n## B\ntwo\n";
        assert_eq!(section(md, "A").unwrap(), "<p>one</p>\n");
        assert_eq!(section(md, "B").unwrap(), "<p>two</p>\n");
        assert!(section(md, "C").is_none());
    }
}
