//! `GET /api/badge/{id}`: an SVG badge with a label on the left and an entity's risk level on
//! the right, in three styles: a compound's tier in a context, a product's synthesised risk
//! level. Every answer a badge URL can get is an SVG an `<img>` can show, errors included
//! (gray, with the reason in its title), as the OpenAPI document and the docs page's "Badges"
//! section say. Widths come from the font's metrics table, so text never overflows; every user
//! string is escaped by the template engine, in one place.

use askama::Template;

use super::badge_metrics::WIDTHS;
use super::dispatch::Prepared;
use super::error::ApiError;
use super::{Cache, Rendered};
use crate::aggregate::Schema;
use crate::aggregate::synthesis::ProductRisk;
use crate::api::Query;
use crate::model::Dataset;
use crate::model::contexts::Context;
use crate::model::ids::CompoundId;
use crate::model::quoted;
use crate::model::vocab::{RiskLevel, WatchClass};

/// The default left-hand text.
pub const DEFAULT_LABEL: &str = "saferef";
/// The longest `label`, in characters (a badge is not a banner).
pub const MAX_LABEL_CHARS: usize = 40;
/// With `show_name=true`, names longer than this are cut and end in an ellipsis.
pub const MAX_NAME_CHARS: usize = 32;
/// Left box colour (contrast with white text 7.5:1).
pub const LABEL_COLOR: &str = "#555555";
/// Gray for "not found", "no data" and every error (contrast with white 4.8:1).
pub const GRAY: &str = "#6b7280";

/// Right box colour per tier; each gives white text at least WCAG AA contrast (4.5:1).
pub fn tier_color(tier: RiskLevel) -> &'static str {
    match tier {
        RiskLevel::Low => "#2e7d32",
        RiskLevel::Moderate => "#8a5a00",
        RiskLevel::High => "#c2410c",
        RiskLevel::VeryHigh => "#b91c1c",
        RiskLevel::Critical => "#6b21a8",
    }
}

/// Right box colour per product risk level, on the tiers' scale (WCAG AA with white text).
pub fn product_color(risk: ProductRisk) -> &'static str {
    match risk {
        ProductRisk::Negligible => "#166534",
        ProductRisk::Low => tier_color(RiskLevel::Low),
        ProductRisk::Moderate => tier_color(RiskLevel::Moderate),
        ProductRisk::ModerateToHigh => "#9a3412",
        ProductRisk::High => tier_color(RiskLevel::High),
        ProductRisk::Severe => tier_color(RiskLevel::VeryHigh),
        ProductRisk::Extreme => tier_color(RiskLevel::Critical),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Flat,
    FlatSquare,
    Pill,
}

impl Style {
    pub const ALL: [Style; 3] = [Style::Flat, Style::FlatSquare, Style::Pill];

    pub fn parse(s: &str) -> Option<Style> {
        Style::ALL.into_iter().find(|st| st.name() == s)
    }

    pub fn name(self) -> &'static str {
        match self {
            Style::Flat => "flat",
            Style::FlatSquare => "flat-square",
            Style::Pill => "pill",
        }
    }
}

/// Rendered width of `text` in the badge font, in pixels.
pub fn text_width(text: &str) -> f32 {
    let m = WIDTHS[usize::from(b'm' - 32)];
    text.chars()
        .map(|c| match c as u32 {
            32..=126 => WIDTHS[c as usize - 32],
            _ => m,
        })
        .sum()
}

#[derive(Template)]
#[template(path = "badge.svg", escape = "html")]
struct Svg<'a> {
    width: u32,
    title: &'a str,
    label: &'a str,
    value: &'a str,
    gradient: bool,
    radius: u32,
    label_width: u32,
    value_width: u32,
    label_color: &'a str,
    value_color: &'a str,
    label_x: f32,
    value_x: f32,
}

/// Horizontal padding on each side of a text.
const PAD: f32 = 6.0;

/// The SVG of a badge, titled "label: value".
pub fn svg(label: &str, value: &str, color: &str, style: Style) -> String {
    draw(label, value, color, style, &format!("{label}: {value}"))
}

/// The SVG of a badge with its own title (what a screen reader and a tooltip say).
fn draw(label: &str, value: &str, color: &str, style: Style, title: &str) -> String {
    let box_width = |t: &str| (text_width(t) + 2.0 * PAD).ceil() as u32;
    let (label_width, value_width) = (box_width(label), box_width(value));
    let svg = Svg {
        width: label_width + value_width,
        title,
        label,
        value,
        gradient: style == Style::Flat,
        radius: match style {
            Style::Flat => 3,
            Style::FlatSquare => 0,
            Style::Pill => 10,
        },
        label_width,
        value_width,
        label_color: LABEL_COLOR,
        value_color: color,
        label_x: label_width as f32 / 2.0,
        value_x: label_width as f32 + value_width as f32 / 2.0,
    };
    svg.render().expect("the badge template renders")
}

fn respond(status: u16, svg: String) -> Rendered {
    let cache = if status == 200 {
        Cache::Badge
    } else {
        Cache::Private
    };
    Rendered::bytes(status, svg.into_bytes(), "image/svg+xml", cache)
}

