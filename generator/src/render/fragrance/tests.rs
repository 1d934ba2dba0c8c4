//! The fragrance view against the committed data: counts, `check` rules, the three
//! endpoints (filters, bounds, relevance) and hostile query values.

use std::path::Path;
use std::sync::OnceLock;

use serde_json::Value;

use crate::load::fragrance::load;
use crate::model::fragrance::{EuRegulation, Fragrance, IngredientKind};
use crate::model::{Dataset, Problem};
use crate::render::fragrance as render;
use crate::render::{Cache, Rendered};
use crate::validate::fragrance::validate;

fn data_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data")
}

fn dataset() -> &'static Dataset {
    static DATA: OnceLock<Dataset> = OnceLock::new();
    DATA.get_or_init(|| {
        crate::load::load(&data_dir())
            .expect("the committed dataset loads")
            .0
    })
}

fn fragrance() -> &'static Fragrance {
    static DATA: OnceLock<Fragrance> = OnceLock::new();
    DATA.get_or_init(|| {
        let (f, problems) = load(&data_dir());
        assert!(problems.is_empty(), "{problems:#?}");
        f
    })
}

fn json(r: &Rendered) -> Value {
    serde_json::from_slice(&r.body).expect("every response is JSON")
}

fn pairs(fields: &[(&str, Option<&str>)]) -> Vec<(String, String)> {
    fields
        .iter()
        .filter_map(|(n, v)| Some((n.to_string(), (*v)?.to_string())))
        .collect()
}

/// `GET /api/fragrance` with these values, parsed as the dispatch parses them.
fn list(limit: Option<&str>, offset: Option<&str>, class: Option<&str>) -> Rendered {
    let q = pairs(&[("limit", limit), ("offset", offset), ("class", class)]);
    render::ListQuery::parse(fragrance(), &q)
        .map_or_else(Rendered::from, |q| render::list(fragrance(), dataset(), &q))
}

/// `GET /api/fragrance/search` with these values, parsed as the dispatch parses them.
fn searched(q: Option<&str>, limit: Option<&str>, offset: Option<&str>) -> Rendered {
    let q = pairs(&[("q", q), ("limit", limit), ("offset", offset)]);
    render::SearchQuery::parse(&q).map_or_else(Rendered::from, |q| {
        render::search(fragrance(), dataset(), &q)
    })
}

fn search(q: &str) -> Value {
    let r = searched(Some(q), Some("100"), None);
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    json(&r)
}

fn problems_of(f: &Fragrance) -> Vec<Problem> {
    let mut problems = Vec::new();
    validate(f, dataset(), &mut problems);
    problems
}

#[test]
fn committed_data_passes_check() {
    let problems = problems_of(fragrance());
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn counts_for_the_note() {
    let entries = &fragrance().ingredients.entries;
    let by = |r: EuRegulation| {
        entries
            .iter()
            .filter(|e| e.eu_allergen.as_ref().is_some_and(|a| a.regulation == r))
            .count()
    };
    // 24 of the 26 are still labelled; HICC and butylphenyl methylpropional moved to Annex
    // II and are entries without a labelling obligation.
    assert_eq!(by(EuRegulation::Annex26), 24);
    for banned in ["31906-04-4", "80-54-6"] {
        let e = entries.iter().find(|e| e.cas == banned).expect("an entry");
        assert!(e.eu_allergen.is_none());
    }
    // 45 new entries (327-371) and 12 existing entries made labelled allergens.
    assert_eq!(by(EuRegulation::Amendment2023), 57);
    let extracts = entries
        .iter()
        .filter(|e| e.kind == IngredientKind::Extract)
        .count();
    assert_eq!(extracts, 29);
    assert_eq!(entries.len(), 105);
    assert_eq!(fragrance().classes.odour_families.len(), 19);
    assert_eq!(fragrance().classes.chemical_classes.len(), 18);
}

#[test]
fn extracts_are_mix_compounds_and_every_entry_is_in_the_corpus() {
    for e in &fragrance().ingredients.entries {
        let record = dataset().by_cas(&e.cas).expect("a corpus compound");
        if e.kind == IngredientKind::Extract {
            assert!(
                record.hq_id.to_string().starts_with("hq-c-mix-"),
                "{}",
                record.hq_id
            );
        }
    }
}

#[test]
fn a_dataset_without_the_folder_has_no_fragrance_and_no_problem() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (f, problems) = load(dir.path());
    assert!(problems.is_empty());
    assert!(f.ingredients.entries.is_empty() && f.classes.odour_families.is_empty());
    let mut problems = Vec::new();
    validate(&f, dataset(), &mut problems);
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn a_file_that_does_not_fit_is_a_problem_with_its_path() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let folder = dir.path().join("fragrance");
    std::fs::create_dir(&folder).expect("mkdir");
    std::fs::write(
        folder.join("classes.json"),
        r#"{"title": "t", "description": "d", "sources": [], "odour_families": [],
            "chemical_classes": [{"id": "x", "name": "X", "description": "d", "source": "s",
            "colour": "red"}]}"#,
    )
    .expect("write");
    let (f, problems) = load(dir.path());
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert_eq!(problems[0].path, "chemical_classes[0].colour");
    assert!(problems[0].message.contains("colour"), "{}", problems[0]);
    assert!(problems[1].file.ends_with("ingredients.json"));
    assert!(f.classes.chemical_classes.is_empty());
}

