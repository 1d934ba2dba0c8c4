//! Unit tests of the comparison over the fixture dataset (`test_data::fixture`: BPA and BPS,
//! PFOA's superseded IARC call, a critical threat): both modes, deduplication, refusals and
//! hostile input.

use serde_json::Value;

use super::compared::rank;
use super::hazards::hazard_label;
use super::{CompareQuery, compare, compare_indexed};
use crate::aggregate;
use crate::model::contexts::Context;
use crate::model::vocab::{RiskLevel, WatchClass};
use crate::render::compound::{CompoundQuery, View, compound_as_of};
use crate::render::test_data::{fixture as dataset, fixture_risk_index as risk_index};
use crate::render::{Cache, Rendered};

const BPA: &str = "hq-c-org-000218";
const BPS: &str = "hq-c-org-000221";

fn run(ids: Option<&str>, context: Option<&str>, contexts: Option<&str>) -> (u16, Value) {
    let q: Vec<(String, String)> = [("ids", ids), ("context", context), ("contexts", contexts)]
        .into_iter()
        .filter_map(|(n, v)| Some((n.to_string(), v?.to_string())))
        .collect();
    let r = CompareQuery::parse(dataset(), &q, View::Full)
        .and_then(|q| compare(dataset(), &q))
        .unwrap_or_else(Rendered::from);
    assert_eq!(r.cache, Cache::Private);
    (r.status, serde_json::from_slice(&r.body).unwrap())
}

fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect()
}

