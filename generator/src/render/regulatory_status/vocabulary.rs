//! `GET /api/regulatory-status/vocabulary`: every value the filters of
//! `GET /api/regulatory-status` take and every enumerated field of its answer, each with a
//! label; and `suggest`, the vocabulary ids nearest to a value that is none of them, which the
//! filters' 400s name.

use serde::Serialize;

use crate::model::Dataset;
use crate::model::ids::CompoundId;
use crate::model::regulatory_status::{
    CHANGE_TYPES, CONFIDENCES, JURISDICTIONS, LEGAL_STATUSES, MATRIX_KINDS, STATUSES,
};
use crate::model::vocab::WatchClass;
use crate::render::{Cache, Rendered};

/// The enumerated fields of the layer, each with its values in the model.
const GROUPS: [(&str, &[&str]); 6] = [
    ("matrix_kinds", &MATRIX_KINDS),
    ("jurisdictions", &JURISDICTIONS),
    ("statuses", &STATUSES),
    ("confidences", &CONFIDENCES),
    ("legal_statuses", &LEGAL_STATUSES),
    ("change_types", &CHANGE_TYPES),
];

/// The label of a value of one of `GROUPS`; every value has one (a test checks).
pub fn label(group: &str, value: &str) -> Option<&'static str> {
    Some(match (group, value) {
        ("jurisdictions", "US") => {
            "United States, federal instruments (the NTP, IARC and Proposition 65 listings are recorded here too)"
        }
        ("jurisdictions", "EU") => "European Union",
        ("jurisdictions", "CA_AB899") => {
            "California Assembly Bill 899 (2023): baby food testing and disclosure"
        }
        ("matrix_kinds", "food") => "Food or drink",
        ("matrix_kinds", "article") => "Material or article (food contact, toys, childcare)",
        ("matrix_kinds", "drug") => "Human drug product",
        ("matrix_kinds", "listing") => "Hazard listing or classification: no concentration limit",
        ("statuses", "proposed") => "Proposed by the issuer, not adopted",
        ("statuses", "draft") => "Published as a draft, not adopted",
        ("statuses", "adopted") => "Adopted, not yet in force",
        ("statuses", "in_force") => "In force",
        ("statuses", "superseded") => "Replaced by a later value",
        ("statuses", "withdrawn") => "Withdrawn",
        ("confidences", "confirmed") => "Read in the published instrument",
        ("confidences", "announced") => "Stated by the issuer (a proposal or draft), not yet law",
        ("confidences", "uncertain") => "Planned, with no text or number yet",
        ("legal_statuses", "binding_maximum") => "Binding maximum level",
        ("legal_statuses", "action_level_guidance") => "Action level set in guidance, not binding",
        ("legal_statuses", "disclosure_mandate") => "Disclosure duty, no numeric limit",
        ("legal_statuses", "none") => "No governing threshold",
        ("change_types", "classification") => "A hazard classification changed",
        ("change_types", "listing") => "A listing changed",
        _ => return None,
    })
}

#[derive(Serialize, schemars::JsonSchema)]
struct Labelled {
    id: &'static str,
    label: &'static str,
}

fn labelled(group: &str) -> Vec<Labelled> {
    GROUPS
        .iter()
        .filter(|(g, _)| *g == group)
        .flat_map(|(_, values)| values.iter())
        .map(|&id| Labelled {
            id,
            label: label(group, id).unwrap_or(id),
        })
        .collect()
}

#[derive(Serialize, schemars::JsonSchema)]
struct AnalyteOut<'a> {
    id: &'a str,
    label: &'a str,
    description: &'a str,
    cas: &'a [String],
    /// The compound ids of those CAS numbers; `analyte` accepts each, and the CAS numbers.
    compounds: Vec<&'a CompoundId>,
}

#[derive(Serialize, schemars::JsonSchema)]
struct MatrixOut<'a> {
    id: &'a str,
    label: &'a str,
    kind: &'a str,
    description: &'a str,
}

#[derive(Serialize, schemars::JsonSchema)]
struct ListingOut<'a> {
    id: &'a str,
    label: &'a str,
    description: &'a str,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct Body<'a> {
    dataset_version: &'a str,
    /// Values of `analyte`.
    analytes: Vec<AnalyteOut<'a>>,
    /// Values of `matrix`: foods, articles and drugs.
    matrices: Vec<MatrixOut<'a>>,
    /// Values of `listing`: hazard listings and classifications.
    listings: Vec<ListingOut<'a>>,
    matrix_kinds: Vec<Labelled>,
    jurisdictions: Vec<Labelled>,
    statuses: Vec<Labelled>,
    confidences: Vec<Labelled>,
    legal_statuses: Vec<Labelled>,
    change_types: Vec<Labelled>,
}

