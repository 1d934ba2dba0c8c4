//! over a governance timeline: which value governs a cell as of a date, which values
//! are still to come, and the forward calendar of changes. Pure functions of the
//! stored values and the date asked about; statuses are as of curation, dates decide.

use std::collections::BTreeSet;

use chrono::{Datelike, Months, NaiveDate};
use serde::Serialize;

use super::{Cell, NO_LEGAL_STATUS, Value};

/// A cell as of a date.
#[derive(Debug, Clone, PartialEq)]
pub struct Governance<'a> {
    /// The value in force then, if any.
    pub current: Option<&'a Value>,
    /// Values still to come, by date, undated ones last.
    pub upcoming: Vec<&'a Value>,
}

impl<'a> Governance<'a> {
    /// The current value's threshold.
    pub fn threshold_ppb(&self) -> Option<f64> {
        self.current.and_then(|v| v.threshold_ppb)
    }

    /// The current value's legal status; none when no value governs the date.
    pub fn legal_status(&self) -> Option<&'a str> {
        self.current.map(|v| v.legal_status.as_str())
    }

    /// True where no governing threshold exists: a confirmed absence (legal status
    /// `none`) or no value in force at the date.
    pub fn coverage_gap(&self) -> bool {
        self.current
            .is_none_or(|v| v.legal_status == NO_LEGAL_STATUS)
    }
}

/// Statuses of values that are or were law: the candidates for `current` once effective.
/// `adopted` is law not yet effective, so it rolls into `current` on its date.
fn governs(status: &str) -> Option<u8> {
    // On one date an in-force value wins over a scheduled one, and both over a value the
    // timeline already marks as replaced (its window ends where the other begins).
    match status {
        "in_force" => Some(2),
        "adopted" => Some(1),
        "superseded" => Some(0),
        _ => None,
    }
}

/// Statuses of changes not yet law (the `status`).
fn pending(status: &str) -> bool {
    matches!(status, "proposed" | "draft" | "adopted")
}

/// `current` and `upcoming` of a cell as of `as_of`:
/// - only a confirmed value can be current (rule 1);
/// - current is the confirmed in-force, superseded or adopted value with the latest
///   `effective_from` on or before `as_of`: a superseded value governs from its date until the
///   next such value's date, and an adopted (scheduled) one from its own date (rule 2);
/// - upcoming are the proposed, draft and adopted values effective after `as_of` or undated,
///   and in-force values dated after it, whatever their confidence;
/// - withdrawn values are neither.
pub fn governance(cell: &Cell, as_of: NaiveDate) -> Governance<'_> {
    let current = cell
        .governance_timeline
        .iter()
        .enumerate()
        .filter(|(_, v)| v.is_confirmed())
        .filter_map(|(i, v)| {
            let rank = governs(&v.status)?;
            let date = v.effective_date().filter(|d| *d <= as_of)?;
            Some(((date, rank, i), v))
        })
        .max_by_key(|(key, _)| *key)
        .map(|(_, v)| v);
    let mut upcoming: Vec<&Value> = cell
        .governance_timeline
        .iter()
        .filter(|v| match v.effective_date() {
            Some(d) => d > as_of && (pending(&v.status) || v.status == "in_force"),
            None => pending(&v.status),
        })
        .collect();
    upcoming.sort_by_key(|v| date_order(v.effective_date()));
    Governance { current, upcoming }
}

/// Sort key: dated values by date, undated ones after all of them.
fn date_order(date: Option<NaiveDate>) -> (bool, Option<NaiveDate>) {
    (date.is_none(), date)
}

/// One entry of the change calendar.
#[derive(Debug, Clone, PartialEq)]
pub struct Change<'a> {
    pub cell: &'a Cell,
    pub value: &'a Value,
    pub effective_from: Option<NaiveDate>,
    /// Whole months from `as_of` to `effective_from`, rounded down; none when undated.
    pub months_until: Option<u32>,
}

