//! One live call per question. A record gathers calls from several editions and overlays (the
//! 2020 IARC list and a later monograph; OpenFoodTox's history of an intake value and a newer
//! opinion); when the dataset is loaded, each call that a later one of the same agency replaced
//! is marked `superseded`, naming what replaced it. Superseded calls stay visible as history and
//! never reach a tier. The rules, in data/README.md "Lifecycle":
//!
//! - IARC: the classification whose source is the live `listings.iarc_group`'s is current; every
//!   other IARC classification of the record is superseded by it.
//! - EFSA health-based guidance values: within one question (chronic intake: ADI, TDI and TWI
//!   together; acute reference dose; upper level) and one population (the general population
//!   under either of its names), the values of the newest year are current and older ones are
//!   superseded by the newest's reference.

use crate::model::record::{CompoundRecord, DoseValue, Lifecycle};
use crate::model::vocab::DoseKind;

/// Marks every replaced call of `record`.
pub fn resolve(record: &mut CompoundRecord) {
    iarc(record);
    efsa(record);
}

fn iarc(record: &mut CompoundRecord) {
    let Some(live) = record
        .regulatory
        .listings
        .iarc_group
        .as_ref()
        .map(|l| l.source.clone())
    else {
        return;
    };
    let iarc = |c: &&mut crate::model::record::Classification| c.agency == "IARC";
    if !record
        .regulatory
        .classifications
        .iter_mut()
        .filter(iarc)
        .any(|c| c.source == live)
    {
        return;
    }
    for c in record.regulatory.classifications.iter_mut().filter(iarc) {
        if c.source != live {
            c.status = Some(Lifecycle::Superseded);
            c.superseded_by = Some(live.clone());
        }
    }
}

/// The question a guidance value answers, for values that replace one another.
fn question(kind: DoseKind) -> Option<&'static str> {
    match kind {
        DoseKind::Adi | DoseKind::Tdi | DoseKind::Twi => Some("chronic intake"),
        DoseKind::Arfd => Some("acute reference dose"),
        DoseKind::Ul => Some("upper level"),
        _ => None,
    }
}

/// The population a value is for, with the names the sources give the general population
/// ("Consumers" in OpenFoodTox, "general population" in the curated opinions) made one.
fn population(d: &DoseValue) -> String {
    match d.population.as_deref().map(str::to_lowercase) {
        None => "consumers".into(),
        Some(p) if p == "general population" => "consumers".into(),
        Some(p) => p,
    }
}

fn efsa(record: &mut CompoundRecord) {
    let key = |d: &DoseValue| {
        (d.agency == "EFSA")
            .then(|| question(d.kind))
            .flatten()
            .map(|q| (q, population(d)))
    };
    let keys: Vec<_> = record.dose_response.iter().map(key).collect();
    for (i, k) in keys.iter().enumerate() {
        let Some(k) = k else { continue };
        let year = record.dose_response[i].year;
        let newest = keys
            .iter()
            .zip(&record.dose_response)
            .filter(|(other, _)| other.as_ref() == Some(k))
            .map(|(_, d)| d)
            .max_by_key(|d| d.year);
        let Some(newest) = newest else { continue };
        if newest.year > year {
            let by = newest
                .reference
                .clone()
                .unwrap_or_else(|| newest.source.clone());
            let d = &mut record.dose_response[i];
            d.status = Some(Lifecycle::Superseded);
            d.superseded_by = Some(by);
        }
    }
}
