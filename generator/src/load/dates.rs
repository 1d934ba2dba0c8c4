//! Dates every classification, listing and reference value from its instrument, after the
//! lifecycle has marked what replaced what (data/README.md "Dates"):
//!
//! - EU CLP Annex VI: the date of application of the ATP that last changed the entry (the
//!   table's `atp` code, or the curated ATP's source), or the entry's own `applies_from`;
//! - IARC, Prop 65, SVHC: the call's publication, listing or inclusion date, else its year;
//! - EFSA and other reference values: the opinion's year;
//! - `effective_until`: the `effective_from` of the value that replaced it (for a current EU
//!   entry, of the adopted ATP that will), or the day the judgment that annulled it took
//!   effect (set by the curated file, `Ended::effective_until`).
//!
//! A value no source dates gets none of the fields.

use crate::model::dating::{DatePrecision, Stated, atp_application};
use crate::model::record::{CompoundRecord, Lifecycle};

/// Sets `effective_from`, `date_precision` and `effective_until` on every value of `record`:
/// GHS entries first, as the EU CLP classifications take their dates.
pub fn resolve(record: &mut CompoundRecord) {
    date_ghs(record);
    date_classifications(record);
    date_reference_values(record);
    date_listings(record);
}

fn date_ghs(record: &mut CompoundRecord) {
    for g in &mut record.safety.ghs {
        let stated = match (&g.applies_from, g.jurisdiction.as_str()) {
            (Some(d), _) => stated(d),
            (None, "EU") => atp_code(g.edition.as_deref(), &g.source)
                .and_then(|c| atp_application(&c))
                .and_then(stated),
            _ => None,
        };
        (g.effective_from, g.date_precision) = split(stated);
    }
    let ghs = record.safety.ghs.clone();
    // An own EU entry an adopted ATP will replace ends on that ATP's date of application.
    let scheduled = ghs
        .iter()
        .filter(|g| g.jurisdiction == "EU" && g.via.is_none())
        .filter(|g| g.status == Some(Lifecycle::Pending))
        .filter_map(|g| g.effective_from.clone())
        .min();
    for g in &mut record.safety.ghs {
        if g.effective_until.is_some() {
            continue;
        }
        g.effective_until = match g.status {
            Some(Lifecycle::Superseded) if g.jurisdiction == "EU" => next(
                g.effective_from.as_deref(),
                ghs.iter()
                    .filter(|n| n.jurisdiction == "EU" && n.via.is_none())
                    .filter(|n| n.source != g.source && n.status != Some(Lifecycle::Pending))
                    .map(|n| n.effective_from.as_deref()),
            ),
            Some(Lifecycle::Superseded) => ghs
                .iter()
                .find(|n| Some(&n.source) == g.superseded_by.as_ref() && n.is_current())
                .and_then(|n| n.effective_from.clone()),
            None if g.jurisdiction == "EU" && g.via.is_none() => scheduled.clone(),
            _ => None,
        };
    }
}

fn date_classifications(record: &mut CompoundRecord) {
    let ghs = record.safety.ghs.clone();
    for c in &mut record.regulatory.classifications {
        let stated = if let Some(d) = &c.applies_from {
            stated(d)
        } else if c.attribution == "EU CLP Annex VI" {
            ghs.iter()
                .find(|g| g.jurisdiction == "EU" && g.source == c.source)
                .and_then(|g| g.effective_from.as_deref())
                .and_then(Stated::parse)
        } else if let Some(d) = &c.date {
            stated(d)
        } else {
            c.year.and_then(|y| stated(&y.to_string()))
        };
        (c.effective_from, c.date_precision) = split(stated);
    }
    let calls = record.regulatory.classifications.clone();
    for c in &mut record.regulatory.classifications {
        c.effective_until = match c.status {
            Some(Lifecycle::Superseded) if c.agency == "IARC" => next(
                c.effective_from.as_deref(),
                calls
                    .iter()
                    .filter(|n| n.agency == "IARC" && n.qualifier.is_none())
                    .map(|n| n.effective_from.as_deref()),
            ),
            _ if c.attribution == "EU CLP Annex VI" && c.status != Some(Lifecycle::Pending) => ghs
                .iter()
                .find(|g| g.source == c.source && g.jurisdiction == "EU")
                .and_then(|g| g.effective_until.clone()),
            _ => None,
        };
    }
}

fn date_reference_values(record: &mut CompoundRecord) {
    for d in &mut record.dose_response {
        (d.effective_from, d.date_precision) = split(d.year.and_then(|y| stated(&y.to_string())));
    }
    let doses = record.dose_response.clone();
    for d in &mut record.dose_response {
        if d.status == Some(Lifecycle::Superseded) {
            d.effective_until = next(
                d.effective_from.as_deref(),
                doses
                    .iter()
                    .filter(|n| n.efsa_question() == d.efsa_question())
                    .map(|n| n.effective_from.as_deref()),
            );
        }
    }
}

/// The listings, an IARC listing from the call it restates.
fn date_listings(record: &mut CompoundRecord) {
    let calls = &record.regulatory.classifications;
    let listings = &mut record.regulatory.listings;
    if let Some(l) = &mut listings.iarc_group {
        let call = calls
            .iter()
            .find(|c| c.agency == "IARC" && c.source == l.source && c.qualifier == l.qualifier);
        (l.effective_from, l.date_precision) = match call {
            Some(c) => (c.effective_from.clone(), c.date_precision),
            None => split(l.year.and_then(|y| stated(&y.to_string()))),
        };
    }
    for p in &mut listings.prop65 {
        (p.effective_from, p.date_precision) = split(stated(&p.date_listed));
    }
    if let Some(s) = &mut listings.eu_svhc {
        (s.effective_from, s.date_precision) = split(stated(&s.date_of_inclusion));
    }
}

/// The earliest of `others` dated after `own`: when the next value of the same question came
/// into force. The lifecycle names the newest value as the one that replaced every older one;
/// each older value's period ends where the next one's begins, so periods never overlap.
fn next<'a>(own: Option<&str>, others: impl Iterator<Item = Option<&'a str>>) -> Option<String> {
    let own = Stated::parse(own?)?.in_force_from();
    others
        .flatten()
        .filter_map(|o| Some((Stated::parse(o)?.in_force_from(), o)))
        .filter(|(d, _)| *d > own)
        .min()
        .map(|(_, o)| o.to_string())
}

fn stated(text: &str) -> Option<Stated> {
    Stated::parse(text)
}

/// The stored form of a stated date: the text at its precision, and the precision.
fn split(stated: Option<Stated>) -> (Option<String>, Option<DatePrecision>) {
    let Some(s) = stated else {
        return (None, None);
    };
    let text = match s.precision {
        DatePrecision::Day => s.first.format("%Y-%m-%d"),
        DatePrecision::Month => s.first.format("%Y-%m"),
        DatePrecision::Year => s.first.format("%Y"),
    };
    (Some(text.to_string()), Some(s.precision))
}

/// The ATP that last changed an EU entry: the last code of its edition ("CLP00/ATP09" ->
/// "ATP09"), or the ATP of a curated entry's source ("eu-clp-atp22" -> "ATP22").
fn atp_code(edition: Option<&str>, source: &str) -> Option<String> {
    if let Some(n) = source
        .strip_prefix("eu-clp-atp")
        .and_then(|n| n.parse::<u32>().ok())
        && n > 17
    {
        return Some(format!("ATP{n:02}"));
    }
    edition
        .and_then(|e| e.rsplit('/').next())
        .map(str::to_string)
}
