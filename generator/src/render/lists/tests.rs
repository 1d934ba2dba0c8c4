//! Unit tests of the lists over the committed dataset: paging, every compound filter, the
//! filter endpoint, materials and products. Refusals, which need no particular records, run on
//! the fixture (`test_data::fixture`).

use std::collections::BTreeMap;
use std::time::Instant;

use serde_json::Value;

use super::compound_filter::{code_matches, h_code};
use super::params::quoted;
use super::*;
use crate::aggregate;
use crate::model::Dataset;
use crate::model::record::CompoundRecord;
use crate::model::vocab::WatchClass;
use crate::render::test_data::{dataset, fixture, fixture_risk_index, risk_index};
use crate::render::{Cache, Rendered};

/// The raw query values of `GET /api/compounds`, as a test writes them; `compounds` below
/// parses them as the dispatch does, then renders.
#[derive(Debug, Clone, Copy, Default)]
struct CompoundsQuery<'a> {
    page: Option<&'a str>,
    limit: Option<&'a str>,
    search: Option<&'a str>,
    risk: Option<&'a str>,
    context: Option<&'a str>,
    hazard: Option<&'a str>,
    cas: Option<&'a str>,
    type_filter: Option<&'a str>,
    category_filter: Option<&'a str>,
}

/// The raw query values of `GET /api/filter`.
#[derive(Debug, Clone, Copy, Default)]
struct FilterQuery<'a> {
    risk: Option<&'a str>,
    context: Option<&'a str>,
    kind: Option<&'a str>,
    agency: Option<&'a str>,
    hazard: Option<&'a str>,
    cas_prefix: Option<&'a str>,
    exposure: Option<&'a str>,
    functional_use: Option<&'a str>,
    year: Option<&'a str>,
    year_min: Option<&'a str>,
    year_max: Option<&'a str>,
    page: Option<&'a str>,
    limit: Option<&'a str>,
}

/// The raw query values of `GET /api/products`.
#[derive(Debug, Clone, Copy, Default)]
struct ProductsQuery<'a> {
    page: Option<&'a str>,
    limit: Option<&'a str>,
    search: Option<&'a str>,
    risk: Option<&'a str>,
    tier: Option<&'a str>,
    category_filter: Option<&'a str>,
}

fn pairs(fields: &[(&str, Option<&str>)]) -> Vec<(String, String)> {
    fields
        .iter()
        .filter_map(|(n, v)| Some((n.to_string(), (*v)?.to_string())))
        .collect()
}

fn compounds(d: &Dataset, index: &RiskIndex, q: &CompoundsQuery) -> Rendered {
    let query = pairs(&[
        ("page", q.page),
        ("limit", q.limit),
        ("search", q.search),
        ("risk", q.risk),
        ("context", q.context),
        ("hazard", q.hazard),
        ("cas", q.cas),
        ("type_filter", q.type_filter),
        ("category_filter", q.category_filter),
    ]);
    super::CompoundsQuery::parse(d, &query)
        .map_or_else(Rendered::from, |t| super::compounds(d, index, &t))
}

fn filter(d: &Dataset, index: &RiskIndex, q: &FilterQuery) -> Rendered {
    let query = pairs(&[
        ("risk", q.risk),
        ("context", q.context),
        ("type", q.kind),
        ("agency", q.agency),
        ("hazard", q.hazard),
        ("cas_prefix", q.cas_prefix),
        ("exposure", q.exposure),
        ("functional_use", q.functional_use),
        ("year", q.year),
        ("year_min", q.year_min),
        ("year_max", q.year_max),
        ("page", q.page),
        ("limit", q.limit),
    ]);
    super::FilterQuery::parse(d, &query)
        .map_or_else(Rendered::from, |t| super::filter(d, index, &t))
}

fn products(d: &Dataset, index: &RiskIndex, q: &ProductsQuery) -> Rendered {
    let query = pairs(&[
        ("page", q.page),
        ("limit", q.limit),
        ("search", q.search),
        ("risk", q.risk),
        ("tier", q.tier),
        ("category_filter", q.category_filter),
    ]);
    super::ProductsQuery::parse(d, &query)
        .map_or_else(Rendered::from, |t| super::products(d, index, &t))
}

