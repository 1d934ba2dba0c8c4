//! The curated search aliases (`data/aliases.json`): unambiguous abbreviations that
//! resolve to one canonical compound by CAS, each citing the publication that uses it.

use serde::{Deserialize, Serialize};

/// One abbreviation and the compound it names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Alias {
    /// As the cited source writes it ("BPA", "PFHxS", "TiO2").
    pub alias: String,
    /// CAS number of the canonical corpus compound.
    pub cas: String,
    /// The substance's name, for reviewers; the compound record's name is what responses show.
    pub name: String,
    /// Id of an entry in the file's `sources[]`.
    pub source: String,
}

/// A publication an alias is taken from.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AliasSource {
    pub id: String,
    pub title: String,
    pub publisher: String,
    pub url: String,
}

/// An abbreviation considered and deliberately not resolved (`groups`, `ambiguous`), kept in
/// the file so a reviewer sees why it is absent.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unresolved {
    pub alias: String,
    pub description: String,
    pub note: String,
}

/// The whole file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AliasFile {
    pub title: String,
    pub description: String,
    pub sources: Vec<AliasSource>,
    pub aliases: Vec<Alias>,
    pub groups: Vec<Unresolved>,
    pub ambiguous: Vec<Unresolved>,
}

/// The form aliases and queries are compared in: lower case with every whitespace character
/// removed, so "BPA", "bpa" and " b p a " are one alias.
pub fn normalize(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_file_parses_and_normalizes() {
        let file: AliasFile =
            serde_json::from_str(include_str!("../../../data/aliases.json")).unwrap();
        assert!(file.aliases.iter().any(|a| a.alias == "BPA"));
        assert_eq!(normalize(" b P\tA "), "bpa");
        assert_eq!(normalize("TiO2"), "tio2");
    }
}
