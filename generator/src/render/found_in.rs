//! Exposure-source responses: where a compound is found, the found-in categories
//! with their compound counts, and the compounds of one category. Keyed endpoints, so never
//! publicly cached.

use std::collections::BTreeMap;

use serde::Serialize;

use super::compound::lookup;
use super::lists::{number_param, quoted, served};
use super::{Cache, Rendered};
use crate::model::Dataset;
use crate::model::record::{CompoundRecord, FoundIn};
use crate::render::error::ApiError;

/// Served compounds per found-in category (a compound counts once per category).
fn category_counts(dataset: &Dataset) -> BTreeMap<&str, usize> {
    let mut counts = BTreeMap::new();
    for r in served(dataset) {
        let mut seen: Vec<&str> = r.found_in.iter().map(|f| f.category.as_str()).collect();
        seen.sort_unstable();
        seen.dedup();
        for c in seen {
            *counts.entry(c).or_insert(0) += 1;
        }
    }
    counts
}

#[derive(Serialize)]
struct FoundInOut<'a> {
    category: &'a str,
    examples: &'a [String],
    /// The source's note on the use or exposure, where it gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<&'a str>,
    source: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    source_url: Option<&'a str>,
}

fn found_in_out<'a>(record: &'a CompoundRecord, f: &'a FoundIn) -> FoundInOut<'a> {
    FoundInOut {
        category: &f.category,
        examples: &f.examples,
        detail: f.detail.as_deref(),
        source: &f.source,
        source_url: record
            .sources
            .iter()
            .find(|s| s.id == f.source)
            .map(|s| s.url.as_str()),
    }
}

#[derive(Serialize)]
struct Summary {
    total_categories: usize,
    total_examples: usize,
}

#[derive(Serialize)]
struct CompoundBody<'a> {
    hq_id: &'a str,
    name: &'a str,
    cas: &'a str,
    summary: Summary,
    found_in: Vec<FoundInOut<'a>>,
}

/// `GET /api/found-in/{id}` (keyed).
pub fn compound(dataset: &Dataset, id: &str) -> Rendered {
    let record = match lookup(dataset, id) {
        Ok(r) => r,
        Err(e) => return e.into(),
    };
    let mut categories: Vec<&str> = record
        .found_in
        .iter()
        .map(|f| f.category.as_str())
        .collect();
    categories.sort_unstable();
    categories.dedup();
    let body = CompoundBody {
        hq_id: &record.hq_id,
        name: &record.name,
        cas: &record.cas,
        summary: Summary {
            total_categories: categories.len(),
            total_examples: record.found_in.iter().map(|f| f.examples.len()).sum(),
        },
        found_in: record
            .found_in
            .iter()
            .map(|f| found_in_out(record, f))
            .collect(),
    };
    Rendered::json(200, &body, Cache::Private)
}

#[derive(Serialize)]
struct CategoryOut<'a> {
    category: &'a str,
    compound_count: usize,
}

#[derive(Serialize)]
struct CategoriesBody<'a> {
    total_categories: usize,
    categories: Vec<CategoryOut<'a>>,
}

/// `GET /api/found-in/categories` (keyed): most compounds first, then by name.
pub fn categories(dataset: &Dataset) -> Rendered {
    let mut out: Vec<CategoryOut<'_>> = category_counts(dataset)
        .into_iter()
        .map(|(category, compound_count)| CategoryOut {
            category,
            compound_count,
        })
        .collect();
    out.sort_by(|a, b| {
        b.compound_count
            .cmp(&a.compound_count)
            .then(a.category.cmp(b.category))
    });
    let body = CategoriesBody {
        total_categories: out.len(),
        categories: out,
    };
    Rendered::json(200, &body, Cache::Private)
}

#[derive(Serialize)]
struct Match<'a> {
    hq_id: &'a str,
    name: &'a str,
}

#[derive(Serialize)]
struct ByCategoryBody<'a> {
    category: &'a str,
    total_matches: usize,
    limit: usize,
    results: Vec<Match<'a>>,
}

