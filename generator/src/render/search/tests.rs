//! Unit tests of the search over the committed dataset: aliases, typos, scores, paging,
//! refusals, hostile input and the distance.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::score::Scratch;
use super::{SearchIndex, search_raw as search};
use crate::model::Dataset;
use crate::model::vocab::WatchClass;
use crate::render::Cache;
use crate::render::test_data;

fn data() -> (&'static Dataset, &'static SearchIndex) {
    static INDEX: OnceLock<SearchIndex> = OnceLock::new();
    let dataset = test_data::dataset();
    (dataset, INDEX.get_or_init(|| SearchIndex::build(dataset)))
}

fn run(q: &str, params: &[(&str, &str)]) -> (u16, Value) {
    let (dataset, index) = data();
    let get = |k: &str| params.iter().find(|(n, _)| *n == k).map(|(_, v)| *v);
    let r = search(
        index,
        dataset,
        Some(q),
        get("limit"),
        get("offset"),
        get("type"),
    );
    assert_eq!(r.cache, Cache::Private);
    (r.status, serde_json::from_slice(&r.body).unwrap())
}

const BPA: &str = "hq-c-org-000218";

#[test]
fn aliases_resolve_whatever_the_case_and_spacing() {
    for q in ["BPA", " b p a ", "bpa"] {
        let (status, body) = run(q, &[]);
        assert_eq!(status, 200, "{q}");
        assert_eq!(body["meta"]["alias_resolved"], BPA, "{q}");
        let first = &body["results"][0];
        assert_eq!(first["id"], BPA, "{q}");
        assert_eq!(first["cas"], "80-05-7");
        assert_eq!(first["score"], 100);
        assert_eq!(first["alias_boosted"], true);
        assert_eq!(first["matched"], "alias");
        assert_eq!(body["query"], q.trim());
    }
    // An alias only boosts: other results keep their own scores and no flag.
    let (_, body) = run("BPA", &[]);
    let others = body["results"].as_array().unwrap();
    assert!(others[1..].iter().all(|r| r.get("alias_boosted").is_none()));
}

#[test]
fn aliases_are_skipped_for_products_and_materials() {
    for kind in ["product", "material"] {
        let (status, body) = run("BPA", &[("type", kind)]);
        assert_eq!(status, 200);
        assert_eq!(body["meta"]["alias_resolved"], Value::Null);
        let results = body["results"].as_array().unwrap();
        assert!(results.iter().all(|r| r["entity_type"] == kind));
    }
    let (_, body) = run("BPA", &[("type", "compound")]);
    assert_eq!(body["meta"]["alias_resolved"], BPA);
    let (_, body) = run("bisphenol", &[]);
    assert_eq!(body["meta"]["alias_resolved"], Value::Null);
}

#[test]
fn a_typo_still_finds_the_compound() {
    let (_, body) = run("formaldehide", &[]);
    let results = body["results"].as_array().unwrap();
    let first = &results[0];
    assert_eq!(first["name"], "Formaldehyde");
    assert_eq!(first["cas"], "50-00-0");
    assert_eq!(first["matched"], "name");
    // One edit from the whole name; names that only contain the word come after.
    assert_eq!(first["score"], 50);
    assert!(
        results[1..]
            .iter()
            .all(|r| r["score"].as_u64().unwrap() < 50)
    );
    // Two edits are tolerated from 9 characters, none below 5.
    let (_, body) = run("formaldehdie", &[]);
    assert_eq!(body["results"][0]["name"], "Formaldehyde");
    let (_, body) = run("laed", &[("type", "compound")]);
    assert!(
        body["results"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["name"] != "Lead")
    );
}

#[test]
fn exact_names_identifiers_and_cas_score_100() {
    let (_, body) = run("80-05-7", &[]);
    assert_eq!(body["results"][0]["id"], BPA);
    assert_eq!(body["results"][0]["matched"], "cas");
    assert_eq!(body["results"][0]["score"], 100);
    let (_, body) = run(BPA, &[]);
    assert_eq!(body["results"][0]["matched"], "id");
    let (_, body) = run("IISBACLAFKSPIT-UHFFFAOYSA-N", &[]);
    assert_eq!(body["results"][0]["id"], BPA);
    assert_eq!(body["results"][0]["matched"], "inchi_key");
    let (_, body) = run("formaldehyde", &[]);
    assert_eq!(body["results"][0]["name"], "Formaldehyde");
    assert_eq!(body["results"][0]["score"], 100);
}

#[test]
fn results_are_ordered_and_paged() {
    let (_, all) = run("phthalate", &[("limit", "100")]);
    let results = all["results"].as_array().unwrap();
    let total = all["meta"]["total"].as_u64().unwrap() as usize;
    assert!(total > 20, "{total}");
    let scores: Vec<u64> = results
        .iter()
        .map(|r| r["score"].as_u64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]));
    assert!(scores.iter().all(|s| (1..=100).contains(s)));
    let (_, page) = run("phthalate", &[("limit", "5"), ("offset", "3")]);
    assert_eq!(page["meta"]["limit"], 5);
    assert_eq!(page["meta"]["offset"], 3);
    assert_eq!(page["meta"]["total"], all["meta"]["total"]);
    assert_eq!(page["results"].as_array().unwrap()[..], results[3..8]);
    let (_, past) = run("phthalate", &[("offset", "100000")]);
    assert_eq!(past["results"].as_array().unwrap().len(), 0);
    assert_eq!(past["meta"]["total"], all["meta"]["total"]);
}

