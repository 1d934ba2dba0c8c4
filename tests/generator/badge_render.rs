//! Badges rendered to pixels with resvg (with the system's DejaVu Sans, installed by
//! scripts/test): every style shows the tier's colour (a product's risk level's), and the text
//! stays inside its box, a long name included; every error a badge URL can hit is a gray SVG
//! with its status. Plus reviewed SVG snapshots of every style and of the error badges.

use std::path::Path;
use std::sync::OnceLock;

use saferef_generator::aggregate::synthesis::ProductRisk;
use saferef_generator::api;
use saferef_generator::model::Dataset;
use saferef_generator::model::vocab::RiskLevel;
use saferef_generator::render::Rendered;
use saferef_generator::render::badge::{
    GRAY, LABEL_COLOR, Style, product_color, svg, text_width, tier_color,
};
use saferef_generator::render::dispatch;

fn committed() -> &'static Dataset {
    static DATA: OnceLock<Dataset> = OnceLock::new();
    DATA.get_or_init(|| {
        saferef_generator::load::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../data"))
            .unwrap()
            .0
    })
}

/// The badge `path?query` gets from the one dispatch, over the committed dataset.
fn badge(path: &str, query: &str) -> Rendered {
    dispatch::get_static(committed(), path, &api::pairs(query), None)
}

fn render(svg: &str) -> resvg::tiny_skia::Pixmap {
    let mut opt = resvg::usvg::Options::default();
    opt.fontdb_mut().load_system_fonts();
    assert!(
        opt.fontdb
            .faces()
            .any(|f| f.families.iter().any(|(name, _)| name == "DejaVu Sans")),
        "DejaVu Sans is not installed (scripts/test installs fonts-dejavu-core)"
    );
    let tree = resvg::usvg::Tree::from_str(svg, &opt).unwrap();
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap
}

fn rgb(hex: &str) -> [u8; 3] {
    let c = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap();
    [c(1), c(3), c(5)]
}

fn pixel(p: &resvg::tiny_skia::Pixmap, x: u32, y: u32) -> [u8; 3] {
    let c = p.pixel(x, y).unwrap().demultiply();
    [c.red(), c.green(), c.blue()]
}

fn close(a: [u8; 3], b: [u8; 3], tolerance: i16) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| (i16::from(*x) - i16::from(y)).abs() <= tolerance)
}

fn label_box(label: &str) -> u32 {
    (text_width(label) + 12.0).ceil() as u32
}

#[test]
fn colours_are_the_tiers() {
    for style in Style::ALL {
        // The flat style lays a faint gradient over the boxes; the others are exact.
        let tolerance = if style == Style::Flat { 14 } else { 1 };
        for tier in RiskLevel::ALL {
            let p = render(&svg("saferef", tier.words(), tier_color(tier), style));
            let lw = label_box("saferef");
            let (right, left) = (pixel(&p, lw + 2, 10), pixel(&p, 2, 10));
            assert!(
                close(right, rgb(tier_color(tier)), tolerance),
                "{style:?} {tier:?}: {right:?}"
            );
            assert!(
                close(left, rgb(LABEL_COLOR), tolerance),
                "{style:?} label: {left:?}"
            );
        }
        let p = render(&svg("saferef", "not found", GRAY, style));
        assert!(close(
            pixel(&p, label_box("saferef") + 2, 10),
            rgb(GRAY),
            tolerance
        ));
    }
}

#[test]
fn text_stays_inside_its_box() {
    for style in Style::ALL {
        for (label, value) in [
            ("saferef", "very high"),
            ("WWWWWW mmmm @@@", "moderate"),
            ("i", "critical"),
        ] {
            let p = render(&svg(label, value, tier_color(RiskLevel::High), style));
            let (lw, width) = (label_box(label), p.width());
            // Columns with white (text) pixels must keep 2 px from the boxes' edges.
            let mut text_columns = 0;
            for x in 0..width {
                let text = (4..17).any(|y| pixel(&p, x, y).iter().all(|c| *c > 200));
                if text {
                    text_columns += 1;
                    let inside_label = x >= 2 && x + 2 <= lw;
                    let inside_value = x >= lw + 2 && x + 2 <= width;
                    assert!(
                        inside_label || inside_value,
                        "{style:?} {label:?}/{value:?}: text at x={x} (label box {lw}, width {width})"
                    );
                }
            }
            // The text was really drawn (gaps between glyphs and thin antialiased strokes are not
            // counted, hence well under the metric width).
            let expected = text_width(label) + text_width(value);
            assert!(
                f64::from(text_columns) > 0.25 * f64::from(expected),
                "{style:?}: {text_columns} text columns for {expected} px of text"
            );
        }
    }
}

#[test]
fn png_for_review() {
    // Written for a person to look at; the assertions are in the tests above.
    let p = render(&svg(
        "saferef",
        "very high",
        tier_color(RiskLevel::VeryHigh),
        Style::Flat,
    ));
    p.save_png(std::env::temp_dir().join("saferef-badge-flat.png"))
        .unwrap();
}