fn materials(
    d: &Dataset,
    page: Option<&str>,
    limit: Option<&str>,
    search: Option<&str>,
) -> Rendered {
    let query = pairs(&[("page", page), ("limit", limit), ("search", search)]);
    MaterialsQuery::parse(&query).map_or_else(Rendered::from, |t| super::materials(d, &t))
}

fn json(r: &Rendered) -> Value {
    assert_eq!(r.content_type, "application/json");
    serde_json::from_slice(&r.body).unwrap()
}

fn list(q: CompoundsQuery) -> Value {
    let r = compounds(dataset(), risk_index(), &q);
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.cache, Cache::Private);
    json(&r)
}

/// Every compound the filtered list holds (all pages).
fn all(q: CompoundsQuery) -> Vec<Value> {
    let mut out = Vec::new();
    for page in 1.. {
        let p = page.to_string();
        let v = list(CompoundsQuery {
            page: Some(&p),
            limit: Some("100"),
            ..q
        });
        let items = v["compounds"].as_array().unwrap().clone();
        if items.is_empty() {
            break;
        }
        out.extend(items);
    }
    out
}

fn ids(items: &[Value]) -> Vec<&str> {
    items.iter().map(|i| i["hq_id"].as_str().unwrap()).collect()
}

fn status(q: CompoundsQuery) -> u16 {
    compounds(dataset(), risk_index(), &q).status
}

fn error(r: &Rendered) -> String {
    json(r)["error"].as_str().unwrap().to_string()
}

fn bpa() -> &'static CompoundRecord {
    dataset().by_cas("80-05-7").unwrap()
}

fn served_count() -> usize {
    served(dataset()).count()
}

#[test]
fn risk_index_build_time() {
    let started = Instant::now();
    let index = RiskIndex::build(dataset());
    let took = started.elapsed();
    println!(
        "RiskIndex::build: {} compounds, {} products in {took:?}",
        index.compounds.len(),
        index.products.len()
    );
    assert_eq!(index.compounds.len(), dataset().compounds.len());
    assert_eq!(index.products.len(), dataset().products.len());
    // What the index buys: a list request over the whole corpus.
    let q = CompoundsQuery {
        search: Some("chloro"),
        risk: Some("high"),
        ..Default::default()
    };
    let started = Instant::now();
    for _ in 0..20 {
        assert_eq!(compounds(dataset(), &index, &q).status, 200);
    }
    println!(
        "compounds(search, risk): {:?} per request",
        started.elapsed() / 20
    );
}

#[test]
fn the_default_page_and_its_arithmetic() {
    let total = served_count();
    assert!(total > 1800 && total < dataset().compounds.len());
    let v = list(CompoundsQuery::default());
    assert_eq!(v["pagination"]["page"], 1);
    assert_eq!(v["pagination"]["limit"], 20);
    assert_eq!(v["pagination"]["total"], total);
    assert_eq!(v["pagination"]["total_pages"], total.div_ceil(20));
    let items = v["compounds"].as_array().unwrap();
    assert_eq!(items.len(), 20);
    let first = dataset()
        .compound(items[0]["hq_id"].as_str().unwrap())
        .unwrap();
    let tiers: BTreeMap<String, String> = aggregate::assess(first)
        .contexts
        .iter()
        .map(|c| (c.context.to_string(), c.risk_level.as_str().to_string()))
        .collect();
    assert_eq!(
        items[0]["risk_levels"],
        serde_json::to_value(&tiers).unwrap()
    );
    assert_eq!(items[0]["cas"], first.cas.as_str());

    let v = list(CompoundsQuery {
        limit: Some("7"),
        page: Some(&total.div_ceil(7).to_string()),
        ..Default::default()
    });
    assert_eq!(v["pagination"]["total_pages"], total.div_ceil(7));
    let last = (total - 1) % 7 + 1;
    assert_eq!(v["compounds"].as_array().unwrap().len(), last);
    let past = list(CompoundsQuery {
        page: Some("18446744073709551615"),
        limit: Some("100"),
        ..Default::default()
    });
    assert!(past["compounds"].as_array().unwrap().is_empty());
    assert_eq!(past["pagination"]["total"], total);
}

