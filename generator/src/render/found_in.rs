//! Exposure-source responses: where a compound is found, the found-in categories
//! with their compound counts, and the compounds of one category. Each uses the categories the
//! source tables give and those derived from the materials and products containing the
//! compound (`aggregate::exposure`). Keyed endpoints, so never publicly cached.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::compound::lookup;
use super::lists::{quoted, served};
use super::paging::{Pagination, Paging};
use super::{Cache, Rendered};
use crate::model::Dataset;
use crate::model::exposure::{self, Derived, Via};
use crate::model::ids::CompoundId;
use crate::model::record::{CompoundRecord, FoundIn};
use crate::render::error::ApiError;

/// A compound's found-in categories, table-sourced and derived, each once.
fn categories_of<'a>(r: &'a CompoundRecord, derived: &'a [Derived]) -> BTreeSet<&'a str> {
    r.found_in
        .iter()
        .map(|f| f.category.as_str())
        .chain(derived.iter().map(|d| d.category.as_str()))
        .collect()
}

/// Every found-in category of any compound, table-sourced or derived (`GET /api` counts them).
pub fn all_categories(dataset: &Dataset) -> BTreeSet<String> {
    let derived = exposure::derived(dataset);
    dataset
        .compounds
        .values()
        .flat_map(|r| r.found_in.iter().map(|f| f.category.clone()))
        .chain(derived.values().flatten().map(|d| d.category.clone()))
        .collect()
}

/// A served compound with its found-in categories.
type Categorised<'a> = (&'a CompoundRecord, BTreeSet<String>);

/// Served compounds per found-in category (a compound counts once per category), and each
/// served compound's categories in id order.
fn category_counts(dataset: &Dataset) -> (BTreeMap<String, usize>, Vec<Categorised<'_>>) {
    let derived = exposure::derived(dataset);
    let mut counts = BTreeMap::new();
    let mut per = Vec::new();
    for r in served(dataset) {
        let d = derived.get(&r.hq_id).map_or(&[][..], Vec::as_slice);
        let cats: BTreeSet<String> = categories_of(r, d).into_iter().map(String::from).collect();
        for c in &cats {
            *counts.entry(c.clone()).or_insert(0) += 1;
        }
        per.push((r, cats));
    }
    (counts, per)
}

/// The `source` of a derived entry: the dataset's own materials and products.
const DERIVED_SOURCE: &str = "composition_graph";

#[derive(Serialize, schemars::JsonSchema)]
struct FoundInOut<'a> {
    category: &'a str,
    examples: Vec<&'a str>,
    /// The source's note on the use or exposure, where it gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<&'a str>,
    source: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    source_url: Option<&'a str>,
    /// Derived from the materials and products containing the compound, not from a table.
    derived: bool,
    /// For a derived entry: each material or product, with the compound's role and share.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    via: &'a [Via],
}

fn found_in_out<'a>(record: &'a CompoundRecord, f: &'a FoundIn) -> FoundInOut<'a> {
    FoundInOut {
        category: &f.category,
        examples: f.examples.iter().map(String::as_str).collect(),
        detail: f.detail.as_deref(),
        source: &f.source,
        source_url: record
            .sources
            .iter()
            .find(|s| s.id == f.source)
            .map(|s| s.url.as_str()),
        derived: false,
        via: &[],
    }
}

fn derived_out(d: &Derived) -> FoundInOut<'_> {
    let mut examples: Vec<&str> = d.via.iter().map(|v| v.name.as_str()).collect();
    examples.dedup();
    FoundInOut {
        category: &d.category,
        examples,
        detail: None,
        source: DERIVED_SOURCE,
        source_url: None,
        derived: true,
        via: &d.via,
    }
}

#[derive(Serialize, schemars::JsonSchema)]
struct Summary {
    total_categories: usize,
    total_examples: usize,
    /// Categories with a derived entry.
    derived_categories: usize,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct CompoundBody<'a> {
    hq_id: &'a CompoundId,
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
    let all = exposure::derived(dataset);
    let derived = all.get(&record.hq_id).map_or(&[][..], Vec::as_slice);
    let found_in: Vec<FoundInOut<'_>> = record
        .found_in
        .iter()
        .map(|f| found_in_out(record, f))
        .chain(derived.iter().map(derived_out))
        .collect();
    let body = CompoundBody {
        hq_id: &record.hq_id,
        name: &record.name,
        cas: record.cas.as_str(),
        summary: Summary {
            total_categories: categories_of(record, derived).len(),
            total_examples: found_in.iter().map(|f| f.examples.len()).sum(),
            derived_categories: derived.len(),
        },
        found_in,
    };
    Rendered::json(200, &body, Cache::Private)
}

