//! A retired product id (`data/retired.tsv`) on the real `saferef-serve` binary, every request
//! answered by the runtime itself (a tree of the snapshot alone, no `_redirects` rule): each
//! path that names it answers 301 to the same path for its replacement with the query kept,
//! for a public caller and a keyed one alike, and no list names it. The static tree's own
//! rules are checked by `static_tree.rs` (the binary on a full build) and `netlify_config.rs`
//! (Netlify's parser).

use crate::support::binary::Served;
use crate::support::dataset;

const RETIRED: &str = "hq-p-wer-000032";
const REPLACEMENT: &str = "hq-p-chd-000023";

#[test]
fn a_retired_product_id_forwards_every_path_to_its_replacement_with_the_query() {
    let d = dataset();
    let retirement = d
        .retired
        .get(RETIRED)
        .expect("the committed registry retires it");
    assert_eq!(retirement.replaced_by, REPLACEMENT);
    assert!(!d.products.contains_key(RETIRED) && d.products.contains_key(REPLACEMENT));
    let served = Served::of(&d, "developer", &[]);
    let client = reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let base = &served.server.base;
    // The query as the runtime reads it, encoded again (a space as `+`). The relationships
    // are a keyed endpoint: without a rule of the tree, a public caller meets its 401 first.
    for (path, query, kept) in [
        ("/api/product/{id}", "?utm_source=feed", "?utm_source=feed"),
        ("/api/product/{id}/raw", "", ""),
        ("/product/{id}", "?ref=old%20link", "?ref=old+link"),
        ("/api/badge/{id}", "?style=pill", "?style=pill"),
        (
            "/api/relationships/{id}",
            "?rel_type=material",
            "?rel_type=material",
        ),
        ("/api/relationships/{id}/graph", "?depth=2", "?depth=2"),
    ] {
        let from = format!("{}{query}", path.replace("{id}", RETIRED));
        let to = format!("{}{kept}", path.replace("{id}", REPLACEMENT));
        let public = !path.starts_with("/api/relationships");
        let callers = [None, Some(served.key.as_str())];
        for key in callers.into_iter().filter(|k| public || k.is_some()) {
            let mut req = client.get(format!("{base}{from}"));
            if let Some(k) = key {
                req = req.header("x-api-key", k);
            }
            let res = req.send().unwrap();
            let who = if key.is_some() { "keyed" } else { "public" };
            assert_eq!(res.status(), 301, "{who} {from}");
            assert_eq!(res.headers()["location"], to.as_str(), "{who} {from}");
        }
        // The replacement answers where the forward leads (relationships with a key).
        let res = client
            .get(format!("{base}{to}"))
            .header("x-api-key", &served.key)
            .send()
            .unwrap();
        assert_eq!(res.status(), 200, "{to}");
    }
    // A path of another family is not forwarded: a product id is no material's.
    let res = client
        .get(format!("{base}/api/material/{RETIRED}"))
        .send()
        .unwrap();
    assert_eq!(res.status(), 400);
    // The products list and the search never name the retired id.
    for url in [
        "/api/products?search=sleepwear&limit=100".to_string(),
        "/api/search?q=sleepwear&type=product&limit=100".to_string(),
    ] {
        let res = client
            .get(format!("{base}{url}"))
            .header("x-api-key", &served.key)
            .send()
            .unwrap();
        assert_eq!(res.status(), 200, "{url}");
        let body = res.text().unwrap();
        assert!(body.contains(REPLACEMENT), "{url}: {body}");
        assert!(!body.contains(RETIRED), "{url}");
    }
}
