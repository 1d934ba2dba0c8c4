//! One live call per question. A record gathers calls from several editions and overlays (the
//! 2020 IARC list and a later monograph; OpenFoodTox's history of an intake value and a newer
//! opinion); when the dataset is loaded, each call that a later one of the same agency replaced
//! is marked `superseded`, naming what replaced it. Superseded calls stay visible as history and
//! never reach a tier. The rules, in data/README.md "Lifecycle":
//!
//! - IARC: the classification whose source is the live `listings.iarc_group`'s is current; every
//!   other unqualified IARC classification of the record is superseded by it. A qualified one
//!   (a drug combination) is about another agent and stays as it is.
//! - EFSA health-based guidance values: within one question (chronic intake: ADI, TDI and TWI
//!   together; acute reference dose; upper level) and one population (the general population
//!   under either of its names), the values of the newest year are current and older ones are
//!   superseded by the newest's reference.
//! - EU CLP Annex VI: an ATP replaces a substance's entries whole, so the entries of the newest
//!   ATP source of the record (`eu-clp-atpNN`, the highest NN) are current and the EU entries
//!   of older ones are superseded by it. Entries a court annulled are marked by the curated
//!   file that cites the judgment (`ended`) and stay annulled. A Safe Work Australia entry,
//!   which stands in only where the EU has no entry of the compound's own (the ingest drops it
//!   where the ATP17 table has one), is superseded by an own EU entry a later ATP gave; an
//!   Annex VI group entry (`via`) leaves it standing. A pending entry (an ATP before its date
//!   of application) is not current and replaces nothing.

use crate::model::record::{CompoundRecord, DoseValue, GhsClassification, Lifecycle};

/// Marks every replaced call of `record`.
pub fn resolve(record: &mut CompoundRecord) {
    iarc(record);
    efsa(record);
    clp(record);
}

/// The ATP number of an EU CLP source id ("eu-clp-atp18" -> 18).
fn atp(source: &str) -> Option<u32> {
    source.strip_prefix("eu-clp-atp")?.parse().ok()
}

/// The newest current EU entry's ATP and source; `own_only` leaves out group entries (`via`).
fn newest_eu(ghs: &[GhsClassification], own_only: bool) -> Option<(u32, String)> {
    ghs.iter()
        .filter(|g| g.jurisdiction == "EU" && g.is_current())
        .filter(|g| !own_only || g.via.is_none())
        .filter_map(|g| atp(&g.source).map(|n| (n, g.source.clone())))
        .max()
}

