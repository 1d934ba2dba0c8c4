//! `GET /api/openapi`: the OpenAPI 3.1 document generated from the endpoint
//! catalogue (`crate::api`) — paths, parameters with their bounds and enums, request bodies,
//! response schemas with the error body and the rate-limit headers, the two key schemes,
//! tags — and its Postman v2.1 form (`format=postman`) with a first request that needs no key.

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::error::ApiError;
use super::{Cache, Rendered};
use crate::api::{Access, Answer, ENDPOINTS, Endpoint, In, Kind, Param, Query};
use crate::model::Dataset;

/// The description document's own version (`info.version`): it changes when the document
/// does, and is not the service's version (`x-service-version`); `info.description` says so.
pub const DOCUMENT_VERSION: &str = "2.6.0";
/// `api_schema_version` is the integer 1.
pub const API_SCHEMA_VERSION: u32 = 1;

/// Tag descriptions, in the order the reference presents them.
const TAGS: &[(&str, &str)] = &[
    ("Service", "Root, health, freshness and this document"),
    ("Documents", "Disclaimer, terms, privacy and release notes"),
    ("Compounds", "Compound safety records per exposure context"),
    ("Search", "Unified search with curated aliases"),
    (
        "Materials and products",
        "Materials, products and their risk synthesis",
    ),
    ("Badges", "Embeddable SVG safety badges"),
    (
        "Regulatory",
        "Classifications by agency and the regulatory-status layer",
    ),
    ("Exposure", "Where compounds are found"),
    ("Relationships", "The compound–material–product graph"),
    (
        "Fragrance",
        "Fragrance ingredients and EU labelled allergens",
    ),
    ("Export", "Bulk export with the reference-data envelope"),
    ("Changelog", "Data changes between releases"),
    (
        "Keys",
        "Trial, status, usage, rotation, recovery and erasure",
    ),
    ("Watchlist", "Compounds an account watches"),
    ("Webhooks", "Signed change notifications"),
    (
        "Pages",
        "Reference, playground, examples, dashboard, compliance",
    ),
];

fn schema(kind: Kind, contexts: &[String]) -> Value {
    match kind {
        Kind::Text { min, max } => json!({"type": "string", "minLength": min, "maxLength": max}),
        Kind::Pattern(p) => json!({"type": "string", "pattern": p}),
        Kind::Int { min, max, default } => {
            let mut s = json!({"type": "integer", "minimum": min});
            if let Some(m) = max {
                s["maximum"] = json!(m);
            }
            if let Some(d) = default {
                s["default"] = json!(d);
            }
            s
        }
        Kind::Enum(values) => json!({"type": "string", "enum": values}),
        Kind::Bool => json!({"type": "string", "enum": ["true", "false"]}),
        Kind::Date => json!({"type": "string", "format": "date"}),
        Kind::DateOrTime => {
            json!({"type": "string", "anyOf": [{"format": "date"}, {"format": "date-time"}]})
        }
        Kind::Context => json!({"type": "string", "enum": contexts}),
        Kind::CompoundList { min, max } => json!({
            "type": "string",
            "pattern": "^[^,]+(,[^,]+)*$",
            "description": format!("{min} to {max} comma-separated compound ids or CAS numbers"),
        }),
        Kind::ContextList { min, max } => json!({
            "type": "string",
            "pattern": "^[a-z_]+(,[a-z_]+)*$",
            "description": format!("{min} to {max} comma-separated contexts"),
        }),
    }
}

/// `page` and `offset` exclude each other (a request with both is a 400, `api::CONVENTIONS`),
/// so neither states a `default`: generated clients send every default, which would be both.
/// Their descriptions say what an absent one means.
const EXCLUSIVE: [&str; 2] = ["page", "offset"];

fn parameter(p: &Param, contexts: &[String], example: Option<&str>) -> Value {
    let mut schema = schema(p.kind, contexts);
    if let Some(s) = schema
        .as_object_mut()
        .filter(|_| EXCLUSIVE.contains(&p.name))
    {
        s.remove("default");
    }
    let mut out = json!({
        "name": p.name,
        "in": match p.location { In::Path => "path", In::Query => "query" },
        "required": p.required,
        "description": p.description,
        "schema": schema,
    });
    if let Some(value) = example {
        out["example"] = json!(value);
    }
    out
}

