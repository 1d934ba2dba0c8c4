//! `GET /api/contexts` (keyed): the 19 exposure contexts of `data/contexts.json`
//! grouped by category (human, animal, exposure route, environmental), with descriptions and
//! the aliases that resolve to each.

use serde::Serialize;

use super::{Cache, Rendered};
use crate::model::Dataset;
use crate::model::contexts::{Context, ContextInfo};

#[derive(Serialize, schemars::JsonSchema)]
struct ContextOut<'a> {
    #[schemars(with = "Context")]
    name: &'a str,
    label: &'a str,
    description: &'a str,
    aliases: &'a [String],
}

#[derive(Serialize, schemars::JsonSchema)]
struct Group<'a> {
    category: &'a str,
    contexts: Vec<ContextOut<'a>>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct Body<'a> {
    /// The context a compound request without `context` gets when the compound has it.
    #[schemars(with = "Context")]
    default: &'a str,
    total: usize,
    categories: Vec<Group<'a>>,
}

/// Groups in the order the file first names each category, contexts in file order.
fn groups(contexts: &[ContextInfo]) -> Vec<Group<'_>> {
    let mut out: Vec<Group<'_>> = Vec::new();
    for c in contexts {
        let item = ContextOut {
            name: &c.name,
            label: &c.label,
            description: &c.description,
            aliases: &c.aliases,
        };
        match out.iter_mut().find(|g| g.category == c.category) {
            Some(g) => g.contexts.push(item),
            None => out.push(Group {
                category: &c.category,
                contexts: vec![item],
            }),
        }
    }
    out
}

/// `GET /api/contexts`. Static reference data, but the endpoint is keyed, so the response
/// is not publicly cached.
pub fn contexts(dataset: &Dataset) -> Rendered {
    let list = &dataset.contexts.contexts;
    let body = Body {
        default: &dataset.contexts.default,
        total: list.len(),
        categories: groups(list),
    };
    Rendered::json(200, &body, Cache::Private)
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::render::test_data::fixture;

    #[test]
    fn nineteen_contexts_in_four_groups_with_aliases() {
        let r = contexts(fixture());
        assert_eq!(r.status, 200);
        assert_eq!(r.cache, Cache::Private);
        let v: Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(v["total"], 19);
        assert_eq!(v["default"], "human_adult");
        let groups = v["categories"].as_array().unwrap();
        let names: Vec<&str> = groups
            .iter()
            .map(|g| g["category"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            ["human", "animal", "exposure_route", "environmental"]
        );
        let sizes: Vec<usize> = groups
            .iter()
            .map(|g| g["contexts"].as_array().unwrap().len())
            .collect();
        assert_eq!(sizes, [8, 2, 5, 4]);
        let pollinator = &groups[3]["contexts"][3];
        assert_eq!(pollinator["name"], "pollinator");
        assert!(
            pollinator["aliases"]
                .as_array()
                .unwrap()
                .iter()
                .any(|a| a == "bees")
        );
        assert!(pollinator["description"].as_str().unwrap().len() > 10);
    }
}