fn clp(record: &mut CompoundRecord) {
    let (newest_own, newest) = (
        newest_eu(&record.safety.ghs, true),
        newest_eu(&record.safety.ghs, false),
    );
    // A group entry (`via`) is a minimum classification shared by all members: the Australian
    // entry stands in beside it, and only the compound's own EU entry replaces that.
    if let Some((_, by)) = newest_own {
        for g in record
            .safety
            .ghs
            .iter_mut()
            .filter(|g| g.jurisdiction == "AU" && g.is_current())
        {
            g.status = Some(Lifecycle::Superseded);
            g.superseded_by = Some(by.clone());
        }
    }
    if let Some((newest, by)) = newest {
        for g in record.safety.ghs.iter_mut() {
            if g.jurisdiction == "EU"
                && g.is_current()
                && atp(&g.source).is_some_and(|n| n < newest)
            {
                g.status = Some(Lifecycle::Superseded);
                g.superseded_by = Some(by.clone());
            }
        }
    }
    // The classification that mirrors an Annex VI entry ends with it.
    for c in record
        .regulatory
        .classifications
        .iter_mut()
        .filter(|c| c.attribution == "EU CLP Annex VI" && c.is_current())
    {
        let mut entries = record
            .safety
            .ghs
            .iter()
            .filter(|g| g.jurisdiction == "EU" && g.source == c.source)
            .peekable();
        if entries.peek().is_none() {
            continue;
        }
        if let Some(ended) = entries.find(|g| !g.is_current()).filter(|_| {
            !record
                .safety
                .ghs
                .iter()
                .any(|g| g.source == c.source && g.is_current())
        }) {
            c.status = ended.status;
            c.superseded_by = ended.superseded_by.clone();
        }
    }
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
    // A qualified call (a drug combination, alcoholic beverages) is about another agent: it
    // neither replaces the substance's own call nor is replaced by it.
    let iarc =
        |c: &&mut crate::model::record::Classification| c.agency == "IARC" && c.qualifier.is_none();
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

fn efsa(record: &mut CompoundRecord) {
    let keys: Vec<_> = record
        .dose_response
        .iter()
        .map(DoseValue::efsa_question)
        .collect();
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

#[cfg(test)]
mod tests {
    use super::*;

    /// n-hexane as stored (one Annex VI entry from the ATP17 table).
    fn hexane() -> CompoundRecord {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../data/compounds/hq-c-org-000433.json"
        );
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    fn eu(source: &str, h: &str) -> GhsClassification {
        GhsClassification {
            date_precision: None,
            effective_from: None,
            effective_until: None,
            jurisdiction: "EU".into(),
            hazard_classes: Vec::new(),
            h_codes: vec![h.into()],
            routes: Vec::new(),
            pictograms: Vec::new(),
            signal_word: None,
            specific_concentration_limits: None,
            notes: None,
            edition: None,
            via: None,
            qualifier: None,
            source: source.into(),
            applies_from: None,
            status: None,
            superseded_by: None,
        }
    }

    #[test]
    fn a_later_atp_supersedes_the_older_eu_entry_and_the_australian_stand_in() {
        let mut r = hexane();
        r.safety.ghs.retain(|g| g.source == "eu-clp-atp17");
        r.safety.ghs.push(eu("eu-clp-atp22", "H372"));
        r.safety.ghs.push(GhsClassification {
            jurisdiction: "AU".into(),
            ..eu("swa-hcis-2021", "H373")
        });
        resolve(&mut r);
        let by_source = |s: &str| r.safety.ghs.iter().find(|g| g.source == s).unwrap();
        let old = by_source("eu-clp-atp17");
        assert_eq!(old.status, Some(Lifecycle::Superseded));
        assert_eq!(old.superseded_by.as_deref(), Some("eu-clp-atp22"));
        assert!(by_source("eu-clp-atp22").is_current());
        let stand_in = by_source("swa-hcis-2021");
        assert_eq!(
            (stand_in.status, stand_in.superseded_by.as_deref()),
            (Some(Lifecycle::Superseded), Some("eu-clp-atp22")),
            "HCIS stands in only where the EU has no entry"
        );
    }

    #[test]
    fn a_group_entry_leaves_the_australian_entry_standing() {
        let mut r = hexane();
        r.safety.ghs = vec![
            GhsClassification {
                via: Some("lead compounds".into()),
                ..eu("eu-clp-atp17", "H360Df")
            },
            GhsClassification {
                jurisdiction: "AU".into(),
                ..eu("swa-hcis-2021", "H351")
            },
        ];
        resolve(&mut r);
        assert!(
            r.safety.ghs.iter().all(GhsClassification::is_current),
            "a minimum classification shared by a group replaces no substance-specific entry"
        );
    }

    #[test]
    fn a_pending_atp_entry_supersedes_nothing_and_stays_pending() {
        let mut r = hexane();
        r.safety.ghs.retain(|g| g.source == "eu-clp-atp17");
        r.safety.ghs.push(GhsClassification {
            applies_from: Some("2027-02-01".into()),
            status: Some(Lifecycle::Pending),
            ..eu("eu-clp-atp23", "H360Df")
        });
        resolve(&mut r);
        let by_source = |s: &str| r.safety.ghs.iter().find(|g| g.source == s).unwrap();
        assert!(
            by_source("eu-clp-atp17").is_current(),
            "an ATP before its application date replaces no entry"
        );
        let pending = by_source("eu-clp-atp23");
        assert_eq!(pending.status, Some(Lifecycle::Pending));
        assert!(!pending.is_current(), "a pending entry reaches no tier");
        assert_eq!(pending.superseded_by, None);
    }

    #[test]
    fn an_annulled_entry_stays_annulled() {
        let mut r = hexane();
        r.safety.ghs.retain(|g| g.source == "eu-clp-atp17");
        r.safety.ghs[0].status = Some(Lifecycle::Annulled);
        r.safety.ghs[0].superseded_by = Some("a-judgment".into());
        resolve(&mut r);
        assert_eq!(r.safety.ghs[0].status, Some(Lifecycle::Annulled));
        assert_eq!(r.safety.ghs[0].superseded_by.as_deref(), Some("a-judgment"));
    }
}