#[test]
fn bpa_and_bps_side_by_side() {
    let (status, body) = run(Some("80-05-7, 80-09-1"), None, None);
    assert_eq!(status, 200, "{body}");
    let c = &body["comparison"];
    assert_eq!(c["context"], "human_adult");
    assert_eq!(body["meta"]["compared"], 2);
    assert_eq!(body["meta"]["context"], "human_adult");
    assert_eq!(body["meta"]["generated_from"], "dataset");
    let ids: Vec<&str> = c["compounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [BPA, BPS]);
    assert_eq!(c["compounds"][0]["cas"], "80-05-7");

    // Tiers come from the assessment, the delta is their rank difference.
    let a = aggregate::assess(dataset().compound(BPA).unwrap());
    let s = aggregate::assess(dataset().compound(BPS).unwrap());
    let (ta, ts) = (
        a.get("human_adult").unwrap().risk_level,
        s.get("human_adult").unwrap().risk_level,
    );
    let profiles = &c["risk_profiles"]["profiles"];
    assert_eq!(profiles[BPA]["risk_level"], ta.as_str());
    assert_eq!(profiles[BPS]["risk_level"], ts.as_str());
    assert_eq!(
        c["risk_profiles"]["deltas"][0]["tier_difference"],
        rank(ta) - rank(ts)
    );

    // GHS: BPA's CLP entry carries H360F, H335, H318, H317; BPS's ATP18 entry (Repr. 1B)
    // H360FD, which supersedes the HCIS entry's H361f.
    let ghs = &c["hazard_profiles"]["ghs"];
    let bpa_only = strings(&ghs["unique"][BPA]);
    for code in ["H360F", "H318", "H317", "H335"] {
        assert!(bpa_only.contains(&code), "{code}");
    }
    assert_eq!(strings(&ghs["unique"][BPS]), ["H360FD"]);
    assert_eq!(ghs["shared"].as_array().unwrap().len(), 0);
    let profile = &c["hazard_profiles"]["profiles"][BPA];
    assert!(profile["hazard_class"].is_string());
    assert!(profile["hazard_label"].is_string());

    // Both are Prop 65, SVHC, CosIng and FDA food-contact listed; the CLP harmonised
    // classification is BPA's alone.
    let agreement = &c["regulatory"]["agreement"];
    for agency in ["ECHA", "FDA", "OEHHA"] {
        assert!(
            strings(&agreement["classify_all"]).contains(&agency),
            "{agency}"
        );
    }
    assert!(c["regulatory"]["matrix"]["ECHA"][BPS].is_array());

    // Dose-response: only values the records hold; BPA has EFSA TDIs, BPS none.
    let dose = &c["dose_response"];
    assert_eq!(dose["ld50_ratios"], Value::Null);
    assert_eq!(dose["ld50_oral"][BPA], Value::Null);
    assert_eq!(dose["rfd"][BPS], Value::Null);
    assert!(dose["guidance_values"][BPA].is_array());
    assert_eq!(dose["guidance_values"][BPS], Value::Null);

    // Fate: BPA has a log Kow, BPS none; no Koc is ever made up.
    let fate = &c["environmental_fate"];
    assert_eq!(fate[BPA]["bioaccumulation"]["log_kow"]["value"], 3.32);
    assert_eq!(fate[BPS]["bioaccumulation"]["log_kow"], Value::Null);
    assert_eq!(fate[BPA]["soil_mobility"], Value::Null);

    assert_eq!(
        strings(&c["exposure_sources"]["shared"]),
        ["food_contact_materials"]
    );
    let summary = &c["summary"];
    let differences = strings(&summary["key_differences"]).join("\n");
    let traits = strings(&summary["shared_traits"]).join("\n");
    assert!(
        differences.contains("Only Bisphenol A (BPA) carries"),
        "{differences}"
    );
    assert!(
        traits.contains("Both have the use class bisphenol"),
        "{traits}"
    );
    assert!(
        traits.contains("endocrine-disruption findings (ECHA)"),
        "{traits}"
    );
}

#[test]
fn ids_are_deduplicated_and_counted() {
    // The same compound by id, by CAS and twice: one compound.
    let (status, _) = run(Some(&format!("{BPA},80-05-7,{BPA}")), None, None);
    assert_eq!(status, 400);
    let (status, body) = run(Some(&format!("{BPA}, {BPS},{BPA},,")), None, None);
    assert_eq!(status, 200);
    assert_eq!(body["meta"]["compared"], 2);
    assert_eq!(run(Some(BPA), None, None).0, 400);
    assert_eq!(run(None, None, None).0, 400);
    assert_eq!(run(Some(""), None, None).0, 400);
    let six: Vec<String> = dataset()
        .compounds
        .values()
        .filter(|r| r.watch_class == WatchClass::None)
        .map(|r| r.hq_id.to_string())
        .take(6)
        .collect();
    assert_eq!(run(Some(&six.join(",")), None, None).0, 400);
    assert_eq!(run(Some(&six[..5].join(",")), None, None).0, 200);
}

#[test]
fn unknown_malformed_and_refused_compounds() {
    let (status, body) = run(Some(&format!("{BPA},hq-c-org-999999")), None, None);
    assert_eq!(status, 404);
    assert!(body["error"].as_str().unwrap().contains("hq-c-org-999999"));
    let (status, body) = run(Some(&format!("{BPA},not-an-id")), None, None);
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("not-an-id"));
    let threat = dataset()
        .compounds
        .values()
        .find(|r| r.watch_class == WatchClass::CriticalThreat)
        .expect("the corpus has critical-threat records");
    let (status, _) = run(Some(&format!("{BPA},{}", threat.hq_id)), None, None);
    assert_eq!(status, 403);
}

#[test]
fn context_parameters() {
    let pair = format!("{BPA},{BPS}");
    let (status, body) = run(Some(&pair), Some("pregnancy"), None);
    assert_eq!(status, 200);
    assert_eq!(body["comparison"]["context"], "human_pregnant");
    assert_eq!(run(Some(&pair), Some("martian"), None).0, 400);
    assert_eq!(
        run(Some(&pair), Some("human_adult"), Some("dog,cat")).0,
        400
    );
    assert_eq!(run(Some(&pair), None, Some("dog")).0, 400);
    assert_eq!(run(Some(&pair), None, Some("dog,dogs")).0, 400);
    assert_eq!(
        run(Some(&pair), None, Some("dog,cat,fish,bees,skin,oral")).0,
        400
    );
    assert_eq!(run(Some(&pair), None, Some("dog,venus")).0, 400);
}