/// `GET /api/regulatory-status/vocabulary`: public, a function of the dataset alone.
pub fn vocabulary(d: &Dataset) -> Rendered {
    let v = &d.regulatory_status.vocabulary;
    let analytes = v
        .analytes
        .iter()
        .map(|(id, a)| AnalyteOut {
            id,
            label: &a.name,
            description: &a.description,
            cas: &a.cas,
            compounds: a
                .cas
                .iter()
                .filter_map(|cas| d.by_cas(cas))
                .filter(|r| r.watch_class != WatchClass::CriticalThreat)
                .map(|r| &r.hq_id)
                .collect(),
        })
        .collect();
    let matrices = v
        .matrices
        .iter()
        .filter(|(_, m)| !m.is_listing())
        .map(|(id, m)| MatrixOut {
            id,
            label: &m.name,
            kind: &m.kind,
            description: &m.description,
        })
        .collect();
    let listings = v
        .matrices
        .iter()
        .filter(|(_, m)| m.is_listing())
        .map(|(id, m)| ListingOut {
            id,
            label: &m.name,
            description: &m.description,
        })
        .collect();
    let body = Body {
        dataset_version: &d.regulatory_status.dataset_version,
        analytes,
        matrices,
        listings,
        matrix_kinds: labelled("matrix_kinds"),
        jurisdictions: labelled("jurisdictions"),
        statuses: labelled("statuses"),
        confidences: labelled("confidences"),
        legal_statuses: labelled("legal_statuses"),
        change_types: labelled("change_types"),
    };
    Rendered::json(200, &body, Cache::Reference)
}

/// At most this many suggestions are named.
const SUGGESTIONS: usize = 5;

/// The ids of `candidates` (id, label) nearest to `raw`, best first: those whose id or label
/// has every word of `raw` (`baby food`), then those within a typo or two of it
/// (`infant_formla`). Empty when nothing is near.
pub fn suggest<'a>(
    raw: &str,
    candidates: impl Iterator<Item = (&'a str, &'a str)>,
) -> Vec<&'a str> {
    let asked = words(raw);
    if asked.is_empty() {
        return Vec::new();
    }
    let joined = asked.join("_");
    let mut scored: Vec<(usize, &str)> = candidates
        .filter_map(|(id, label)| {
            let mut own = words(id);
            own.extend(words(label));
            let every_word = asked.iter().all(|a| own.iter().any(|w| same_word(a, w)));
            if every_word {
                return Some((0, id));
            }
            let typos = distance(&joined, id);
            (typos <= 2.max(joined.len() / 6)).then_some((typos, id))
        })
        .collect();
    scored.sort();
    scored
        .into_iter()
        .take(SUGGESTIONS)
        .map(|(_, id)| id)
        .collect()
}

/// The words of a value, lower-cased, split at anything not a letter or digit.
fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

/// Equal, or one the other's start when both are 4 letters or more (`foods`, `infants`;
/// not `for`).
fn same_word(a: &str, b: &str) -> bool {
    a == b || (a.len().min(b.len()) >= 4 && (a.starts_with(b) || b.starts_with(a)))
}

/// Levenshtein distance over bytes (ids are ASCII).
fn distance(a: &str, b: &str) -> usize {
    let b = b.as_bytes();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.bytes().enumerate() {
        let mut cur = vec![i + 1];
        for (j, &cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_enumerated_value_has_a_label() {
        for (group, values) in GROUPS {
            for value in values {
                assert!(
                    label(group, value).is_some(),
                    "{group} {value} has no label"
                );
            }
            assert_eq!(labelled(group).len(), values.len());
        }
    }

    #[test]
    fn suggestions_take_words_and_typos() {
        let candidates = [
            (
                "processed_baby_food_general",
                "Processed baby food (general)",
            ),
            ("canned_baby_food", "Canned baby food"),
            ("infant_formula", "Infant formula (powder)"),
            ("eggs", "Eggs"),
        ];
        let got = |raw| suggest(raw, candidates.iter().copied());
        assert_eq!(
            got("baby food"),
            ["canned_baby_food", "processed_baby_food_general"]
        );
        assert_eq!(got("Baby-Foods"), got("baby food"));
        assert_eq!(got("infant_formla"), ["infant_formula"]);
        assert_eq!(got("formula"), ["infant_formula"]);
        assert!(got("plutonium").is_empty());
        assert!(got("--").is_empty());
    }
}