/// `GET /api/found-in/by-category/{category}?limit=` (keyed): compounds in id order;
/// `category` is case-insensitive.
pub fn by_category(dataset: &Dataset, category: &str, limit: Option<&str>) -> Rendered {
    let limit = match number_param("limit", limit, 100, 1..=1000) {
        Ok(l) => l,
        Err(e) => return e.into(),
    };
    let counts = category_counts(dataset);
    let Some(&name) = counts.keys().find(|c| c.eq_ignore_ascii_case(category)) else {
        return Rendered::from(ApiError::not_found(format!(
            "found-in category {} not found; known categories: {}",
            quoted(category),
            counts.keys().copied().collect::<Vec<_>>().join(", ")
        )));
    };
    let results: Vec<Match<'_>> = served(dataset)
        .filter(|r| r.found_in.iter().any(|f| f.category == name))
        .take(limit)
        .map(|r| Match {
            hq_id: &r.hq_id,
            name: &r.name,
        })
        .collect();
    let body = ByCategoryBody {
        category: name,
        total_matches: counts[name],
        limit,
        results,
    };
    Rendered::json(200, &body, Cache::Private)
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::render::test_data::dataset;

    fn json(r: &Rendered) -> Value {
        serde_json::from_slice(&r.body).unwrap()
    }

    fn with_found_in() -> &'static CompoundRecord {
        dataset()
            .compounds
            .values()
            .find(|r| r.found_in.iter().any(|f| !f.examples.is_empty()))
            .expect("some compound has found-in examples")
    }

    #[test]
    fn a_compound_lists_where_it_is_found() {
        let bpa = dataset().by_cas("80-05-7").unwrap();
        let v = json(&compound(dataset(), &bpa.hq_id));
        assert_eq!(v["hq_id"], bpa.hq_id.as_str());
        assert_eq!(v["summary"]["total_categories"], 1);
        assert_eq!(v["found_in"][0]["category"], "food_contact_materials");
        assert!(v["found_in"][0]["source_url"].is_string());

        let r = with_found_in();
        let v = json(&compound(dataset(), &r.hq_id));
        let first = &v["found_in"].as_array().unwrap()[0];
        assert_eq!(
            first["examples"].as_array().unwrap().len(),
            r.found_in[0].examples.len()
        );
    }

    #[test]
    fn bad_ids_are_400_unknown_404() {
        for bad in ["", "80-05-7", "hq-c-org-0000001", "hq-c-org-00000\u{0}"] {
            assert_eq!(compound(dataset(), bad).status, 400, "{bad:?}");
        }
        assert_eq!(compound(dataset(), "hq-c-mix-999999").status, 404);
    }

    #[test]
    fn categories_are_sorted_by_count_then_name() {
        let v = json(&categories(dataset()));
        let list = v["categories"].as_array().unwrap();
        assert_eq!(v["total_categories"], list.len());
        assert!(list.len() > 10);
        let key = |c: &Value| {
            (
                std::cmp::Reverse(c["compound_count"].as_u64().unwrap()),
                c["category"].as_str().unwrap().to_string(),
            )
        };
        assert!(list.windows(2).all(|w| key(&w[0]) <= key(&w[1])));
    }

    #[test]
    fn by_category_counts_agree_and_ignore_case() {
        let v = json(&categories(dataset()));
        let top = &v["categories"][0];
        let name = top["category"].as_str().unwrap();
        let m = json(&by_category(dataset(), &name.to_uppercase(), Some("1000")));
        assert_eq!(m["category"], name);
        assert_eq!(m["total_matches"], top["compound_count"]);
        assert_eq!(
            m["results"].as_array().unwrap().len() as u64,
            top["compound_count"].as_u64().unwrap().min(1000)
        );
        let bpa = dataset().by_cas("80-05-7").unwrap();
        let fcm = json(&by_category(
            dataset(),
            "Food_Contact_Materials",
            Some("1000"),
        ));
        assert!(
            fcm["results"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["hq_id"] == bpa.hq_id.as_str())
        );
    }

    #[test]
    fn limits_and_unknown_categories() {
        let d = dataset();
        let v = json(&by_category(d, "food", None));
        assert_eq!(v["limit"], 100);
        assert_eq!(v["results"].as_array().unwrap().len(), 100);
        assert_eq!(
            json(&by_category(d, "food", Some("1")))["results"]
                .as_array()
                .unwrap()
                .len(),
            1
        );
        for bad in ["0", "1001", "-5", "", "1.5", "٣"] {
            assert_eq!(by_category(d, "food", Some(bad)).status, 400, "{bad}");
        }
        for unknown in ["", "moon rocks", "食品", "food "] {
            let r = by_category(d, unknown, None);
            assert_eq!(r.status, 404, "{unknown}");
            assert!(
                json(&r)["error"]
                    .as_str()
                    .unwrap()
                    .contains("food_contact_materials")
            );
        }
    }
}
