//! The conventions every endpoint keeps (the docs page's "Conventions"), against the real
//! `saferef-serve` binary: every list takes `page` or `offset` for the same items and answers
//! one `pagination` object; every error answer carries its stable `code`; an entity `id` is
//! also given as `hq_id`.

use reqwest::blocking::{Client, Response};
use serde_json::Value;

use crate::support::binary::Served;

/// The committed dataset served with a developer key, asked through one client.
struct Asked {
    served: Served,
    client: Client,
}

impl Asked {
    fn start() -> Asked {
        Asked {
            served: Served::start("developer", &[]),
            client: Client::new(),
        }
    }

    fn get(&self, path: &str) -> Response {
        self.client
            .get(format!("{}{path}", self.served.server.base))
            .header("x-api-key", &self.served.key)
            .send()
            .unwrap()
    }

    fn json(&self, path: &str) -> (u16, Value) {
        let res = self.get(path);
        let status = res.status().as_u16();
        (status, res.json().unwrap())
    }
}

/// `path` with `extra` appended to its query.
fn with(path: &str, extra: &str) -> String {
    let joiner = if path.contains('?') { '&' } else { '?' };
    format!("{path}{joiner}{extra}")
}

#[test]
fn every_list_pages_by_page_or_offset_and_answers_one_pagination_object() {
    let s = Asked::start();
    let (_, categories) = s.json("/api/found-in/categories");
    let category = categories["categories"][0]["category"]
        .as_str()
        .expect("a found-in category")
        .to_string();
    let lists = [
        "/api/compounds".to_string(),
        "/api/filter?hazard=carcinogen".to_string(),
        "/api/materials".to_string(),
        "/api/products".to_string(),
        "/api/search?q=acid".to_string(),
        "/api/fragrance".to_string(),
        "/api/fragrance/search?q=musk".to_string(),
        "/api/changelog".to_string(),
        "/api/regulatory/by-agency/IARC".to_string(),
        format!("/api/found-in/by-category/{category}"),
        "/api/watchlist".to_string(),
    ];
    for list in &lists {
        let by_page = s.get(&with(list, "limit=3&page=2"));
        assert_eq!(by_page.status(), 200, "{list}");
        let by_page = by_page.bytes().unwrap();
        let by_offset = s.get(&with(list, "offset=3&limit=3")).bytes().unwrap();
        assert_eq!(by_page, by_offset, "{list}: page=2 and offset=3 differ");

        let v: Value = serde_json::from_slice(&by_page).unwrap();
        let p = &v["pagination"];
        let total = p["total"].as_u64().unwrap_or_else(|| panic!("{list}: {v}"));
        assert_eq!(
            (&p["limit"], &p["offset"], &p["page"]),
            (&Value::from(3), &Value::from(3), &Value::from(2)),
            "{list}"
        );
        assert_eq!(p["total_pages"], total.div_ceil(3), "{list}");
        assert_eq!(p["has_more"], 6 < total, "{list}");

        // The first page is the default one, and both at once are refused with a code.
        let first = s.get(&with(list, "limit=3&page=1")).bytes().unwrap();
        let default = s.get(&with(list, "limit=3")).bytes().unwrap();
        assert_eq!(first, default, "{list}");
        let (status, both) = s.json(&with(list, "page=1&offset=0"));
        assert_eq!((status, both["code"].as_str()), (400, Some("bad_request")));
        let (status, bad) = s.json(&with(list, "page=0"));
        assert_eq!((status, bad["code"].as_str()), (400, Some("bad_request")));
    }

    // Paging walks a list whole: every item once, in order, whichever parameter pages it.
    let (_, all) = s.json("/api/compounds?limit=1&hazard=carcinogen");
    let total = all["pagination"]["total"].as_u64().unwrap() as usize;
    let mut seen = Vec::new();
    for page in 1.. {
        let (_, v) = s.json(&format!(
            "/api/compounds?hazard=carcinogen&limit=40&page={page}"
        ));
        let items = v["compounds"].as_array().unwrap();
        seen.extend(items.iter().map(|c| c["hq_id"].clone()));
        if v["pagination"]["has_more"] == false {
            break;
        }
    }
    assert!(total > 40, "more than one page: {total}");
    assert_eq!(seen.len(), total);
    let mut offset = 0;
    let mut walked = Vec::new();
    loop {
        let (_, v) = s.json(&format!(
            "/api/compounds?hazard=carcinogen&limit=40&offset={offset}"
        ));
        let items = v["compounds"].as_array().unwrap();
        if items.is_empty() {
            break;
        }
        walked.extend(items.iter().map(|c| c["hq_id"].clone()));
        offset += items.len();
    }
    assert_eq!(walked, seen);
}