/// The values the endpoint's example request gives its parameters (path segments by the
/// template, then the query), so that clients generating requests from the document
/// (schemathesis) start from records that exist.
fn example_values(e: &Endpoint) -> Vec<(&'static str, &'static str)> {
    let Some(example) = e.example else {
        return Vec::new();
    };
    let (path, query) = example.split_once('?').unwrap_or((example, ""));
    let segments = |p: &'static str| p.split('/').filter(|s| !s.is_empty());
    let from_path = segments(e.path).zip(segments(path)).filter_map(|(t, s)| {
        let name = t.strip_prefix('{')?.strip_suffix('}')?;
        Some((name, s))
    });
    let from_query = query.split('&').filter_map(|pair| pair.split_once('='));
    from_path.chain(from_query).collect()
}

/// A request body that exists in the dataset, for the body schemas that name compounds.
fn body_example(schema: &str) -> Option<Value> {
    match schema {
        "BatchBody" => Some(json!({
            "compounds": ["hq-c-org-000145", "71-43-2"],
            "context": "human_child",
        })),
        "CompoundsBody" => Some(json!({"compounds": ["hq-c-org-000145"]})),
        _ => None,
    }
}

fn schema_ref(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

fn success(e: &Endpoint) -> Value {
    let content = match e.answer {
        Answer::Json(s) => json!({"application/json": {"schema": schema_ref(s)}}),
        Answer::Html => json!({"text/html": {"schema": {"type": "string"}}}),
        Answer::Svg => json!({"image/svg+xml": {"schema": {"type": "string"}}}),
        Answer::Plain(media) => json!({ media: {"schema": {"type": "string"}} }),
        Answer::JsonOrCsv(s) => json!({
            "application/json": {"schema": schema_ref(s)},
            "text/csv": {"schema": {"type": "string"}},
        }),
        Answer::HtmlOrJson(s) => json!({
            "text/html": {"schema": {"type": "string"}},
            "application/json": {"schema": schema_ref(s)},
        }),
    };
    json!({"description": "Success", "headers": rate_headers(), "content": content})
}

fn rate_headers() -> Value {
    let h = |name: &str| {
        (
            name.to_string(),
            json!({"$ref": format!("#/components/headers/{name}")}),
        )
    };
    Value::Object(
        [
            "X-RateLimit-Limit",
            "X-RateLimit-Remaining",
            "X-RateLimit-Reset",
            "X-API-Tier",
        ]
        .into_iter()
        .map(h)
        .collect(),
    )
}

fn error(description: &str) -> Value {
    json!({
        "description": description,
        "headers": rate_headers(),
        "content": {"application/json": {"schema": schema_ref("Error")}},
    })
}

/// The error answers an endpoint can give.
fn errors(e: &Endpoint) -> Vec<(&'static str, Value)> {
    let mut out = vec![
        ("400", error("Malformed id, CAS, context or parameter")),
        ("404", error("Not found")),
        ("405", error("Method not allowed")),
        (
            "429",
            json!({
                "description": "Daily quota exceeded",
                "headers": {"Retry-After": {"$ref": "#/components/headers/Retry-After"}},
                "content": {"application/json": {"schema": schema_ref("Error")}},
            }),
        ),
    ];
    // Public endpoints with a 401 of their own: batch with synthesize=true, health's
    // check=monitor (an administrator token), the billing webhook's signature.
    let own_401 = ["batch", "batchPost", "health", "billingWebhook"].contains(&e.name);
    if e.access != Access::Public || own_401 {
        out.push((
            "401",
            error("Key, token or signature required but missing or invalid"),
        ));
    }
    if e.access == Access::DeveloperForbidden
        || e.path.starts_with("/api/compound")
        || e.answer == Answer::Svg
    {
        out.push(("403", error("Refused for this tier or compound")));
    }
    if e.path.starts_with("/api/compound/") {
        out.push(("422", error("Record unavailable in the aggregated form")));
    }
    if e.method == "POST" {
        out.push(("413", error("Body over 256 KiB")));
        out.push(("415", error("Body is not application/json")));
    }
    if e.body == Some("CodeBody") {
        out.push((
            "202",
            json!({
                "description": "First step ({email}): a code is mailed if an account uses the address",
                "headers": rate_headers(),
                "content": {"application/json": {"schema": schema_ref("Accepted")}},
            }),
        ));
    }
    if e.forwards_retired_ids() {
        out.push((
            "301",
            json!({
                "description": "A retired material or product id: the same path for the id that replaces it in Location, the query kept",
                "headers": {"Location": {"schema": {"type": "string"}, "description": "The path for the replacing id, with the request's query"}},
            }),
        ));
    }
    if e.name == "compoundByCas" {
        out.push((
            "302",
            json!({"description": "redirect=true: the compound's URL in Location"}),
        ));
    }
    out.push(("503", error("A store or summary is unavailable; retry")));
    // A badge URL's errors are gray badges (the docs page's "Badges"), but for another method;
    // a retired id's forward is no badge.
    if e.answer == Answer::Svg {
        for (status, body) in out.iter_mut().filter(|(s, _)| !["405", "301"].contains(s)) {
            body["content"] = json!({"image/svg+xml": {"schema": {"type": "string"}}});
            if *status == "404" {
                body["description"] = json!("Not found: a gray “not found” badge");
            }
        }
    }
    out
}

fn operation(e: &Endpoint, contexts: &[String]) -> Value {
    let mut responses = Map::new();
    responses.insert(e.status.to_string(), success(e));
    for (status, body) in errors(e) {
        responses.insert(status.to_string(), body);
    }
    let examples = example_values(e);
    let example = |name: &str| examples.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
    let mut op = json!({
        "operationId": e.name,
        "summary": e.summary,
        "tags": [e.tag],
        "parameters": e.params.iter().map(|p| parameter(p, contexts, example(p.name))).collect::<Vec<_>>(),
        "responses": responses,
        "x-quota-cost": e.cost,
    });
    op["security"] = match e.access {
        Access::Public => json!([{}, {"ApiKeyHeader": []}, {"ApiKeyQuery": []}]),
        _ => json!([{"ApiKeyHeader": []}, {"ApiKeyQuery": []}]),
    };
    if let Some(body) = e.body {
        let mut content = json!({"schema": schema_ref(body)});
        if let Some(example) = body_example(body) {
            content["example"] = example;
        }
        op["requestBody"] = json!({
            "required": true,
            "content": {"application/json": content},
        });
    }
    if let Some(example) = e.example {
        op["x-example-request"] = json!(example);
    }
    op
}

/// Every schema, each derived from the type answered or read (`openapi_schemas`).
fn schemas() -> Value {
    Value::Object(super::openapi_schemas::schemas())
}

fn headers() -> Value {
    let int = |d: &str| json!({"description": d, "schema": {"type": "integer"}});
    let text = |d: &str| json!({"description": d, "schema": {"type": "string"}});
    json!({
        "X-RateLimit-Limit": int("Daily quota of the caller's tier (absent for enterprise)"),
        "X-RateLimit-Remaining": int("Requests left today"),
        "X-RateLimit-Reset": int("When the window resets, Unix time in milliseconds (00:00 UTC)"),
        "X-API-Tier": text("public, developer, pro or enterprise"),
        "Retry-After": int("Seconds until the quota resets"),
    })
}

/// The OpenAPI 3.1 description of the interface.
#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct Document {
    openapi: &'static str,
    info: Value,
    servers: Value,
    tags: Value,
    paths: Map<String, Value>,
    components: Value,
}