#[test]
fn the_snapshot_round_trips() {
    let text = serde_json::to_string(fragrance()).expect("serializes");
    let back: Fragrance = serde_json::from_str(&text).expect("deserializes");
    assert_eq!(back.classes, fragrance().classes);
    assert_eq!(back.ingredients, fragrance().ingredients);
}

#[test]
fn check_reports_broken_fragrance_data() {
    let mut f = fragrance().clone();
    let e = &mut f.ingredients.entries[0];
    e.cas = "122-40-8".into();
    e.odour_families.push("smoky".into());
    e.chemical_classes.push("floral".into());
    e.source = "nowhere".into();
    let eu = e
        .eu_allergen
        .as_mut()
        .expect("Amyl Cinnamal is an allergen");
    eu.leave_on_threshold_pct = 0.01;
    eu.applies_from = "2013-02-30".into();
    f.ingredients.entries[1].cas = "50-00-0".into();
    f.ingredients.entries[2].other_cas.push("104-54-1".into());
    let extract = f
        .ingredients
        .entries
        .iter_mut()
        .find(|e| e.kind == IngredientKind::Extract && !e.constituents.is_empty())
        .expect("an extract with constituents");
    extract.constituents.push("1234-56-6".into());
    extract.constituents_source = None;
    f.classes.chemical_classes[0].id = "Terpenes".into();
    let problems = problems_of(&f);
    let said = |path: &str, words: &str| {
        problems
            .iter()
            .any(|p| p.path.starts_with(path) && p.message.contains(words))
    };
    assert!(said("entries[0].cas", "check digit"), "{problems:#?}");
    assert!(said("entries[0].odour_families[", "smoky"), "{problems:#?}");
    assert!(
        said("entries[0].chemical_classes[", "floral"),
        "{problems:#?}"
    );
    assert!(said("entries[0].source", "nowhere"), "{problems:#?}");
    assert!(
        said("entries[0].eu_allergen.leave_on", "0.001"),
        "{problems:#?}"
    );
    assert!(
        said("entries[0].eu_allergen.applies_from", "YYYY-MM-DD"),
        "{problems:#?}"
    );
    assert!(
        said("entries[2].other_cas", "already listed"),
        "{problems:#?}"
    );
    assert!(
        said("entries[", "constituents need their source"),
        "{problems:#?}"
    );
    assert!(
        said("entries[", "1234-56-6 is not a corpus"),
        "{problems:#?}"
    );
    assert!(said("chemical_classes[0].id", "lowercase"), "{problems:#?}");
    // Formaldehyde is typed neither way, but the entry that was Benzyl Alcohol is gone.
    assert!(
        said("entries", "CAS 100-51-6) has type fragrance_allergen"),
        "{problems:#?}"
    );
}

#[test]
fn a_compound_typed_fragrance_may_be_one_of_an_entry_s_other_cas() {
    // beta-Damascenone is one of the eight CAS numbers of Annex III entry 157, "Rose ketones"
    // (Regulation (EU) 2023/1545), whose entry is filed under alpha-damascone's.
    let damascenone = dataset()
        .compounds
        .values()
        .find(|r| r.cas.as_str() == "23696-85-7")
        .expect("beta-damascenone is a corpus compound");
    assert_eq!(damascenone.kind.as_deref(), Some("fragrance_allergen"));
    let problems = problems_of(fragrance());
    assert!(problems.is_empty(), "{problems:#?}");
    let mut f = fragrance().clone();
    for e in &mut f.ingredients.entries {
        e.other_cas.retain(|c| c != "23696-85-7");
    }
    let problems = problems_of(&f);
    assert!(
        problems.iter().any(|p| p
            .message
            .contains("CAS 23696-85-7) has type fragrance_allergen")),
        "{problems:#?}"
    );
}