#[test]
fn contexts_mode_is_a_compound_by_context_matrix() {
    let (status, body) = run(
        Some(&format!("{BPA},{BPS}")),
        None,
        Some("human_infant,adult,human_pregnant,pollinator"),
    );
    assert_eq!(status, 200, "{body}");
    let c = &body["comparison"];
    let contexts = [
        "human_infant",
        "human_adult",
        "human_pregnant",
        "pollinator",
    ];
    assert_eq!(strings(&c["contexts"]), contexts);
    assert_eq!(strings(&body["meta"]["contexts"]), contexts);
    assert_eq!(c["baseline"], "human_adult");
    let matrix = c["risk_matrix"].as_object().unwrap();
    assert_eq!(matrix.keys().collect::<Vec<_>>(), [BPA, BPS]);
    for (id, row) in matrix {
        let row = row.as_object().unwrap();
        assert_eq!(row.keys().map(String::as_str).collect::<Vec<_>>(), contexts);
        let a = aggregate::assess(dataset().compound(id.as_str()).unwrap());
        for ctx in contexts {
            match a.get(ctx) {
                Some(r) => assert_eq!(row[ctx]["risk_level"], r.risk_level.as_str()),
                None => assert_eq!(row[ctx], Value::Null),
            }
        }
        let base = a.get("human_adult").map(|r| rank(r.risk_level));
        let infant = a.get("human_infant").map(|r| rank(r.risk_level));
        let factor = &c["escalation_factors"][id.as_str()];
        assert_eq!(factor["human_adult"], 0);
        assert_eq!(
            factor["human_infant"].as_i64(),
            infant.zip(base).map(|(i, b)| i64::from(i - b))
        );
        let ranked = c["vulnerability_rankings"][id.as_str()].as_array().unwrap();
        let ranks: Vec<i8> = ranked
            .iter()
            .map(|r| rank(RiskLevel::parse(r["risk_level"].as_str().unwrap()).unwrap()))
            .collect();
        assert!(ranks.windows(2).all(|w| w[0] >= w[1]));
    }
    assert!(!c["cross_context_insights"].as_array().unwrap().is_empty());
    // Without human_adult, the first context is the baseline.
    let (_, body) = run(Some(&format!("{BPA},{BPS}")), None, Some("dog,cat"));
    assert_eq!(body["comparison"]["baseline"], "dog");
}

#[test]
fn every_rule_has_a_hazard_label() {
    for rule in crate::aggregate::rules::Rule::ALL {
        assert_ne!(hazard_label(rule), rule.id(), "{}", rule.id());
    }
}

#[test]
fn hostile_input_is_answered_without_panicking() {
    let long = "x".repeat(100_000);
    let commas = ",".repeat(100_000);
    let many: String = (0..10_000).map(|i| format!("a{i},")).collect();
    for ids in [
        long.as_str(),
        commas.as_str(),
        many.as_str(),
        "日本語,🧪",
        "hq-c-org-000218,\u{0}",
        "80-05-7,80-05-8",
    ] {
        let (status, body) = run(Some(ids), None, None);
        assert!((400..500).contains(&status), "{status}");
        assert!(body["error"].as_str().unwrap().len() < 400);
    }
    let pair = format!("{BPA},{BPS}");
    for contexts in ["日本語,🧪", commas.as_str(), ",,dog,,"] {
        assert_eq!(run(Some(&pair), None, Some(contexts)).0, 400);
    }
}

/// A comparison as of a day, parsed for `view`, of `ids` in `context`.
fn run_as_of(ids: &str, context: &str, as_of: &str, view: View) -> (u16, Value) {
    let q: Vec<(String, String)> = vec![
        ("ids".into(), ids.into()),
        ("context".into(), context.into()),
        ("as_of".into(), as_of.into()),
    ];
    let r = CompareQuery::parse(dataset(), &q, view)
        .and_then(|q| compare(dataset(), &q))
        .unwrap_or_else(Rendered::from);
    (r.status, serde_json::from_slice(&r.body).unwrap())
}

