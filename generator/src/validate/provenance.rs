//! Rules on where values come from, across records: every member of a group row carries the
//! listing the row gives it (`curated/group-rows.tsv`), use classes come only from sources
//! that state what a substance is for, and a cosmetics prohibition is listed only from an
//! Annex II entry that prohibits the substance itself.

use super::Sink;
use crate::model::group_rows::{Disposition, FILE as GROUP_ROWS, Placement};
use crate::model::record::{CompoundRecord, Prop65Listing};
use crate::model::vocab::Prop65Toxicity;
use crate::model::{Dataset, Problem};

pub(super) fn validate(dataset: &Dataset, problems: &mut Vec<Problem>) {
    let file = dataset.dir.join(GROUP_ROWS).display().to_string();
    let mut out = Sink {
        file: file.into(),
        problems,
    };
    for p in dataset.group_rows.iter() {
        // Continuation rows carry no listing of their own; IARC rows are applied by
        // `curated/iarc-groups.json`, which cites the monographs.
        if p.disposition == Disposition::Unmatched || p.key.is_empty() {
            continue;
        }
        for member in &p.members {
            let Some(record) = dataset.by_cas(member.as_str()) else {
                continue;
            };
            if let Some(missing) = missing_inherited(p, record) {
                out.push(
                    format!("{}[{}]", p.table, p.row),
                    format!(
                        "{} ({}) is a member of this row but {missing}; rerun the ingest",
                        record.name, record.cas
                    ),
                );
            }
        }
    }
    for (id, record) in &dataset.compounds {
        let file = dataset.file_of(id);
        let mut out = Sink {
            file: file.clone(),
            problems,
        };
        check_use_classes(record, dataset, &mut out);
        check_cosmetics_listing(record, &mut out);
    }
}

/// What a member lacks of what its group row gives, if anything.
fn missing_inherited(p: &Placement, record: &CompoundRecord) -> Option<&'static str> {
    let listings = &record.regulatory.listings;
    match p.table.as_str() {
        // The member's own listing of the toxicity, as old or older, makes the row's redundant
        // (data/README.md "Groups and qualified rows").
        "prop65"
            if !listings.prop65.iter().any(|l| {
                l.via.as_deref() == Some(&p.row)
                    || (l.via.is_none()
                        && listed_on(&p.key).is_some_and(|d| l.date_listed <= d)
                        && row_toxicities(&p.key).any(|t| t == toxicity_word(l)))
            }) =>
        {
            Some(
                "carries no Proposition 65 listing of it (via the row, or its own of that \
                 toxicity as old or older)",
            )
        }
        // A member's own NTP row, or a stronger group row, settles its one NTP listing.
        "ntp_roc" if listings.ntp_roc.is_none() => Some("carries no NTP RoC listing"),
        "efsa_openfoodtox"
            if !record.dose_response.iter().any(|d| {
                d.basis
                    .as_deref()
                    .is_some_and(|b| b.contains(&format!("\"{}\"", p.row)))
            }) =>
        {
            Some("carries no OpenFoodTox value of it")
        }
        // A member's own Annex VI entry excepts it from the group entry.
        "clp"
            if !record.safety.ghs.iter().any(|g| {
                g.jurisdiction == "EU" && (g.via.as_deref() == Some(&p.row) || g.via.is_none())
            }) =>
        {
            Some("carries no EU CLP entry of it, nor one of its own")
        }
        _ => None,
    }
}

/// The toxicities of a Proposition 65 row key ("developmental, male|1-May-97").
fn row_toxicities(key: &str) -> impl Iterator<Item = &str> {
    key.split('|')
        .next()
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
}

fn toxicity_word(l: &Prop65Listing) -> &'static str {
    match l.toxicity {
        Prop65Toxicity::Cancer => "cancer",
        Prop65Toxicity::Developmental => "developmental",
        Prop65Toxicity::Female => "female",
        Prop65Toxicity::Male => "male",
    }
}

/// The listing date of a Proposition 65 row key ("cancer|1-Oct-92" -> "1992-10-01").
fn listed_on(key: &str) -> Option<String> {
    let (_, date) = key.split_once('|')?;
    chrono::NaiveDate::parse_from_str(date.trim(), "%d-%b-%y")
        .ok()
        .map(|d| d.format("%Y-%m-%d").to_string())
}

/// A use class names what a substance is for; a source table that does not say so (a
/// hazard list, a product-composition database) cannot give one. Curated sources (the
/// selection, overlays) are chosen by hand and are not in the catalogue.
fn check_use_classes(record: &CompoundRecord, dataset: &Dataset, out: &mut Sink<'_>) {
    let Some(catalog) = &dataset.catalog else {
        return;
    };
    for (i, u) in record.use_classes.iter().enumerate() {
        if catalog.get(&u.source).is_some_and(|s| !s.states_purpose) {
            out.push(
                format!("use_classes[{i}].source"),
                format!(
                    "use class {} comes from {}, a table that does not state what a substance \
                     is for (only tables with \"states_purpose\" in sources.json may give one)",
                    u.class, u.source
                ),
            );
        }
    }
}

/// `eu_cosmetics_prohibited` says the substance is prohibited in cosmetic products: its Annex
/// II entry must be one of the record's CosIng classifications without a qualifier. An entry
/// that prohibits a nanomaterial form or a use only ("when used as a substance in hair dye
/// products") is a qualified classification and lists nothing (data/README.md, "Compound
/// record").
fn check_cosmetics_listing(record: &CompoundRecord, out: &mut Sink<'_>) {
    let Some(listing) = &record.regulatory.listings.eu_cosmetics_prohibited else {
        return;
    };
    let entry = format!("(Annex II entry {})", listing.reference_number);
    let whole = record.regulatory.classifications.iter().any(|c| {
        c.source == listing.source && c.qualifier.is_none() && c.classification.ends_with(&entry)
    });
    if !whole {
        out.push(
            "regulatory.listings.eu_cosmetics_prohibited",
            format!(
                "Annex II entry {} is listed as prohibiting the substance, but no unqualified \
                 classification of {} gives that entry (an entry for a form or a use only lists \
                 nothing); rerun the ingest",
                listing.reference_number, listing.source
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proposition_65_keys_give_their_listing_date() {
        assert_eq!(listed_on("cancer|1-Oct-92").as_deref(), Some("1992-10-01"));
        assert_eq!(
            listed_on("developmental, female, male|27-Feb-87").as_deref(),
            Some("1987-02-27")
        );
        assert_eq!(listed_on(""), None);
    }
}
