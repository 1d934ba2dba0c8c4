//! `GET /api/examples`: curated example requests as JSON, each with real identifiers from the
//! dataset, whether it needs a key, and what it shows. The docs page uses the same list.

use serde::Serialize;

use super::samples::Samples;
use crate::model::Dataset;
use crate::render::{Cache, Rendered};

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Example {
    pub name: &'static str,
    pub description: String,
    pub method: &'static str,
    /// Path and query, relative to the service's base address.
    pub url: String,
    pub key_required: bool,
    /// JSON body of a POST.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<serde_json::Value>,
    pub shows: &'static str,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct Body<'a> {
    description: &'static str,
    key_header: &'static str,
    count: usize,
    examples: &'a [Example],
}

fn get(
    name: &'static str,
    description: String,
    url: String,
    key: bool,
    shows: &'static str,
) -> Example {
    Example {
        name,
        description,
        method: "GET",
        url,
        key_required: key,
        body: None,
        shows,
    }
}

/// The curated list for `d` (empty for a dataset without an ordinary compound).
pub fn list(d: &Dataset) -> Vec<Example> {
    let Some(s) = Samples::pick(d) else {
        return Vec::new();
    };
    let (id, cas, name, ctx) = (&s.compound_id, &s.cas, &s.compound_name, &s.other_context);
    let mut out = vec![
        get(
            "compound",
            format!("{name} for healthy adults (the default context)."),
            format!("/api/compound/{id}"),
            false,
            "risk_level, risk_profile.confidence, the evidence that decided the tier, available_contexts",
        ),
        get(
            "compound-in-context",
            format!("{name} in the {ctx} context."),
            format!("/api/compound/{id}?context={ctx}"),
            false,
            "how the tier changes with the exposed group or route",
        ),
        get(
            "compound-by-cas",
            format!("Resolve CAS {cas} to its compound."),
            format!("/api/compound/cas/{cas}"),
            false,
            "hq_id, name and the compound's address",
        ),
        get(
            "cas-redirect",
            format!("Jump from CAS {cas} to the compound record in one request."),
            format!("/api/compound/cas/{cas}?redirect=true&context={ctx}"),
            false,
            "a 302 to /api/compound/{id}?context=...",
        ),
        get(
            "all-contexts",
            format!("{name} in every context it has."),
            format!("/api/compound/{id}?all_contexts=true"),
            false,
            "one aggregated result per available context",
        ),
        get(
            "raw-record",
            format!("The stored record of {name}, without aggregation."),
            format!("/api/compound/{id}/raw"),
            false,
            "identity, properties, classifications, sources[] and _data_gaps",
        ),
        get(
            "compound-page",
            format!(
                "{name}'s page for people: its tier in each of the 19 contexts with the evidence."
            ),
            format!("/compound/{id}"),
            false,
            "an HTML page (the JSON links it as _links.page)",
        ),
        get(
            "lookup-by-name",
            format!("Find {name} by its name, without a key."),
            format!(
                "/api/lookup?{}",
                serde_urlencoded::to_string([("q", name.to_lowercase())]).expect("a pair encodes")
            ),
            false,
            "kind, id, name, and the json and page links of each exact match",
        ),
        get(
            "badge",
            format!(
                "An embeddable SVG badge of {name}'s tier; link it to the compound's page, /compound/{id}."
            ),
            format!("/api/badge/{id}?context=human_child&style=flat-square"),
            false,
            "an image/svg+xml badge; cacheable for 24 hours",
        ),
        get(
            "health",
            "Service status, version and dataset version.".into(),
            "/api/health".into(),
            false,
            "status, version, commit, dataset_version",
        ),
    ];
    if let Some(m) = &s.material_id {
        out.push(get(
            "material",
            "A material record.".into(),
            format!("/api/material/{m}"),
            false,
            "composition, behaviour, safety summary and alternatives",
        ));
    }
    if let Some(p) = &s.product_id {
        out.push(get(
            "product",
            "A product category's profile.".into(),
            format!("/api/product/{p}"),
            false,
            "composition, synthesis (risk derived from the compounds) and handling guidance",
        ));
    }
    out.extend([
        get(
            "search-alias",
            "Unified search with an abbreviation (BPA resolves to bisphenol A).".into(),
            "/api/search?q=BPA&limit=5".into(),
            true,
            "results by relevance; meta.alias_resolved names the canonical compound",
        ),
        get(
            "compare",
            "Compare two compounds for children.".into(),
            format!(
                "/api/compounds/compare?ids={id},{}&context=human_child",
                s.second_id
            ),
            true,
            "risk profiles, agency matrix, dose-response ratios, shared and unique traits",
        ),
        get(
            "regulatory",
            format!("Classifications of {name} by agency."),
            format!("/api/regulatory/{id}"),
            true,
            "regulatory.count, summary.by_agency and each classification",
        ),
        get(
            "regulatory-calendar",
            "Upcoming changes to limits in the EU.".into(),
            "/api/regulatory-status?view=calendar&jurisdiction=EU".into(),
            true,
            "date-sorted proposed, draft and adopted changes, with coverage",
        ),
        get(
            "found-in",
            format!("Where {name} is found."),
            format!("/api/found-in/{id}"),
            true,
            "found_in[] categories with examples",
        ),
        get(
            "usage",
            "Your key's requests per day over the last 30 days.".into(),
            "/api/keys/usage?days=30".into(),
            true,
            "days[] newest first, with the total",
        ),
    ]);
    out.push(Example {
        name: "batch",
        description: format!("Look up several compounds at once, by id or CAS ({name} by CAS)."),
        method: "POST",
        url: "/api/compounds/batch".into(),
        key_required: false,
        body: Some(serde_json::json!({
            "compounds": [cas, s.second_id],
            "context": "human_child",
        })),
        shows: "results per input (name, risk_level) and meta.cas_resolved; counts as one request",
    });
    out
}

/// `GET /api/examples`
pub fn examples(d: &Dataset) -> Rendered {
    let examples = list(d);
    Rendered::json(
        200,
        &Body {
            description: "Example requests with real identifiers from the current dataset. Paths are relative to the service's base address; send a key in the X-API-Key header where key_required is true.",
            key_header: "X-API-Key",
            count: examples.len(),
            examples: &examples,
        },
        Cache::Reference,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::test_data::{fixture, get_in};

    #[test]
    fn every_public_example_answers_from_the_dataset() {
        let d = fixture();
        let list = list(d);
        assert!(list.len() >= 12);
        let s = Samples::pick(d).unwrap();
        let r = get_in(d, &format!("/api/compound/cas/{}", s.cas));
        assert_eq!(r.status, 200);
        let a = get_in(d, &format!("/api/compound/{}", s.compound_id));
        let b = get_in(
            d,
            &format!(
                "/api/compound/{}?context={}",
                s.compound_id, s.other_context
            ),
        );
        assert_eq!((a.status, b.status), (200, 200));
        let tier = |r: &Rendered| {
            serde_json::from_slice::<serde_json::Value>(&r.body).unwrap()["risk_level"].clone()
        };
        assert_ne!(tier(&a), tier(&b), "the sample context changes the tier");
    }
}