/// The Postman v2.1 collection.
#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct Postman {
    info: Value,
    variable: Value,
    item: Vec<Value>,
}

/// This document (OpenAPI 3.1), or with `format=postman` the Postman v2.1 collection
/// (untagged: each has its own fields).
#[derive(Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub(super) enum OpenApiAnswer {
    Document(Box<Document>),
    Postman(Postman),
}

fn document(dataset: &Dataset) -> Document {
    let contexts: Vec<String> = dataset
        .contexts
        .contexts
        .iter()
        .map(|c| c.name.clone())
        .collect();
    let mut paths = Map::new();
    for e in ENDPOINTS {
        let item = paths.entry(e.path.to_string()).or_insert_with(|| json!({}));
        item[e.method.to_ascii_lowercase()] = operation(e, &contexts);
    }
    Document {
        openapi: "3.1.0",
        info: json!({
            "title": "saferef",
            "version": DOCUMENT_VERSION,
            "description": "Chemical and product safety reference. Reference data, not professional advice. Every path is also served under /api/v1/, which the service always answers itself (a CDN in front of it serves no file there and routes on the query only): send a key in X-API-Key there for the keyed forms of alternatives and products, which their answers link as _links.keyed. Pages on other origins may call every endpoint (CORS): responses carry Access-Control-Allow-Origin and expose ETag and the rate-limit headers, and OPTIONS answers the preflight a browser sends before a request with X-API-Key or a JSON body (the docs page, Browser access). Versions: info.version is this document's own version, raised when the description changes; x-service-version is the version of the service that serves it (GET /api, GET /api/health); x-api-schema-version is the generation of the response shapes, the api_schema_version of GET /api. Conventions: ".to_string() + crate::api::CONVENTIONS,
            "x-api-schema-version": API_SCHEMA_VERSION,
            "x-service-version": crate::SERVICE_VERSION,
        }),
        // The public origin the release was built for, as the pages' canonical links name it.
        servers: json!([{"url": dataset.site_origin.as_deref().unwrap_or("/")}]),
        tags: TAGS
            .iter()
            .map(|(name, d)| json!({"name": name, "description": d}))
            .collect(),
        paths,
        components: json!({
            "securitySchemes": {
                "ApiKeyHeader": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
                "ApiKeyQuery": {"type": "apiKey", "in": "query", "name": "api_key"},
            },
            "schemas": schemas(),
            "headers": headers(),
        }),
    }
}