#[test]
fn hostile_paging_is_400() {
    let status = |q| compounds(fixture(), fixture_risk_index(), &q).status;
    for bad in [
        "0",
        "-1",
        "",
        "abc",
        "1e2",
        "1.0",
        "٣",
        "99999999999999999999999",
        " 1",
    ] {
        assert_eq!(
            status(CompoundsQuery {
                page: Some(bad),
                ..Default::default()
            }),
            400,
            "page {bad:?}"
        );
    }
    for bad in ["0", "101", "-20", "", "1000000", "²"] {
        assert_eq!(
            status(CompoundsQuery {
                limit: Some(bad),
                ..Default::default()
            }),
            400,
            "limit {bad:?}"
        );
    }
    let r = compounds(
        fixture(),
        fixture_risk_index(),
        &CompoundsQuery {
            limit: Some("500"),
            ..Default::default()
        },
    );
    assert!(error(&r).contains("from 1 to 100"));
    assert_eq!(
        status(CompoundsQuery {
            limit: Some("100"),
            ..Default::default()
        }),
        200
    );
}

#[test]
fn search_matches_name_cas_and_synonyms_case_insensitively() {
    let bpa = bpa();
    let synonym = bpa
        .identity
        .synonyms
        .iter()
        .find(|s| !s.eq_ignore_ascii_case(&bpa.name))
        .unwrap();
    for text in [
        "BISPHENOL A",
        "80-05-7",
        &synonym.to_uppercase(),
        "  bisphenol a ",
    ] {
        let found = all(CompoundsQuery {
            search: Some(text),
            ..Default::default()
        });
        assert!(
            ids(&found).contains(&bpa.hq_id.to_string().as_str()),
            "{text}"
        );
        assert!(found.len() < served_count());
    }
    for bad in ["a", "  a  ", "", "ä", &"x".repeat(201)] {
        let r = compounds(
            dataset(),
            risk_index(),
            &CompoundsQuery {
                search: Some(bad),
                ..Default::default()
            },
        );
        assert_eq!(r.status, 400, "{bad:?}");
        assert!(r.body.len() < 400);
    }
    assert!(
        all(CompoundsQuery {
            search: Some("日本語のテキスト"),
            ..Default::default()
        })
        .is_empty()
    );
}

#[test]
fn risk_filters_on_the_tier_in_the_context() {
    let high = all(CompoundsQuery {
        risk: Some("high"),
        ..Default::default()
    });
    assert!(!high.is_empty() && high.len() < served_count());
    assert!(
        high.iter()
            .all(|i| i["risk_levels"]["human_adult"] == "high")
    );
    let child = all(CompoundsQuery {
        risk: Some("VERY_HIGH"),
        context: Some("children"),
        ..Default::default()
    });
    assert!(!child.is_empty());
    assert!(
        child
            .iter()
            .all(|i| i["risk_levels"]["human_child"] == "very_high")
    );
    // Without `risk` the context filters nothing.
    let v = list(CompoundsQuery {
        context: Some("bees"),
        ..Default::default()
    });
    assert_eq!(v["pagination"]["total"], served_count());
    let r = compounds(
        dataset(),
        risk_index(),
        &CompoundsQuery {
            risk: Some("extreme"),
            ..Default::default()
        },
    );
    assert_eq!(r.status, 400);
    assert!(error(&r).contains("low, moderate, high, very_high, critical"));
    for bad in ["Martian", "", "pollinators_on_mars", "ü"] {
        assert_eq!(
            status(CompoundsQuery {
                risk: Some("low"),
                context: Some(bad),
                ..Default::default()
            }),
            400,
            "{bad}"
        );
    }
}

