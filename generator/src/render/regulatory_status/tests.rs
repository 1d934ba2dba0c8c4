//! Tests over the real data in `data/regulatory-status/`: it loads and validates cleanly,
//! real cells answer the values their instruments give on either side of their transitions,
//! and reviewed snapshots of both views of `GET /api/regulatory-status`.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use chrono::NaiveDate;

use super::{RegulatoryStatusQuery, regulatory_status};
use crate::load::regulatory_status::load;
use crate::model::Dataset;
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

/// The layer in a dataset of no compounds (compound ids are resolved in the runtime tests).
fn dataset() -> &'static Dataset {
    static D: OnceLock<Dataset> = OnceLock::new();
    D.get_or_init(|| Dataset {
        regulatory_status: real().clone(),
        ..Dataset::default()
    })
}

/// A request's parameters, as sent.
#[derive(Debug, Clone, Copy, Default)]
struct Query<'a> {
    analyte: Option<&'a str>,
    matrix: Option<&'a str>,
    listing: Option<&'a str>,
    jurisdiction: Option<&'a str>,
    as_of: Option<&'a str>,
    view: Option<&'a str>,
    before: Option<&'a str>,
}

/// The answer to `q` on 2026-11-21, through the typed query as `render::dispatch` parses it.
fn render(q: Query<'_>) -> (u16, serde_json::Value) {
    let pairs: Vec<(String, String)> = [
        ("analyte", q.analyte),
        ("matrix", q.matrix),
        ("listing", q.listing),
        ("jurisdiction", q.jurisdiction),
        ("as_of", q.as_of),
        ("view", q.view),
        ("before", q.before),
    ]
    .into_iter()
    .filter_map(|(name, value)| Some((name.to_string(), value?.to_string())))
    .collect();
    let r = match RegulatoryStatusQuery::parse(dataset(), &pairs, date("2026-11-21")) {
        Ok(parsed) => {
            regulatory_status(&dataset().regulatory_status, &dataset().compounds, &parsed)
        }
        Err(e) => e.into(),
    };
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
    assert_eq!(
        analyte,
        "analyte must be an analyte id or name, a CAS number or a compound id, not \"plutonium\". \
         Every value with its label: GET /api/regulatory-status/vocabulary"
    );
    let matrix = error(Query {
        matrix: Some("soup"),
        ..Query::default()
    });
    assert!(
        matrix.starts_with("matrix must be a food, article or drug matrix id, not \"soup\". ")
            && matrix.ends_with("/api/regulatory-status/vocabulary"),
        "{matrix}"
    );
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
            message.len() < 2_000 && message.contains("\"..."),
            "{message}"
        );
        assert!(!message.contains("\u{202e}"), "{message}");
    }
}

#[test]
fn near_misses_are_answered_with_the_nearest_ids() {
    let baby_food = error(Query {
        matrix: Some("baby food"),
        ..Query::default()
    });
    assert!(
        baby_food.contains(
            "(did you mean baby_food_root_vegetables, canned_baby_food, processed_baby_food_general, processed_cereal_based_baby_food?)"
        ),
        "{baby_food}"
    );
    let typo = error(Query {
        matrix: Some("infant_formla"),
        ..Query::default()
    });
    assert!(typo.contains("(did you mean infant_formula"), "{typo}");
    let analyte = error(Query {
        analyte: Some("bisphenol"),
        ..Query::default()
    });
    assert!(analyte.contains("(did you mean bisphenol_a?)"), "{analyte}");
}

#[test]
fn listings_are_not_matrices() {
    assert_eq!(
        error(Query {
            matrix: Some("prop65_cancer_listing"),
            ..Query::default()
        }),
        "matrix: prop65_cancer_listing is a hazard listing, not a food, article or drug: ask listing=prop65_cancer_listing"
    );
    assert_eq!(
        error(Query {
            listing: Some("infant_formula"),
            ..Query::default()
        }),
        "listing: infant_formula is a matrix, not a hazard listing: ask matrix=infant_formula"
    );
    let both = error(Query {
        matrix: Some("eggs"),
        listing: Some("iarc_classification"),
        ..Query::default()
    });
    assert!(
        both.starts_with("send matrix or listing, not both"),
        "{both}"
    );
    let (status, body) = render(Query {
        listing: Some("Proposition 65 listing: cancer"),
        ..Query::default()
    });
    assert_eq!(status, 200, "{body}");
    assert!(body["count"].as_u64().unwrap() > 0);
    assert!(
        body["results"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["matrix"] == "prop65_cancer_listing")
    );
}

#[test]
fn analytes_by_id_name_abbreviation_and_cas() {
    let ids = |analyte: &str| {
        let (status, body) = render(Query {
            analyte: Some(analyte),
            ..Query::default()
        });
        assert_eq!(status, 200, "{analyte}: {body}");
        body["analytes"].clone()
    };
    for bpa in [
        "bisphenol_a",
        "Bisphenol A (BPA)",
        "bisphenol a",
        "BPA",
        "80-05-7",
    ] {
        assert_eq!(ids(bpa), serde_json::json!(["bisphenol_a"]), "{bpa}");
    }
    // Benzo[a]pyrene is limited alone and as one of PAH4.
    assert_eq!(
        ids("50-32-8"),
        serde_json::json!(["benzo_a_pyrene", "pah4"])
    );
    // A valid CAS number no analyte covers: no cells, and the answer says why.
    let (status, body) = render(Query {
        analyte: Some("50-00-0"),
        ..Query::default()
    });
    assert_eq!(status, 200);
    assert_eq!(body["analytes"], serde_json::json!([]));
    assert_eq!(body["count"], 0);
    // An abbreviation only counts as one when it is one: "total" is not arsenic.
    assert_eq!(
        render(Query {
            analyte: Some("total"),
            ..Query::default()
        })
        .0,
        400
    );
    let unknown = error(Query {
        analyte: Some("hq-c-org-999999"),
        ..Query::default()
    });
    assert_eq!(unknown, "analyte: compound hq-c-org-999999 not found");
    let (_, by_cas) = render(Query {
        analyte: Some("7439-92-1"),
        ..Query::default()
    });
    let (_, by_id) = render(Query {
        analyte: Some("lead"),
        ..Query::default()
    });
    assert_eq!(by_cas, by_id);
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
        listing: Some("iarc_classification"),
        ..Query::default()
    });
    insta::assert_json_snapshot!(body, { ".dataset_version" => "[dataset_version]" });
}
