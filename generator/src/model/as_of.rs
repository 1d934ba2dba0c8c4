//! A record as it stood on a past or future day (`as_of`, data/README.md "Dates"): a dated
//! value not yet in force that day is left out, one in force is current (whatever replaced it
//! later), one that had ended keeps its status. A value no source dates is held as it is today.
//! The IARC listing is the IARC call in force that day.

use chrono::NaiveDate;

use super::dating::{Stated, in_force};
use super::record::{Classification, CompoundRecord, IarcListing, Lifecycle};
use super::vocab::IarcGroup;

/// Where a value stood on the day: left out (not yet in force), or kept with this status.
enum Standing {
    NotYet,
    Status(Option<Lifecycle>),
}

fn standing(
    from: Option<&str>,
    until: Option<&str>,
    status: Option<Lifecycle>,
    day: NaiveDate,
) -> Standing {
    let Some(from) = from else {
        return Standing::Status(status);
    };
    match in_force(from, until, day) {
        // Not yet applicable, or ended by then.
        Some(false) if until.is_some_and(|u| started(u, day)) => {
            // A current value an adopted instrument replaces had ended by then.
            Standing::Status(status.or(Some(Lifecycle::Superseded)))
        }
        Some(false) => Standing::NotYet,
        Some(true) if until.is_none() && status.is_some_and(|s| s != Lifecycle::Pending) => {
            // Ended at a day no source gives: today's status is all that is known.
            Standing::Status(status)
        }
        Some(true) => Standing::Status(None),
        None => Standing::Status(status),
    }
}

fn started(date: &str, day: NaiveDate) -> bool {
    Stated::parse(date).is_some_and(|s| s.in_force_from() <= day)
}

/// `record` as it stood on `day`.
pub fn as_of(record: &CompoundRecord, day: NaiveDate) -> CompoundRecord {
    let mut r = record.clone();
    macro_rules! stand {
        ($list:expr) => {
            $list.retain_mut(|v| {
                match standing(
                    v.effective_from.as_deref(),
                    v.effective_until.as_deref(),
                    v.status,
                    day,
                ) {
                    Standing::NotYet => false,
                    Standing::Status(status) => {
                        if status.is_none() {
                            v.superseded_by = None;
                            v.effective_until = None;
                        }
                        v.status = status;
                        true
                    }
                }
            })
        };
    }
    stand!(r.safety.ghs);
    stand!(r.regulatory.classifications);
    stand!(r.dose_response);
    let dated_later = |from: Option<&str>| from.is_some_and(|f| !started(f, day));
    r.safety
        .cancer_positions
        .retain(|p| !dated_later(p.year.map(|y| y.to_string()).as_deref()));
    r.safety
        .endocrine_disruption
        .retain(|n| !dated_later(n.year.map(|y| y.to_string()).as_deref()));
    let listings = &mut r.regulatory.listings;
    listings
        .prop65
        .retain(|p| !dated_later(p.effective_from.as_deref()));
    if listings
        .eu_svhc
        .as_ref()
        .is_some_and(|s| dated_later(s.effective_from.as_deref()))
    {
        listings.eu_svhc = None;
    }
    let iarc = listings.iarc_group.take();
    listings.iarc_group = iarc.and_then(|l| iarc_listing(l, &r.regulatory.classifications, day));
    match (
        &r.regulatory.listings.iarc_group,
        &mut r.safety.carcinogenicity,
    ) {
        (None, c) => *c = None,
        (Some(l), Some(c)) if c.source != l.source => {
            c.iarc_group = l.group;
            c.iarc_monograph = format!("Vol. {}", l.volumes);
            c.iarc_year = l.year;
            c.cancer_sites = l.cancer_sites.clone();
            c.source = l.source.clone();
        }
        _ => {}
    }
    r
}

/// The IARC listing in force on `day`, given the calls as they stood then: today's listing
/// when its call was in force, else one made from the call that was, else none.
fn iarc_listing(
    today: IarcListing,
    calls: &[Classification],
    day: NaiveDate,
) -> Option<IarcListing> {
    let own = |c: &&Classification| c.agency == "IARC" && c.qualifier == today.qualifier;
    let Some(in_force) = calls.iter().filter(own).find(|c| c.is_current()) else {
        // A listing without a call of its own (a group's) stands by its own date.
        let ours = calls.iter().filter(own).any(|c| c.source == today.source);
        let later = today
            .effective_from
            .as_deref()
            .is_some_and(|f| !started(f, day));
        return (!ours && !later).then_some(today);
    };
    if in_force.source == today.source {
        return Some(today);
    }
    let group = in_force
        .classification
        .strip_prefix("Group ")
        .and_then(|g| g.split(':').next())
        .and_then(|g| serde_json::from_value::<IarcGroup>(g.into()).ok())?;
    Some(IarcListing {
        group,
        volumes: in_force
            .basis
            .as_deref()
            .and_then(|b| b.strip_prefix("IARC Monographs volumes "))
            .unwrap_or_default()
            .to_string(),
        year: in_force.year,
        cancer_sites: Vec::new(),
        via: None,
        qualifier: in_force.qualifier.clone(),
        source: in_force.source.clone(),
        effective_from: in_force.effective_from.clone(),
        date_precision: in_force.date_precision,
        effective_until: None,
    })
}