#[test]
fn hazard_accepts_classes_codes_and_use_classes() {
    let benzene = dataset().by_cas("71-43-2").unwrap();
    let carcinogens = all(CompoundsQuery {
        hazard: Some("Carcinogen"),
        ..Default::default()
    });
    assert!(ids(&carcinogens).contains(&benzene.hq_id.to_string().as_str()));
    assert!(carcinogens.len() < served_count());
    let h350 = all(CompoundsQuery {
        hazard: Some("h350"),
        ..Default::default()
    });
    let beryllium = dataset().by_cas("7440-41-7").unwrap();
    assert!(ids(&h350).contains(&benzene.hq_id.to_string().as_str()));
    assert!(
        ids(&h350).contains(&beryllium.hq_id.to_string().as_str()),
        "H350 matches H350i"
    );
    let h350i = all(CompoundsQuery {
        hazard: Some("H350i"),
        ..Default::default()
    });
    assert!(ids(&h350i).contains(&beryllium.hq_id.to_string().as_str()));
    assert!(!ids(&h350i).contains(&benzene.hq_id.to_string().as_str()));
    let herbicides = all(CompoundsQuery {
        hazard: Some("herbicide"),
        ..Default::default()
    });
    assert!(!herbicides.is_empty());
    let r = compounds(
        dataset(),
        risk_index(),
        &CompoundsQuery {
            hazard: Some("spicy"),
            ..Default::default()
        },
    );
    assert_eq!(r.status, 400);
    let message = error(&r);
    assert!(
        message.contains("carcinogen") && message.contains("H350") && message.contains("herbicide")
    );
    for bad in ["", "H35", "H3500", "350", "H35٠", "💥"] {
        assert_eq!(
            status(CompoundsQuery {
                hazard: Some(bad),
                ..Default::default()
            }),
            400,
            "{bad}"
        );
    }
}

#[test]
fn cas_is_exact_and_checked() {
    let found = all(CompoundsQuery {
        cas: Some("80-05-7"),
        ..Default::default()
    });
    assert_eq!(ids(&found), [bpa().hq_id.to_string().as_str()]);
    let r = compounds(
        dataset(),
        risk_index(),
        &CompoundsQuery {
            cas: Some("80-05-8"),
            ..Default::default()
        },
    );
    assert_eq!(r.status, 400);
    assert!(error(&r).contains("check digit"));
    for bad in ["", "80-5-7", "abc", "80-05-7 ", "٨٠-٠٥-٧"] {
        assert_eq!(
            status(CompoundsQuery {
                cas: Some(bad),
                ..Default::default()
            }),
            400,
            "{bad}"
        );
    }
}

#[test]
fn type_and_category_filters() {
    let pharma = all(CompoundsQuery {
        type_filter: Some("Pharmaceutical"),
        ..Default::default()
    });
    assert!(pharma.len() > 100);
    assert!(pharma.iter().all(|i| i["type"] == "pharmaceutical"));
    let pesticides = all(CompoundsQuery {
        category_filter: Some("pesticide"),
        ..Default::default()
    });
    assert!(pesticides.len() > 100);
    assert!(pesticides.iter().all(|i| i["category"] == "pesticide"));
    let additives = all(CompoundsQuery {
        category_filter: Some("food_additive"),
        ..Default::default()
    });
    assert!(!additives.is_empty());
    let r = compounds(
        dataset(),
        risk_index(),
        &CompoundsQuery {
            type_filter: Some("spaceship"),
            ..Default::default()
        },
    );
    assert_eq!(r.status, 400);
    assert!(error(&r).contains("uv_filter"));
    let r = compounds(
        dataset(),
        risk_index(),
        &CompoundsQuery {
            category_filter: Some("spaceship"),
            ..Default::default()
        },
    );
    assert!(error(&r).contains("environmental_contaminant"));
}

#[test]
fn filters_combine_with_and() {
    let pesticides = all(CompoundsQuery {
        category_filter: Some("pesticide"),
        ..Default::default()
    });
    let both = all(CompoundsQuery {
        category_filter: Some("pesticide"),
        risk: Some("high"),
        ..Default::default()
    });
    assert!(!both.is_empty() && both.len() < pesticides.len());
    let pesticide_ids = ids(&pesticides);
    assert!(ids(&both).iter().all(|id| pesticide_ids.contains(id)));
}

