//! Every fact over time on the committed dataset (data/README.md "Dates"): the real cases of
//! issue 25, each the day before and the day of its change, through the record as it stood
//! (`model::as_of`), the keyed answers and the timeline.

use chrono::NaiveDate;
use serde_json::Value;

use saferef_generator::aggregate;
use saferef_generator::model::as_of::as_of;
use saferef_generator::model::dating::DatePrecision;
use saferef_generator::model::record::{CompoundRecord, Lifecycle};
use saferef_generator::model::timeline::{Change, timeline};
use saferef_generator::model::vocab::RiskLevel;
use saferef_generator::render::compound::{self, CompoundQuery};
use saferef_generator::render::regulatory;

use super::compound_panel::dataset;

fn day(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

fn record(cas: &str) -> &'static CompoundRecord {
    dataset().by_cas(cas).unwrap()
}

/// The IARC group of the record's listing as it stood on `on`.
fn iarc(cas: &str, on: &str) -> Option<String> {
    as_of(record(cas), day(on))
        .regulatory
        .listings
        .iarc_group
        .map(|l| l.group.label().to_string())
}

#[test]
fn pfoa_iarc_2b_until_the_volume_135_call_then_group_1() {
    assert_eq!(iarc("335-67-1", "2022-12-31").as_deref(), Some("2B"));
    assert_eq!(iarc("335-67-1", "2024-01-01").as_deref(), Some("1"));
    // The Lancet Oncology summary's publication is the day the call is dated.
    assert_eq!(iarc("335-67-1", "2023-11-29").as_deref(), Some("2B"));
    assert_eq!(iarc("335-67-1", "2023-11-30").as_deref(), Some("1"));
    // Today's view: Group 1, the 2B call superseded from the day of the new one.
    let r = record("335-67-1");
    let old = r
        .regulatory
        .classifications
        .iter()
        .find(|c| c.agency == "IARC" && c.classification.starts_with("Group 2B"))
        .unwrap();
    assert_eq!(old.status, Some(Lifecycle::Superseded));
    assert_eq!(
        (old.effective_from.as_deref(), old.date_precision),
        (Some("2017"), Some(DatePrecision::Year)),
        "the 2020 list gives the year only"
    );
    assert_eq!(old.effective_until.as_deref(), Some("2023-11-30"));
    // The tier follows the evidence: the Group 1 call raises the adult tier.
    let adult = |on: &str| {
        aggregate::assess(&as_of(r, day(on)))
            .get("human_adult")
            .map(|c| c.risk_level)
    };
    assert_eq!(adult("2022-12-31"), Some(RiskLevel::High));
    assert_eq!(adult("2024-01-01"), Some(RiskLevel::VeryHigh));
}

/// The record's EU CLP entries with `hazard` in force on `on`.
fn eu_entries(cas: &str, on: &str, hazard: &str) -> Vec<Option<Lifecycle>> {
    as_of(record(cas), day(on))
        .safety
        .ghs
        .iter()
        .filter(|g| g.jurisdiction == "EU" && g.hazard_classes.iter().any(|h| h == hazard))
        .map(|g| g.status)
        .collect()
}

#[test]
fn titanium_dioxide_carc_2_from_atp14_until_the_annulment_took_effect() {
    let tio2 = "13463-67-7";
    assert!(
        eu_entries(tio2, "2021-09-30", "Carc. 2").is_empty(),
        "ATP14 applies from 2021-10-01"
    );
    assert_eq!(eu_entries(tio2, "2021-10-01", "Carc. 2"), vec![None]);
    assert_eq!(eu_entries(tio2, "2021-12-31", "Carc. 2"), vec![None]);
    // The General Court's judgment of 2022-11-23 took effect when the appeals were dismissed.
    assert_eq!(eu_entries(tio2, "2023-06-01", "Carc. 2"), vec![None]);
    assert_eq!(
        eu_entries(tio2, "2025-08-01", "Carc. 2"),
        vec![Some(Lifecycle::Annulled)]
    );
    let g = &record(tio2).safety.ghs[0];
    assert_eq!(
        (
            g.effective_from.as_deref(),
            g.effective_until.as_deref(),
            g.superseded_by.as_deref()
        ),
        (
            Some("2021-10-01"),
            Some("2025-08-01"),
            Some("eu-gc-t-279-20")
        )
    );
    // The evidence follows: the EU entry counts while it is in force. The tier stays, as the
    // IARC 2B and Prop 65 calls on inhaled particles already set it.
    let eu_evidence = |on: &str| {
        aggregate::assess(&as_of(record(tio2), day(on)))
            .get("human_adult")
            .unwrap()
            .evidence
            .iter()
            .any(|e| e.agency.as_deref() == Some("European Commission"))
    };
    assert_eq!(
        ["2021-09-30", "2021-12-31", "2025-09-01"].map(eu_evidence),
        [false, true, false]
    );
}

/// The current EFSA chronic-intake values on `on`, as "value unit".
fn efsa_chronic(cas: &str, on: &str) -> Vec<String> {
    as_of(record(cas), day(on))
        .dose_response
        .iter()
        .filter(|d| d.is_current())
        .filter(|d| {
            d.efsa_question()
                .is_some_and(|(q, _)| q == "chronic intake")
        })
        .map(|d| format!("{} {}", d.value, d.unit))
        .collect()
}

#[test]
fn bpa_efsa_tdi_before_and_after_the_2023_opinion() {
    assert_eq!(
        efsa_chronic("80-05-7", "2022-06-30"),
        vec!["4 µg/kg bw/day"]
    );
    assert_eq!(
        efsa_chronic("80-05-7", "2024-01-01"),
        vec!["0.2 ng/kg bw/day"]
    );
    // The opinion's date is known to the year: it counts from the end of 2023.
    assert_eq!(
        efsa_chronic("80-05-7", "2023-12-30"),
        vec!["4 µg/kg bw/day"]
    );
}

