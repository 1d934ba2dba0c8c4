//! The schemas of the 2xx JSON answers that are derived from the types the render functions
//! serialise (schemars, serialisation contract), so a field added to an answer's type is in
//! the OpenAPI document without a second edit. Each is inlined whole under its answer's name
//! (`api::Answer`); the answers still written by hand are in `openapi_responses.json`
//! (answers of the runtime's own endpoints, and answers with more than one shape).

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use schemars::transform::ReplaceBoolSchemas;
use serde_json::{Map, Value};

use super::{
    changelog, compound, contexts, documents, entities, found_in, fragrance, lists, pages,
    regulatory, regulatory_status, relationships, root, search, timeline,
};
use crate::model::material::Product;
use crate::model::record::CompoundRecord;

/// The schema of `T` as one self-contained object: no `$defs` (a component's references
/// would resolve against the OpenAPI document, not the schema), no `$schema`, and no `title`
/// (the Rust type's name, which the document does not publish).
fn derived<T: JsonSchema>() -> Value {
    let settings = SchemaSettings::draft2020_12().for_serialize().with(|s| {
        s.inline_subschemas = true;
        s.meta_schema = None;
        // `serde_json::Value` fields are `true` schemas; generated clients want an object.
        let mut any = ReplaceBoolSchemas::default();
        any.skip_additional_properties = true;
        s.transforms.push(Box::new(any));
    });
    let mut schema = settings.into_generator().into_root_schema_for::<T>();
    schema.remove("title");
    schema.to_value()
}

/// Every derived schema, by the answer name the endpoint catalogue gives it.
pub(super) fn schemas() -> Map<String, Value> {
    [
        (
            "Alternatives",
            derived::<compound::AlternativesBody<'static>>(),
        ),
        ("Changelog", derived::<changelog::Body<'static>>()),
        ("CompoundRecord", derived::<CompoundRecord>()),
        ("CompoundSummary", derived::<compound::CasBody<'static>>()),
        ("Contexts", derived::<contexts::Body<'static>>()),
        ("Document", derived::<documents::DocumentJson<'static>>()),
        ("Examples", derived::<pages::examples::Body<'static>>()),
        ("FoundIn", derived::<found_in::CompoundBody<'static>>()),
        (
            "FoundInByCategory",
            derived::<found_in::ByCategoryBody<'static, 'static>>(),
        ),
        (
            "FoundInCategories",
            derived::<found_in::CategoriesBody<'static>>(),
        ),
        (
            "FragranceClasses",
            derived::<fragrance::ClassesBody<'static>>(),
        ),
        ("FragranceList", derived::<fragrance::ListBody<'static>>()),
        (
            "FragranceSearch",
            derived::<fragrance::SearchBody<'static>>(),
        ),
        ("Lookup", derived::<search::LookupBody<'static>>()),
        ("Material", derived::<entities::MaterialOut<'static>>()),
        ("MaterialList", derived::<lists::MaterialsBody<'static>>()),
        ("NameIndex", derived::<pages::name_index::Index>()),
        ("Product", derived::<entities::ProductOut<'static>>()),
        (
            "ProductList",
            derived::<lists::ProductsBody<'static, 'static>>(),
        ),
        ("ProductRecord", derived::<Product>()),
        ("Regulatory", derived::<regulatory::CompoundBody<'static>>()),
        (
            "RegulatoryAgencies",
            derived::<regulatory::AgenciesBody<'static>>(),
        ),
        (
            "RegulatoryByAgency",
            derived::<regulatory::ByAgencyBody<'static, 'static>>(),
        ),
        (
            "RegulatoryStatusVocabulary",
            derived::<regulatory_status::vocabulary::Body<'static>>(),
        ),
        (
            "RelationshipGraph",
            derived::<relationships::GraphBody<'static>>(),
        ),
        (
            "RelationshipStats",
            derived::<relationships::StatsBody<'static>>(),
        ),
        (
            "Relationships",
            derived::<relationships::RelationshipsBody<'static>>(),
        ),
        (
            "ReleaseNotes",
            derived::<documents::ReleaseNotesJson<'static>>(),
        ),
        ("Root", derived::<root::Root<'static>>()),
        ("Search", derived::<search::Body<'static>>()),
        ("Timeline", derived::<timeline::Body<'static>>()),
    ]
    .into_iter()
    .map(|(name, schema)| (name.to_string(), schema))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written() -> Map<String, Value> {
        serde_json::from_str(super::super::openapi::RESPONSES).unwrap()
    }

    #[test]
    fn a_derived_schema_is_self_contained_and_not_also_written_by_hand() {
        let written = written();
        for (name, schema) in schemas() {
            assert!(
                !written.contains_key(&name),
                "{name} is derived and written"
            );
            let text = schema.to_string();
            assert!(!text.contains("\"$ref\""), "{name} refers out: {text}");
            assert!(!text.contains("$defs"), "{name} has definitions");
            assert_eq!(schema["type"], "object", "{name} is an object");
        }
    }

    #[test]
    fn a_field_of_the_answer_type_is_a_property_of_its_schema() {
        let all = schemas();
        // Doc comments become descriptions, and optional fields are not required.
        let timeline = &all["Timeline"];
        assert_eq!(
            timeline["properties"]["undated"]["description"],
            "Values of the record no source dates (not on the timeline)."
        );
        assert!(
            timeline["required"]
                .as_array()
                .unwrap()
                .contains(&"events".into())
        );
        let document = &all["Document"];
        assert!(document["properties"]["envelope_notice"].is_object());
        assert!(
            !document["required"]
                .as_array()
                .unwrap()
                .contains(&"envelope_notice".into())
        );
    }
}