#[test]
fn critical_threats_are_never_listed() {
    let d = dataset();
    let watched: Vec<&CompoundRecord> = d
        .compounds
        .values()
        .filter(|r| r.watch_class == WatchClass::CriticalThreat)
        .collect();
    assert!(!watched.is_empty());
    let everything = all(CompoundsQuery::default());
    let listed = ids(&everything);
    assert_eq!(listed.len(), served_count());
    for w in watched {
        assert!(!listed.contains(&w.hq_id.to_string().as_str()));
        assert!(
            all(CompoundsQuery {
                cas: Some(w.cas.as_str()),
                ..Default::default()
            })
            .is_empty()
        );
    }
}

#[test]
fn a_stale_index_is_slow_not_wrong() {
    let q = CompoundsQuery {
        type_filter: Some("phthalate"),
        risk: Some("high"),
        ..Default::default()
    };
    let empty = RiskIndex::default();
    assert_eq!(
        compounds(dataset(), &empty, &q),
        compounds(dataset(), risk_index(), &q)
    );
    let p = ProductsQuery {
        tier: Some("chd"),
        limit: Some("5"),
        ..Default::default()
    };
    assert_eq!(
        products(dataset(), &empty, &p),
        products(dataset(), risk_index(), &p)
    );
}

fn filtered(q: FilterQuery) -> Value {
    let r = filter(dataset(), risk_index(), &q);
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    json(&r)
}

/// Every compound id the filter keeps (all pages).
fn filter_ids(q: FilterQuery) -> Vec<String> {
    let mut out = Vec::new();
    for page in 1.. {
        let p = page.to_string();
        let v = filtered(FilterQuery {
            page: Some(&p),
            limit: Some("100"),
            ..q
        });
        let items = v["compounds"].as_array().unwrap();
        if items.is_empty() {
            break;
        }
        out.extend(
            items
                .iter()
                .map(|i| i["hq_id"].as_str().unwrap().to_string()),
        );
    }
    out
}

#[test]
fn filter_agency_and_year_hold_for_one_classification() {
    let id = bpa().hq_id.to_string();
    // BPA: ECHA SVHC 2017, OEHHA 2015 and 2020.
    assert!(
        filter_ids(FilterQuery {
            agency: Some("echa"),
            year: Some("2017"),
            ..Default::default()
        })
        .contains(&id)
    );
    assert!(
        !filter_ids(FilterQuery {
            agency: Some("ECHA"),
            year_min: Some("2018"),
            ..Default::default()
        })
        .contains(&id)
    );
    assert!(
        filter_ids(FilterQuery {
            agency: Some("OEHHA"),
            year_min: Some("2018"),
            year_max: Some("2020"),
            cas_prefix: Some("80-"),
            ..Default::default()
        })
        .contains(&id)
    );
    let v = filtered(FilterQuery {
        agency: Some("us-epa"),
        year_min: Some("2000"),
        ..Default::default()
    });
    assert_eq!(v["filters"]["agency"], "US EPA");
    assert_eq!(v["filters"]["year_min"], 2000);
    assert!(v["filters"].get("year_max").is_none());
}

#[test]
fn filter_exposure_use_prefix_and_risk() {
    let id = bpa().hq_id.to_string();
    let ids = filter_ids(FilterQuery {
        exposure: Some("Food_Contact_Materials"),
        cas_prefix: Some("80-05"),
        functional_use: Some("bisphenol"),
        ..Default::default()
    });
    assert_eq!(ids, [id.as_str()]);
    let tier = risk_index().compounds[&bpa().hq_id].tiers["human_pregnant"];
    let v = filtered(FilterQuery {
        cas_prefix: Some("80-05-7"),
        risk: Some(tier.as_str()),
        context: Some("pregnancy"),
        kind: Some("bisphenol"),
        ..Default::default()
    });
    assert_eq!(v["pagination"]["total"], 1);
    assert_eq!(v["filters"]["context"], "human_pregnant");
    assert_eq!(v["filters"]["type"], "bisphenol");
    let v = filtered(FilterQuery {
        hazard: Some("H360fd"),
        ..Default::default()
    });
    assert_eq!(v["filters"]["hazard"], "H360fd");
}

