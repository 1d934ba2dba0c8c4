//! `GET /api/playground`: a page that runs read-only public queries from the browser without
//! a key (compound by id or CAS, the 19 contexts), and the badge builder (`#badge-builder`:
//! id, context, style, label, name and context text, the live badge and an embed snippet
//! linking to the entity's page). The form and the context list are rendered here; the page's own
//! script fetches from the same origin.

use askama::Template;

use super::samples::Samples;
use super::{page, script_json};
use crate::model::Dataset;
use crate::render::Rendered;
use crate::render::badge::Style;

struct ContextOption {
    name: String,
    label: String,
}

struct Group {
    label: &'static str,
    contexts: Vec<ContextOption>,
}

#[derive(Template)]
#[template(path = "pages/playground.html", escape = "html")]
struct Page {
    nav: &'static str,
    sample_cas: String,
    sample_id: String,
    default_context: String,
    groups: Vec<Group>,
    styles: [&'static str; 3],
    badge_label: &'static str,
    max_label: usize,
    /// Page data for the script (escaped for an inline script element).
    data: String,
}

/// Display name of a context category of `data/contexts.json`.
fn category_label(category: &str) -> &'static str {
    match category {
        "human" => "Human life stages",
        "animal" => "Companion animals",
        "exposure_route" => "Exposure routes",
        "environmental" => "Environment",
        _ => "Other",
    }
}

/// `GET /api/playground`
pub fn playground(d: &Dataset) -> Rendered {
    let mut groups: Vec<Group> = Vec::new();
    for c in &d.contexts.contexts {
        let label = category_label(&c.category);
        let option = ContextOption {
            name: c.name.clone(),
            label: c.label.clone(),
        };
        match groups.iter_mut().find(|g| g.label == label) {
            Some(g) => g.contexts.push(option),
            None => groups.push(Group {
                label,
                contexts: vec![option],
            }),
        }
    }
    let samples = Samples::pick(d);
    let (sample_cas, sample_id) = samples
        .as_ref()
        .map(|s| (s.cas.clone(), s.compound_id.clone()))
        .unwrap_or_default();
    page(&Page {
        nav: "playground",
        sample_cas,
        sample_id,
        default_context: d.contexts.default.clone(),
        groups,
        styles: Style::ALL.map(Style::name),
        badge_label: crate::render::badge::DEFAULT_LABEL,
        max_label: crate::render::badge::MAX_LABEL_CHARS,
        data: script_json(&serde_json::json!({
            "styles": Style::ALL.map(Style::name),
            "badge_label": crate::render::badge::DEFAULT_LABEL,
        })),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::test_data::fixture;

    #[test]
    fn lists_every_context_and_style() {
        let d = fixture();
        let r = playground(d);
        assert_eq!(r.status, 200);
        let html = String::from_utf8(r.body).unwrap();
        for c in &d.contexts.contexts {
            assert!(
                html.contains(&format!("<option value=\"{}\"", c.name)),
                "{}",
                c.name
            );
        }
        // The lookup's and the badge builder's context lists.
        assert_eq!(html.matches("<option value=").count(), 2 * 19);
        assert!(html.contains("id=\"badge-builder\""));
        assert!(
            !html.contains("http://") && !html.contains("https://"),
            "no outside assets"
        );
    }
}
