//! The compounds' classification changes in the change calendar: EU CLP Annex VI entries an
//! adopted ATP applies from a later date, and Prop 65 listings dated later, after `as_of`.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde::Serialize;

use crate::model::dating::Stated;
use crate::model::ids::CompoundId;
use crate::model::record::CompoundRecord;
use crate::model::vocab::WatchClass;

#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct Scheduled<'a> {
    hq_id: &'a CompoundId,
    name: &'a str,
    cas: &'a str,
    jurisdiction: &'static str,
    /// `eu_clp` or `prop65`.
    #[schemars(extend("enum" = ["eu_clp", "prop65"]))]
    subject: &'static str,
    value: String,
    effective_from: &'a str,
    source: &'a str,
}

/// Every scheduled change after `as_of` (on or before `before`) in `jurisdiction` (EU: CLP,
/// US: Prop 65; all when none), by date then compound.
pub(super) fn scheduled<'a>(
    compounds: &'a BTreeMap<CompoundId, CompoundRecord>,
    as_of: NaiveDate,
    before: Option<NaiveDate>,
    jurisdiction: Option<&str>,
) -> Vec<Scheduled<'a>> {
    let ahead = |date: &str| {
        Stated::parse(date)
            .map(|s| s.in_force_from())
            .is_some_and(|d| d > as_of && before.is_none_or(|b| d <= b))
    };
    let mut out = Vec::new();
    for r in compounds
        .values()
        .filter(|r| r.watch_class != WatchClass::CriticalThreat)
    {
        let entry = |jurisdiction, subject, value, effective_from, source| Scheduled {
            hq_id: &r.hq_id,
            name: &r.name,
            cas: r.cas.as_str(),
            jurisdiction,
            subject,
            value,
            effective_from,
            source,
        };
        if jurisdiction.is_none_or(|j| j == "EU") {
            for g in r.safety.ghs.iter().filter(|g| g.jurisdiction == "EU") {
                if let Some(from) = g.effective_from.as_deref().filter(|f| ahead(f)) {
                    out.push(entry(
                        "EU",
                        "eu_clp",
                        g.hazard_classes.join(", "),
                        from,
                        &g.source,
                    ));
                }
            }
        }
        if jurisdiction.is_none_or(|j| j == "US") {
            for p in r.regulatory.listings.prop65.iter() {
                if ahead(&p.date_listed) {
                    let value = format!("{:?}", p.toxicity).to_lowercase();
                    out.push(entry("US", "prop65", value, &p.date_listed, &p.source));
                }
            }
        }
    }
    out.sort_by(|a, b| {
        (a.effective_from, a.hq_id, a.subject).cmp(&(b.effective_from, b.hq_id, b.subject))
    });
    out
}
