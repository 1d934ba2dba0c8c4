//! Material and product endpoints over real HTTP: bodies are the render functions' bytes,
//! references resolve, compound traces stay gated, and bad ids are JSON 4xx.

use saferef_generator::render::compound::View;
use saferef_generator::render::entities;

use crate::support::{get, start, state};

#[tokio::test]
async fn every_product_and_material_answers_with_the_rendered_bytes() {
    let base = start().await;
    let d = &state().release.dataset;
    assert!(
        !d.products.is_empty() && !d.materials.is_empty(),
        "the dataset has products and materials"
    );
    let products = d.products.keys().take(40).map(|id| {
        (
            format!("/api/product/{id}"),
            entities::product(d, id, View::Public),
        )
    });
    let materials = d
        .materials
        .keys()
        .take(40)
        .map(|id| (format!("/api/material/{id}"), entities::material(d, id)));
    for (path, want) in products.chain(materials) {
        let res = reqwest::get(format!("{base}{path}")).await.unwrap();
        assert_eq!(res.status(), 200, "{path}");
        assert_eq!(
            res.bytes().await.unwrap().as_ref(),
            want.body.as_slice(),
            "{path}"
        );
    }
}

#[tokio::test]
async fn product_profile_shape_and_gating() {
    let base = start().await;
    let d = &state().release.dataset;
    let (id, _) = d
        .products
        .iter()
        .find(|(_, p)| !p.composition.is_empty())
        .expect("a product with a composition");
    let (status, h, body) = get(&format!("{base}/api/product/{id}")).await;
    assert_eq!(status, 200);
    assert_eq!(h["surrogate-key"], id.as_str());
    let s = &body["synthesis"];
    assert_eq!(s["synthesis_method"], "max_adjusted_compound_tier");
    assert!(
        s["methodology_note"]
            .as_str()
            .unwrap()
            .contains("not regulatory consensus")
    );
    assert!(
        body.get("compound_traces").is_none(),
        "traces are for Developer+ only"
    );
    assert!(
        body["composition"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["compound_id"].is_string())
    );
    let full = entities::product(d, id, View::Full);
    let full: serde_json::Value = serde_json::from_slice(&full.body).unwrap();
    assert!(
        full["compound_traces"]
            .as_array()
            .is_some_and(|t| !t.is_empty())
    );
    let (status, _, raw) = get(&format!("{base}/api/product/{id}/raw")).await;
    assert_eq!(status, 200);
    assert_eq!(raw["id"], id.as_str());
    assert!(raw.get("synthesis").is_none(), "raw is the stored product");
}

#[tokio::test]
async fn bad_entity_ids() {
    let base = start().await;
    for (path, status) in [
        ("/api/material/hq-m-ply-1", 400),
        ("/api/material/hq-m-ply-999999", 404),
        ("/api/product/HQ-P-HOM-000001", 400),
        ("/api/product/hq-p-hom-999999", 404),
        ("/api/product/hq-p-hom-999999/raw", 404),
        ("/api/product/nonsense/raw", 400),
    ] {
        let (got, h, body) = get(&format!("{base}{path}")).await;
        assert_eq!(got, status, "{path}");
        assert!(h["cache-control"].to_str().unwrap().starts_with("private"));
        assert!(body["error"].is_string());
    }
}
