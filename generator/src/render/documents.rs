//! The published documents: disclaimer, terms and privacy (`GET /api/{name}`) and the release
//! notes (`GET /api/release-notes`), as HTML (minijinja template over the Markdown) or, with
//! `format=json`, as JSON.

use minijinja::{Environment, context};
use serde::Serialize;

use super::error::ApiError;
use super::{Cache, Rendered};
use crate::api::Query;
use crate::model::Dataset;
use crate::model::documents::MarkdownFile;

/// The documents `GET /api/{name}` serves, in route order.
pub const DOCUMENTS: [&str; 3] = ["disclaimer", "terms", "privacy"];

/// The HTML template, compiled in for datasets without a `templates/` folder beside them.
pub const BUILTIN_TEMPLATE: &str = include_str!("../../../templates/document.html.j2");

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct DocumentJson<'a> {
    name: &'a str,
    title: &'a str,
    #[schemars(extend("format" = "date"))]
    updated: &'a str,
    canonical_url: String,
    source_file: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    envelope_notice: Option<&'a str>,
    format: &'static str,
    body: &'a str,
}

#[derive(Serialize, schemars::JsonSchema)]
struct Version<'a> {
    version: &'a str,
    date: &'a str,
    title: &'a str,
    body: &'a str,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct ReleaseNotesJson<'a> {
    title: &'static str,
    canonical_url: &'static str,
    source_file: &'static str,
    data_changelog: &'static str,
    rss_note: &'static str,
    latest: Option<Version<'a>>,
    versions: Vec<Version<'a>>,
}

/// A document's `format`: no format for HTML, `json` for the JSON form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Html,
    Json,
}

impl Format {
    pub fn parse(q: &dyn Query) -> Result<Format, ApiError> {
        match q.get("format") {
            None => Ok(Format::Html),
            Some("json") => Ok(Format::Json),
            Some(other) => Err(ApiError::bad_request(format!(
                "format accepts only json (or no format for HTML), not {other:?}"
            ))),
        }
    }
}

/// `GET /api/{disclaimer|terms|privacy}?format=json`.
pub fn document(dataset: &Dataset, name: &str, format: Format) -> Rendered {
    let Some(doc) = dataset.documents.get(name) else {
        return ApiError::not_found(format!("no document named {name:?}")).into();
    };
    let field = |k: &str| doc.front.get(k).map(String::as_str).unwrap_or_default();
    let canonical_url = format!("/api/{name}");
    match format {
        Format::Json => Rendered::json(
            200,
            &DocumentJson {
                name,
                title: field("title"),
                updated: field("updated"),
                canonical_url,
                source_file: &doc.source_file,
                envelope_notice: doc.front.get("envelope_notice").map(String::as_str),
                format: "markdown",
                body: &doc.body,
            },
            Cache::Reference,
        ),
        Format::Html => html(
            dataset,
            context! {
                title => field("title"),
                updated => field("updated"),
                notice => doc.front.get("envelope_notice"),
                canonical_url,
                source_file => &doc.source_file,
                body_html => markdown(&doc.body),
                versions => Vec::<()>::new(),
            },
        ),
    }
}

/// `GET /api/release-notes?format=json`: versions newest first.
pub fn release_notes(dataset: &Dataset, format: Format) -> Rendered {
    match format {
        Format::Json => {
            let versions: Vec<Version<'_>> = dataset
                .release_notes
                .iter()
                .map(|n| {
                    let (version, date, title) = version_fields(n);
                    Version {
                        version,
                        date,
                        title,
                        body: &n.body,
                    }
                })
                .collect();
            let latest = dataset.release_notes.first().map(|n| {
                let (version, date, title) = version_fields(n);
                Version {
                    version,
                    date,
                    title,
                    body: &n.body,
                }
            });
            Rendered::json(
                200,
                &ReleaseNotesJson {
                    title: "saferef release notes",
                    canonical_url: "/api/release-notes",
                    source_file: "data/release-notes/",
                    data_changelog: "/api/changelog",
                    rss_note: "No feed is published: poll this document with format=json and compare versions[0].date; data changes per compound are in /api/changelog.",
                    latest,
                    versions,
                },
                Cache::Reference,
            )
        }
        Format::Html => {
            let versions: Vec<_> = dataset
                .release_notes
                .iter()
                .map(|n| {
                    let (version, date, title) = version_fields(n);
                    context! { version, date, title, body_html => markdown(&n.body) }
                })
                .collect();
            html(
                dataset,
                context! {
                    title => "Release notes",
                    canonical_url => "/api/release-notes",
                    source_file => "data/release-notes/",
                    body_html => "<p>Versions newest first. Data changes per compound: <a href=\"/api/changelog\">/api/changelog</a>.</p>",
                    versions,
                },
            )
        }
    }
}

fn version_fields(n: &MarkdownFile) -> (&str, &str, &str) {
    let field = |k: &str| n.front.get(k).map(String::as_str).unwrap_or_default();
    (field("version"), field("date"), field("title"))
}

fn markdown(text: &str) -> String {
    let mut out = String::new();
    pulldown_cmark::html::push_html(&mut out, pulldown_cmark::Parser::new(text));
    out
}

fn html(dataset: &Dataset, ctx: minijinja::Value) -> Rendered {
    let mut env = Environment::new();
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    let source = dataset
        .templates
        .get("document.html.j2")
        .map_or(BUILTIN_TEMPLATE, String::as_str);
    let rendered = env
        .add_template("document.html.j2", source)
        .and_then(|()| env.get_template("document.html.j2")?.render(ctx));
    match rendered {
        Ok(page) => Rendered::bytes(
            200,
            page.into_bytes(),
            "text/html; charset=utf-8",
            Cache::Reference,
        ),
        // `check` renders every page, so a broken template never reaches a build.
        Err(e) => ApiError::internal(format!("document template: {e:#}")).into(),
    }
}
