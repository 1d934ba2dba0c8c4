//! `GET /api/badge/{id}`: an SVG badge with a label on the left and the compound's
//! risk tier on the right, in three styles. Widths come from the font's metrics table, so
//! text never overflows; every user string is escaped by the template engine, in one place.

use askama::Template;

use super::badge_metrics::WIDTHS;
use super::error::ApiError;
use super::{Cache, Rendered};
use crate::aggregate::{Assessment, Schema, assess};
use crate::api::Query;
use crate::model::Dataset;
use crate::model::contexts::Context;
use crate::model::ids::CompoundId;
use crate::model::vocab::{RiskLevel, WatchClass};

/// The default left-hand text.
pub const DEFAULT_LABEL: &str = "saferef";
/// Labels longer than this are cut (a badge is not a banner).
pub const MAX_LABEL_CHARS: usize = 40;
/// Left box colour (contrast with white text 7.5:1).
pub const LABEL_COLOR: &str = "#555555";
/// Gray for "not found" and "no data" (contrast with white 4.8:1).
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

/// The SVG of a badge.
pub fn svg(label: &str, value: &str, color: &str, style: Style) -> String {
    let box_width = |t: &str| (text_width(t) + 2.0 * PAD).ceil() as u32;
    let (label_width, value_width) = (box_width(label), box_width(value));
    let svg = Svg {
        width: label_width + value_width,
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

/// A badge's path id, or the 400 JSON error (an unknown but well-formed id is a 404 badge).
pub fn check_id(id: &str) -> Result<&str, ApiError> {
    match CompoundId::parse(id) {
        Some(_) => Ok(id),
        None => Err(ApiError::bad_request(format!(
            "malformed compound id {id:?}: expected hq-c-<org|ino|mix>-<6 digits>"
        ))),
    }
}

/// What `GET /api/badge/{id}` is asked for (`style`, `context`, `label`), parsed once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadgeQuery {
    pub style: Style,
    pub context: Context,
    /// The left-hand text, cut to its longest.
    pub label: String,
}

impl BadgeQuery {
    pub fn parse(dataset: &Dataset, q: &dyn Query) -> Result<BadgeQuery, ApiError> {
        let style = match q.get("style") {
            None => Style::Flat,
            Some(s) => Style::parse(s).ok_or_else(|| {
                ApiError::bad_request(format!(
                    "unknown style {s:?}: use flat, flat-square or pill"
                ))
            })?,
        };
        let context = match q.get("context") {
            None => Context::HumanAdult,
            Some(c) => dataset
                .contexts
                .parse(c)
                .map_err(|e| ApiError::bad_request(e.to_string()))?,
        };
        let label = q
            .get("label")
            .unwrap_or(DEFAULT_LABEL)
            .chars()
            .take(MAX_LABEL_CHARS)
            .collect();
        Ok(BadgeQuery {
            style,
            context,
            label,
        })
    }
}

/// `GET /api/badge/{id}` of an id `check_id` accepted: an unknown compound is a 404 gray "not
/// found" badge. `assessed` is the compound's assessment when the caller has made it already
/// (the build draws 57 badges from one).
pub fn badge(
    dataset: &Dataset,
    id: &str,
    query: &BadgeQuery,
    assessed: Option<&Assessment>,
) -> Rendered {
    let (label, style, context) = (query.label.as_str(), query.style, query.context);
    let Some(record) = dataset.compounds.get(id) else {
        return respond(404, svg(label, "not found", GRAY, style));
    };
    if record.watch_class == WatchClass::CriticalThreat {
        return respond(403, svg(label, "not available", GRAY, style));
    }
    let owned;
    let a = match assessed {
        Some(a) => a,
        None => {
            owned = assess(record);
            &owned
        }
    };
    let result = (a.schema != Schema::V2Research)
        .then(|| a.get(context.name()))
        .flatten();
    let mut r = match result {
        Some(c) => respond(
            200,
            svg(label, c.risk_level.words(), tier_color(c.risk_level), style),
        ),
        None => respond(200, svg(label, "no data", GRAY, style)),
    };
    if record.watch_class != WatchClass::None {
        r.cache = Cache::Private;
    }
    r.keyed(&record.hq_id)
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
