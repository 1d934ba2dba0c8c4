//! The pages for people outside `/api` (the front door, a page per compound, material and
//! product, the sitemap, robots.txt and the name index their search reads), and the developer
//! pages the root lists: the reference (`/api/docs`), the
//! playground, the key holder's dashboard and the compliance page, all HTML from askama
//! templates in `templates/pages/` with their CSS and scripts inline (no build step for the
//! reader, no outside assets), and the curated examples (`/api/examples`, JSON). Every value
//! they show comes from the dataset, so the static build and the runtime render the same bytes.

pub mod compliance;
pub mod compound_page;
pub mod dashboard;
pub mod docs;
pub mod entity_pages;
pub mod examples;
pub mod excerpts;
pub mod home;
pub mod name_index;
pub mod playground;
mod samples;
pub mod site;

use askama::Template;
use serde::Serialize;

use super::error::ApiError;
use super::{Cache, Rendered};

/// A page as a response: reference data, cacheable like the documents.
fn page(template: &impl Template) -> Rendered {
    match template.render() {
        Ok(html) => Rendered::bytes(
            200,
            html.into_bytes(),
            "text/html; charset=utf-8",
            Cache::Reference,
        ),
        // The templates are compiled in, so this only happens if a value cannot be formatted.
        Err(e) => ApiError::internal(format!("page template: {e}")).into(),
    }
}

/// `value` as JSON that is safe inside an inline `<script type="application/json">`: `<`, `>`
/// and `&` are escaped, so no string in the data can close the element.
fn script_json(value: &impl Serialize) -> String {
    serde_json::to_string(value)
        .expect("page data serializes")
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_json_cannot_close_the_script_element() {
        let s = script_json(&serde_json::json!({"name": "</script><b>&"}));
        assert!(
            !s.contains('<') && !s.contains('>') && !s.contains('&'),
            "{s}"
        );
        let back: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back["name"], "</script><b>&");
    }
}