#[test]
fn svg_snapshots() {
    for style in Style::ALL {
        insta::assert_snapshot!(
            format!("badge_{}", style.name()),
            svg(
                "saferef",
                "very high",
                tier_color(RiskLevel::VeryHigh),
                style
            )
        );
    }
    insta::assert_snapshot!(
        "badge_not_found",
        svg("saferef", "not found", GRAY, Style::Flat)
    );
}

#[test]
fn product_levels_have_their_colours() {
    for style in Style::ALL {
        let tolerance = if style == Style::Flat { 14 } else { 1 };
        for risk in ProductRisk::ALL {
            let words = risk.as_str().replace('_', " ");
            let p = render(&svg("saferef", &words, product_color(risk), style));
            let right = pixel(&p, label_box("saferef") + 2, 10);
            assert!(
                close(right, rgb(product_color(risk)), tolerance),
                "{style:?} {risk:?}: {right:?}"
            );
        }
    }
}

#[test]
fn entity_badges_and_names_stay_inside_their_boxes() {
    let d = committed();
    let benzene = &d.by_cas("71-43-2").unwrap().hq_id;
    let product = d.products.keys().next().unwrap();
    let material = d.materials.keys().next().unwrap();
    // The longest name, cut to 32 characters with an ellipsis.
    let longest = d
        .compounds
        .values()
        .filter(|r| r.watch_class == saferef_generator::model::vocab::WatchClass::None)
        .max_by_key(|r| r.name.chars().count())
        .unwrap();
    for (path, query) in [
        (
            format!("/api/badge/{benzene}"),
            "show_name=true&show_context=true&context=human_pregnant",
        ),
        (
            format!("/api/badge/{}", longest.hq_id),
            "show_name=true&style=pill",
        ),
        (format!("/api/badge/{product}"), "show_name=true"),
        (format!("/api/badge/{material}"), "style=flat-square"),
    ] {
        let r = badge(&path, query);
        assert_eq!(r.status, 200, "{path}?{query}");
        let text = String::from_utf8(r.body).unwrap();
        let p = render(&text);
        // Text columns stay 2 px inside the badge.
        for y in 4..17 {
            for x in [0, 1, p.width() - 2, p.width() - 1] {
                assert!(
                    !pixel(&p, x, y).iter().all(|c| *c > 200),
                    "{path}?{query}: text at the edge x={x}"
                );
            }
        }
    }
    let named =
        String::from_utf8(badge(&format!("/api/badge/{}", longest.hq_id), "show_name=true").body)
            .unwrap();
    if longest.name.chars().count() > 32 {
        assert!(named.contains('…'), "{named}");
    }
}

#[test]
fn every_badge_error_is_a_gray_svg_with_its_status() {
    let benzene = committed().by_cas("71-43-2").unwrap().hq_id.to_string();
    let product = committed().products.keys().next().unwrap().clone();
    for (path, query, status, shown) in [
        ("/api/badge/nope".to_string(), "", 400, "bad id"),
        (
            format!("/api/badge/{benzene}"),
            "style=round",
            400,
            "bad style",
        ),
        (
            format!("/api/badge/{benzene}"),
            "context=horse&style=pill",
            400,
            "bad context",
        ),
        (format!("/api/badge/{benzene}"), "label=", 400, "bad label"),
        (
            format!("/api/badge/{benzene}"),
            "show_context=1",
            400,
            "bad parameter",
        ),
        (
            format!("/api/badge/{product}"),
            "context=dog",
            400,
            "bad context",
        ),
        (
            "/api/badge/hq-c-org-999999".to_string(),
            "",
            404,
            "not found",
        ),
        (
            "/api/badge/hq-p-zzz-999999".to_string(),
            "",
            404,
            "not found",
        ),
    ] {
        let r = badge(&path, query);
        assert_eq!(r.status, status, "{path}?{query}");
        assert_eq!(r.content_type, "image/svg+xml", "{path}?{query}");
        let text = String::from_utf8(r.body).unwrap();
        assert!(text.contains(&format!(">{shown}</text>")), "{text}");
        let p = render(&text);
        let tolerance = if text.contains("linearGradient") {
            14
        } else {
            1
        };
        assert!(
            close(
                pixel(&p, label_box("saferef") + 2, 10),
                rgb(GRAY),
                tolerance
            ),
            "{path}?{query}: gray"
        );
    }
}

#[test]
fn error_badge_snapshots() {
    let benzene = committed().by_cas("71-43-2").unwrap().hq_id.to_string();
    for (name, path, query) in [
        (
            "badge_error_id",
            "/api/badge/nope".to_string(),
            "style=pill",
        ),
        (
            "badge_error_style",
            format!("/api/badge/{benzene}"),
            "style=round",
        ),
        (
            "badge_error_label",
            format!("/api/badge/{benzene}"),
            "label=",
        ),
    ] {
        let r = badge(&path, query);
        insta::assert_snapshot!(name, String::from_utf8(r.body).unwrap());
    }
}
