//! Tests over the real data in `data/regulatory-status/`: it loads and validates cleanly,
//! real cells answer the values their instruments give on either side of their transitions,
//! and reviewed snapshots of both views of `GET /api/regulatory-status`.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use chrono::NaiveDate;

use super::{Query, regulatory_status};
use crate::load::regulatory_status::load;
use crate::model::regulatory_status::governance::{calendar, governance};
use crate::model::regulatory_status::{Cell, RegulatoryStatus, parse_date};
use crate::validate::regulatory_status::validate;

fn real() -> &'static RegulatoryStatus {
    static RS: OnceLock<RegulatoryStatus> = OnceLock::new();
    RS.get_or_init(|| {
        let (rs, problems) = load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../data"));
        assert!(problems.is_empty(), "{problems:#?}");
        rs
    })
}

fn date(s: &str) -> NaiveDate {
    parse_date(s).expect("test date")
}

fn cell(jurisdiction: &str, analyte: &str, matrix: &str) -> &'static Cell {
    real()
        .cells()
        .find(|c| c.jurisdiction == jurisdiction && c.analyte == analyte && c.matrix == matrix)
        .unwrap_or_else(|| panic!("no cell {jurisdiction} {analyte} {matrix}"))
}

/// (threshold_ppb, instrument) of the current value, None when nothing governs.
fn current<'a>(c: &'a Cell, as_of: &str) -> Option<(Option<f64>, &'a str)> {
    governance(c, date(as_of))
        .current
        .map(|v| (v.threshold_ppb, v.instrument.as_str()))
}

#[test]
fn the_real_layer_validates_cleanly() {
    let rs = real();
    let mut problems = Vec::new();
    validate(rs, &mut problems);
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(rs.dataset_version.starts_with("rs-") && rs.dataset_version.len() == 15);
}

#[test]
fn the_layer_round_trips_through_serde() {
    // The runtime reads the layer back from the build's dataset snapshot.
    let json = serde_json::to_string(real()).expect("serialize");
    let back: RegulatoryStatus = serde_json::from_str(&json).expect("deserialize");
    assert_eq!(serde_json::to_string(&back).expect("serialize"), json);
    assert_eq!(back.cells().count(), 120);
}

#[test]
fn cell_counts() {
    let mut by_jurisdiction: BTreeMap<&str, usize> = BTreeMap::new();
    for c in real().cells() {
        *by_jurisdiction.entry(c.jurisdiction.as_str()).or_default() += 1;
    }
    assert_eq!(
        by_jurisdiction,
        BTreeMap::from([("CA_AB899", 12), ("EU", 55), ("US", 53)])
    );
    // Every analyte names has cells.
    for analyte in [
        "lead",
        "inorganic_arsenic",
        "cadmium",
        "mercury",
        "pfoa",
        "pfos",
        "hfpo_da",
        "pfas",
        "bisphenol_a",
        "dehp",
        "ndma",
    ] {
        assert!(real().cells().any(|c| c.analyte == analyte), "{analyte}");
    }
}

#[test]
fn us_lead_in_baby_food_starts_with_the_2025_guidance() {
    let c = cell("US", "lead", "processed_baby_food_general");
    assert_eq!(current(c, "2025-01-05"), None);
    assert!(governance(c, date("2025-01-05")).coverage_gap());
    let g = governance(c, date("2025-01-06"));
    assert_eq!(g.threshold_ppb(), Some(10.0));
    assert_eq!(g.legal_status(), Some("action_level_guidance"));
    assert!(!g.coverage_gap());
}

#[test]
fn eu_inorganic_arsenic_in_rice_over_three_instruments() {
    let c = cell("EU", "inorganic_arsenic", "rice_non_parboiled_milled");
    let table = [
        ("2015-12-31", None),
        (
            "2016-01-01",
            Some((Some(200.0), "Regulation (EU) 2015/1006")),
        ),
        (
            "2023-03-25",
            Some((Some(200.0), "Regulation (EU) 2015/1006")),
        ),
        (
            "2023-03-26",
            Some((Some(150.0), "Regulation (EU) 2023/465")),
        ),
        (
            "2023-05-25",
            Some((Some(150.0), "Regulation (EU) 2023/915")),
        ),
        (
            "2040-01-01",
            Some((Some(150.0), "Regulation (EU) 2023/915")),
        ),
    ];
    for (as_of, expected) in table {
        assert_eq!(current(c, as_of), expected, "{as_of}");
    }
    let infant = cell("EU", "inorganic_arsenic", "rice_for_infant_food_production");
    assert_eq!(
        current(infant, "2026-11-21"),
        Some((Some(100.0), "Regulation (EU) 2023/915"))
    );
}