#[test]
fn filter_narrows_as_filters_are_added() {
    let total = |q: FilterQuery| filtered(q)["pagination"]["total"].as_u64().unwrap();
    let none = total(FilterQuery::default());
    let one = total(FilterQuery {
        agency: Some("IARC"),
        ..Default::default()
    });
    let two = total(FilterQuery {
        agency: Some("IARC"),
        hazard: Some("carcinogen"),
        ..Default::default()
    });
    let three = total(FilterQuery {
        agency: Some("IARC"),
        hazard: Some("carcinogen"),
        risk: Some("very_high"),
        ..Default::default()
    });
    assert_eq!(none as usize, served_count());
    assert!(
        none > one && one > two && two > three && three > 0,
        "{none} {one} {two} {three}"
    );
}

#[test]
fn filter_rejects_bad_values() {
    let bad = |q: FilterQuery| {
        let r = filter(fixture(), fixture_risk_index(), &q);
        assert_eq!(r.status, 400, "{q:?}");
        error(&r)
    };
    assert!(
        bad(FilterQuery {
            year: Some("twenty"),
            ..Default::default()
        })
        .contains("year")
    );
    assert!(
        bad(FilterQuery {
            year_min: Some("2020"),
            year_max: Some("2010"),
            ..Default::default()
        })
        .contains("after")
    );
    bad(FilterQuery {
        year: Some("2020"),
        year_min: Some("2010"),
        ..Default::default()
    });
    bad(FilterQuery {
        year_max: Some("-2020"),
        ..Default::default()
    });
    bad(FilterQuery {
        year: Some("99999999999"),
        ..Default::default()
    });
    assert!(
        bad(FilterQuery {
            agency: Some("Ministry of Magic"),
            ..Default::default()
        })
        .contains("IARC")
    );
    assert!(
        bad(FilterQuery {
            exposure: Some("the moon"),
            ..Default::default()
        })
        .contains("food_contact_materials")
    );
    bad(FilterQuery {
        cas_prefix: Some("80a"),
        ..Default::default()
    });
    bad(FilterQuery {
        cas_prefix: Some(""),
        ..Default::default()
    });
    bad(FilterQuery {
        functional_use: Some("levitation"),
        ..Default::default()
    });
    bad(FilterQuery {
        kind: Some(""),
        ..Default::default()
    });
    bad(FilterQuery {
        risk: Some("severe"),
        ..Default::default()
    });
    bad(FilterQuery {
        page: Some("0"),
        ..Default::default()
    });
}

fn materials_json(page: Option<&str>, limit: Option<&str>, search: Option<&str>) -> Value {
    let r = materials(dataset(), page, limit, search);
    assert_eq!(r.status, 200);
    json(&r)
}

#[test]
fn materials_page_and_search() {
    let total = dataset().materials.len();
    let v = materials_json(None, Some("100"), None);
    assert_eq!(v["pagination"]["total"], total);
    assert_eq!(v["pagination"]["total_pages"], total.div_ceil(100));
    let first = &v["materials"][0];
    let m = &dataset().materials[first["id"].as_str().unwrap()];
    assert_eq!(first["family"], m.family.as_str());
    assert!(first["compound_count"].as_u64().unwrap() > 0);
    let poly = materials_json(None, Some("100"), Some("POLY"));
    let n = poly["pagination"]["total"].as_u64().unwrap();
    assert!(n > 0 && (n as usize) < total);
    assert!(poly["materials"].as_array().unwrap().iter().all(|m| {
        let stored = &dataset().materials[m["id"].as_str().unwrap()];
        std::iter::once(&stored.name)
            .chain(&stored.synonyms)
            .any(|s| s.to_lowercase().contains("poly"))
    }));
    for (page, limit, search) in [
        (Some("0"), None, None),
        (None, Some("101"), None),
        (None, None, Some("p")),
        (Some("x"), None, None),
    ] {
        assert_eq!(materials(dataset(), page, limit, search).status, 400);
    }
}

