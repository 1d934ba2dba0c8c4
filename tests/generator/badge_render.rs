//! Badges rendered to pixels with resvg (with the system's DejaVu Sans, installed by
//! scripts/test): every style shows the tier's colour, and the text stays inside its box.
//! Plus reviewed SVG snapshots of every style.

use saferef_generator::model::vocab::RiskLevel;
use saferef_generator::render::badge::{GRAY, LABEL_COLOR, Style, svg, text_width, tier_color};

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
