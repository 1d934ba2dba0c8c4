//! `GET /api/regulatory-status`, keyed, so never publicly cached: the matching
//! cells with their governance as of a date, or with `view=calendar` the
//! forward calendar of changes and its coverage. Wire types live here; the typed query in
//! `query.rs`, the vocabularies it takes (`GET /api/regulatory-status/vocabulary`) in
//! `vocabulary.rs`.

mod query;
mod scheduled;
pub mod vocabulary;

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde::Serialize;
use serde_json::value::RawValue;

pub use query::RegulatoryStatusQuery;

use super::openapi_schemas::nullable;
use super::{Cache, Rendered};
use crate::model::ids::CompoundId;
use crate::model::record::CompoundRecord;
use crate::model::regulatory_status::governance::{self, Change, Coverage};
use crate::model::regulatory_status::{CHANGE_TYPES, CONFIDENCES, LEGAL_STATUSES, STATUSES};
use crate::model::regulatory_status::{Cell, LoadedFile, RegulatoryStatus, Value};

impl RegulatoryStatusQuery<'_> {
    /// Analyte and matrix (the calendar applies the jurisdiction itself).
    fn keeps(&self, cell: &Cell) -> bool {
        self.analytes
            .as_ref()
            .is_none_or(|a| a.contains(&cell.analyte.as_str()))
            && self.matrix.is_none_or(|m| cell.matrix == m)
    }
}

#[derive(Serialize, schemars::JsonSchema)]
struct ValueOut<'a> {
    threshold_ppb: Option<f64>,
    stated: Option<&'a str>,
    #[schemars(extend("enum" = LEGAL_STATUSES))]
    legal_status: &'a str,
    #[schemars(extend("enum" = STATUSES))]
    status: &'a str,
    #[schemars(extend("format" = "date"))]
    effective_from: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(extend("format" = "date"))]
    compliance_deadline: Option<&'a str>,
    #[schemars(extend("enum" = CONFIDENCES))]
    confidence: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = nullable(&CHANGE_TYPES)))]
    change_type: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    issuer: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    monograph: Option<&'a str>,
    instrument: &'a str,
    source_ref: Option<&'a str>,
    source: Option<&'a str>,
    /// Where the cited source is published.
    source_url: Option<&'a str>,
}

fn source_url<'a>(file: &'a LoadedFile, v: &Value) -> Option<&'a str> {
    let id = v.source.as_deref()?;
    file.content
        .sources
        .iter()
        .find(|s| s.id == id)
        .map(|s| s.url.as_str())
}

fn value_out<'a>(file: &'a LoadedFile, v: &'a Value) -> ValueOut<'a> {
    ValueOut {
        threshold_ppb: v.threshold_ppb,
        stated: v.stated.as_deref(),
        legal_status: &v.legal_status,
        status: &v.status,
        effective_from: v.effective_from.as_deref(),
        compliance_deadline: v.compliance_deadline.as_deref(),
        confidence: &v.confidence,
        change_type: v.change_type.as_deref(),
        issuer: v.issuer.as_deref(),
        monograph: v.monograph.as_deref(),
        instrument: &v.instrument,
        source_ref: v.source_ref.as_deref(),
        source: v.source.as_deref(),
        source_url: source_url(file, v),
    }
}

