//! Merge-rule tests on `build_record`, without files.

use serde_json::json;

use super::select::SELECTION_SOURCE;
use super::*;
use crate::ingest::tables::testing::descriptor;
use crate::model::vocab::ExposureRoute;

fn catalog() -> Catalog {
    let mut hcis = descriptor("hcis");
    hcis.fallback_for = Some("clp".into());
    Catalog {
        description: String::new(),
        sources: vec![
            descriptor("ident"),
            descriptor("iarc"),
            descriptor("clp"),
            hcis,
        ],
    }
}

fn contribution(cas: &str, fragment: Value) -> Contribution {
    Contribution::new(Cas::parse(cas).unwrap(), fragment)
}

fn build(
    catalog: &Catalog,
    old: Option<&CompoundRecord>,
    contributions: &[(&SourceDescriptor, Contribution)],
    read: &[&SourceDescriptor],
    date: &str,
) -> CompoundRecord {
    build_record(BuildInput {
        hq_id: "hq-c-org-000001",
        name: names::candidates(None, contributions)
            .into_iter()
            .next()
            .unwrap_or_default(),
        parent: None,
        cas: &Cas::parse("50-00-0").unwrap(),
        alternates: Vec::new(),
        old,
        contributions,
        selected: None,
        read_sources: read,
        isotopes: None,
        catalog,
        date,
    })
    .unwrap()
}

fn iarc(group: &str) -> Value {
    json!({"regulatory": {"listings": {"iarc_group": {"group": group, "volumes": "88", "source": "iarc"}}}})
}

#[test]
fn new_record_has_sources_gaps_and_meta() {
    let cat = catalog();
    let ident = &cat.sources[0];
    let c = contribution(
        "50-00-0",
        json!({"identity": {"smiles": "C=O", "source": "ident"}}),
    )
    .named("formaldehyde");
    let r = build(&cat, None, &[(ident, c)], &[ident], "2026-11-21");
    assert_eq!(r.name, "Formaldehyde");
    assert_eq!(r.name_source, "ident");
    assert_eq!(r.identity.smiles.as_deref(), Some("C=O"));
    assert_eq!(
        r.sources.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
        ["ident"]
    );
    assert_eq!(r.meta.version, 1);
    assert_eq!(r.meta.created, "2026-11-21");
    assert!(r.data_gaps.iter().any(|g| g.field == "identity.inchi"));
    assert!(!r.data_gaps.iter().any(|g| g.field == "identity.smiles"));
}

#[test]
fn reingest_replaces_same_source_and_bumps_version_only_on_change() {
    let cat = catalog();
    let src = &cat.sources[1];
    let first = build(
        &cat,
        None,
        &[(src, contribution("50-00-0", iarc("2A")))],
        &[src],
        "2026-01-01",
    );
    let same = build(
        &cat,
        Some(&first),
        &[(src, contribution("50-00-0", iarc("2A")))],
        &[src],
        "2026-02-01",
    );
    assert_eq!(
        same, first,
        "an unchanged table changes nothing, not even meta"
    );
    let newer = build(
        &cat,
        Some(&first),
        &[(src, contribution("50-00-0", iarc("1")))],
        &[src],
        "2026-03-01",
    );
    let listing = newer.regulatory.listings.iarc_group.as_ref().unwrap();
    assert_eq!(listing.group, crate::model::vocab::IarcGroup::G1);
    assert_eq!(newer.meta.version, 2);
    assert_eq!(newer.meta.last_reviewed, "2026-03-01");
    assert_eq!(newer.meta.created, "2026-01-01");
    assert!(
        newer.meta.revision_history[1]
            .summary
            .contains("regulatory")
    );
}

#[test]
fn values_of_tables_not_reread_are_kept() {
    let cat = catalog();
    let (ident, iarc_src) = (&cat.sources[0], &cat.sources[1]);
    let first = build(
        &cat,
        None,
        &[
            (
                ident,
                contribution(
                    "50-00-0",
                    json!({"identity": {"smiles": "C=O", "source": "ident"}}),
                ),
            ),
            (iarc_src, contribution("50-00-0", iarc("1"))),
        ],
        &[ident, iarc_src],
        "2026-01-01",
    );
    // Only the IARC table is found this time: identity stays as it was.
    let again = build(
        &cat,
        Some(&first),
        &[(iarc_src, contribution("50-00-0", iarc("1")))],
        &[iarc_src],
        "2026-02-01",
    );
    assert_eq!(again.identity.smiles.as_deref(), Some("C=O"));
    assert_eq!(again, first);
}