fn postman() -> Postman {
    let mut folders: Vec<(&str, Vec<Value>)> = TAGS.iter().map(|(t, _)| (*t, Vec::new())).collect();
    for e in ENDPOINTS {
        let raw = e
            .example
            .map_or_else(|| e.path.replace('{', ":").replace('}', ""), str::to_string);
        let mut request = json!({
            "method": e.method,
            "url": format!("{{{{base_url}}}}{raw}"),
            "description": e.summary,
        });
        if e.access != Access::Public {
            request["header"] = json!([{"key": "X-API-Key", "value": "{{api_key}}"}]);
        }
        if e.body.is_some() {
            request["header"] = json!([
                {"key": "Content-Type", "value": "application/json"},
                {"key": "X-API-Key", "value": "{{api_key}}"},
            ]);
            request["body"] = json!({"mode": "raw", "raw": "{}"});
        }
        if let Some((_, items)) = folders.iter_mut().find(|(t, _)| *t == e.tag) {
            items.push(json!({"name": e.summary, "request": request}));
        }
    }
    let first = json!({
        "name": "First call: benzene for a child, no key needed",
        "request": {"method": "GET", "url": "{{base_url}}/api/compound/cas/71-43-2?context=human_child"},
    });
    let mut items = vec![first];
    items.extend(
        folders
            .into_iter()
            .filter(|(_, items)| !items.is_empty())
            .map(|(name, items)| json!({"name": name, "item": items})),
    );
    Postman {
        info: json!({
            "name": "saferef",
            "description": "Chemical and product safety reference. Set base_url to the service's origin first (no request works before), and api_key for keyed requests.",
            "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
        }),
        variable: json!([
            {
                "key": "base_url",
                "value": "",
                "description": "The service's origin, e.g. https://api.example.org (no trailing slash); saferef-serve listens on http://127.0.0.1:8080 unless told otherwise",
            },
            {"key": "api_key", "value": ""},
        ]),
        item: items,
    }
}

/// `GET /api/openapi?format=`: only `postman` changes the answer; other values are a 400.
/// `GET /api/openapi`'s `format`: the document, or `postman` for the collection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    OpenApi,
    Postman,
}

