//! `GET /api/docs`: the reference, readable. Every endpoint of the catalogue
//! (`crate::api::ENDPOINTS`) with its access, cost, parameters and their bounds, a real example
//! request and the start of the response the service gives it (rendered here by the same
//! functions, see `excerpts.rs`), and its errors; then tiers and limits, the
//! rate-limit headers, key formats and the webhook signature recipe with verification code.

use askama::Template;

use super::excerpts;
use super::page;
use crate::api::{Access, Answer, ENDPOINTS, Endpoint, In, Kind};
use crate::model::Dataset;
use crate::model::regulatory_status::JURISDICTIONS;
use crate::render::dispatch::Indexes;
use crate::render::{Rendered, regulatory_status};

/// Where a caller without a key is sent to raise a limit (`X-Upgrade-URL`, a batch's
/// `upgrade_url`): the reference's keys section, which tells how to get a trial key.
pub const UPGRADE_TRIAL: &str = "/api/docs#keys";
/// Where a key holder is sent to raise a limit: the reference's tiers and limits.
pub const UPGRADE_TIERS: &str = "/api/docs#limits";

/// Lines of a response shown under its example.
const EXCERPT_LINES: usize = 24;

struct ParamView {
    name: &'static str,
    location: &'static str,
    required: bool,
    bounds: String,
    description: &'static str,
}

struct EndpointView {
    anchor: String,
    method: &'static str,
    path: &'static str,
    summary: &'static str,
    public: bool,
    access: &'static str,
    cost: u64,
    params: Vec<ParamView>,
    body: Option<&'static str>,
    answer: String,
    curl: Option<String>,
    /// The example as a link, when a browser can open it without a key.
    link: Option<&'static str>,
    /// The example badge, shown as an image.
    badge: Option<&'static str>,
    excerpt: Option<Excerpt>,
    errors: Vec<(u16, &'static str)>,
}

struct Excerpt {
    status: u16,
    text: String,
    truncated: bool,
}

struct TagView {
    name: &'static str,
    anchor: String,
    endpoints: Vec<EndpointView>,
}

struct ContextView<'a> {
    name: &'a str,
    label: &'a str,
    category: &'a str,
    aliases: String,
}

/// A value of a regulatory-status vocabulary: its id, label and one more column (CAS
/// numbers, a matrix's kind).
struct VocabularyRow<'a> {
    id: &'a str,
    label: &'a str,
    detail: String,
}

#[derive(Template)]
#[template(path = "pages/docs.html", escape = "html")]
struct Page<'a> {
    nav: &'static str,
    version: &'static str,
    tags: Vec<TagView>,
    contexts: Vec<ContextView<'a>>,
    conventions: &'static str,
    codes: &'static [(&'static str, u16, &'static str)],
    jurisdictions: Vec<VocabularyRow<'a>>,
    analytes: Vec<VocabularyRow<'a>>,
    matrices: Vec<VocabularyRow<'a>>,
    listings: Vec<VocabularyRow<'a>>,
    first_example: &'static str,
    python: &'static str,
    node: &'static str,
    rust: &'static str,
}

const PYTHON: &str = r#"import hashlib, hmac, time

def verify(secret: str, header: str, body: bytes, tolerance: int = 300) -> bool:
    """True when an X-Service-Signature header signs this raw body and is recent."""
    parts = dict(p.split("=", 1) for p in header.split(",") if "=" in p)
    t, received = parts.get("t", ""), parts.get("sha256", "")
    if not t.isdigit() or abs(time.time() - int(t)) > tolerance:
        return False
    signed = t.encode() + b"." + body
    expected = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, received)
"#;

const NODE: &str = r#"import { createHmac, timingSafeEqual } from "node:crypto";

// True when an X-Service-Signature header signs this raw body (a Buffer) and is recent.
export function verify(secret, header, rawBody, toleranceSeconds = 300) {
  const parts = Object.fromEntries(header.split(",").map((p) => p.split("=", 2)));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac("sha256", secret).update(parts.t + ".").update(rawBody).digest("hex");
  const a = Buffer.from(expected);
  const b = Buffer.from(parts.sha256 ?? "");
  return a.length === b.length && timingSafeEqual(a, b);
}
"#;

const RUST: &str = r#"// Cargo.toml: hmac = "0.12", sha2 = "0.10", hex = "0.4"
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// True when an `X-Service-Signature` header signs this raw body and is recent.
pub fn verify(secret: &[u8], header: &str, body: &[u8], now_unix: i64) -> bool {
    let (mut t, mut sig) = (None, None);
    for part in header.split(',') {
        match part.split_once('=') {
            Some(("t", v)) => t = Some(v),
            Some(("sha256", v)) => sig = hex::decode(v).ok(),
            _ => {}
        }
    }
    let (Some(t), Some(sig)) = (t, sig) else { return false };
    match t.parse::<i64>() {
        Ok(sent) if (now_unix - sent).abs() <= 300 => {}
        _ => return false,
    }
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(t.as_bytes());
    mac.update(b".");
    mac.update(body);
    mac.verify_slice(&sig).is_ok() // constant-time comparison
}
"#;

