//! The dose-response section of a one-context comparison: oral LD50s, NOAELs, RfDs and oral
//! guidance values per compound, and the ratios of comparable values.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::value::RawValue;

use super::compared::{Compared, InOrder};
use super::profile::written;
use crate::model::ids::CompoundId;
use crate::model::record::{CompoundRecord, DoseValue};
use crate::model::vocab::DoseKind;

#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct Dose<'a> {
    kind: DoseKind,
    value: f64,
    unit: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    qualifier: Option<&'a str>,
    agency: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    year: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    species: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    route: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    population: Option<&'a str>,
    source: &'a str,
}

impl<'a> Dose<'a> {
    fn of(d: &'a DoseValue) -> Dose<'a> {
        Dose {
            kind: d.kind,
            value: d.value,
            unit: &d.unit,
            qualifier: d.qualifier.as_deref(),
            agency: &d.agency,
            year: d.year,
            species: d.species.as_deref(),
            route: d.route.as_deref(),
            population: d.population.as_deref(),
            source: &d.source,
        }
    }
}

/// The first compound's value over the second's, for the same species and unit (the lowest
/// value of each, the most sensitive result).
#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct Ratio<'a> {
    pub(super) first: &'a CompoundId,
    pub(super) second: &'a CompoundId,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) species: Option<&'a str>,
    unit: &'a str,
    pub(super) ratio: f64,
}

/// Per compound its values of one kind, or null where it has none.
type DoseTable<'a> = InOrder<&'a CompoundId, Option<&'a RawValue>>;
/// What a `DoseTable` holds, as its schema says: the values were written from these.
type DoseTableSchema<'a> = InOrder<&'a str, Option<Vec<Dose<'a>>>>;

/// One compound's values of each table, written once (`profile`), each `None` where it has
/// none.
#[derive(Debug, Clone)]
pub(super) struct Tables {
    ld50_oral: Option<Box<RawValue>>,
    noael: Option<Box<RawValue>>,
    rfd: Option<Box<RawValue>>,
    guidance_values: Option<Box<RawValue>>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct DoseComparison<'a> {
    #[schemars(with = "DoseTableSchema<'a>")]
    ld50_oral: DoseTable<'a>,
    pub(super) ld50_ratios: Option<Vec<Ratio<'a>>>,
    #[schemars(with = "DoseTableSchema<'a>")]
    noael: DoseTable<'a>,
    noael_ratios: Option<Vec<Ratio<'a>>>,
    #[schemars(with = "DoseTableSchema<'a>")]
    rfd: DoseTable<'a>,
    /// Oral health-based guidance values (ADI, TDI, TWI, ARfD): each agency's latest of each.
    #[schemars(with = "DoseTableSchema<'a>")]
    pub(super) guidance_values: DoseTable<'a>,
}

fn is_oral(d: &DoseValue) -> bool {
    d.route
        .as_deref()
        .is_some_and(|r| r.to_ascii_lowercase().contains("oral"))
}

fn ld50(d: &DoseValue) -> bool {
    d.kind == DoseKind::Ld50 && is_oral(d) && d.species.is_some()
}

fn noael(d: &DoseValue) -> bool {
    d.kind == DoseKind::NoaelReference
}

fn rfd(d: &DoseValue) -> bool {
    d.kind == DoseKind::Rfd
}

fn guidance(k: DoseKind) -> bool {
    matches!(
        k,
        DoseKind::Adi | DoseKind::Tdi | DoseKind::Twi | DoseKind::Arfd
    )
}

/// The record's values that `keep` takes, written, or `None` when there are none.
fn table(record: &CompoundRecord, keep: fn(&DoseValue) -> bool) -> Option<Box<RawValue>> {
    let found: Vec<Dose<'_>> = record
        .dose_response
        .iter()
        .filter(|d| keep(d))
        .map(Dose::of)
        .collect();
    (!found.is_empty()).then(|| written(&found))
}

impl Tables {
    pub(super) fn of(record: &CompoundRecord) -> Tables {
        // Each agency's latest evaluation of each kind: later ones supersede earlier.
        let mut latest: BTreeMap<(&str, DoseKind), &DoseValue> = BTreeMap::new();
        for d in record.dose_response.iter().filter(|d| guidance(d.kind)) {
            let slot = latest.entry((d.agency.as_str(), d.kind)).or_insert(d);
            if d.year > slot.year {
                *slot = d;
            }
        }
        Tables {
            ld50_oral: table(record, ld50),
            noael: table(record, noael),
            rfd: table(record, rfd),
            guidance_values: (!latest.is_empty())
                .then(|| written(&latest.into_values().map(Dose::of).collect::<Vec<_>>())),
        }
    }
}

/// Ratios of the lowest values of each pair, per species and unit both have; null when no
/// pair has a common species and unit.
fn ratios<'a>(
    all: &'a [Compared<'a>],
    keep: impl Fn(&DoseValue) -> bool,
) -> Option<Vec<Ratio<'a>>> {
    type Key<'k> = (Option<&'k str>, &'k str);
    let lowest: Vec<BTreeMap<Key<'a>, f64>> = all
        .iter()
        .map(|c| {
            let mut m: BTreeMap<Key<'a>, f64> = BTreeMap::new();
            for d in c.record.dose_response.iter().filter(|d| keep(d)) {
                let v = m
                    .entry((d.species.as_deref(), d.unit.as_str()))
                    .or_insert(d.value);
                *v = v.min(d.value);
            }
            m
        })
        .collect();
    let mut out = Vec::new();
    for (i, a) in all.iter().enumerate() {
        for (j, b) in all.iter().enumerate().skip(i + 1) {
            for (key, va) in &lowest[i] {
                if let Some(vb) = lowest[j].get(key)
                    && *vb > 0.0
                    && (va / vb).is_finite()
                {
                    out.push(Ratio {
                        first: a.id(),
                        second: b.id(),
                        species: key.0,
                        unit: key.1,
                        ratio: significant(va / vb),
                    });
                }
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// `v` (positive, finite) to 4 significant digits.
fn significant(v: f64) -> f64 {
    let scale = 10f64.powi(3 - v.log10().floor() as i32);
    let rounded = (v * scale).round() / scale;
    // At the ends of the f64 range the scale overflows: keep the value as it is.
    if rounded.is_finite() { rounded } else { v }
}

pub(super) fn dose_response<'a>(all: &'a [Compared<'a>]) -> DoseComparison<'a> {
    DoseComparison {
        ld50_oral: Compared::each(all, |c| c.profile.doses.ld50_oral.as_deref()),
        ld50_ratios: ratios(all, ld50),
        noael: Compared::each(all, |c| c.profile.doses.noael.as_deref()),
        noael_ratios: ratios(all, noael),
        rfd: Compared::each(all, |c| c.profile.doses.rfd.as_deref()),
        guidance_values: Compared::each(all, |c| c.profile.doses.guidance_values.as_deref()),
    }
}