impl Format {
    pub fn parse(q: &dyn Query) -> Result<Format, ApiError> {
        match q.get("format") {
            None => Ok(Format::OpenApi),
            Some("postman") => Ok(Format::Postman),
            Some(other) => Err(ApiError::bad_request(format!(
                "format accepts only postman, not {}",
                super::lists::quoted(other)
            ))),
        }
    }
}

pub fn openapi(dataset: &Dataset, format: Format) -> Rendered {
    match format {
        Format::OpenApi => Rendered::json(
            200,
            &OpenApiAnswer::Document(Box::new(document(dataset))),
            Cache::Reference,
        ),
        Format::Postman => {
            Rendered::json(200, &OpenApiAnswer::Postman(postman()), Cache::Reference)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::test_data::{dataset, get};

    #[test]
    fn the_document_covers_every_catalogued_endpoint() {
        let d = dataset();
        let doc: Value = serde_json::from_slice(&openapi(d, Format::OpenApi).body).unwrap();
        assert_eq!(doc["openapi"], "3.1.0");
        assert_eq!(doc["info"]["version"], "2.6.0");
        for e in ENDPOINTS {
            let op = &doc["paths"][e.path][e.method.to_ascii_lowercase()];
            assert_eq!(op["operationId"], e.name, "{} {}", e.method, e.path);
        }
        let compound = &doc["paths"]["/api/compound/{id}"]["get"];
        let context = compound["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "context")
            .unwrap();
        assert_eq!(context["schema"]["enum"].as_array().unwrap().len(), 19);
        let search = &doc["paths"]["/api/search"]["get"];
        assert_eq!(search["security"].as_array().unwrap().len(), 2, "keyed");
        let limit = &search["parameters"][1]["schema"];
        assert_eq!(
            (limit["minimum"].clone(), limit["maximum"].clone()),
            (json!(1), json!(100))
        );
        assert_eq!(doc["paths"]["/api/export"]["get"]["x-quota-cost"], 10);
    }

    /// Every `$ref` names a schema the document holds, and every JSON success answer has a
    /// named schema with its properties (no bare `{"type": "object"}`).
    #[test]
    fn every_reference_resolves_and_every_json_answer_is_typed() {
        let d = dataset();
        let doc: Value = serde_json::from_slice(&openapi(d, Format::OpenApi).body).unwrap();
        let schemas = doc["components"]["schemas"].as_object().unwrap();
        fn refs(v: &Value, out: &mut Vec<String>) {
            match v {
                Value::Object(m) => {
                    if let Some(Value::String(r)) = m.get("$ref") {
                        out.push(r.clone());
                    }
                    m.values().for_each(|v| refs(v, out));
                }
                Value::Array(a) => a.iter().for_each(|v| refs(v, out)),
                _ => {}
            }
        }
        let mut found = Vec::new();
        refs(&doc, &mut found);
        for r in &found {
            let name = r.strip_prefix("#/components/").unwrap();
            let (kind, name) = name.split_once('/').unwrap();
            assert!(doc["components"][kind].get(name).is_some(), "{r} resolves");
        }
        for e in ENDPOINTS {
            let name = match e.answer {
                Answer::Json(s) | Answer::JsonOrCsv(s) | Answer::HtmlOrJson(s) => s,
                Answer::Html | Answer::Svg | Answer::Plain(_) => continue,
            };
            let schema = &schemas[name];
            let shapes = match schema.get("anyOf").and_then(Value::as_array) {
                Some(choices) => choices.iter().collect(),
                None => vec![schema],
            };
            for shape in shapes {
                assert!(
                    shape.get("properties").is_some(),
                    "{}: {name} lists its properties",
                    e.name
                );
            }
        }
    }

    #[test]
    fn the_postman_collection_starts_with_a_call_that_needs_no_key() {
        let d = dataset();
        let pm: Value = serde_json::from_slice(&openapi(d, Format::Postman).body).unwrap();
        assert_eq!(
            pm["item"][0]["request"]["url"],
            "{{base_url}}/api/compound/cas/71-43-2?context=human_child"
        );
        assert!(pm["item"][0]["request"].get("header").is_none());
        assert_eq!(get("/api/openapi?format=yaml").status, 400);
    }
}