#[test]
fn us_pfoa_in_drinking_water_with_the_2026_proposal_upcoming() {
    let c = cell("US", "pfoa", "drinking_water");
    let before = governance(c, date("2024-06-24"));
    assert_eq!(before.current, None);
    assert_eq!(before.upcoming.len(), 2);
    let g = governance(c, date("2026-11-21"));
    let now = g.current.expect("the 2024 MCL");
    assert_eq!(
        (
            now.threshold_ppb,
            now.effective_from.as_deref(),
            now.compliance_deadline.as_deref()
        ),
        (Some(0.004), Some("2024-06-25"), Some("2029-04-26"))
    );
    // The proposal is announced, undated: upcoming, never current, whatever the date.
    assert_eq!(g.upcoming.len(), 1);
    let proposal = g.upcoming[0];
    assert_eq!(
        (proposal.status.as_str(), proposal.confidence.as_str()),
        ("proposed", "announced")
    );
    assert_eq!(proposal.compliance_deadline.as_deref(), Some("2031-04-26"));
    assert_eq!(governance(c, date("2035-01-01")).current, Some(now));
}

#[test]
fn eu_bisphenol_a_food_contact_ban_dates() {
    let fcm = cell("EU", "bisphenol_a", "food_contact_materials");
    let reg = "Regulation (EU) 2024/3190";
    let table = [
        ("2018-09-05", None),
        ("2018-09-06", Some((Some(50.0), "Regulation (EU) 2018/213"))),
        ("2025-01-19", Some((Some(50.0), "Regulation (EU) 2018/213"))),
        // The prohibition: no number, still a binding value, so no coverage gap.
        ("2025-01-20", Some((None, reg))),
        ("2028-01-19", Some((None, reg))),
        // The adopted end of the longest transition rolls into current on its date.
        (
            "2028-01-20",
            Some((
                None,
                "Regulation (EU) 2024/3190 (as corrected by Regulation (EU) 2026/250)",
            )),
        ),
    ];
    for (as_of, expected) in table {
        assert_eq!(current(fcm, as_of), expected, "{as_of}");
    }
    let g = governance(fcm, date("2026-11-21"));
    assert!(!g.coverage_gap());
    assert_eq!(g.legal_status(), Some("binding_maximum"));
    let upcoming: Vec<Option<&str>> = g
        .upcoming
        .iter()
        .map(|v| v.effective_from.as_deref())
        .collect();
    assert_eq!(upcoming, vec![Some("2028-01-20")]);
    assert!(governance(fcm, date("2028-01-20")).upcoming.is_empty());

    let plastics = cell("EU", "bisphenol_a", "food_contact_plastics");
    let table = [
        ("2011-04-30", None),
        ("2011-05-01", Some(Some(600.0))),
        ("2018-09-06", Some(Some(50.0))),
        ("2025-01-20", Some(None)),
    ];
    for (as_of, expected) in table {
        assert_eq!(current(plastics, as_of).map(|c| c.0), expected, "{as_of}");
    }
}

#[test]
fn eu_lead_in_drinking_water_rolls_to_5_ppb_in_2036() {
    let c = cell("EU", "lead", "drinking_water");
    let table = [
        ("2003-12-24", None),
        ("2003-12-25", Some(25.0)),
        ("2013-12-25", Some(10.0)),
        ("2036-01-11", Some(10.0)),
        ("2036-01-12", Some(5.0)),
    ];
    for (as_of, expected) in table {
        assert_eq!(
            governance(c, date(as_of)).threshold_ppb(),
            expected,
            "{as_of}"
        );
    }
}

#[test]
fn the_real_calendar_is_forward_looking() {
    let rs = real();
    for as_of in ["2000-01-01", "2024-01-01", "2026-11-21", "2030-01-01"] {
        let as_of = date(as_of);
        let changes = calendar(rs.cells(), as_of, None, None);
        let mut seen_undated = false;
        let mut last = None;
        for ch in &changes {
            assert!(matches!(
                ch.value.status.as_str(),
                "proposed" | "draft" | "adopted"
            ));
            match ch.effective_from {
                Some(d) => {
                    assert!(d > as_of && !seen_undated);
                    assert!(last <= Some(d));
                    last = Some(d);
                }
                None => seen_undated = true,
            }
        }
    }
    let dated = calendar(
        rs.cells(),
        date("2026-11-21"),
        Some(date("2099-01-01")),
        None,
    );
    assert!(dated.iter().all(|c| c.effective_from.is_some()));
}

fn render(q: Query<'_>) -> (u16, serde_json::Value) {
    let r = regulatory_status(real(), &Default::default(), &q, date("2026-11-21"));
    let body = serde_json::from_slice(&r.body).expect("JSON body");
    (r.status, body)
}

fn error(q: Query<'_>) -> String {
    let (status, body) = render(q);
    assert_eq!(status, 400, "{body}");
    body["error"].as_str().unwrap_or_default().to_string()
}