/// Every value's JSON, by file, cell and value (`RegulatoryStatus::written`): a value's
/// answer does not depend on the date or the query, so it is written once per layer.
fn written(rs: &RegulatoryStatus) -> &[Vec<Vec<Box<RawValue>>>] {
    rs.written.get_or_init(|| {
        rs.files
            .iter()
            .map(|file| {
                let cells = file.content.cells.iter();
                cells
                    .map(|cell| {
                        let values = cell.governance_timeline.iter();
                        values
                            .map(|v| {
                                serde_json::value::to_raw_value(&value_out(file, v))
                                    .expect("response types serialize")
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect()
    })
}

#[derive(Serialize, schemars::JsonSchema)]
struct GovernanceOut<'a> {
    /// The value that governs the date, if any.
    #[schemars(with = "Option<ValueOut<'static>>")]
    current: Option<&'a RawValue>,
    /// Values in force after the date, in timeline order.
    #[schemars(with = "Vec<ValueOut<'static>>")]
    upcoming: Vec<&'a RawValue>,
}

#[derive(Serialize, schemars::JsonSchema)]
struct CellOut<'a> {
    analyte: &'a str,
    matrix: &'a str,
    jurisdiction: &'a str,
    /// Of the current value.
    threshold_ppb: Option<f64>,
    /// Of the current value; null when none governs the date.
    #[schemars(extend("enum" = nullable(&LEGAL_STATUSES)))]
    legal_status: Option<&'a str>,
    coverage_gap: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = nullable(&CHANGE_TYPES)))]
    change_type: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    legal_status_note: Option<&'a str>,
    /// Every value of the cell, past, current and future, in timeline order.
    #[schemars(with = "Vec<ValueOut<'static>>")]
    governance_timeline: &'a [Box<RawValue>],
    governance: GovernanceOut<'a>,
}

/// The cells as of a date.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct CellsBody<'a> {
    #[schemars(extend("format" = "date"))]
    as_of: String,
    dataset_version: &'a str,
    /// The analyte ids `analyte` resolved to (a CAS number or compound id may name several,
    /// or none); absent without `analyte`.
    #[serde(skip_serializing_if = "Option::is_none")]
    analytes: Option<&'a [&'a str]>,
    count: usize,
    results: Vec<CellOut<'a>>,
}

/// A cell as of `as_of`, its values' JSON taken from `values` (the cell's, in timeline order).
fn cell_out<'a>(cell: &'a Cell, values: &'a [Box<RawValue>], as_of: NaiveDate) -> CellOut<'a> {
    let g = governance::governance(cell, as_of);
    let written = |v: &Value| -> &'a RawValue {
        let at = cell
            .governance_timeline
            .iter()
            .position(|t| std::ptr::eq(t, v))
            .expect("governance picks among the cell's own values");
        &values[at]
    };
    CellOut {
        analyte: &cell.analyte,
        matrix: &cell.matrix,
        jurisdiction: &cell.jurisdiction,
        threshold_ppb: g.threshold_ppb(),
        legal_status: g.legal_status(),
        coverage_gap: g.coverage_gap(),
        change_type: cell.change_type(),
        legal_status_note: cell.legal_status_note.as_deref(),
        governance_timeline: values,
        governance: GovernanceOut {
            current: g.current.map(written),
            upcoming: g.upcoming.into_iter().map(written).collect(),
        },
    }
}

#[derive(Serialize, schemars::JsonSchema)]
struct ChangeOut<'a> {
    analyte: &'a str,
    matrix: &'a str,
    jurisdiction: &'a str,
    #[schemars(extend("enum" = STATUSES))]
    status: &'a str,
    #[schemars(extend("enum" = CONFIDENCES))]
    confidence: &'a str,
    #[schemars(extend("format" = "date"))]
    effective_from: Option<&'a str>,
    #[schemars(extend("format" = "date"))]
    compliance_deadline: Option<&'a str>,
    months_until: Option<u32>,
    threshold_ppb: Option<f64>,
    stated: Option<&'a str>,
    #[schemars(extend("enum" = LEGAL_STATUSES))]
    legal_status: &'a str,
    instrument: &'a str,
    source_ref: Option<&'a str>,
    source: Option<&'a str>,
    source_url: Option<&'a str>,
}

/// `view=calendar`: the changes ahead and what the calendar covers.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct CalendarBody<'a> {
    #[schemars(extend("format" = "date"))]
    as_of: String,
    dataset_version: &'a str,
    #[schemars(extend("format" = "date"))]
    before: Option<String>,
    changes: Vec<ChangeOut<'a>>,
    /// Compounds' classification changes effective after `as_of` (and on or before `before`):
    /// adopted EU CLP entries before their ATP's date of application, Prop 65 listings with a
    /// later listing date (`scheduled`, data/README.md "Dates").
    classification_changes: Vec<scheduled::Scheduled<'a>>,
    coverage: Coverage,
}

