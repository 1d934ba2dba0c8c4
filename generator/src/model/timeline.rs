//! Every dated change of a compound's classifications and reference values, oldest first
//! (`GET /api/compound/{id}/timeline`, data/README.md "Dates"): a value came into force
//! (`added`, or `changed` when it replaced an earlier value of the same question), is
//! `scheduled` to (a date after today), or ended (`superseded`, `annulled`), each with its
//! source. The EU CLP entries stand for their mirrored classifications; the listings are
//! mirrored by classifications too, so neither is counted twice.

use chrono::NaiveDate;
use serde::Serialize;

use super::dating::{DatePrecision, STATED_DATE, Stated};
use super::record::{CompoundRecord, Lifecycle};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    Added,
    Changed,
    Scheduled,
    Superseded,
    Annulled,
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Event {
    #[schemars(pattern(STATED_DATE))]
    pub date: String,
    pub date_precision: DatePrecision,
    pub change: Change,
    /// `classification`, `eu_clp` or `reference_value`.
    #[schemars(extend("enum" = ["classification", "eu_clp", "reference_value"]))]
    pub subject: &'static str,
    pub agency: String,
    /// The value in its source's words ("Group 1: Carcinogenic to humans", "Carc. 2",
    /// "TDI 0.2 ng/kg bw/day").
    pub value: String,
    pub source: String,
    /// What replaced or annulled it (`superseded`, `annulled`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
}

/// The timeline of `record` and the number of its values no source dates.
#[derive(Debug)]
pub struct Timeline {
    pub events: Vec<Event>,
    pub undated: usize,
}

struct Dated<'a> {
    subject: &'static str,
    agency: &'a str,
    value: String,
    source: &'a str,
    from: Option<&'a str>,
    precision: Option<DatePrecision>,
    until: Option<&'a str>,
    status: Option<Lifecycle>,
    by: Option<&'a str>,
    replaced_one: bool,
}

/// The timeline of `record` as the data stands, `today` telling scheduled from past changes.
pub fn timeline(record: &CompoundRecord, today: NaiveDate) -> Timeline {
    let values = dated_values(record);
    let undated = values.iter().filter(|v| v.from.is_none()).count();
    let mut events = Vec::new();
    for v in &values {
        let (Some(from), Some(precision)) = (v.from, v.precision) else {
            continue;
        };
        let ahead = Stated::parse(from).is_some_and(|s| s.in_force_from() > today);
        let change = if ahead {
            Change::Scheduled
        } else if v.replaced_one {
            Change::Changed
        } else {
            Change::Added
        };
        events.push(event(v, from, precision, change, None));
        let ended = match v.status {
            Some(Lifecycle::Superseded) => Some(Change::Superseded),
            Some(Lifecycle::Annulled) => Some(Change::Annulled),
            _ => None,
        };
        if let (Some(until), Some(change)) = (v.until, ended)
            && let Some(s) = Stated::parse(until)
        {
            events.push(event(v, until, s.precision, change, v.by));
        }
    }
    events.sort_by(|a, b| {
        let key = |e: &Event| Stated::parse(&e.date).map(|s| s.first);
        key(a)
            .cmp(&key(b))
            .then(a.subject.cmp(b.subject))
            .then(a.agency.cmp(&b.agency))
            .then(a.value.cmp(&b.value))
    });
    Timeline { events, undated }
}

/// Every classification (but the EU CLP's, which its GHS entries give), GHS entry and
/// reference value of `record`, with its dates and whether it replaced an earlier one.
fn dated_values(record: &CompoundRecord) -> Vec<Dated<'_>> {
    let mut values: Vec<Dated<'_>> = Vec::new();
    let replaced = |source: &str, reference: Option<&str>| {
        let by = |b: &Option<String>| {
            b.as_deref()
                .is_some_and(|b| b == source || Some(b) == reference)
        };
        record.safety.ghs.iter().any(|g| by(&g.superseded_by))
            || record
                .regulatory
                .classifications
                .iter()
                .any(|c| c.status == Some(Lifecycle::Superseded) && by(&c.superseded_by))
            || record.dose_response.iter().any(|d| by(&d.superseded_by))
    };
    for c in &record.regulatory.classifications {
        if c.attribution == "EU CLP Annex VI" {
            continue;
        }
        values.push(Dated {
            subject: "classification",
            agency: &c.agency,
            value: c.classification.clone(),
            source: &c.source,
            from: c.effective_from.as_deref(),
            precision: c.date_precision,
            until: c.effective_until.as_deref(),
            status: c.status,
            by: c.superseded_by.as_deref(),
            replaced_one: c.agency == "IARC" && replaced(&c.source, None),
        });
    }
    for g in &record.safety.ghs {
        values.push(Dated {
            subject: "eu_clp",
            agency: if g.jurisdiction == "EU" {
                "European Commission"
            } else {
                "Safe Work Australia"
            },
            value: g.hazard_classes.join(", "),
            source: &g.source,
            from: g.effective_from.as_deref(),
            precision: g.date_precision,
            until: g.effective_until.as_deref(),
            status: g.status,
            by: g.superseded_by.as_deref(),
            replaced_one: replaced(&g.source, None),
        });
    }
    for d in &record.dose_response {
        let kind = serde_json::to_value(d.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_uppercase))
            .unwrap_or_default();
        values.push(Dated {
            subject: "reference_value",
            agency: &d.agency,
            value: format!("{kind} {} {}", d.value, d.unit),
            source: d.reference.as_deref().unwrap_or(&d.source),
            from: d.effective_from.as_deref(),
            precision: d.date_precision,
            until: d.effective_until.as_deref(),
            status: d.status,
            by: d.superseded_by.as_deref(),
            replaced_one: replaced(&d.source, d.reference.as_deref()),
        });
    }
    values
}

fn event(
    v: &Dated<'_>,
    date: &str,
    precision: DatePrecision,
    change: Change,
    by: Option<&str>,
) -> Event {
    Event {
        date: date.to_string(),
        date_precision: precision,
        change,
        subject: v.subject,
        agency: v.agency.to_string(),
        value: v.value.clone(),
        source: v.source.to_string(),
        by: by.map(str::to_string),
    }
}