#[test]
fn bad_parameters_are_400s_naming_the_valid_values() {
    let analyte = error(Query {
        analyte: Some("plutonium"),
        ..Query::default()
    });
    assert!(
        analyte.starts_with("analyte must be one of aflatoxin_b1, aflatoxins_total, ")
            && analyte.contains("lead, mcpd")
            && analyte.ends_with("(case-insensitive), not \"plutonium\""),
        "{analyte}"
    );
    let matrix = error(Query {
        matrix: Some("soup"),
        ..Query::default()
    });
    assert!(matrix.contains("processed_baby_food_general"), "{matrix}");
    assert_eq!(
        error(Query {
            jurisdiction: Some("UK"),
            ..Query::default()
        }),
        "jurisdiction must be one of US, EU, CA_AB899, not \"UK\""
    );
    for bad in [
        "2026-02-30",
        "2026-2-3",
        "tomorrow",
        "",
        "+2026-01-01",
        "2026-01-01\0",
    ] {
        for (as_of, before) in [(Some(bad), None), (None, Some(bad))] {
            let message = error(Query {
                as_of,
                before,
                view: Some("calendar"),
                ..Query::default()
            });
            assert!(message.contains("must be a date YYYY-MM-DD"), "{message}");
        }
    }
    // Hostile strings come back escaped and cut.
    let long = "\"<script>\u{202e}".repeat(100);
    for q in [
        Query {
            analyte: Some(&long),
            ..Query::default()
        },
        Query {
            matrix: Some(&long),
            ..Query::default()
        },
        Query {
            jurisdiction: Some(&long),
            ..Query::default()
        },
        Query {
            as_of: Some(&long),
            ..Query::default()
        },
    ] {
        let message = error(q);
        assert!(
            message.len() < 2_000 && message.ends_with("..."),
            "{message}"
        );
        assert!(!message.contains("\u{202e}"), "{message}");
    }
}

#[test]
fn filters_ignore_case_and_combine() {
    let (status, body) = render(Query {
        analyte: Some("LEAD"),
        matrix: Some("Processed_Baby_Food_General"),
        jurisdiction: Some("ca_ab899"),
        ..Query::default()
    });
    assert_eq!(status, 200);
    assert_eq!(body["count"], 1);
    assert_eq!(body["results"][0]["jurisdiction"], "CA_AB899");
    // The default as_of is today.
    assert_eq!(body["as_of"], "2026-11-21");
    let (_, all) = render(Query::default());
    assert_eq!(all["count"], 120);
    let (_, lead) = render(Query {
        analyte: Some("lead"),
        ..Query::default()
    });
    assert_eq!(lead["count"], 20);
    // Any view but `calendar` is the cell view.
    let (_, other) = render(Query {
        analyte: Some("lead"),
        view: Some("cells"),
        ..Query::default()
    });
    assert_eq!(other, lead);
}

/// The body at the fixed date the snapshots were reviewed for; they redact
/// `dataset_version`, which changes with every data edit, not with these cells.
fn snapshot_of(q: Query<'_>) -> serde_json::Value {
    let (status, body) = render(Query {
        as_of: q.as_of.or(Some("2026-11-21")),
        ..q
    });
    assert_eq!(status, 200, "{body}");
    body
}

#[test]
fn snapshot_us_pfoa_drinking_water() {
    let body = snapshot_of(Query {
        analyte: Some("pfoa"),
        matrix: Some("drinking_water"),
        jurisdiction: Some("US"),
        ..Query::default()
    });
    insta::assert_json_snapshot!(body, { ".dataset_version" => "[dataset_version]" });
}

#[test]
fn snapshot_lead_baby_food_before_the_us_guidance() {
    let body = snapshot_of(Query {
        analyte: Some("lead"),
        matrix: Some("processed_baby_food_general"),
        as_of: Some("2024-12-31"),
        ..Query::default()
    });
    insta::assert_json_snapshot!(body, { ".dataset_version" => "[dataset_version]" });
}

#[test]
fn snapshot_eu_bisphenol_a_mid_2025() {
    let body = snapshot_of(Query {
        analyte: Some("bisphenol_a"),
        jurisdiction: Some("EU"),
        as_of: Some("2025-06-01"),
        ..Query::default()
    });
    insta::assert_json_snapshot!(body, { ".dataset_version" => "[dataset_version]" });
}

#[test]
fn snapshot_calendar() {
    let body = snapshot_of(Query {
        view: Some("calendar"),
        ..Query::default()
    });
    insta::assert_json_snapshot!(body, { ".dataset_version" => "[dataset_version]" });
}

#[test]
fn snapshot_calendar_eu_before_2030() {
    let body = snapshot_of(Query {
        view: Some("calendar"),
        jurisdiction: Some("eu"),
        before: Some("2030-12-31"),
        ..Query::default()
    });
    insta::assert_json_snapshot!(body, { ".dataset_version" => "[dataset_version]" });
}

#[test]
fn snapshot_iarc_classifications() {
    let body = snapshot_of(Query {
        matrix: Some("iarc_classification"),
        ..Query::default()
    });
    insta::assert_json_snapshot!(body, { ".dataset_version" => "[dataset_version]" });
}