/// A parameter's accepted values, as the handlers enforce them.
fn bounds(kind: Kind) -> String {
    match kind {
        Kind::Text { min, max } => format!("text, {min} to {max} characters"),
        Kind::Pattern(p) => format!("matches {p}"),
        Kind::Int { min, max, default } => {
            let range = match max {
                Some(max) => format!("integer, {min} to {max}"),
                None => format!("integer, at least {min}"),
            };
            match default {
                Some(d) => format!("{range}; default {d}"),
                None => range,
            }
        }
        Kind::Enum(values) => format!("one of: {}", values.join(", ")),
        Kind::Bool => "true or false".into(),
        Kind::Date => "date, YYYY-MM-DD".into(),
        Kind::DateOrTime => "date YYYY-MM-DD or RFC 3339 date-time".into(),
        Kind::Context => "a context name or alias (see Contexts)".into(),
        Kind::CompoundList { min, max } => {
            format!("comma-separated, {min} to {max} compound ids or CAS numbers")
        }
        Kind::ContextList { min, max } => format!("comma-separated, {min} to {max} contexts"),
    }
}

fn answer(a: Answer) -> String {
    match a {
        Answer::Json(schema) => format!("JSON ({schema})"),
        Answer::Html => "HTML page".into(),
        Answer::Svg => "SVG image".into(),
        Answer::Plain(media) => format!("text ({media})"),
        Answer::JsonOrCsv(schema) => format!("JSON ({schema}) or CSV with format=csv"),
        Answer::HtmlOrJson(schema) => format!("HTML, or JSON ({schema}) with format=json"),
    }
}

/// The statuses an endpoint can answer besides success.
fn errors(e: &Endpoint) -> Vec<(u16, &'static str)> {
    let mut out = Vec::new();
    if e.answer == Answer::Svg {
        // A badge URL's errors are badges (the "Badges" section).
        return vec![
            (
                400,
                "a gray SVG badge: a malformed id, an unknown style or context, a bad label",
            ),
            (401, "a gray SVG badge: a key that is not valid"),
            (403, "a gray SVG badge: a compound judged a critical threat"),
            (404, "a gray SVG “not found” badge: nothing with this id"),
            (
                405,
                "another method on this path (Allow names the right ones)",
            ),
            (
                429,
                "a gray SVG badge: the daily quota is used up (resets 00:00 UTC)",
            ),
        ];
    }
    if !e.params.is_empty() || e.body.is_some() {
        out.push((400, "a malformed id, CAS number, context or parameter"));
    }
    match e.access {
        Access::Public => {}
        Access::Developer => out.push((401, "no key, or a key that is not valid")),
        Access::DeveloperForbidden => {
            out.push((401, "a key that is not valid"));
            out.push((403, "called without a key (the public tier)"));
        }
    }
    if e.name == "compound" {
        out.push((403, "a compound judged a critical threat is refused"));
    }
    if e.params.iter().any(|p| p.location == In::Path) {
        out.push((404, "nothing with this id or name"));
    }
    out.push((
        405,
        "another method on this path (Allow names the right ones)",
    ));
    if e.body.is_some() {
        out.push((413, "a body over 256 KiB"));
    }
    if e.name == "compound" {
        out.push((422, "a v2_research compound, or no aggregated record"));
    }
    out.push((429, "the daily quota is used up (resets 00:00 UTC)"));
    out
}

fn view(d: &Dataset, ix: Indexes<'_>, e: &'static Endpoint) -> EndpointView {
    let public = e.access == Access::Public;
    let curl = e.example.map(|x| {
        let key = if public {
            ""
        } else {
            "-H \"X-API-Key: $SAFEREF_KEY\" "
        };
        let method = if e.method == "GET" {
            String::new()
        } else {
            format!("-X {} ", e.method)
        };
        format!("curl {method}{key}\"$BASE{x}\"")
    });
    let svg = matches!(e.answer, Answer::Svg);
    let excerpt = e
        .example
        .filter(|_| !svg && !matches!(e.answer, Answer::Html | Answer::Plain(_)))
        .and_then(|x| excerpts::render(d, ix, e, x))
        .map(|r| {
            let (text, truncated) = excerpts::excerpt(&r, EXCERPT_LINES);
            Excerpt {
                status: r.status,
                text,
                truncated,
            }
        });
    EndpointView {
        anchor: format!("{}-{}", e.method.to_lowercase(), e.name),
        method: e.method,
        path: e.path,
        summary: e.summary,
        public,
        access: match e.access {
            Access::Public => "no key",
            Access::Developer | Access::DeveloperForbidden => "Developer key or higher",
        },
        cost: e.cost,
        params: e
            .params
            .iter()
            .map(|p| ParamView {
                name: p.name,
                location: match p.location {
                    In::Path => "path",
                    In::Query => "query",
                },
                required: p.required,
                bounds: bounds(p.kind),
                description: p.description,
            })
            .collect(),
        body: e.body,
        answer: answer(e.answer),
        curl,
        link: e.example.filter(|_| public && e.method == "GET"),
        badge: e.example.filter(|_| svg),
        excerpt,
        errors: errors(e),
    }
}