#[derive(Serialize, schemars::JsonSchema)]
struct CategoryOut<'a> {
    category: &'a str,
    compound_count: usize,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct CategoriesBody<'a> {
    total_categories: usize,
    categories: Vec<CategoryOut<'a>>,
}

/// `GET /api/found-in/categories` (keyed): most compounds first, then by name.
pub fn categories(dataset: &Dataset) -> Rendered {
    let (counts, _) = category_counts(dataset);
    let mut out: Vec<CategoryOut<'_>> = counts
        .iter()
        .map(|(category, &compound_count)| CategoryOut {
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

#[derive(Serialize, schemars::JsonSchema)]
struct Match<'a> {
    hq_id: &'a CompoundId,
    name: &'a str,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct ByCategoryBody<'a, 'b> {
    category: &'a str,
    total_matches: usize,
    limit: usize,
    results: &'b [Match<'a>],
    pagination: Pagination,
}

/// `GET /api/found-in/by-category/{category}?limit=&offset=` (keyed): compounds in id
/// order; `category` is case-insensitive.
pub fn by_category(dataset: &Dataset, category: &str, paging: Paging) -> Rendered {
    let (counts, per) = category_counts(dataset);
    let Some(name) = counts.keys().find(|c| c.eq_ignore_ascii_case(category)) else {
        return Rendered::from(ApiError::not_found(format!(
            "found-in category {} not found; known categories: {}",
            quoted(category),
            counts
                .keys()
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join(", ")
        )));
    };
    let results: Vec<Match<'_>> = per
        .iter()
        .filter(|(_, cats)| cats.contains(name))
        .map(|(r, _)| *r)
        .map(|r| Match {
            hq_id: &r.hq_id,
            name: &r.name,
        })
        .collect();
    let (page, pagination) = paging.slice(&results);
    let body = ByCategoryBody {
        category: name,
        total_matches: counts[name],
        limit: paging.limit,
        results: page,
        pagination,
    };
    Rendered::json(200, &body, Cache::Private)
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::api::Op;
    use crate::render::test_data::{dataset, fixture};

    fn json(r: &Rendered) -> Value {
        serde_json::from_slice(&r.body).unwrap()
    }

    /// `by_category` with `limit` parsed as the dispatch parses it.
    fn by_category(d: &Dataset, category: &str, limit: Option<&str>) -> Rendered {
        let q: Vec<(String, String)> = limit
            .map(|l| ("limit".to_string(), l.to_string()))
            .into_iter()
            .collect();
        Paging::parse(Op::FoundInByCategory, &q)
            .map_or_else(Rendered::from, |p| super::by_category(d, category, p))
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
        let v = json(&compound(dataset(), &bpa.hq_id.to_string()));
        assert_eq!(v["hq_id"], bpa.hq_id.to_string());
        assert_eq!(v["found_in"][0]["category"], "food_contact_materials");
        assert_eq!(v["found_in"][0]["derived"], false);
        assert!(v["found_in"][0]["source_url"].is_string());
        // Polycarbonate, epoxy can linings and thermal paper list BPA in their compositions.
        let list = v["found_in"].as_array().unwrap();
        let entry = |category: &str| {
            list.iter()
                .find(|f| f["category"] == category && f["derived"] == true)
                .unwrap_or_else(|| panic!("derived {category}"))
        };
        let plastics = entry("plastics");
        assert_eq!(plastics["source"], DERIVED_SOURCE);
        let pc = plastics["via"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == "Polycarbonate (PC)")
            .expect("polycarbonate");
        assert_eq!(pc["type"], "material");
        assert!(pc["role"].is_string());
        assert!(
            entry("coatings_and_finishes")["examples"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e == "BPA-based epoxy can lining (BADGE epoxy)")
        );
        let paper = &entry("wood_and_paper")["via"];
        let thermal = paper
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == "Thermal paper, BPA developer")
            .expect("thermal paper");
        assert_eq!(thermal["share_kind"], "typical");
        let derived = list.iter().filter(|f| f["derived"] == true).count();
        assert_eq!(v["summary"]["derived_categories"], derived);
        let mut categories: Vec<&str> = list
            .iter()
            .map(|f| f["category"].as_str().unwrap())
            .collect();
        categories.sort_unstable();
        categories.dedup();
        assert_eq!(v["summary"]["total_categories"], categories.len());

        let r = with_found_in();
        let v = json(&compound(dataset(), &r.hq_id.to_string()));
        let first = &v["found_in"].as_array().unwrap()[0];
        assert_eq!(
            first["examples"].as_array().unwrap().len(),
            r.found_in[0].examples.len()
        );
    }

    /// A monomer bound in the chain is not free substance (METHODOLOGY.md, "Found in, derived
    /// from compositions"): acrylic fibre lists acrylonitrile as its repeating units (at least
    /// 85 %) and as residual monomer, and only the residue is where acrylonitrile is found.
    #[test]
    fn a_monomer_bound_as_repeating_units_derives_nothing() {
        let d = dataset();
        let units = d
            .materials
            .values()
            .flat_map(|m| &m.composition.base)
            .filter(|c| c.is_repeating_unit())
            .count();
        assert!(units > 50, "{units} repeating-unit lines");
        let derived = exposure::derived(d);
        assert!(
            derived
                .values()
                .flatten()
                .flat_map(|e| &e.via)
                .all(|v| v.role != "repeating_unit")
        );
        let an = d.by_cas("107-13-1").unwrap();
        let v = json(&compound(d, &an.hq_id.to_string()));
        let via: Vec<&Value> = v["found_in"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["derived"] == true)
            .flat_map(|f| f["via"].as_array().unwrap())
            .collect();
        let acrylic: Vec<&&Value> = via
            .iter()
            .filter(|m| m["name"] == "Acrylic fibre (PAN)")
            .collect();
        assert!(!acrylic.is_empty(), "the residual monomer line");
        assert!(
            acrylic
                .iter()
                .all(|m| m["role"] == "monomer_residue" && m.get("share").is_none()),
            "{acrylic:?}"
        );
        assert!(
            via.iter().all(|m| m["name"] != "Modacrylic fibre (MAC)"),
            "modacrylic names acrylonitrile only as repeating units"
        );
        // Tetrafluoroethylene is named only as the repeating units of PTFE and its copolymers.
        let tfe = d.by_cas("116-14-3").unwrap();
        assert!(!derived.contains_key(&tfe.hq_id));
    }

    #[test]
    fn bad_ids_are_400_unknown_404() {
        for bad in ["", "80-05-7", "hq-c-org-0000001", "hq-c-org-00000\u{0}"] {
            assert_eq!(compound(fixture(), bad).status, 400, "{bad:?}");
        }
        assert_eq!(compound(fixture(), "hq-c-mix-999999").status, 404);
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
        let v = json(&categories(fixture()));
        let top = &v["categories"][0];
        let name = top["category"].as_str().unwrap();
        let m = json(&by_category(fixture(), &name.to_uppercase(), Some("1000")));
        assert_eq!(m["category"], name);
        assert_eq!(m["total_matches"], top["compound_count"]);
        assert_eq!(
            m["results"].as_array().unwrap().len() as u64,
            top["compound_count"].as_u64().unwrap().min(1000)
        );
        let bpa = fixture().by_cas("80-05-7").unwrap();
        let fcm = json(&by_category(
            fixture(),
            "Food_Contact_Materials",
            Some("1000"),
        ));
        assert!(
            fcm["results"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["hq_id"] == bpa.hq_id.to_string())
        );
    }

    #[test]
    fn derived_categories_are_counted_and_searchable() {
        let d = dataset();
        let bpa = d.by_cas("80-05-7").unwrap();
        let v = json(&categories(d));
        let count = |name: &str| {
            v["categories"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["category"] == name)
                .and_then(|c| c["compound_count"].as_u64())
        };
        assert!(
            count("plastics").unwrap() > 10,
            "from material compositions"
        );
        assert!(count("metals_and_alloys").is_some());
        let m = json(&by_category(d, "PLASTICS", Some("1000")));
        assert_eq!(m["total_matches"].as_u64(), count("plastics"));
        assert!(
            m["results"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["hq_id"] == bpa.hq_id.to_string())
        );
        let root_total = all_categories(d).len() as u64;
        assert!(root_total >= v["total_categories"].as_u64().unwrap());
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
