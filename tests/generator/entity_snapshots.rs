//! Reviewed snapshots of material and product responses (one product per tier), and the
//! relationship graph built from the committed dataset.

use std::path::PathBuf;
use std::sync::OnceLock;

use saferef_generator::aggregate::graph::Graph;
use saferef_generator::load::load;
use saferef_generator::model::Dataset;
use saferef_generator::render::compound::View;
use saferef_generator::render::relationships::GraphQuery;
use saferef_generator::render::{entities, relationships};

fn dataset() -> &'static Dataset {
    static DATA: OnceLock<Dataset> = OnceLock::new();
    DATA.get_or_init(|| {
        load(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data"))
            .unwrap()
            .0
    })
}

fn json(r: saferef_generator::render::Rendered) -> serde_json::Value {
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    serde_json::from_slice(&r.body).unwrap()
}

#[test]
fn one_product_per_tier() {
    for tier in ["chd", "bdy", "fod", "hom", "out", "pet", "wer", "spe"] {
        let id = format!("hq-p-{tier}-000001");
        insta::assert_json_snapshot!(
            format!("product_{tier}"),
            json(entities::product(dataset(), &id, View::Full))
        );
    }
}

/// Grapes and raisins (METHODOLOGY.md, "A syndrome without an established cause"): the dog
/// tier rests on the syndrome the Merck Veterinary Manual documents, high at the route factor
/// alone, and not on tartaric acid, a proposed toxic principle: without the tartaric acid line
/// the product is as high.
#[test]
fn grapes_rest_on_the_documented_syndrome() {
    use saferef_generator::aggregate::synthesis::{ProductRisk, synthesize};
    let grapes = &dataset().products["hq-p-pet-000025"];
    let (s, _) = synthesize(dataset(), grapes);
    assert_eq!(s.risk_level, Some(ProductRisk::High));
    let found: Vec<_> = s
        .product_findings
        .iter()
        .map(|f| (f.context, f.adjusted_score))
        .collect();
    assert_eq!(found, [("dog", 3.0)]);
    let mut without = grapes.clone();
    without.composition.clear();
    let (s, traces) = synthesize(dataset(), &without);
    assert!(traces.is_empty());
    assert_eq!(s.risk_level, Some(ProductRisk::High));
}

/// Pets meet a product once (METHODOLOGY.md, "Pets meet a product once"): xylitol, very high
/// for dogs, in sugar-free gum eaten momentarily and occasionally scores 4 x 1.0 (route alone)
/// = 4.0, severe, where the people's factors (0.6 x 0.7) held it at the 1.8 floor. Without
/// pets among the users the same gum reads no dog tier and keeps all three factors.
#[test]
fn a_pet_tier_takes_the_route_factor_alone() {
    use saferef_generator::aggregate::synthesis::{ProductRisk, synthesize};
    let gum = &dataset().products["hq-p-pet-000020"];
    assert_eq!(gum.exposure.users, ["pets"]);
    let (s, traces) = synthesize(dataset(), gum);
    assert_eq!(
        (s.multipliers.duration, s.multipliers.frequency),
        (0.6, 0.7)
    );
    let xylitol = traces.iter().find(|t| t.cas == "87-99-0").unwrap();
    assert_eq!(xylitol.context_used, Some("dog"));
    assert!(!xylitol.fallback);
    assert_eq!(xylitol.adjusted_score, 4.0);
    assert_eq!(s.risk_level, Some(ProductRisk::Severe));
    let mut for_people = gum.clone();
    for_people.exposure.users = vec!["adults".into()];
    let (people, traces) = synthesize(dataset(), &for_people);
    assert!(!people.contexts.contains(&"dog"), "{:?}", people.contexts);
    assert!(people.score < 1.9, "{people:?}");
    assert!(traces.iter().all(|t| t.adjusted_score < 1.9), "{traces:?}");
}

#[test]
fn five_materials() {
    for id in [
        "hq-m-ply-000001",
        "hq-m-met-000001",
        "hq-m-tex-000001",
        "hq-m-coa-000001",
        "hq-m-cer-000001",
    ] {
        insta::assert_json_snapshot!(
            format!("material_{id}"),
            json(entities::material(dataset(), id))
        );
    }
}

/// Oleander's oleandrin and the daffodil's lycorine have no tier in any context: the products
/// are unassessed, not "negligible" (METHODOLOGY.md, "Product synthesis"), while a product
/// with an assessed compound keeps its level.
#[test]
fn a_product_whose_compounds_have_no_tier_has_no_risk_level() {
    for id in ["hq-p-pet-000032", "hq-p-pet-000059"] {
        let p = json(entities::product(dataset(), id, View::Full));
        assert_eq!(p["risk_level"], serde_json::Value::Null, "{id}");
        assert_eq!(
            p["synthesis"]["risk_level"],
            serde_json::Value::Null,
            "{id}"
        );
        assert!(
            p["synthesis"]["compounds_assessed"].as_u64() >= Some(1),
            "{id}"
        );
        assert!(
            p["compound_traces"]
                .as_array()
                .is_some_and(|t| t.iter().all(|t| t["tier"].is_null())),
            "{id}"
        );
    }
    let glue = json(entities::product(dataset(), "hq-p-spe-000062", View::Full));
    assert!(glue["risk_level"].is_string(), "{glue}");
}

#[test]
fn the_graph_links_compounds_materials_and_products() {
    let d = dataset();
    let g = Graph::build(d);
    let stats = g.stats();
    assert_eq!(
        stats.nodes,
        d.compounds.len() + d.materials.len() + d.products.len()
    );
    assert!(stats.edges > 0 && stats.products_with_links > 0 && stats.materials_with_links > 0);
    // From a product with a composition, depth 2 reaches the materials' other products or
    // the compounds' other products; every node appears once, at its first depth.
    let (id, _) = d
        .products
        .iter()
        .find(|(_, p)| !p.composition.is_empty() && !p.materials.common.is_empty())
        .unwrap();
    let id = relationships::EntityId::parse(id).unwrap();
    let depth = GraphQuery::parse(&vec![("depth".to_string(), "2".to_string())]).unwrap();
    let body = json(relationships::graph(&g, id, depth).unwrap());
    let nodes = body["graph"]["nodes"].as_array().unwrap();
    let mut ids: Vec<&str> = nodes.iter().map(|n| n["id"].as_str().unwrap()).collect();
    let n = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), n);
    assert!(nodes.iter().any(|n| n["depth"] == 2));
    assert!(nodes.iter().all(|n| n["hq_id"] == n["id"]));
    assert_eq!(body["graph"]["node_count"], n);
    let rel = json(relationships::relationships(&g, id, None).unwrap());
    assert!(rel["total_edges"].as_u64().unwrap() > 0);
    assert!(
        rel["relationships"]["compounds"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["id"].as_str().unwrap().starts_with("hq-c-"))
    );
}
