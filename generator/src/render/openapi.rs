//! `GET /api/openapi` (SPEC 4.1): a first OpenAPI 3.1 description listing the endpoints that
//! answer today, and its Postman form (`format=postman`). The full document, with schemas and
//! examples, comes with the documentation issue.

use serde_json::{Value, json};

use super::{Cache, Rendered};

/// The description document's own version (SPEC 9).
pub const DOCUMENT_VERSION: &str = "2.1.0";

/// (path, summary, keyed) of the endpoints the service answers now.
const PATHS: &[(&str, &str, bool)] = &[
    ("/api", "Service, endpoints and dataset totals", false),
    (
        "/api/health",
        "Health, with optional integrity or monitor check",
        false,
    ),
    (
        "/api/compound/{id}",
        "Aggregated record per context, all contexts, or the legacy shape",
        false,
    ),
    ("/api/compound/{id}/raw", "Raw compound record", false),
    (
        "/api/compound/{id}/alternatives",
        "Safer alternatives (basic list without a key)",
        false,
    ),
    (
        "/api/compound/cas/{cas}",
        "Compound by CAS number, optionally redirecting",
        false,
    ),
    ("/api/material/{id}", "Material record", false),
    (
        "/api/product/{id}",
        "Product profile with risk synthesis",
        false,
    ),
    ("/api/product/{id}/raw", "Stored product", false),
    ("/api/badge/{id}", "SVG safety badge", false),
    (
        "/api/openapi",
        "This document; format=postman for a Postman collection",
        false,
    ),
];

fn document() -> Value {
    let paths: serde_json::Map<String, Value> = PATHS
        .iter()
        .map(|(path, summary, keyed)| {
            let mut op = json!({"summary": summary, "responses": {"200": {"description": "OK"}}});
            if *keyed {
                op["security"] = json!([{"ApiKeyHeader": []}, {"ApiKeyQuery": []}]);
            }
            (path.to_string(), json!({"get": op}))
        })
        .collect();
    json!({
        "openapi": "3.1.0",
        "info": {"title": "saferef", "version": DOCUMENT_VERSION, "description": "Chemical and product safety reference. Reference data, not professional advice."},
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {"securitySchemes": {
            "ApiKeyHeader": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
            "ApiKeyQuery": {"type": "apiKey", "in": "query", "name": "api_key"}
        }}
    })
}

fn postman() -> Value {
    let items: Vec<Value> = PATHS
        .iter()
        .map(|(path, summary, _)| {
            json!({"name": summary, "request": {"method": "GET", "url": format!("{{{{base_url}}}}{}", path.replace('{', ":").replace('}', ""))}})
        })
        .collect();
    json!({
        "info": {"name": "saferef", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
        "variable": [{"key": "base_url", "value": "http://127.0.0.1:8080"}],
        "item": items
    })
}

/// `GET /api/openapi?format=`: only `postman` changes the answer; other values are a 400.
pub fn openapi(format: Option<&str>) -> Rendered {
    match format {
        None => Rendered::json(200, &document(), Cache::Reference),
        Some("postman") => Rendered::json(200, &postman(), Cache::Reference),
        Some(other) => Rendered::error(400, format!("format accepts only postman, not {other:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents() {
        let doc: Value = serde_json::from_slice(&openapi(None).body).unwrap();
        assert_eq!(doc["info"]["version"], "2.1.0");
        assert!(doc["paths"]["/api/compound/{id}"]["get"].is_object());
        let pm: Value = serde_json::from_slice(&openapi(Some("postman")).body).unwrap();
        assert_eq!(
            pm["item"][2]["request"]["url"],
            "{{base_url}}/api/compound/:id"
        );
        assert_eq!(openapi(Some("yaml")).status, 400);
    }
}
