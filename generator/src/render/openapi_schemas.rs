//! The schema of every answer and request body the OpenAPI document names, derived from the
//! type that is serialised or read (schemars, serialisation or deserialisation contract), so a
//! field added to a type is in the document without a second edit. Each is inlined whole
//! under its name (`api::Answer`, `Endpoint::body`). An answer with several shapes is an
//! untagged enum of them, serialised as such, and published as one object that merges the
//! shapes (`merged`); the runtime's own answers and bodies are the types of
//! `runtime_answers`, which it serialises.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use schemars::transform::ReplaceBoolSchemas;
use serde_json::{Map, Value};

use super::runtime_answers::{accounts, billing, freshness, health, keys, watchlist, webhooks};
use super::{
    batch, changelog, compare, compound, contexts, documents, entities, error, export, found_in,
    fragrance, lists, openapi, pages, regulatory, regulatory_status, relationships, root, search,
    timeline,
};
use crate::model::material::Product;
use crate::model::record::CompoundRecord;

/// A closed set of strings, or null: the `enum` of an optional field that holds one of
/// `values` (`#[schemars(extend("enum" = nullable(&VALUES)))]`).
pub(crate) fn nullable(values: &[&'static str]) -> Vec<Option<&'static str>> {
    values.iter().copied().map(Some).chain([None]).collect()
}

/// The schema of `T` under `settings` as one self-contained object: no `$defs` (a
/// component's references would resolve against the OpenAPI document, not the schema), no
/// `$schema`, and no `title` (the Rust type's name, which the document does not publish).
fn inlined<T: JsonSchema>(settings: SchemaSettings) -> Value {
    let settings = settings.with(|s| {
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

/// An answer's schema: what `T` serialises to, its shapes merged.
fn derived<T: JsonSchema>() -> Value {
    merged(inlined::<T>(SchemaSettings::draft2020_12().for_serialize()))
}

/// An answer with several shapes (an untagged enum: the `anyOf` of its variants) as one
/// object: every shape's properties, required where every shape requires them; a property the
/// shapes give different schemas is the choice of those (merged in turn when each is an
/// object). Fields an object may add (a flattened optional enum: its own properties beside
/// the `anyOf` of the enum's shapes) become optional properties of it. Generated clients read
/// one model per answer: openapi-python-client splits a choice of inline objects into a union
/// of models, or drops it whole having named its parts twice.
fn merged(mut schema: Value) -> Value {
    let Some(Value::Array(shapes)) = schema.get("anyOf").cloned() else {
        return schema;
    };
    if schema.get("properties").is_some() {
        let added = shapes.iter().filter(|s| is_object(s));
        let added: Vec<(String, Value)> = added
            .flat_map(|s| s["properties"].as_object().cloned().unwrap_or_default())
            .collect();
        if let Some(object) = schema.as_object_mut() {
            object.remove("anyOf");
            object.remove("unevaluatedProperties");
        }
        if let Some(properties) = schema["properties"].as_object_mut() {
            for (name, property) in added {
                properties.entry(name).or_insert(property);
            }
        }
        return schema;
    }
    if !shapes.iter().all(is_object) {
        return schema;
    }
    let mut properties: Vec<(String, Vec<Value>)> = Vec::new();
    for shape in &shapes {
        for (name, property) in shape["properties"].as_object().into_iter().flatten() {
            match properties.iter_mut().find(|(n, _)| n == name) {
                Some((_, seen)) if seen.contains(property) => {}
                Some((_, seen)) => seen.push(property.clone()),
                None => properties.push((name.clone(), vec![property.clone()])),
            }
        }
    }
    let required_by_all = |name: &str| {
        shapes.iter().all(|s| {
            s["required"]
                .as_array()
                .is_some_and(|r| r.iter().any(|n| n == name))
        })
    };
    let required: Vec<Value> = properties
        .iter()
        .filter(|(name, _)| required_by_all(name))
        .map(|(name, _)| Value::from(name.as_str()))
        .collect();
    let properties: Map<String, Value> = properties
        .into_iter()
        .map(|(name, mut seen)| {
            let property = match seen.len() {
                1 => seen.remove(0),
                _ => merged(serde_json::json!({"anyOf": seen})),
            };
            (name, property)
        })
        .collect();
    let mut out = serde_json::json!({"type": "object", "properties": properties});
    if !required.is_empty() {
        out["required"] = Value::Array(required);
    }
    if let Some(description) = schema.get("description") {
        out["description"] = description.clone();
    }
    out
}

fn is_object(schema: &Value) -> bool {
    schema["type"] == "object" && schema.get("properties").is_some()
}

/// A request body's schema: what `T` deserialises from.
fn body<T: JsonSchema>() -> Value {
    inlined::<T>(SchemaSettings::draft2020_12().for_deserialize())
}

/// Every schema of the document, by the name the endpoint catalogue gives it.
pub(super) fn schemas() -> Map<String, Value> {
    [
        ("Accepted", derived::<accounts::Accepted>()),
        (
            "Alternatives",
            derived::<compound::AlternativesBody<'static>>(),
        ),
        ("Batch", derived::<batch::Body<'static>>()),
        ("BatchBody", body::<batch::BatchRequest>()),
        ("BillingEvent", body::<billing::BillingEvent>()),
        (
            "BillingReceived",
            derived::<billing::BillingReceived<'static>>(),
        ),
        ("Changelog", derived::<changelog::Body<'static>>()),
        ("CodeBody", body::<accounts::CodeBody>()),
        ("Compare", derived::<compare::CompareBody<'static>>()),
        ("Compound", derived::<compound::CompoundBody<'static>>()),
        ("CompoundList", derived::<lists::CompoundList<'static>>()),
        ("CompoundRecord", derived::<CompoundRecord>()),
        ("CompoundSummary", derived::<compound::CasBody<'static>>()),
        ("CompoundsBody", body::<watchlist::CompoundsBody>()),
        ("Contexts", derived::<contexts::Body<'static>>()),
        ("Document", derived::<documents::DocumentJson<'static>>()),
        ("EmailBody", body::<accounts::EmailBody>()),
        ("Erased", derived::<accounts::ErasedReply>()),
        (
            "Error",
            derived::<error::ErrorBody<Option<error::ErrorFields<'static>>>>(),
        ),
        ("Examples", derived::<pages::examples::Body<'static>>()),
        ("Export", derived::<export::Export>()),
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
        ("Freshness", derived::<freshness::Summary>()),
        ("Health", derived::<health::Health<'static>>()),
        ("KeyRotated", derived::<keys::KeyRotated<'static>>()),
        ("KeyStatus", derived::<keys::KeyStatus<'static>>()),
        ("KeyUsage", derived::<keys::KeyUsage>()),
        ("Lookup", derived::<search::LookupBody<'static>>()),
        ("Material", derived::<entities::MaterialOut<'static>>()),
        ("MaterialList", derived::<lists::MaterialsBody<'static>>()),
        ("NameIndex", derived::<pages::name_index::Index>()),
        ("OpenApiDocument", derived::<openapi::OpenApiAnswer>()),
        ("Product", derived::<entities::ProductOut<'static>>()),
        (
            "ProductList",
            derived::<lists::ProductsBody<'static, 'static>>(),
        ),
        ("ProductRecord", derived::<Product>()),
        ("Recovered", derived::<accounts::Recovered>()),
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
            "RegulatoryStatus",
            derived::<regulatory_status::RegulatoryStatusBody<'static>>(),
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
        ("TrialAccepted", derived::<accounts::TrialAccepted>()),
        ("Watchlist", derived::<watchlist::Watchlist<'static>>()),
        ("WatchlistAdded", derived::<watchlist::Added>()),
        ("WatchlistChecked", derived::<watchlist::CheckedList>()),
        ("WatchlistRemoved", derived::<watchlist::Removed<'static>>()),
        ("WebhookBody", body::<webhooks::WebhookBody>()),
        (
            "WebhookCreated",
            derived::<webhooks::WebhookCreated<'static>>(),
        ),
        (
            "WebhookDeleted",
            derived::<webhooks::WebhookDeleted<'static>>(),
        ),
        (
            "WebhookTestQueued",
            derived::<webhooks::WebhookTestQueued<'static>>(),
        ),
        ("Webhooks", derived::<webhooks::Webhooks<'static>>()),
    ]
    .into_iter()
    .map(|(name, schema)| (name.to_string(), schema))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Answer, ENDPOINTS};

    /// Every schema is an object, or a choice of objects (an answer with several shapes).
    fn shapes(schema: &Value) -> Vec<&Value> {
        match schema.get("anyOf").and_then(Value::as_array) {
            Some(choices) if schema.get("properties").is_none() => choices.iter().collect(),
            _ => vec![schema],
        }
    }

    #[test]
    fn every_schema_is_self_contained_and_describes_objects() {
        for (name, schema) in schemas() {
            let text = schema.to_string();
            assert!(!text.contains("\"$ref\""), "{name} refers out: {text}");
            assert!(!text.contains("$defs"), "{name} has definitions");
            for shape in shapes(&schema) {
                assert_eq!(shape["type"], "object", "{name}: {shape}");
                assert!(shape.get("properties").is_some(), "{name} lists properties");
            }
        }
    }

    /// The document publishes these schemas and no other: none is written by hand beside its
    /// type, and every answer and body the catalogue names is one of them.
    #[test]
    fn no_schema_is_written_by_hand() {
        let derived = schemas();
        let document: Value = serde_json::from_slice(
            &openapi::openapi(
                crate::render::test_data::fixture(),
                openapi::Format::OpenApi,
            )
            .body,
        )
        .unwrap();
        let published = document["components"]["schemas"].as_object().unwrap();
        assert_eq!(
            published, &derived,
            "the document's schemas are the derived ones"
        );
        for e in ENDPOINTS {
            let answer = match e.answer {
                Answer::Json(s) | Answer::JsonOrCsv(s) | Answer::HtmlOrJson(s) => Some(s),
                Answer::Html | Answer::Svg | Answer::Plain(_) => None,
            };
            for name in answer.into_iter().chain(e.body) {
                assert!(derived.contains_key(name), "{}: {name} is derived", e.name);
            }
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

    /// An answer with several shapes holds every shape's fields, required only where every
    /// shape has them.
    #[test]
    fn a_multi_shape_answer_merges_its_shapes() {
        let all = schemas();
        let required = |s: &Value, field: &str| {
            s["required"]
                .as_array()
                .is_some_and(|r| r.contains(&field.into()))
        };
        let compound = &all["Compound"];
        for field in ["context", "risk_level", "contexts", "safety", "_links"] {
            assert!(compound["properties"][field].is_object(), "{field}");
        }
        assert!(required(compound, "hq_id") && required(compound, "risk_profile"));
        assert!(!required(compound, "risk_level") && !required(compound, "contexts"));
        let webhooks = &all["Webhooks"];
        assert!(required(webhooks, "limit") && !required(webhooks, "webhooks"));
        assert!(webhooks["properties"]["deliveries"].is_object());
        // Compare's `comparison` differs by mode: its two objects are merged in turn.
        let comparison = &all["Compare"]["properties"]["comparison"];
        assert!(comparison["properties"]["risk_matrix"].is_object());
        assert!(comparison["properties"]["dose_response"].is_object());
        assert!(required(comparison, "compounds") && !required(comparison, "context"));
    }

    /// A request body states what its type reads: `deny_unknown_fields` closes it, and the
    /// alias schemars does not read is stated beside the field.
    #[test]
    fn a_body_schema_is_what_its_type_reads() {
        let all = schemas();
        let batch = &all["BatchBody"];
        assert_eq!(batch["additionalProperties"], false);
        assert_eq!(
            batch["properties"]["ids"], batch["properties"]["compounds"],
            "ids is compounds' alias"
        );
        assert_eq!(batch["properties"]["compounds"]["maxItems"], 100);
        let code = &all["CodeBody"];
        assert_eq!(code["required"], serde_json::json!(["email"]));
        assert_eq!(code["properties"]["email"]["format"], "email");
    }
}
