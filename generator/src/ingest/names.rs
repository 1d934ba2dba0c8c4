//! Display names, one per CAS. Each table names the compound its own way; the curated name
//! wins, then the tables in `NAME_PREFERENCE` order. A row that names a group under several CAS
//! numbers ("Asbestos (all forms...)" for chrysotile and crocidolite alike) would give them one
//! name, so a name two corpus compounds would share gives way, for each, to its next candidate
//! that no other compound holds (PubChem's "Chrysotile", Annex VI's own entry name).

use std::collections::{BTreeMap, BTreeSet};

use super::contribution::Contribution;
use super::select::{SELECTION_SOURCE, Selected};
use super::tables;
use crate::model::cas::Cas;
use crate::model::catalog::SourceDescriptor;

/// Tables whose names are preferred for the compound's display name, best first.
const NAME_PREFERENCE: [&str; 11] = [
    "iarc",
    "ntp_roc",
    "prop65",
    "svhc",
    "cpdat",
    "efsa_openfoodtox",
    "identifiers",
    "identifiers_inorganic",
    "clp",
    "fda_substances_added_to_food",
    "cosing_annex_ii",
];

/// (name, source id) candidates for one compound, best first, without repeats.
pub fn candidates(
    selected: Option<&Selected>,
    contributions: &[(&SourceDescriptor, Contribution)],
) -> Vec<(String, String)> {
    if let Some(sel) = selected {
        return vec![(sel.name.clone(), SELECTION_SOURCE.to_string())];
    }
    let rank = |table: &str| {
        NAME_PREFERENCE
            .iter()
            .position(|t| *t == table)
            .unwrap_or(NAME_PREFERENCE.len())
    };
    let mut named: Vec<(usize, usize, String, String)> = contributions
        .iter()
        .enumerate()
        .filter_map(|(i, (src, c))| {
            let name = tables::display_name(c.name.as_ref()?);
            (!is_catalogue_code(&name)).then(|| (rank(&src.table), i, name, src.id.clone()))
        })
        .collect();
    named.sort();
    let mut seen = BTreeSet::new();
    named
        .into_iter()
        .filter(|(_, _, name, _)| seen.insert(name.to_lowercase()))
        .map(|(_, _, name, source)| (name, source))
        .collect()
}

/// A supplier's catalogue code among PubChem's synonyms ("Ctk0h6604"): one word of letters
/// and digits with none of the punctuation chemical names carry.
fn is_catalogue_code(name: &str) -> bool {
    !name.contains(char::is_whitespace)
        && name.chars().any(|c| c.is_ascii_digit())
        && name.chars().any(|c| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric())
}

/// One name per CAS: each compound's first candidate, except where two compounds would share
/// it; then each of them, in CAS order, takes its first candidate no other compound holds. One
/// with no such candidate keeps the shared name. A compound with no candidate gets "".
pub fn unique(all: &BTreeMap<Cas, Vec<(String, String)>>) -> BTreeMap<Cas, (String, String)> {
    let first = |c: &[(String, String)]| c.first().cloned().unwrap_or_default();
    let mut chosen: BTreeMap<Cas, (String, String)> =
        all.iter().map(|(cas, c)| (cas.clone(), first(c))).collect();
    let mut firsts: BTreeMap<String, usize> = BTreeMap::new();
    for (name, _) in chosen.values() {
        *firsts.entry(name.to_lowercase()).or_default() += 1;
    }
    for (cas, cands) in all {
        let current = chosen[cas].0.to_lowercase();
        if current.is_empty() || firsts[&current] < 2 {
            continue;
        }
        let held = |name: &str| {
            chosen
                .iter()
                .any(|(other, (n, _))| other != cas && n.eq_ignore_ascii_case(name))
        };
        if let Some(other) = cands.iter().skip(1).find(|(n, _)| !held(n)) {
            chosen.insert(cas.clone(), other.clone());
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::cas::cas;

    fn named(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(n, s)| (n.to_string(), s.to_string()))
            .collect()
    }

    #[test]
    fn a_shared_group_name_gives_way_to_each_compound_s_own() {
        let all: BTreeMap<Cas, Vec<(String, String)>> = [
            (
                cas("12001-29-5"),
                named(&[("Asbestos (all forms)", "iarc"), ("Chrysotile", "pubchem")]),
            ),
            (
                cas("12001-28-4"),
                named(&[("Asbestos (all forms)", "iarc"), ("Crocidolite", "pubchem")]),
            ),
            (cas("50-00-0"), named(&[("Formaldehyde", "iarc")])),
        ]
        .into();
        let got = unique(&all);
        assert_eq!(got[&cas("12001-29-5")].0, "Chrysotile");
        assert_eq!(got[&cas("12001-28-4")].0, "Crocidolite");
        assert_eq!(got[&cas("50-00-0")], ("Formaldehyde".into(), "iarc".into()));
    }

    #[test]
    fn catalogue_codes_are_no_names() {
        assert!(is_catalogue_code("Ctk0h6604"));
        assert!(!is_catalogue_code("Benzene"));
        assert!(!is_catalogue_code("2,4-D"));
        assert!(!is_catalogue_code("Disodium tetraborate pentahydrate"));
    }

    #[test]
    fn the_last_holder_of_a_shared_name_keeps_it() {
        let all: BTreeMap<Cas, Vec<(String, String)>> = [
            (cas("1332-21-4"), named(&[("Asbestos (all forms)", "iarc")])),
            (
                cas("12001-29-5"),
                named(&[("Asbestos (all forms)", "iarc"), ("Chrysotile", "pubchem")]),
            ),
        ]
        .into();
        let got = unique(&all);
        assert_eq!(got[&cas("1332-21-4")].0, "Asbestos (all forms)");
        assert_eq!(got[&cas("12001-29-5")].0, "Chrysotile");
    }
}