/// The change calendar as of `as_of`: the proposed, draft and adopted values
/// effective after `as_of`, or undated, of the cells in `jurisdiction` (all when none) —
/// never a value in force, never a past one. With `before`, only dated changes effective on
/// or before it. Sorted by date, undated last; ties by jurisdiction, analyte, matrix.
pub fn calendar<'a>(
    cells: impl IntoIterator<Item = &'a Cell>,
    as_of: NaiveDate,
    before: Option<NaiveDate>,
    jurisdiction: Option<&str>,
) -> Vec<Change<'a>> {
    let mut changes: Vec<Change<'a>> = cells
        .into_iter()
        .filter(|c| jurisdiction.is_none_or(|j| c.jurisdiction == j))
        .flat_map(|cell| cell.governance_timeline.iter().map(move |v| (cell, v)))
        .filter(|(_, v)| pending(&v.status))
        .filter_map(|(cell, value)| {
            let date = value.effective_date();
            let ahead = date.is_none_or(|d| d > as_of);
            let within = before.is_none_or(|b| date.is_some_and(|d| d <= b));
            (ahead && within).then(|| Change {
                cell,
                value,
                effective_from: date,
                months_until: date.map(|d| months_between(as_of, d)),
            })
        })
        .collect();
    changes.sort_by(|a, b| {
        date_order(a.effective_from)
            .cmp(&date_order(b.effective_from))
            .then_with(|| a.cell.jurisdiction.cmp(&b.cell.jurisdiction))
            .then_with(|| a.cell.analyte.cmp(&b.cell.analyte))
            .then_with(|| a.cell.matrix.cmp(&b.cell.matrix))
    });
    changes
}

/// Whole calendar months from `from` to `to` (`to` after `from`), rounded down: the largest
/// n with `from` + n months on or before `to`, where a month after 31 January is the last
/// day of February.
fn months_between(from: NaiveDate, to: NaiveDate) -> u32 {
    let span = (to.year() - from.year()) * 12 + to.month() as i32 - from.month() as i32;
    let Ok(n) = u32::try_from(span) else {
        return 0;
    };
    match from.checked_add_months(Months::new(n)) {
        Some(d) if d <= to => n,
        _ => n.saturating_sub(1),
    }
}

/// The calendar's denominator: the cells it covers, their distinct analytes and
/// jurisdictions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Coverage {
    pub cells: usize,
    pub substances: usize,
    pub jurisdictions: usize,
}