#[test]
fn a_prop_65_listing_the_day_before_and_the_day_of_listing() {
    // PFOA: listed for cancer on 2022-02-25 (developmental since 2017-11-10).
    let listed = |on: &str| -> Vec<String> {
        as_of(record("335-67-1"), day(on))
            .regulatory
            .listings
            .prop65
            .iter()
            .map(|p| format!("{:?}", p.toxicity).to_lowercase())
            .collect()
    };
    assert_eq!(listed("2022-02-24"), vec!["developmental"]);
    assert_eq!(listed("2022-02-25"), vec!["cancer", "developmental"]);
    assert!(listed("2017-11-09").is_empty());
}

#[test]
fn the_keyed_answers_say_the_day_and_stand_on_it() {
    let d = dataset();
    let pfoa = record("335-67-1");
    let body = |r: saferef_generator::render::Rendered| -> Value {
        assert_eq!(r.status, 200);
        serde_json::from_slice(&r.body).unwrap()
    };
    let then = body(regulatory::compound(
        d,
        &pfoa.hq_id.to_string(),
        Some(day("2022-12-31")),
    ));
    assert_eq!(then["as_of"], "2022-12-31");
    assert_eq!(then["listings"]["iarc_group"]["group"], "2B");
    let iarc: Vec<&Value> = then["regulatory"]["classifications"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["agency"] == "IARC")
        .collect();
    assert_eq!(iarc.len(), 1, "the Volume 135 call was not yet made");
    assert!(iarc[0].get("status").is_none(), "in force then");
    let now = body(regulatory::compound(d, &pfoa.hq_id.to_string(), None));
    assert!(now.get("as_of").is_none());
    assert_eq!(now["listings"]["iarc_group"]["group"], "1");

    let then = body(compound::compound_as_of(
        d,
        pfoa,
        CompoundQuery::All,
        day("2022-12-31"),
    ));
    let now = body(compound::compound(d, pfoa, CompoundQuery::All, None));
    assert_eq!(then["as_of"], "2022-12-31");
    let iarc_evidence = |b: &Value| -> String {
        b["contexts"]["human_adult"]["evidence"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["agency"] == "IARC")
            .map(|e| e["finding"].as_str().unwrap_or_default().to_string())
            .unwrap_or_default()
    };
    assert!(
        iarc_evidence(&then).contains("2B"),
        "{}",
        iarc_evidence(&then)
    );
    assert!(
        iarc_evidence(&now).contains("Group 1"),
        "{}",
        iarc_evidence(&now)
    );
}

#[test]
fn the_timeline_lists_every_dated_change_with_its_source() {
    let today = day("2026-11-26");
    let t = timeline(record("13463-67-7"), today);
    let eu: Vec<(&str, Change, &str)> = t
        .events
        .iter()
        .filter(|e| e.subject == "eu_clp")
        .map(|e| (e.date.as_str(), e.change, e.source.as_str()))
        .collect();
    assert_eq!(
        eu,
        vec![
            ("2021-10-01", Change::Added, "eu-clp-atp17"),
            ("2025-08-01", Change::Annulled, "eu-clp-atp17"),
        ]
    );
    let pfoa = timeline(record("335-67-1"), today);
    let iarc: Vec<(&str, Change)> = pfoa
        .events
        .iter()
        .filter(|e| e.agency == "IARC")
        .map(|e| (e.date.as_str(), e.change))
        .collect();
    assert_eq!(
        iarc,
        vec![
            ("2017", Change::Added),
            ("2023-11-30", Change::Changed),
            ("2023-11-30", Change::Superseded),
        ]
    );
    assert!(
        pfoa.events
            .windows(2)
            .all(|w| w[0].date[..4] <= w[1].date[..4]),
        "oldest first"
    );
    // An adopted ATP before its date of application is a scheduled change.
    let scheduled = dataset()
        .compounds
        .values()
        .flat_map(|r| timeline(r, today).events)
        .filter(|e| e.change == Change::Scheduled)
        .count();
    assert!(
        scheduled >= 9,
        "the nine ATP23 entries apply from 2027-02-01"
    );
}

#[test]
fn the_change_calendar_lists_scheduled_classification_changes() {
    use saferef_generator::render::regulatory_status::{RegulatoryStatusQuery, regulatory_status};
    let d = dataset();
    let changes = |as_of: &str, jurisdiction: &str| -> Vec<Value> {
        let q: Vec<(String, String)> = [
            ("jurisdiction", jurisdiction),
            ("as_of", as_of),
            ("view", "calendar"),
        ]
        .into_iter()
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect();
        let parsed = RegulatoryStatusQuery::parse(d, &q, day("2026-11-26")).unwrap();
        let r = regulatory_status(&d.regulatory_status, &d.compounds, &parsed);
        let body: Value = serde_json::from_slice(&r.body).unwrap();
        body["classification_changes"].as_array().unwrap().clone()
    };
    let eu = changes("2026-11-26", "EU");
    assert_eq!(eu.len(), 9, "the ATP23 entries: {eu:?}");
    assert!(eu.iter().all(|c| c["effective_from"] == "2027-02-01"));
    assert!(changes("2027-02-01", "EU").is_empty(), "applied by then");
    // As of the day before PFOA's cancer listing, the listing is ahead.
    let us = changes("2022-02-24", "US");
    assert!(
        us.iter()
            .any(|c| c["cas"] == "335-67-1" && c["effective_from"] == "2022-02-25")
    );
}
