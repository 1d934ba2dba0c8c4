//! `GET /`: the front door for people. What saferef is, the name search (from the CDN alone),
//! example compound pages, how to embed a badge, where the reference and the playground are,
//! and the trial key form, which posts to `POST /api/keys/trial` (the key arrives by mail).
//! `GET /api` stays the JSON root.

use askama::Template;

use super::page;
use super::samples::Samples;
use crate::model::Dataset;
use crate::model::vocab::WatchClass;
use crate::render::Rendered;

struct Example {
    name: String,
    cas: String,
    page: String,
}

#[derive(Template)]
#[template(path = "pages/home.html", escape = "html")]
struct Page {
    nav: &'static str,
    canonical: String,
    compounds: usize,
    materials: usize,
    products: usize,
    examples: Vec<Example>,
    sample_id: String,
    sample_name: String,
    release: String,
}

/// Compounds shown as examples, in this order when the dataset has them.
const EXAMPLE_CAS: [&str; 5] = ["71-43-2", "50-00-0", "80-05-7", "7439-92-1", "117-81-7"];

/// `GET /`
pub fn home(d: &Dataset) -> Rendered {
    let examples = EXAMPLE_CAS
        .iter()
        .filter_map(|cas| d.by_cas(cas))
        .filter(|r| r.watch_class == WatchClass::None)
        .map(|r| Example {
            name: r.name.clone(),
            cas: r.cas.to_string(),
            page: format!("/compound/{}", r.hq_id),
        })
        .collect();
    let samples = Samples::pick(d);
    let (sample_id, sample_name) = samples
        .map(|s| (s.compound_id, s.compound_name))
        .unwrap_or_default();
    page(&Page {
        nav: "home",
        canonical: super::site::canonical(d, "/"),
        compounds: d.compounds.len(),
        materials: d.materials.len(),
        products: d.products.len(),
        examples,
        sample_id,
        sample_name,
        release: d.release_date(),
    })
}

#[cfg(test)]
mod tests {
    use crate::render::test_data::{fixture, get_in};

    #[test]
    fn the_front_door_has_search_examples_badges_and_the_trial_form() {
        let r = get_in(fixture(), "/");
        assert_eq!(
            (r.status, r.content_type),
            (200, "text/html; charset=utf-8")
        );
        let html = String::from_utf8(r.body).unwrap();
        assert!(html.contains("<h1>"));
        assert!(html.contains("data-name-search"));
        assert!(
            html.contains("href=\"/compound/hq-c-org-000145\""),
            "benzene example"
        );
        assert!(html.contains("/api/badge/hq-c-org-000145"));
        assert!(html.contains("href=\"/api/docs\""));
        assert!(html.contains("\"/api/keys/trial\""));
        assert!(html.contains("by mail"));
    }
}
