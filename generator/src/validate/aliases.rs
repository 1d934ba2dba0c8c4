//! `check` rules for the search aliases (`data/aliases.json`): every alias names a
//! corpus compound by a valid CAS number, no two aliases collide once case and whitespace are
//! ignored (the form search compares them in), and every cited source is defined.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::aliases::{AliasFile, normalize};
use crate::model::cas::Cas;
use crate::model::{Dataset, Problem};

pub fn validate(dataset: &Dataset, problems: &mut Vec<Problem>) {
    let path = dataset.dir.join("aliases.json");
    let file = path.display().to_string();
    let mut seen: BTreeMap<String, &str> = BTreeMap::new();
    for (i, a) in dataset.aliases.iter().enumerate() {
        let at = |field: &str| format!("aliases[{i}].{field}");
        let key = normalize(&a.alias);
        if key.is_empty() {
            problems.push(Problem::new(&file, at("alias"), "empty alias"));
        } else if let Some(first) = seen.insert(key, &a.alias) {
            problems.push(Problem::new(
                &file,
                at("alias"),
                format!(
                    "alias {:?} collides with {first:?}: search ignores case and whitespace",
                    a.alias
                ),
            ));
        }
        match Cas::parse(&a.cas) {
            Err(e) => problems.push(Problem::new(&file, at("cas"), e.to_string())),
            Ok(_) if dataset.by_cas(&a.cas).is_none() && !dataset.unread.contains(&a.cas) => {
                problems.push(Problem::new(
                    &file,
                    at("cas"),
                    format!(
                        "dangling reference: CAS {} is not in the corpus (alias {:?})",
                        a.cas, a.alias
                    ),
                ));
            }
            Ok(_) => {}
        }
    }
    // The dataset keeps only the aliases; the file's source list is read again here. A file
    // that does not parse was already reported by `load`.
    let Ok(bytes) = std::fs::read(&path) else {
        return;
    };
    let Ok(parsed) = serde_json::from_slice::<AliasFile>(&bytes) else {
        return;
    };
    let mut sources = BTreeSet::new();
    for (i, s) in parsed.sources.iter().enumerate() {
        if !sources.insert(s.id.as_str()) {
            problems.push(Problem::new(
                &file,
                format!("sources[{i}].id"),
                format!("duplicate source id {:?}", s.id),
            ));
        }
    }
    for (i, a) in parsed.aliases.iter().enumerate() {
        if !sources.contains(a.source.as_str()) {
            problems.push(Problem::new(
                &file,
                format!("aliases[{i}].source"),
                format!(
                    "source {:?} is not defined in this file's sources[]",
                    a.source
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::aliases::Alias;

    fn alias(alias: &str, cas: &str) -> Alias {
        Alias {
            alias: alias.into(),
            cas: cas.into(),
            name: String::new(),
            source: "s".into(),
        }
    }

    #[test]
    fn collisions_bad_cas_and_dangling_references_are_reported() {
        let dataset = Dataset {
            aliases: vec![
                alias("BPA", "80-05-7"),
                alias("b pa", "80-05-7"),
                alias("X", "80-05-8"),
                alias("", "80-05-7"),
            ],
            ..Dataset::default()
        };
        let mut problems = Vec::new();
        validate(&dataset, &mut problems);
        let found: Vec<(&str, &str)> = problems
            .iter()
            .map(|p| (p.path.as_str(), p.message.as_str()))
            .collect();
        assert!(
            found
                .iter()
                .any(|(p, m)| *p == "aliases[1].alias" && m.contains("collides"))
        );
        assert!(
            found
                .iter()
                .any(|(p, m)| *p == "aliases[0].cas" && m.contains("dangling"))
        );
        assert!(found.iter().any(|(p, _)| *p == "aliases[2].cas"));
        assert!(
            found
                .iter()
                .any(|(p, m)| *p == "aliases[3].alias" && m == &"empty alias")
        );
    }
}