/// `as_of` compares the compounds as they stood that day (data/README.md "Dates"): PFOA's IARC
/// call is 2B before Volume 135 and Group 1 after, which raises its adult tier from high to
/// very high, and each tier is the one `GET /api/compound/{id}?as_of=` gives for that day.
#[test]
fn as_of_compares_the_compounds_as_they_stood() {
    let d = dataset();
    let pfoa = d.by_cas("335-67-1").unwrap();
    let ids = format!("{},{BPA}", pfoa.hq_id);
    let group = |body: &Value| {
        body["comparison"]["hazard_profiles"]["profiles"][&pfoa.hq_id.to_string()]["carcinogenicity"]
            ["iarc_group"]
            .clone()
    };
    for (day, iarc, tier) in [
        ("2022-12-31", "2B", "high"),
        ("2024-01-01", "1", "very_high"),
    ] {
        let (status, body) = run_as_of(&ids, "human_adult", day, View::Full);
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["meta"]["as_of"], day);
        assert_eq!(group(&body), iarc, "{day}");
        let profiles = &body["comparison"]["risk_profiles"]["profiles"];
        assert_eq!(
            profiles[&pfoa.hq_id.to_string()]["risk_level"],
            tier,
            "{day}"
        );
        let date = chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").unwrap();
        for id in [pfoa.hq_id.to_string().as_str(), BPA] {
            let single = compound_as_of(
                d,
                d.compound(id).unwrap(),
                CompoundQuery::In(Context::HumanAdult),
                date,
            );
            let single: Value = serde_json::from_slice(&single.body).unwrap();
            let profile = &body["comparison"]["risk_profiles"]["profiles"][id];
            assert_eq!(profile["risk_level"], single["risk_level"], "{id} {day}");
            assert_eq!(profile["summary"], single["summary"], "{id} {day}");
        }
    }
    let (status, today) = run(Some(&ids), None, None);
    assert_eq!(status, 200);
    assert!(today["meta"].get("as_of").is_none());
    assert_eq!(group(&today), "1");

    for bad in ["2022-13-01", "2022-1-01", "yesterday", ""] {
        let (status, body) = run_as_of(&ids, "human_adult", bad, View::Full);
        assert_eq!(status, 400, "{bad}: {body}");
    }
    assert_eq!(
        run_as_of(&ids, "human_adult", "2022-12-31", View::Public).0,
        401
    );
}

#[test]
fn the_parts_the_index_keeps_answer_as_parts_written_afresh() {
    // The index keeps each compound's written parts from its first comparison: the first
    // answer writes them, the second reads them, and both are the bytes of a comparison that
    // writes its own (the default index keeps none).
    let queries = [
        vec![("ids", format!("{BPA},{BPS}"))],
        vec![
            ("ids", format!("{BPA},{BPS},hq-c-org-000145")),
            ("context", "dog".into()),
        ],
        vec![
            ("ids", format!("hq-c-org-000145,{BPS}")),
            ("context", "aquatic".into()),
        ],
        vec![
            ("ids", format!("{BPA},hq-c-org-000145")),
            ("contexts", "human_adult,cat".into()),
        ],
    ];
    for pairs in queries {
        let q: Vec<(String, String)> = pairs.into_iter().map(|(n, v)| (n.to_string(), v)).collect();
        let parsed = CompareQuery::parse(dataset(), &q, View::Full).unwrap();
        let afresh = compare(dataset(), &parsed).unwrap();
        assert_eq!(afresh.status, 200, "{q:?}");
        for _ in 0..2 {
            let kept = compare_indexed(dataset(), risk_index(), &parsed).unwrap();
            assert_eq!(kept.body, afresh.body, "{q:?}");
        }
    }
}

#[test]
fn listed_joins_with_commas_and_a_last_and() {
    use super::summary::listed;
    assert_eq!(listed::<&str>(&[]), "");
    assert_eq!(listed(&["a"]), "a");
    assert_eq!(listed(&["a", "b"]), "a and b");
    assert_eq!(listed(&["a", "b", "c", "d"]), "a, b, c and d");
}