/// `GET /api/docs`
pub fn docs(d: &Dataset, ix: Indexes<'_>) -> Rendered {
    let mut tags: Vec<TagView> = Vec::new();
    for e in ENDPOINTS {
        let v = view(d, ix, e);
        match tags.iter_mut().find(|t| t.name == e.tag) {
            Some(t) => t.endpoints.push(v),
            None => tags.push(TagView {
                name: e.tag,
                anchor: format!("tag-{}", e.tag.to_lowercase().replace(' ', "-")),
                endpoints: vec![v],
            }),
        }
    }
    let contexts = d
        .contexts
        .contexts
        .iter()
        .map(|c| ContextView {
            name: &c.name,
            label: &c.label,
            category: &c.category,
            aliases: c.aliases.join(", "),
        })
        .collect();
    let vocabulary = &d.regulatory_status.vocabulary;
    let jurisdictions = JURISDICTIONS
        .iter()
        .map(|&id| VocabularyRow {
            id,
            label: regulatory_status::vocabulary::label("jurisdictions", id).unwrap_or(id),
            detail: String::new(),
        })
        .collect();
    let analytes = vocabulary
        .analytes
        .iter()
        .map(|(id, a)| VocabularyRow {
            id,
            label: &a.name,
            detail: a.cas.join(", "),
        })
        .collect();
    let matrices_of = |listing: bool| {
        vocabulary
            .matrices
            .iter()
            .filter(|(_, m)| m.is_listing() == listing)
            .map(|(id, m)| VocabularyRow {
                id,
                label: &m.name,
                detail: m.kind.clone(),
            })
            .collect()
    };
    let first_example = ENDPOINTS
        .iter()
        .find(|e| e.name == "compound")
        .and_then(|e| e.example)
        .unwrap_or("/api");
    page(&Page {
        nav: "docs",
        version: crate::SERVICE_VERSION,
        tags,
        contexts,
        conventions: crate::api::CONVENTIONS,
        codes: crate::render::error::CODES,
        jurisdictions,
        analytes,
        matrices: matrices_of(false),
        listings: matrices_of(true),
        first_example,
        python: PYTHON,
        node: NODE,
        rust: RUST,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aggregate::graph::Graph;
    use crate::render::search::SearchIndex;
    use crate::render::test_data::{dataset, risk_index};

    #[test]
    fn every_endpoint_is_documented_with_its_example() {
        let d = dataset();
        let graph = Graph::build(d);
        let search_index = SearchIndex::build(d);
        let ix = Indexes {
            graph: &graph,
            risk_index: risk_index(),
            search_index: &search_index,
        };
        let html = String::from_utf8(docs(d, ix).body).unwrap();
        for e in ENDPOINTS {
            let anchor = format!("id=\"{}-{}\"", e.method.to_lowercase(), e.name);
            assert!(html.contains(&anchor), "{anchor}");
        }
        // A real response: the compound example's name and tier are in the page.
        assert!(
            html.contains("&#34;risk_level&#34;: &#34;"),
            "an excerpt of a compound"
        );
        assert!(html.contains("X-Service-Signature: t=&lt;unix seconds&gt;,sha256=&lt;hex&gt;"));
        assert!(html.contains("id=\"conventions\""));
        for (code, status, _) in crate::render::error::CODES {
            assert!(
                html.contains(&format!(
                    "<tr><td><code>{code}</code></td><td>{status}</td>"
                )),
                "{code}"
            );
        }
        // The regulatory-status vocabularies, listings apart from matrices.
        let vocabularies = &html[html.find("id=\"regulatory-vocabularies\"").unwrap()..];
        let listings = vocabularies.find("Listings (").unwrap();
        let matrix = vocabularies
            .find("<code>processed_baby_food_general</code>")
            .unwrap();
        let listing = vocabularies
            .find("<code>prop65_cancer_listing</code>")
            .unwrap();
        assert!(matrix < listings && listings < listing);
        assert!(vocabularies.contains("<td>California Assembly Bill 899 (2023)"));
        for lang in ["hmac.compare_digest", "timingSafeEqual", "verify_slice"] {
            assert!(html.contains(lang), "{lang}");
        }
        // The upgrade links, the lookup and badge sections land on anchors of this page.
        for url in [
            UPGRADE_TRIAL,
            UPGRADE_TIERS,
            "/api/docs#lookup",
            "/api/docs#badges",
        ] {
            let anchor = url.strip_prefix("/api/docs#").unwrap();
            assert!(html.contains(&format!("id=\"{anchor}\"")), "{url}");
        }
        // The lookup's example answers with its real record.
        assert!(
            html.contains("&#34;page&#34;: &#34;/compound/"),
            "a lookup excerpt"
        );
    }
}
