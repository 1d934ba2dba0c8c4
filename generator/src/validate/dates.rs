//! The dates of classifications and reference values (data/README.md "Dates"): each within
//! its source's possible range and never ending before it began, and at most one value live
//! at a time for one question (an agent's own IARC call, a compound's own EU CLP entry, an
//! EFSA question for one population).

use std::collections::BTreeMap;

use chrono::NaiveDate;

use super::Sink;
use crate::model::dating::{Stated, earliest};
use crate::model::record::{CompoundRecord, Lifecycle};
use crate::model::{Dataset, Problem};

pub(super) fn validate(dataset: &Dataset, problems: &mut Vec<Problem>) {
    for (id, record) in &dataset.compounds {
        let file = dataset.file_of(id);
        let mut out = Sink {
            file: file.clone(),
            problems,
        };
        check_record(record, &mut out);
    }
}

/// One dated value: where it is, which source kind bounds it, its question when it has one
/// (values of one question must not be live at once), what it says, and its period.
struct Period<'a> {
    path: String,
    kind: &'static str,
    question: Option<String>,
    value: String,
    /// Values of one instrument (one ATP's entries, one opinion year) are distinct entries,
    /// not one replacing the other.
    source: String,
    from: Option<&'a str>,
    until: Option<&'a str>,
    status: Option<Lifecycle>,
}

pub(super) fn check_record(r: &CompoundRecord, out: &mut Sink<'_>) {
    let mut periods = Vec::new();
    for (i, c) in r.regulatory.classifications.iter().enumerate() {
        let kind = match c.attribution.as_str() {
            "EU CLP Annex VI" => "CLP",
            "OEHHA Proposition 65" => "Prop 65",
            "ECHA SVHC Candidate List" => "SVHC",
            _ if c.agency == "IARC" => "IARC",
            _ => "",
        };
        periods.push(Period {
            path: format!("regulatory.classifications[{i}]"),
            kind,
            question: (kind == "IARC" && c.qualifier.is_none()).then(|| "IARC".to_string()),
            value: c.classification.clone(),
            source: c.source.clone(),
            from: c.effective_from.as_deref(),
            until: c.effective_until.as_deref(),
            status: c.status,
        });
    }
    for (i, g) in r.safety.ghs.iter().enumerate() {
        let eu = g.jurisdiction == "EU";
        periods.push(Period {
            path: format!("safety.ghs[{i}]"),
            kind: if eu { "CLP" } else { "" },
            question: (eu && g.via.is_none()).then(|| "EU CLP".to_string()),
            value: g.hazard_classes.join(", "),
            source: g.source.clone(),
            from: g.effective_from.as_deref(),
            until: g.effective_until.as_deref(),
            status: g.status,
        });
    }
    for (i, d) in r.dose_response.iter().enumerate() {
        let question = d.efsa_question().map(|(q, p)| format!("EFSA {q} for {p}"));
        periods.push(Period {
            path: format!("dose_response[{i}]"),
            kind: if d.agency == "EFSA" { "EFSA" } else { "" },
            value: format!("{} {}", d.value, d.unit),
            source: d.effective_from.clone().unwrap_or_default(),
            question,
            from: d.effective_from.as_deref(),
            until: d.effective_until.as_deref(),
            status: d.status,
        });
    }
    for p in &periods {
        check_range(p, out);
    }
    let mut by_question: BTreeMap<&str, Vec<&Period<'_>>> = BTreeMap::new();
    for p in &periods {
        if let (Some(q), Some(_)) = (&p.question, p.from)
            && p.status != Some(Lifecycle::Annulled)
        {
            by_question.entry(q).or_default().push(p);
        }
    }
    for (question, list) in by_question {
        for (i, a) in list.iter().enumerate() {
            if let Some(b) = list[i + 1..]
                .iter()
                .find(|b| b.value != a.value && b.source != a.source && overlap(a, b))
            {
                out.push(
                    &b.path,
                    format!(
                        "two live periods for the {question}: {} ({} from {}) and {} ({} from {}) are in force at once; the older one needs the date it ended (effective_until, from what replaced it)",
                        a.path,
                        a.value,
                        a.from.unwrap_or_default(),
                        b.path,
                        b.value,
                        b.from.unwrap_or_default()
                    ),
                );
            }
        }
    }
}

/// A date a source of its kind cannot give, or an end before the beginning.
fn check_range(p: &Period<'_>, out: &mut Sink<'_>) {
    let from = p.from.map(|f| (f, Stated::parse(f)));
    let until = p.until.map(|u| (u, Stated::parse(u)));
    for (field, date) in [("effective_from", from), ("effective_until", until)] {
        let Some((text, parsed)) = date else { continue };
        let Some(parsed) = parsed else {
            out.push(
                format!("{}.{field}", p.path),
                format!("{text:?} is not a date (YYYY-MM-DD, YYYY-MM or YYYY)"),
            );
            continue;
        };
        if let Some(first) = earliest(p.kind)
            && parsed.in_force_from() < first
        {
            out.push(
                format!("{}.{field}", p.path),
                format!(
                    "{text} is before the first {} date there can be ({first})",
                    p.kind
                ),
            );
        }
    }
    if let (Some((_, Some(f))), Some((u, Some(e)))) = (from, until)
        && e.in_force_from() < f.first
    {
        out.push(
            format!("{}.effective_until", p.path),
            format!(
                "{u} is before the value came into force ({})",
                p.from.unwrap_or_default()
            ),
        );
    }
}

/// Whether two dated values were both in force on some day.
fn overlap(a: &Period<'_>, b: &Period<'_>) -> bool {
    let span = |p: &Period<'_>| -> Option<(NaiveDate, NaiveDate)> {
        let from = Stated::parse(p.from?)?.in_force_from();
        let until = match p.until {
            Some(u) => Stated::parse(u)?.in_force_from(),
            None => NaiveDate::MAX,
        };
        Some((from, until))
    };
    match (span(a), span(b)) {
        (Some((a0, a1)), Some((b0, b1))) => a0 < b1 && b0 < a1,
        _ => false,
    }
}