/// The cells as of a date, or with `view=calendar` the changes ahead (untagged: each form has
/// its own fields).
#[derive(Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub(crate) enum RegulatoryStatusBody<'a> {
    Cells(CellsBody<'a>),
    Calendar(CalendarBody<'a>),
}

/// `GET /api/regulatory-status?analyte=&matrix=&listing=&jurisdiction=&as_of=&view=&before=`:
/// filters combined with AND. Cells in file order (files in path order); calendar changes by
/// date, undated last.
pub fn regulatory_status(
    rs: &RegulatoryStatus,
    compounds: &BTreeMap<CompoundId, CompoundRecord>,
    filter: &RegulatoryStatusQuery<'_>,
) -> Rendered {
    if filter.calendar {
        let cells: Vec<(&LoadedFile, &Cell)> = rs
            .files
            .iter()
            .flat_map(|f| f.content.cells.iter().map(move |c| (f, c)))
            .filter(|(_, c)| filter.keeps(c))
            .collect();
        calendar(rs, compounds, filter, &cells)
    } else {
        let written = written(rs);
        let results: Vec<CellOut<'_>> = rs
            .files
            .iter()
            .zip(written)
            .flat_map(|(f, values)| f.content.cells.iter().zip(values))
            .filter(|(c, _)| {
                filter.keeps(c) && filter.jurisdiction.is_none_or(|j| c.jurisdiction == j)
            })
            .map(|(c, values)| cell_out(c, values, filter.as_of))
            .collect();
        let body = CellsBody {
            as_of: filter.as_of.to_string(),
            dataset_version: &rs.dataset_version,
            analytes: filter.analytes.as_deref(),
            count: results.len(),
            results,
        };
        Rendered::json(200, &RegulatoryStatusBody::Cells(body), Cache::Private)
    }
}

fn calendar<'a>(
    rs: &'a RegulatoryStatus,
    compounds: &'a BTreeMap<CompoundId, CompoundRecord>,
    filter: &RegulatoryStatusQuery<'_>,
    cells: &[(&'a LoadedFile, &'a Cell)],
) -> Rendered {
    let changes = governance::calendar(
        cells.iter().map(|(_, c)| *c),
        filter.as_of,
        filter.before,
        filter.jurisdiction,
    );
    // A value's source id is defined in its own cell's file.
    let file_of = |cell: &Cell| {
        cells
            .iter()
            .find(|(_, c)| std::ptr::eq(*c, cell))
            .map(|(f, _)| *f)
    };
    let changes = changes
        .into_iter()
        .map(|ch: Change<'_>| {
            let v = ch.value;
            ChangeOut {
                analyte: &ch.cell.analyte,
                matrix: &ch.cell.matrix,
                jurisdiction: &ch.cell.jurisdiction,
                status: &v.status,
                confidence: &v.confidence,
                effective_from: v.effective_from.as_deref(),
                compliance_deadline: v.compliance_deadline.as_deref(),
                months_until: ch.months_until,
                threshold_ppb: v.threshold_ppb,
                stated: v.stated.as_deref(),
                legal_status: &v.legal_status,
                instrument: &v.instrument,
                source_ref: v.source_ref.as_deref(),
                source: v.source.as_deref(),
                source_url: file_of(ch.cell).and_then(|f| source_url(f, v)),
            }
        })
        .collect();
    let body = CalendarBody {
        as_of: filter.as_of.to_string(),
        dataset_version: &rs.dataset_version,
        before: filter.before.map(|d| d.to_string()),
        changes,
        classification_changes: if filter.analytes.is_none() && filter.matrix.is_none() {
            scheduled::scheduled(compounds, filter.as_of, filter.before, filter.jurisdiction)
        } else {
            Vec::new()
        },
        coverage: governance::coverage(cells.iter().map(|(_, c)| *c), filter.jurisdiction),
    };
    Rendered::json(200, &RegulatoryStatusBody::Calendar(body), Cache::Private)
}

#[cfg(test)]
mod tests;
