//! `check` rules of `retired.tsv` against the entities (its lines' own shape is checked where
//! it is loaded, `model::retired`): a retired id has no file, so no entity ever carries it
//! again; its replacement exists and is not itself retired; a retired material keeps its
//! `materials/index.tsv` row, so its slug is never given to another material.

use super::Sink;
use crate::model::retired::{FILE, Family};
use crate::model::{Dataset, Problem};

pub fn validate(dataset: &Dataset, problems: &mut Vec<Problem>) {
    let registry = dataset.dir.join(FILE).display().to_string();
    for r in dataset.retired.iter() {
        let family = Family::of(&r.id);
        let exists = |id: &str| match family {
            Some(Family::Material) => dataset.materials.contains_key(id),
            Some(Family::Product) => dataset.products.contains_key(id),
            None => false,
        };
        if exists(&r.id) {
            let file = dataset
                .entity_files
                .get(&r.id)
                .map_or(r.id.as_str(), String::as_str);
            Sink {
                file: file.into(),
                problems,
            }
            .push(
                "id",
                format!(
                    "{} is retired ({FILE} line {}, replaced by {}): a retired id is never \
                     issued again; delete this file, or give a new entity an id of its own",
                    r.id, r.line, r.replaced_by
                ),
            );
        }
        let mut at_line = |message: String| {
            problems.push(Problem::new(&registry, &r.id, message).at_line(r.line))
        };
        if dataset.retired.contains(&r.replaced_by) {
            at_line(format!(
                "replaced_by {} is itself retired: name the entity that replaces it now",
                r.replaced_by
            ));
        } else if !exists(&r.replaced_by) {
            at_line(format!(
                "replaced_by {} does not exist: no file for it",
                r.replaced_by
            ));
        }
        if family == Some(Family::Material) && !dataset.material_index.contains_key(&r.id) {
            at_line(format!(
                "{} is not registered in materials/index.tsv: a retired material keeps its row, so its slug is never reused",
                r.id
            ));
        }
    }
}