/// A badge URL that cannot be answered as asked: a gray badge naming what is wrong in a few
/// words, with the whole message in its title, in the asked style when that one is valid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadgeError {
    pub status: u16,
    /// What the badge shows ("bad context").
    pub value: &'static str,
    /// The message, as a JSON error would give it.
    pub message: String,
}

impl BadgeError {
    fn bad(value: &'static str, message: String) -> BadgeError {
        BadgeError {
            status: 400,
            value,
            message,
        }
    }

    fn render(&self, style: Style) -> Rendered {
        let title = format!("{DEFAULT_LABEL}: {}", self.message);
        respond(
            self.status,
            draw(DEFAULT_LABEL, self.value, GRAY, style, &title),
        )
    }
}

/// A refusal of a badge URL made before the badge is drawn (a key that is not valid, the
/// daily quota, the store down), as a badge with the refusal's status.
pub fn refused(e: &ApiError) -> Rendered {
    let value = match e.status {
        401 => "bad key",
        429 => "quota used up",
        503 => "unavailable",
        400..=499 => "bad request",
        _ => "error",
    };
    BadgeError {
        status: e.status,
        value,
        message: e.message.clone(),
    }
    .render(Style::Flat)
}

/// What a badge is of, by its id's shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject<'a> {
    Compound(CompoundId),
    Material(&'a str),
    Product(&'a str),
}

impl<'a> Subject<'a> {
    /// A badge's path id: a compound, material or product id, or the 400.
    pub fn parse(id: &'a str) -> Result<Subject<'a>, BadgeError> {
        if let Some(compound) = CompoundId::parse(id) {
            return Ok(Subject::Compound(compound));
        }
        let entity = |letter: u8| {
            let b = id.as_bytes();
            b.len() == 15
                && id.starts_with("hq-")
                && b[3] == letter
                && b[4] == b'-'
                && b[5..8].iter().all(u8::is_ascii_lowercase)
                && b[8] == b'-'
                && b[9..].iter().all(u8::is_ascii_digit)
        };
        if entity(b'm') {
            Ok(Subject::Material(id))
        } else if entity(b'p') {
            Ok(Subject::Product(id))
        } else {
            Err(BadgeError::bad(
                "bad id",
                format!(
                    "malformed id {}: expected a compound (hq-c-<org|ino|mix>-<6 digits>), material (hq-m-<3 letters>-<6 digits>) or product (hq-p-<3 letters>-<6 digits>) id",
                    quoted(id)
                ),
            ))
        }
    }
}

/// What `GET /api/badge/{id}` is asked for, parsed once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadgeQuery {
    pub style: Style,
    /// `None` when not asked: a compound's badge shows adults (`human_adult`).
    pub context: Option<Context>,
    /// The left-hand text.
    pub label: String,
    /// `show_name=true`: the entity's name after the label.
    pub show_name: bool,
    /// `show_context=true`: the context's label before a compound's tier.
    pub show_context: bool,
}

impl BadgeQuery {
    /// The style alone, for the error badge of a query that fails elsewhere.
    fn style(q: &dyn Query) -> Result<Style, BadgeError> {
        match q.get("style") {
            None => Ok(Style::Flat),
            Some(s) => Style::parse(s).ok_or_else(|| {
                BadgeError::bad(
                    "bad style",
                    format!("unknown style {}: use flat, flat-square or pill", quoted(s)),
                )
            }),
        }
    }

    pub fn parse(dataset: &Dataset, q: &dyn Query) -> Result<BadgeQuery, BadgeError> {
        let style = BadgeQuery::style(q)?;
        let context = match q.get("context") {
            None => None,
            Some(c) => Some(
                dataset
                    .contexts
                    .parse(c)
                    .map_err(|e| BadgeError::bad("bad context", e.to_string()))?,
            ),
        };
        let label = match q.get("label") {
            None => DEFAULT_LABEL.to_string(),
            Some(l) if l.trim().is_empty() || l.chars().count() > MAX_LABEL_CHARS => {
                return Err(BadgeError::bad(
                    "bad label",
                    format!("label must be 1 to {MAX_LABEL_CHARS} characters, not only spaces"),
                ));
            }
            Some(l) => l.to_string(),
        };
        let flag = |name: &'static str| match q.get(name) {
            None | Some("false") => Ok(false),
            Some("true") => Ok(true),
            Some(v) => Err(BadgeError::bad(
                "bad parameter",
                format!("{name} must be true or false, not {}", quoted(v)),
            )),
        };
        Ok(BadgeQuery {
            style,
            context,
            label,
            show_name: flag("show_name")?,
            show_context: flag("show_context")?,
        })
    }

    /// The left-hand text: the label, and the entity's name when asked.
    fn left(&self, name: &str) -> String {
        if !self.show_name {
            return self.label.clone();
        }
        let mut cut: String = name.chars().take(MAX_NAME_CHARS).collect();
        if name.chars().count() > MAX_NAME_CHARS {
            cut.pop();
            cut.push('…');
        }
        format!("{} · {cut}", self.label)
    }
}