#[test]
fn every_error_answer_carries_its_code() {
    let s = Asked::start();
    let base = &s.served.server.base;
    let cases: Vec<(Response, u16, &str)> = vec![
        (s.get("/api/compounds?limit=1000"), 400, "bad_request"),
        (s.get("/api/compound/hq-c-org-99999x"), 400, "bad_request"),
        (s.get("/api/nothing/here"), 404, "not_found"),
        (s.get("/api/compound/hq-c-org-999999"), 404, "not_found"),
        (
            s.client
                .get(format!("{base}/api/compounds"))
                .send()
                .unwrap(),
            401,
            "unauthorized",
        ),
        (
            s.client
                .get(format!("{base}/api/compounds/compare?ids=71-43-2,50-00-0"))
                .send()
                .unwrap(),
            403,
            "forbidden",
        ),
        (
            s.client
                .delete(format!("{base}/api/compounds"))
                .header("x-api-key", &s.served.key)
                .send()
                .unwrap(),
            405,
            "method_not_allowed",
        ),
        (
            s.client
                .post(format!("{base}/api/compounds/batch"))
                .header("content-type", "text/plain")
                .body("71-43-2")
                .send()
                .unwrap(),
            415,
            "unsupported_media_type",
        ),
        (
            s.client
                .post(format!("{base}/api/compounds/batch"))
                .header("content-type", "application/json")
                .body(vec![b' '; 300 * 1024])
                .send()
                .unwrap(),
            413,
            "payload_too_large",
        ),
        (
            s.client
                .get(format!(
                    "{base}/api/compounds/batch?ids={}",
                    (1..=11)
                        .map(|i| format!("hq-c-org-{i:06}"))
                        .collect::<Vec<_>>()
                        .join(",")
                ))
                .send()
                .unwrap(),
            400,
            "bad_request",
        ),
    ];
    for (res, status, code) in cases {
        let url = res.url().to_string();
        assert_eq!(res.status().as_u16(), status, "{url}");
        let v: Value = res.json().unwrap();
        assert_eq!(v["code"], code, "{url}: {v}");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{url}");
    }
}

#[test]
fn entity_ids_are_also_given_as_hq_id() {
    let s = Asked::start();
    let same = |v: &Value, what: &str| {
        assert!(v["id"].is_string(), "{what}: {v}");
        assert_eq!(v["hq_id"], v["id"], "{what}");
    };
    let (_, materials) = s.json("/api/materials?limit=3");
    let material = &materials["materials"][0];
    same(material, "materials");
    let (_, products) = s.json("/api/products?limit=3");
    let product = &products["products"][0];
    same(product, "products");
    let (_, m) = s.json(&format!(
        "/api/material/{}",
        material["id"].as_str().unwrap()
    ));
    same(&m, "material");
    let (_, p) = s.json(&format!("/api/product/{}", product["id"].as_str().unwrap()));
    same(&p, "product");
    let (_, search) = s.json("/api/search?q=benzene&limit=3");
    same(&search["results"][0], "search");
    let benzene = search["results"][0]["id"].as_str().unwrap().to_string();
    let (_, rel) = s.json(&format!("/api/relationships/{benzene}/graph?depth=2"));
    same(&rel, "graph");
    for node in rel["graph"]["nodes"].as_array().unwrap() {
        same(node, "graph node");
    }
}