#[test]
fn list_pages_ingredients_with_their_status_and_tiers() {
    let r = list(None, None, None);
    assert_eq!((r.status, r.cache), (200, Cache::Private));
    let body = json(&r);
    assert_eq!(body["pagination"]["limit"], 20);
    assert_eq!(body["pagination"]["offset"], 0);
    assert_eq!(body["pagination"]["total"], 105);
    let items = body["ingredients"].as_array().expect("items");
    assert_eq!(items.len(), 20);
    let first = &items[0];
    assert_eq!(first["name"], "Amyl Cinnamal");
    assert_eq!(first["cas"], "122-40-7");
    assert!(
        first["id"]
            .as_str()
            .is_some_and(|i| i.starts_with("hq-c-org-"))
    );
    let eu = &first["allergen_status"]["EU"];
    assert_eq!(eu["entry"], "67");
    assert_eq!(eu["leave_on_threshold_pct"], 0.001);
    assert_eq!(eu["rinse_off_threshold_pct"], 0.01);
    assert_eq!(eu["applies_from"], "2013-07-11");
    assert_eq!(first["ifra"]["status"], "restricted");
    assert_eq!(first["classes"]["odour_families"][0], "floral");
    assert!(first["risk_tiers"].get("exposure_dermal").is_some());
    assert!(first["risk_tiers"].get("human_adult").is_some());
    // The sources the page cites are listed, and only those.
    let sources: Vec<&str> = body["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .filter_map(|s| s["id"].as_str())
        .collect();
    assert!(sources.contains(&"eu-1223-2009") && sources.contains(&"ifra-51"));
    assert!(!sources.contains(&"kovats-rose"));
    let tiered = (0..105)
        .step_by(100)
        .flat_map(|o| {
            let page = json(&list(Some("100"), Some(&o.to_string()), None));
            page["ingredients"].as_array().cloned().unwrap_or_default()
        })
        .filter(|i| i["risk_tiers"]["exposure_dermal"].is_string())
        .count();
    // A dermal tier needs a finding for the skin; an absent class is none (METHODOLOGY.md,
    // "low_concern"): 31 of the 105 ingredients have one.
    assert!(tiered >= 30, "{tiered} ingredients have a dermal tier");
}

#[test]
fn list_pages_cover_every_entry_once() {
    let mut seen = Vec::new();
    for offset in (0..105).step_by(30) {
        let body = json(&list(Some("30"), Some(&offset.to_string()), None));
        for i in body["ingredients"].as_array().expect("items") {
            seen.push(i["cas"].as_str().expect("cas").to_string());
        }
    }
    let expected: Vec<String> = fragrance()
        .ingredients
        .entries
        .iter()
        .map(|e| e.cas.clone())
        .collect();
    assert_eq!(seen, expected);
    let past = json(&list(Some("10"), Some("5000"), None));
    assert_eq!(past["ingredients"].as_array().map(Vec::len), Some(0));
    assert_eq!(past["pagination"]["total"], 105);
}

#[test]
fn extracts_list_their_allergen_constituents() {
    let body = json(&list(Some("100"), None, Some("natural_complex_substances")));
    let items = body["ingredients"].as_array().expect("items");
    assert_eq!(items.len(), 29);
    let cinnamon = items
        .iter()
        .find(|i| i["cas"] == "8015-91-6")
        .expect("cinnamon bark oil");
    assert_eq!(cinnamon["kind"], "extract");
    assert!(
        cinnamon["id"]
            .as_str()
            .is_some_and(|i| i.starts_with("hq-c-mix-"))
    );
    let constituents = cinnamon["constituents"].as_array().expect("constituents");
    assert_eq!(constituents[0]["name"], "Cinnamal");
    assert!(constituents.iter().all(|c| c["id"].is_string()));
    assert_eq!(cinnamon["constituents_source"], "leung-cinnamon");
}

#[test]
fn class_filter_matches_class_member_counts() {
    let classes = json(&render::classes(fragrance()));
    for family in ["odour_families", "chemical_classes"] {
        for c in classes[family].as_array().expect("classes") {
            let id = c["id"].as_str().expect("id");
            let body = json(&list(Some("100"), None, Some(id)));
            assert_eq!(body["pagination"]["total"], c["members"], "{id}");
            assert_eq!(body["filters"]["class"], id);
            for i in body["ingredients"].as_array().expect("items") {
                let listed = i["classes"]["odour_families"]
                    .as_array()
                    .into_iter()
                    .chain(i["classes"]["chemical_classes"].as_array())
                    .flatten()
                    .any(|x| x == id);
                assert!(listed, "{} lacks {id}", i["name"]);
            }
        }
    }
    // Case-insensitive and trimmed.
    let musk = json(&list(None, None, Some(" MUSK ")));
    assert_eq!(musk["filters"]["class"], "musk");
    assert!(musk["pagination"]["total"].as_u64() > Some(5));
}

#[test]
fn classes_are_described_and_counted() {
    let r = render::classes(fragrance());
    assert_eq!((r.status, r.cache), (200, Cache::Private));
    let body = json(&r);
    assert_eq!(body["total"], 37);
    assert_eq!(body["odour_families"].as_array().map(Vec::len), Some(19));
    assert_eq!(body["chemical_classes"].as_array().map(Vec::len), Some(18));
    let floral = &body["odour_families"][0];
    assert_eq!(floral["id"], "floral");
    assert!(
        floral["description"]
            .as_str()
            .is_some_and(|d| !d.is_empty())
    );
    assert!(floral["members"].as_u64() > Some(20));
    assert_eq!(
        floral["_links"]["ingredients"],
        "/api/fragrance?class=floral"
    );
    assert_eq!(body["sources"].as_array().map(Vec::len), Some(3));
}

#[test]
fn list_bounds_are_400s_naming_what_is_valid() {
    for (limit, offset, class, words) in [
        (
            Some("0"),
            None,
            None,
            "limit must be a whole number from 1 to 100",
        ),
        (Some("101"), None, None, "from 1 to 100"),
        (Some("-1"), None, None, "from 1 to 100"),
        (Some(""), None, None, "from 1 to 100"),
        (Some("ten"), None, None, "from 1 to 100"),
        (
            None,
            Some("-1"),
            None,
            "offset must be a whole number of at least 0",
        ),
        (None, Some("1.5"), None, "at least 0"),
        (
            None,
            None,
            Some("smoky"),
            "class must be an odour family (floral",
        ),
        (None, None, Some(""), "terpene_alcohols"),
    ] {
        let r = list(limit, offset, class);
        assert_eq!((r.status, r.cache), (400, Cache::Private), "{words}");
        let body = json(&r);
        let error = body["error"].as_str().expect("an error message");
        assert!(error.contains(words), "{error}");
    }
    assert_eq!(list(Some("100"), Some("0"), None).status, 200);
    assert_eq!(list(Some("1"), Some("103"), None).status, 200);
}

fn names(body: &Value) -> Vec<String> {
    body["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["name"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn search_finds_by_name_synonym_cas_and_class() {
    let body = search("linalool");
    assert_eq!(body["results"][0]["name"], "Linalool");
    assert_eq!(body["results"][0]["score"], 100);
    assert_eq!(body["results"][0]["matched"]["field"], "name");
    // Case-insensitive and trimmed.
    assert_eq!(search("  LINALOOL ")["results"][0]["name"], "Linalool");
    assert_eq!(search("  LINALOOL ")["query"], "LINALOOL");
    // The corpus name of Hexamethylindanopyran is Galaxolide.
    let galaxolide = search("galaxolide");
    assert_eq!(galaxolide["results"][0]["cas"], "1222-05-5");
    assert_eq!(galaxolide["results"][0]["matched"]["field"], "synonym");
    // Main and other CAS numbers, exact and prefix; never a fragment inside a CAS.
    let cas = search("78-70-6");
    assert_eq!(cas["results"][0]["name"], "Linalool");
    assert_eq!(cas["results"][0]["matched"]["field"], "cas");
    assert_eq!(
        search("8000-34-8")["results"][0]["name"],
        "Eugenia Caryophyllus Oil"
    );
    assert!(names(&search("-70-6")).is_empty());
    // Class ids and names.
    let musks = search("nitro musks");
    assert_eq!(names(&musks).len(), 3, "{musks:#}");
    assert!(
        musks["results"]
            .as_array()
            .into_iter()
            .flatten()
            .all(|r| r["matched"]["field"] == "class")
    );
}

#[test]
fn search_orders_exact_then_prefix_then_substring() {
    let body = search("citral");
    let results = body["results"].as_array().expect("results");
    assert_eq!(results[0]["name"], "Citral");
    let scores: Vec<u64> = results.iter().filter_map(|r| r["score"].as_u64()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    // Name prefixes ("Linalool", "Linalyl Acetate") come before a synonym that merely
    // contains the text (6-methylcoumarin's "pralina").
    let lina = search("lina");
    let results = lina["results"].as_array().expect("results");
    let first_two: Vec<&str> = results[..2]
        .iter()
        .filter_map(|r| r["name"].as_str())
        .collect();
    assert_eq!(first_two, ["Linalool", "Linalyl Acetate"]);
    assert!(results[..2].iter().all(|r| r["score"] == 70));
    // The Musk odour family is an exact (class) match, so its members, Musk ketone among
    // them, rank above "Musk ambrette", whose name only starts with the text.
    let musk = search("musk");
    let results = musk["results"].as_array().expect("results");
    let exact = results.iter().take_while(|r| r["score"] == 90).count();
    assert_eq!(exact, 7, "{musk:#}");
    assert!(
        results[..exact]
            .iter()
            .all(|r| r["matched"]["field"] == "class")
    );
    assert!(results[..exact].iter().any(|r| r["name"] == "Musk ketone"));
    assert_eq!(results[exact]["name"], "Musk ambrette");
    assert_eq!(results[exact]["score"], 70);
}

#[test]
fn search_pages_and_bounds() {
    let all = search("floral");
    let total = all["pagination"]["total"].as_u64().expect("total");
    assert!(total > 20);
    let page = searched(Some("floral"), Some("5"), Some("5"));
    let page = json(&page);
    assert_eq!(names(&page), names(&all)[5..10]);
    assert_eq!(page["pagination"]["total"], total);
    for (q, limit, offset, words) in [
        (None, None, None, "q is required"),
        (Some("a"), None, None, "q must be 2 to 200 characters"),
        (Some("  a  "), None, None, "2 to 200"),
        (Some("\u{1F600}"), None, None, "2 to 200"),
        (Some("linalool"), Some("0"), None, "from 1 to 100"),
        (Some("linalool"), None, Some("-3"), "at least 0"),
    ] {
        let r = searched(q, limit, offset);
        assert_eq!((r.status, r.cache), (400, Cache::Private), "{words}");
        let error = json(&r)["error"].as_str().unwrap_or_default().to_string();
        assert!(error.contains(words), "{error}");
    }
    let long = "x".repeat(5000);
    let r = searched(Some(&long), None, None);
    assert_eq!(r.status, 400);
    assert!(r.body.len() < 300, "the error echoes a cut value");
    assert!(names(&search("zzzz-no-such-thing")).is_empty());
}

#[test]
fn hostile_values_never_panic() {
    let long = "9".repeat(10_000);
    let hostile = [
        "",
        " ",
        "\0",
        "%00",
        "-0",
        "+5",
        "1e3",
        "0x10",
        "18446744073709551615",
        "18446744073709551616",
        "99999999999999999999999999",
        "\u{202e}floral",
        "\u{1F600}\u{1F600}",
        "İ",
        "ǅ",
        "<script>",
        "' OR 1=1 --",
        "..%2f..%2f",
        "floral\nmusk",
        long.as_str(),
    ];
    for v in hostile {
        for r in [
            list(Some(v), None, None),
            list(None, Some(v), None),
            list(None, None, Some(v)),
            list(Some(v), Some(v), Some(v)),
            searched(Some(v), None, None),
            searched(Some("musk"), Some(v), Some(v)),
        ] {
            assert!(matches!(r.status, 200 | 400), "{v:?}: {}", r.status);
            assert!(r.body.len() < 200_000);
            json(&r);
        }
    }
    // The largest offset is a valid, empty page.
    let r = list(None, Some("18446744073709551615"), None);
    assert_eq!(r.status, 200);
    assert_eq!(json(&r)["ingredients"].as_array().map(Vec::len), Some(0));
}