#[test]
fn every_entity_type_is_searched() {
    let (dataset, _) = data();
    let product = dataset.products.values().next().unwrap();
    let material = dataset.materials.values().next().unwrap();
    let (_, body) = run(&product.name, &[("type", "product")]);
    assert_eq!(body["results"][0]["id"], product.id.as_str());
    assert!(body["results"][0].get("cas").is_none());
    let (_, body) = run(&material.slug, &[("type", "material")]);
    assert!(
        body["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["id"] == material.id.as_str())
    );
    let (_, body) = run("herbicide", &[("type", "compound")]);
    assert!(body["meta"]["total"].as_u64().unwrap() > 5);
}

#[test]
fn critical_threats_are_never_returned() {
    let (dataset, _) = data();
    let threats: Vec<_> = dataset
        .compounds
        .values()
        .filter(|r| r.watch_class == WatchClass::CriticalThreat)
        .collect();
    assert!(
        !threats.is_empty(),
        "the corpus has critical-threat records"
    );
    for r in threats {
        for q in [
            r.name.as_str(),
            r.cas.as_str(),
            r.hq_id.to_string().as_str(),
        ] {
            let (_, body) = run(q, &[("limit", "100")]);
            let results = body["results"].as_array().unwrap();
            assert!(
                results
                    .iter()
                    .all(|h| h["id"] != r.hq_id.to_string().as_str()),
                "{q}"
            );
        }
    }
}

#[test]
fn bad_parameters_are_400_naming_the_valid_values() {
    let (dataset, index) = data();
    let status = |q: Option<&str>, limit: Option<&str>, offset: Option<&str>, kind| {
        search(index, dataset, q, limit, offset, kind).status
    };
    assert_eq!(status(None, None, None, None), 400);
    assert_eq!(status(Some(" a "), None, None, None), 400);
    assert_eq!(status(Some(""), None, None, None), 400);
    for bad in ["0", "101", "-1", "ten", "1.5", ""] {
        assert_eq!(status(Some("lead"), Some(bad), None, None), 400, "{bad}");
    }
    for bad in ["-1", "x", "99999999999999999999999"] {
        assert_eq!(status(Some("lead"), None, Some(bad), None), 400, "{bad}");
    }
    assert_eq!(status(Some("lead"), Some("1"), None, None), 200);
    assert_eq!(status(Some("lead"), Some("100"), Some("0"), None), 200);
    let r = search(index, dataset, Some("lead"), None, None, Some("compounds"));
    assert_eq!(r.status, 400);
    let body: Value = serde_json::from_slice(&r.body).unwrap();
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("compound, product or material")
    );
}

#[test]
fn hostile_input_is_answered_without_panicking() {
    let long = "x".repeat(100_000);
    let words: String = (0..5_000).map(|i| format!("w{i} ")).collect();
    let typos = "formaldehide ".repeat(50);
    for q in [
        "日本語の検索",
        "🧪🧪",
        "\u{0}\u{0}",
        "ǅǆ İstanbul",
        "%%",
        "--",
        "a\u{301}\u{301}",
    ] {
        let (status, body) = run(q, &[]);
        assert_eq!(status, 200, "{q:.40}");
        assert!(body["results"].is_array());
    }
    // Past the 200 characters the catalogue declares, a query is refused with a short body.
    for q in [long.as_str(), words.as_str(), typos.as_str()] {
        let (status, body) = run(q, &[]);
        assert_eq!(status, 400, "{q:.40}");
        let error = body["error"].as_str().unwrap();
        assert!(
            error.starts_with("q must be 2 to 200 characters"),
            "{error}"
        );
        assert!(error.len() < 200, "{error}");
    }
    let (status, _) = run(&"lead ".repeat(40), &[]);
    assert_eq!(status, 200, "200 characters, trimmed to 199");
}

#[test]
fn distance_is_damerau_levenshtein() {
    let mut s = Scratch::default();
    let mut d = |a: &str, b: &str| {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        s.distance(&a, &b, 3)
    };
    assert_eq!(d("formaldehyde", "formaldehyde"), Some(0));
    assert_eq!(d("formaldehide", "formaldehyde"), Some(1));
    assert_eq!(d("benzeen", "benzene"), Some(1));
    assert_eq!(d("tolune", "toluene"), Some(1));
    assert_eq!(d("acetone", "acteone"), Some(1));
    assert_eq!(d("ca", "abc"), Some(3));
    assert_eq!(d("kitten", "sitting"), Some(3));
    assert_eq!(d("abcdefgh", "hgfedcba"), None);
    assert_eq!(d("", "abc"), Some(3));
}

/// Not a timing assertion: prints each query's time (the fastest of five rounds of 20, so
/// other work on the machine weighs less) so a regression is visible in the test log:
/// `cargo test --release -p saferef-generator --lib search_time -- --nocapture`.
#[test]
fn search_time_per_query() {
    let (dataset, index) = data();
    let queries = [
        "BPA",
        "benzene",
        "formaldehide",
        "lead",
        "phthalate",
        "80-05-7",
        "glyphosate",
        "pesticide",
        "baby bottle",
        "polyvinyl chloride",
        "chlorpyrifos",
        "mercury",
        "perfluorooctanoic",
        "toluen",
        "food contact",
        "hq-c-org-0002",
        "cosmetic",
        "acetaminophen",
        "nonylphenol",
        "dichloromethane",
        "pb",
    ];
    let mut all = Duration::ZERO;
    for q in queries {
        let mut fastest = Duration::MAX;
        for _ in 0..5 {
            let start = Instant::now();
            for _ in 0..20 {
                let r = search(index, dataset, Some(q), None, None, None);
                assert_eq!(r.status, 200);
            }
            fastest = fastest.min(start.elapsed() / 20);
        }
        all += fastest;
        println!("search {q:?}: {fastest:?}");
    }
    println!(
        "search: mean {:?} over {} queries",
        all / queries.len() as u32,
        queries.len()
    );
}