#[test]
fn fallback_table_is_dropped_when_primary_has_values() {
    let cat = catalog();
    let (clp, hcis) = (&cat.sources[2], &cat.sources[3]);
    let ghs = |src: &str, code: &str| json!({"safety": {"ghs": [{"jurisdiction": "X", "hazard_classes": [], "h_codes": [code], "source": src}]}});
    let only_hcis = build(
        &cat,
        None,
        &[(hcis, contribution("50-00-0", ghs("hcis", "H302")))],
        &[clp, hcis],
        "2026-01-01",
    );
    assert_eq!(only_hcis.safety.ghs.len(), 1);
    let both = build(
        &cat,
        None,
        &[
            (clp, contribution("50-00-0", ghs("clp", "H350"))),
            (hcis, contribution("50-00-0", ghs("hcis", "H302"))),
        ],
        &[clp, hcis],
        "2026-01-01",
    );
    assert_eq!(both.safety.ghs.len(), 1);
    assert_eq!(both.safety.ghs[0].source, "clp");
}

/// Methyl chloride (74-87-3): Annex VI gives H351 and H373 with no route, HCIS states
/// H373 "if inhaled"; the HCIS entry is left out for the Annex VI one and its route stays,
/// marked as HCIS's. A code Annex VI does not give, or one it states its own route for, gets
/// nothing carried.
#[test]
fn a_dropped_fallback_entry_leaves_its_routes_on_the_primary_entry() {
    let cat = catalog();
    let (clp, hcis) = (&cat.sources[2], &cat.sources[3]);
    let eu = json!({"safety": {"ghs": [{"jurisdiction": "EU", "hazard_classes": ["Carc. 2", "STOT RE 2", "Acute Tox. 4"], "h_codes": ["H351", "H373", "H332"], "routes": [{"code": "H332", "routes": ["inhalation"], "words": "H332"}], "source": "clp"}]}});
    let au = json!({"safety": {"ghs": [{"jurisdiction": "AU", "hazard_classes": ["STOT RE 2"], "h_codes": ["H373", "H370", "H332"], "routes": [
        {"code": "H373", "routes": ["inhalation"], "words": "May cause damage to organs through prolonged or repeated exposure if inhaled"},
        {"code": "H370", "routes": ["oral"], "words": "Causes damage to organs if swallowed"},
        {"code": "H332", "routes": ["dermal"], "words": "Harmful in contact with skin"}
    ], "source": "hcis"}]}});
    let r = build(
        &cat,
        None,
        &[
            (clp, contribution("74-87-3", eu)),
            (hcis, contribution("74-87-3", au)),
        ],
        &[clp, hcis],
        "2026-01-01",
    );
    assert_eq!(r.safety.ghs.len(), 1);
    let routes = &r.safety.ghs[0].routes;
    let h373 = routes.iter().find(|s| s.code == "H373").unwrap();
    assert_eq!(h373.routes, vec![ExposureRoute::Inhalation]);
    assert_eq!(h373.source.as_deref(), Some("hcis"));
    assert!(routes.iter().all(|s| s.code != "H370"));
    let h332: Vec<_> = routes.iter().filter(|s| s.code == "H332").collect();
    assert_eq!(h332.len(), 1);
    assert_eq!(h332[0].source, None);
    let again = build(
        &cat,
        Some(&r),
        &[(
            clp,
            contribution(
                "74-87-3",
                json!({"safety": {"ghs": [{"jurisdiction": "EU", "hazard_classes": ["Carc. 2"], "h_codes": ["H351", "H373"], "source": "clp"}]}}),
            ),
        )],
        &[clp, hcis],
        "2026-01-01",
    );
    assert!(
        again.safety.ghs[0].routes.is_empty(),
        "a re-ingest drops what the fallback no longer states"
    );
}

#[test]
fn curated_selection_names_and_classes_the_compound() {
    let cat = catalog();
    let sel = Selected {
        cas: Cas::parse("87-99-0").unwrap(),
        name: "Xylitol".into(),
        group: Some("species_toxicant".into()),
        note: String::new(),
    };
    let r = build_record(BuildInput {
        hq_id: "hq-c-org-000002",
        name: names::candidates(Some(&sel), &[])
            .into_iter()
            .next()
            .unwrap_or_default(),
        parent: None,
        cas: &sel.cas,
        alternates: Vec::new(),
        old: None,
        contributions: &[],
        selected: Some(&sel),
        read_sources: &[],
        isotopes: None,
        catalog: &cat,
        date: "2026-01-01",
    })
    .unwrap();
    assert_eq!(r.name, "Xylitol");
    assert_eq!(r.name_source, SELECTION_SOURCE);
    assert_eq!(r.kind.as_deref(), Some("species_toxicant"));
    assert_eq!(r.category.as_deref(), Some("consumer_product"));
    assert!(r.sources.iter().any(|s| s.id == SELECTION_SOURCE));
}