/// Coverage of the cells in `jurisdiction` (all when none).
pub fn coverage<'a>(
    cells: impl IntoIterator<Item = &'a Cell>,
    jurisdiction: Option<&str>,
) -> Coverage {
    let mut count = 0;
    let mut substances = BTreeSet::new();
    let mut jurisdictions = BTreeSet::new();
    for c in cells
        .into_iter()
        .filter(|c| jurisdiction.is_none_or(|j| c.jurisdiction == j))
    {
        count += 1;
        substances.insert(c.analyte.as_str());
        jurisdictions.insert(c.jurisdiction.as_str());
    }
    Coverage {
        cells: count,
        substances: substances.len(),
        jurisdictions: jurisdictions.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(s: &str) -> NaiveDate {
        super::super::parse_date(s).expect("test date")
    }

    /// A value with what the rules read; the rest is filler.
    fn value(status: &str, effective_from: Option<&str>, confidence: &str, ppb: f64) -> Value {
        Value {
            threshold_ppb: Some(ppb),
            stated: None,
            legal_status: "binding_maximum".into(),
            status: status.into(),
            effective_from: effective_from.map(Into::into),
            compliance_deadline: None,
            confidence: confidence.into(),
            instrument: format!("instrument {ppb}"),
            source_ref: Some(format!("article {ppb}")),
            source: Some("src".into()),
            change_type: None,
            issuer: None,
            monograph: None,
        }
    }

    fn cell(jurisdiction: &str, analyte: &str, timeline: Vec<Value>) -> Cell {
        Cell {
            analyte: analyte.into(),
            matrix: "infant_formula".into(),
            jurisdiction: jurisdiction.into(),
            legal_status_note: None,
            governance_timeline: timeline,
        }
    }

    /// The fixture timeline, one value per lifecycle state, thresholds as labels:
    /// 50 until 2016, 20 from 2016, 10 from 2023 (in force), 5 adopted for 2030,
    /// 4 proposed undated, 3 draft for 2028 (announced), 2 withdrawn (2027),
    /// 1 adopted for 2029 but only announced, 7 in force from 2031 but uncertain.
    fn fixture() -> Cell {
        cell(
            "EU",
            "lead",
            vec![
                value("superseded", Some("2010-01-01"), "confirmed", 50.0),
                value("superseded", Some("2016-01-01"), "confirmed", 20.0),
                value("in_force", Some("2023-05-25"), "confirmed", 10.0),
                value("adopted", Some("2030-01-01"), "confirmed", 5.0),
                value("proposed", None, "announced", 4.0),
                value("draft", Some("2028-06-01"), "announced", 3.0),
                value("withdrawn", Some("2027-01-01"), "confirmed", 2.0),
                value("adopted", Some("2029-01-01"), "announced", 1.0),
                value("in_force", Some("2031-01-01"), "uncertain", 7.0),
            ],
        )
    }

    fn ppb(v: &Value) -> f64 {
        v.threshold_ppb.unwrap_or(f64::NAN)
    }

    #[test]
    fn current_and_upcoming_follow_spec_3() {
        let cell = fixture();
        // (as_of, current, upcoming in order)
        let table: &[(&str, Option<f64>, &[f64])] = &[
            // Before the first value: nothing governs; everything dated later is upcoming.
            ("2009-12-31", None, &[10.0, 3.0, 1.0, 5.0, 7.0, 4.0]),
            // On and after each transition the value then in force, superseded included.
            ("2010-01-01", Some(50.0), &[10.0, 3.0, 1.0, 5.0, 7.0, 4.0]),
            ("2015-12-31", Some(50.0), &[10.0, 3.0, 1.0, 5.0, 7.0, 4.0]),
            ("2016-01-01", Some(20.0), &[10.0, 3.0, 1.0, 5.0, 7.0, 4.0]),
            ("2023-05-24", Some(20.0), &[10.0, 3.0, 1.0, 5.0, 7.0, 4.0]),
            ("2023-05-25", Some(10.0), &[3.0, 1.0, 5.0, 7.0, 4.0]),
            // The withdrawn value is never current nor upcoming.
            ("2027-01-01", Some(10.0), &[3.0, 1.0, 5.0, 7.0, 4.0]),
            // A draft past its date is neither: not confirmed, not law.
            ("2028-06-01", Some(10.0), &[1.0, 5.0, 7.0, 4.0]),
            // An announced adoption past its date does not become current (rule 1).
            ("2029-06-01", Some(10.0), &[5.0, 7.0, 4.0]),
            // A confirmed scheduled change rolls into current on its date (rule 2).
            ("2029-12-31", Some(10.0), &[5.0, 7.0, 4.0]),
            ("2030-01-01", Some(5.0), &[7.0, 4.0]),
            // An unconfirmed in-force value never becomes current; once dated in the past it
            // is no longer upcoming either. The undated proposal stays upcoming, last.
            ("2031-01-01", Some(5.0), &[4.0]),
            ("2099-12-31", Some(5.0), &[4.0]),
        ];
        for (as_of, current, upcoming) in table {
            let g = governance(&cell, date(as_of));
            assert_eq!(g.current.map(ppb), *current, "current as of {as_of}");
            let got: Vec<f64> = g.upcoming.iter().map(|v| ppb(v)).collect();
            assert_eq!(&got, upcoming, "upcoming as of {as_of}");
        }
    }

    #[test]
    fn unconfirmed_values_are_never_current() {
        for confidence in ["announced", "uncertain", "Confirmed", ""] {
            for status in ["in_force", "adopted", "superseded", "proposed", "draft"] {
                let cell = cell(
                    "US",
                    "lead",
                    vec![value(status, Some("2020-01-01"), confidence, 1.0)],
                );
                for as_of in ["2019-01-01", "2020-01-01", "2040-01-01"] {
                    let g = governance(&cell, date(as_of));
                    assert_eq!(g.current, None, "{status}/{confidence} as of {as_of}");
                }
            }
        }
    }

    #[test]
    fn confirmed_proposals_and_drafts_are_never_current() {
        for status in ["proposed", "draft", "withdrawn"] {
            let cell = cell(
                "US",
                "lead",
                vec![value(status, Some("2020-01-01"), "confirmed", 1.0)],
            );
            assert_eq!(
                governance(&cell, date("2021-01-01")).current,
                None,
                "{status}"
            );
        }
    }

    #[test]
    fn withdrawn_values_are_neither_current_nor_upcoming() {
        let cell = cell(
            "US",
            "lead",
            vec![
                value("in_force", Some("2020-01-01"), "confirmed", 10.0),
                value("withdrawn", Some("2030-01-01"), "confirmed", 5.0),
                value("withdrawn", None, "announced", 4.0),
            ],
        );
        for as_of in ["2019-01-01", "2025-01-01", "2035-01-01"] {
            let g = governance(&cell, date(as_of));
            assert!(g.current.is_none_or(|v| v.status != "withdrawn"), "{as_of}");
            assert!(
                g.upcoming.iter().all(|v| v.status != "withdrawn"),
                "{as_of}"
            );
        }
        assert!(calendar([&cell], date("2019-01-01"), None, None).is_empty());
    }

    #[test]
    fn cell_level_fields_come_from_the_current_value() {
        let mut absence = value("in_force", Some("2020-01-01"), "confirmed", 0.0);
        absence.threshold_ppb = None;
        absence.legal_status = "none".into();
        let cell = cell(
            "EU",
            "mercury",
            vec![
                value("superseded", Some("2010-01-01"), "confirmed", 1.0),
                absence,
            ],
        );
        let before = governance(&cell, date("2009-01-01"));
        assert_eq!(
            (
                before.threshold_ppb(),
                before.legal_status(),
                before.coverage_gap()
            ),
            (None, None, true)
        );
        let limited = governance(&cell, date("2015-01-01"));
        assert_eq!(
            (
                limited.threshold_ppb(),
                limited.legal_status(),
                limited.coverage_gap()
            ),
            (Some(1.0), Some("binding_maximum"), false)
        );
        let absent = governance(&cell, date("2021-01-01"));
        assert_eq!(
            (
                absent.threshold_ppb(),
                absent.legal_status(),
                absent.coverage_gap()
            ),
            (None, Some("none"), true)
        );
    }

    #[test]
    fn on_one_date_the_in_force_value_wins() {
        let cell = cell(
            "EU",
            "lead",
            vec![
                value("in_force", Some("2020-01-01"), "confirmed", 2.0),
                value("superseded", Some("2020-01-01"), "confirmed", 3.0),
            ],
        );
        let g = governance(&cell, date("2020-01-01"));
        assert_eq!(g.current.map(ppb), Some(2.0));
    }

    fn labels(changes: &[Change<'_>]) -> Vec<f64> {
        changes.iter().map(|c| ppb(c.value)).collect()
    }

    #[test]
    fn the_calendar_is_forward_looking_and_never_lists_in_force_values() {
        let cell = fixture();
        // (as_of, before, entries in order)
        let table: &[(&str, Option<&str>, &[f64])] = &[
            // The 2023 and 2031 in-force values are dated after as_of, still never listed;
            // the withdrawn one neither; the undated proposal last.
            ("2020-01-01", None, &[3.0, 1.0, 5.0, 4.0]),
            ("2028-06-01", None, &[1.0, 5.0, 4.0]),
            // The adopted 2030 value is in force from its date: no longer a change.
            ("2030-01-01", None, &[4.0]),
            // `before` keeps dated changes on or before it and drops undated ones.
            ("2020-01-01", Some("2029-01-01"), &[3.0, 1.0]),
            ("2020-01-01", Some("2028-05-31"), &[]),
            ("2020-01-01", Some("2099-01-01"), &[3.0, 1.0, 5.0]),
        ];
        for (as_of, before, expected) in table {
            let changes = calendar([&cell], date(as_of), before.map(date), None);
            assert_eq!(
                &labels(&changes),
                expected,
                "as of {as_of} before {before:?}"
            );
            for c in &changes {
                assert_ne!(c.value.status, "in_force");
                assert!(c.effective_from.is_none_or(|d| d > date(as_of)));
            }
        }
    }

    #[test]
    fn calendar_months_dates_and_jurisdiction() {
        let eu = fixture();
        let us = cell(
            "US",
            "cadmium",
            vec![
                value("in_force", Some("2020-01-01"), "confirmed", 10.0),
                value("adopted", Some("2028-06-01"), "confirmed", 8.0),
            ],
        );
        let changes = calendar([&us, &eu], date("2026-11-21"), None, None);
        let shown: Vec<(Option<NaiveDate>, &str, Option<u32>)> = changes
            .iter()
            .map(|c| {
                (
                    c.effective_from,
                    c.cell.jurisdiction.as_str(),
                    c.months_until,
                )
            })
            .collect();
        assert_eq!(
            shown,
            vec![
                // Same date: by jurisdiction.
                (Some(date("2028-06-01")), "EU", Some(18)),
                (Some(date("2028-06-01")), "US", Some(18)),
                (Some(date("2029-01-01")), "EU", Some(25)),
                (Some(date("2030-01-01")), "EU", Some(37)),
                (None, "EU", None),
            ]
        );
        let us_only = calendar([&us, &eu], date("2026-11-21"), None, Some("US"));
        assert_eq!(labels(&us_only), vec![8.0]);
        assert_eq!(
            coverage([&us, &eu], None),
            Coverage {
                cells: 2,
                substances: 2,
                jurisdictions: 2
            }
        );
        assert_eq!(
            coverage([&us, &eu], Some("EU")),
            Coverage {
                cells: 1,
                substances: 1,
                jurisdictions: 1
            }
        );
    }

    #[test]
    fn months_are_whole_and_rounded_down() {
        let table = [
            ("2026-11-21", "2026-11-22", 0),
            ("2026-11-21", "2026-12-20", 0),
            ("2026-11-21", "2026-12-21", 1),
            ("2026-11-21", "2027-11-01", 11),
            ("2026-01-31", "2026-02-27", 0),
            ("2026-01-31", "2026-02-28", 1),
            ("2024-02-29", "2025-02-28", 12),
            ("2000-01-01", "9999-12-31", 95_999),
        ];
        for (from, to, months) in table {
            assert_eq!(
                months_between(date(from), date(to)),
                months,
                "{from} -> {to}"
            );
        }
    }
}