fn products_json(q: ProductsQuery) -> Value {
    let r = products(dataset(), risk_index(), &q);
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    json(&r)
}

#[test]
fn products_filter_by_tier_risk_category_and_search() {
    let total = dataset().products.len();
    let v = products_json(ProductsQuery::default());
    assert_eq!(v["pagination"]["total"], total);
    let chd = products_json(ProductsQuery {
        tier: Some("chd"),
        limit: Some("100"),
        ..Default::default()
    });
    assert!(
        chd["products"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["tier"] == "CHD")
    );
    assert!(chd["pagination"]["total"].as_u64().unwrap() > 0);
    // The list's risk is the profile's.
    let item = &chd["products"][0];
    let profile = super::super::entities::product(
        dataset(),
        item["id"].as_str().unwrap(),
        super::super::compound::View::Public,
    );
    assert_eq!(json(&profile)["risk_level"], item["risk_level"]);
    let level = item["risk_level"].as_str().unwrap();
    let same = products_json(ProductsQuery {
        risk: Some(&level.to_uppercase()),
        limit: Some("100"),
        ..Default::default()
    });
    assert!(
        same["products"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["risk_level"] == level)
    );
    let children = products_json(ProductsQuery {
        category_filter: Some("CHILDREN"),
        limit: Some("100"),
        ..Default::default()
    });
    assert!(children["products"].as_array().unwrap().iter().all(|p| {
        p["categories"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c == "children")
    }));
    let n = children["pagination"]["total"].as_u64().unwrap();
    assert!(n > 0 && (n as usize) < total);
    let searched = products_json(ProductsQuery {
        search: Some("Toy"),
        ..Default::default()
    });
    let m = searched["pagination"]["total"].as_u64().unwrap();
    assert!(m > 0 && (m as usize) < total);
}

#[test]
fn products_reject_bad_values() {
    for q in [
        ProductsQuery {
            tier: Some("XYZ"),
            ..Default::default()
        },
        ProductsQuery {
            tier: Some(""),
            ..Default::default()
        },
        ProductsQuery {
            risk: Some("very_high"),
            ..Default::default()
        },
        ProductsQuery {
            category_filter: Some("asteroids"),
            ..Default::default()
        },
        ProductsQuery {
            search: Some("x"),
            ..Default::default()
        },
        ProductsQuery {
            limit: Some("-1"),
            ..Default::default()
        },
    ] {
        let r = products(fixture(), fixture_risk_index(), &q);
        assert_eq!(r.status, 400, "{q:?}");
    }
    let r = products(
        fixture(),
        fixture_risk_index(),
        &ProductsQuery {
            risk: Some("bad"),
            ..Default::default()
        },
    );
    assert!(
        error(&r).contains("extreme, severe, high, moderate_to_high, moderate, low, negligible")
    );
    let r = products(
        fixture(),
        fixture_risk_index(),
        &ProductsQuery {
            tier: Some("bad"),
            ..Default::default()
        },
    );
    assert!(error(&r).contains("CHD"));
}

#[test]
fn quoting_cuts_long_values() {
    assert_eq!(quoted("ab"), "\"ab\"");
    let long = quoted(&"é".repeat(1000));
    assert!(long.ends_with("...") && long.chars().count() < 80);
    assert_eq!(h_code("h360fd"), "H360fd");
    assert_eq!(h_code("euh059"), "EUH059");
    assert_eq!(h_code("h3é"), "H3é");
    assert_eq!(h_code("h35é"), "h35é");
    assert_eq!(h_code("é"), "é");
    assert!(code_matches("H350", "H350i"));
    assert!(!code_matches("H350i", "H350"));
    assert!(!code_matches("H36", "H360"));
}
