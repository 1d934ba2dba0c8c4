//! `GET /api/lookup` on the real `saferef-serve` binary: names, synonyms, aliases and CAS
//! numbers (with or without dashes) resolve without a key to entities with their JSON and page
//! links, counted against the public quota; a miss is a 200 with suggestions; a missing, empty
//! or overlong `q` is the JSON 400 every endpoint gives; the body is the one dispatch's.

use saferef_generator::api;
use saferef_generator::render::dispatch::{self, Call, Indexes, Viewer};
use saferef_generator::render::search::SearchIndex;
use serde_json::Value;

use crate::support::binary::{Served, Server};
use crate::support::dataset;

fn get(server: &Server, url: &str) -> (u16, reqwest::header::HeaderMap, Value) {
    let res = reqwest::blocking::get(format!("{}{url}", server.base)).unwrap();
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    (status, headers, res.json().unwrap())
}

fn ids(v: &Value) -> Vec<&str> {
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["id"].as_str().unwrap())
        .collect()
}

#[test]
fn lookup_resolves_names_aliases_and_cas_numbers_without_a_key() {
    let d = dataset();
    let served = Served::of(&d, "developer", &[]);
    let server = &served.server;
    let benzene = d.by_cas("71-43-2").unwrap().hq_id.to_string();
    let bpa = d.by_cas("80-05-7").unwrap().hq_id.to_string();

    // Case, spacing and dashes do not count.
    for q in [
        "Benzene",
        "%20%20BENZENE%20",
        "71-43-2",
        "71432",
        "71%2043%202",
    ] {
        let (status, h, body) = get(server, &format!("/api/lookup?q={q}"));
        assert_eq!(status, 200, "{q}: {body}");
        assert!(ids(&body).contains(&benzene.as_str()), "{q}: {body}");
        assert_eq!(h["x-api-tier"], "public", "{q}");
        assert!(h.contains_key("x-ratelimit-remaining"), "{q}: counted");
        let hit = &body["results"][0];
        assert_eq!(hit["kind"], "compound");
        assert_eq!(hit["name"], "Benzene");
        assert_eq!(hit["json"], format!("/api/compound/{benzene}"));
        assert_eq!(hit["page"], format!("/compound/{benzene}"));
        assert!(body.get("suggestions").is_none(), "{q}");
        // The JSON link answers the record.
        let (status, _, record) = get(server, hit["json"].as_str().unwrap());
        assert_eq!(
            (status, record["hq_id"].as_str()),
            (200, Some(benzene.as_str()))
        );
    }
    // A curated alias.
    let (_, _, body) = get(server, "/api/lookup?q=bpa");
    assert_eq!(ids(&body), [bpa.as_str()]);
    assert_eq!(body["results"][0]["matched"], "alias");
    // A product and a material, by name.
    let product = d.products.values().next().unwrap();
    let material = d.materials.values().next().unwrap();
    for (name, id, page) in [
        (
            &product.name,
            &product.id,
            format!("/product/{}", product.id),
        ),
        (
            &material.name,
            &material.id,
            format!("/material/{}", material.id),
        ),
    ] {
        let q = name.to_lowercase().replace(' ', "%20");
        let (status, _, body) = get(server, &format!("/api/lookup?q={q}"));
        assert_eq!(status, 200);
        let hit = body["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["id"] == id.as_str())
            .unwrap_or_else(|| panic!("{name}: {body}"));
        assert_eq!(hit["page"], page.as_str());
    }

    // No exact match: a 200 with no results and near misses.
    let (status, _, body) = get(server, "/api/lookup?q=benzenne");
    assert_eq!(status, 200);
    assert_eq!(body["results"], serde_json::json!([]));
    let suggested: Vec<&str> = body["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["id"].as_str().unwrap())
        .collect();
    assert!(suggested.contains(&benzene.as_str()), "{body}");

    // The body is the one dispatch's, as the reference's excerpt renders it.
    let index = SearchIndex::build(&d);
    let graph = saferef_generator::aggregate::graph::Graph::build(&d);
    let risk = saferef_generator::render::lists::RiskIndex::build(&d);
    let query = api::pairs("q=71432");
    let want = dispatch::render(
        &d,
        Indexes {
            graph: &graph,
            risk_index: &risk,
            search_index: &index,
        },
        api::Op::Lookup,
        Call {
            params: &[],
            query: &query,
            batch: None,
            today: chrono::Utc::now().date_naive(),
            prepared: None,
        },
        Viewer::PUBLIC,
    )
    .unwrap();
    let res = reqwest::blocking::get(format!("{}/api/lookup?q=71432", server.base)).unwrap();
    assert_eq!(res.status().as_u16(), want.status);
    assert_eq!(res.bytes().unwrap().as_ref(), want.body.as_slice());

    // Bad queries: the JSON 400, private.
    let long = "x".repeat(201);
    for url in [
        "/api/lookup".to_string(),
        "/api/lookup?q=".to_string(),
        "/api/lookup?q=%20%20".to_string(),
        format!("/api/lookup?q={long}"),
    ] {
        let (status, h, body) = get(server, &url);
        assert_eq!(status, 400, "{url}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains('q'),
            "{url}: {body}"
        );
        assert!(h["cache-control"].to_str().unwrap().starts_with("private"));
    }
    let (status, _, _) = get(server, &format!("/api/lookup?q={}", "x".repeat(200)));
    assert_eq!(status, 200, "200 characters are allowed");
    // Another method is a 405.
    let res = reqwest::blocking::Client::new()
        .post(format!("{}/api/lookup?q=benzene", server.base))
        .send()
        .unwrap();
    assert_eq!(res.status(), 405);
}