/// `GET /api/badge/{id}`: always an SVG. `prepared` is the compound's assessment or the
/// product's synthesis when the caller has made it already (the build draws a compound's 57
/// badges from one assessment, a product's 3 from one synthesis).
pub fn answer(
    dataset: &Dataset,
    id: &str,
    q: &dyn Query,
    prepared: Option<Prepared<'_>>,
) -> Rendered {
    let parsed = Subject::parse(id).and_then(|s| Ok((s, BadgeQuery::parse(dataset, q)?)));
    match parsed {
        Ok((subject, query)) => {
            badge(dataset, subject, &query, prepared).unwrap_or_else(|e| e.render(query.style))
        }
        Err(e) => e.render(BadgeQuery::style(q).unwrap_or(Style::Flat)),
    }
}

/// The badge of a parsed request: an unknown entity is a 404 "not found" badge, a critical
/// threat a 403.
pub fn badge(
    dataset: &Dataset,
    subject: Subject<'_>,
    query: &BadgeQuery,
    prepared: Option<Prepared<'_>>,
) -> Result<Rendered, BadgeError> {
    let style = query.style;
    let not_found = || Ok(respond(404, svg(&query.label, "not found", GRAY, style)));
    let id = match subject {
        Subject::Compound(id) => id,
        Subject::Material(id) | Subject::Product(id) => {
            // A material or product has one risk level, not one per context.
            if query.context.is_some_and(|c| c != Context::HumanAdult) || query.show_context {
                return Err(BadgeError::bad(
                    "bad context",
                    "context and show_context apply to compound badges: a product has one synthesised risk level, a material none of its own".into(),
                ));
            }
            let (name, value, color) = match subject {
                Subject::Material(id) => match dataset.materials.get(id) {
                    Some(m) => (&m.name, "not assessed".to_string(), GRAY),
                    None => return not_found(),
                },
                _ => match dataset.products.get(id) {
                    Some(p) => match super::entities::synthesis_of(
                        dataset,
                        p,
                        prepared.and_then(Prepared::synthesis),
                    )
                    .0
                    .risk_level
                    {
                        Some(r) => (&p.name, r.as_str().replace('_', " "), product_color(r)),
                        None => (&p.name, "no data".to_string(), GRAY),
                    },
                    None => return not_found(),
                },
            };
            return Ok(respond(200, svg(&query.left(name), &value, color, style)).keyed(id));
        }
    };
    let Some(record) = dataset.compounds.get(&id) else {
        return not_found();
    };
    // A critical threat's badge does not name it, as its record is not served.
    if record.watch_class == WatchClass::CriticalThreat {
        return Ok(respond(
            403,
            svg(&query.label, "not available", GRAY, style),
        ));
    }
    let a = &*super::compound::assessment(record, prepared.and_then(Prepared::assessment));
    let context = query.context.unwrap_or(Context::HumanAdult);
    let result = (a.schema != Schema::V2Research)
        .then(|| a.get(context.name()))
        .flatten();
    let (words, color) = match result {
        Some(c) => (c.risk_level.words(), tier_color(c.risk_level)),
        None => ("no data", GRAY),
    };
    let value = match dataset.contexts.get(context.name()) {
        Some(info) if query.show_context => format!("{}: {words}", info.label),
        _ => words.to_string(),
    };
    let mut r = respond(200, svg(&query.left(&record.name), &value, color, style));
    if record.watch_class != WatchClass::None {
        r.cache = Cache::Private;
    }
    Ok(r.keyed(&record.hq_id))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// WCAG relative luminance of an sRGB hex colour.
    fn luminance(hex: &str) -> f64 {
        let channel = |i: usize| {
            let c = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()) / 255.0;
            if c <= 0.03928 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
    }

    #[test]
    fn every_colour_meets_wcag_aa_with_white_text() {
        let colours = RiskLevel::ALL
            .iter()
            .map(|t| tier_color(*t))
            .chain(ProductRisk::ALL.iter().map(|r| product_color(*r)))
            .chain([LABEL_COLOR, GRAY]);
        for c in colours {
            let ratio = 1.05 / (luminance(c) + 0.05);
            assert!(ratio >= 4.5, "{c}: contrast {ratio:.2}");
        }
    }

    #[test]
    fn widths_come_from_the_metrics_table() {
        // s a f e r e f in DejaVu Sans 11 px: 5.731 + 6.741 + 3.873 + 6.768 + 4.522 + 6.768 + 3.873.
        assert!(
            (text_width("saferef") - 38.276).abs() < 0.01,
            "{}",
            text_width("saferef")
        );
        assert!(text_width("WWW") > text_width("iii"));
        assert_eq!(text_width("é"), text_width("m"));
    }

    #[test]
    fn user_text_is_escaped() {
        let s = svg("<script>&\"", "high", "#c2410c", Style::Flat);
        assert!(!s.contains("<script>"));
        assert!(
            s.contains("<text x=\"37.5\" y=\"14\">&#60;script&#62;&#38;&#34;</text>"),
            "{s}"
        );
        assert!(
            s.contains("aria-label=\"&#60;script&#62;&#38;&#34;: high\""),
            "{s}"
        );
    }
}
