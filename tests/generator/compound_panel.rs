//! Reviewed snapshots of the aggregation on the committed dataset: a panel of well-known
//! compounds across all 19 contexts, and full responses for a few of them.

use std::fmt::Write;
use std::path::PathBuf;
use std::sync::OnceLock;

use saferef_generator::aggregate;

use saferef_generator::api;
use saferef_generator::load::load;
use saferef_generator::model::Dataset;
use saferef_generator::model::contexts::Context;
use saferef_generator::render::compound::{self, View};
use saferef_generator::render::{Rendered, dispatch};

pub(crate) fn dataset() -> &'static Dataset {
    static DATA: OnceLock<Dataset> = OnceLock::new();
    DATA.get_or_init(|| {
        load(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data"))
            .unwrap()
            .0
    })
}

/// 36 compounds a toxicologist would check first: carcinogens, reproductive toxicants,
/// pesticides, PFAS, metals, solvents, species toxicants, warfare agents, everyday substances.
const PANEL: &[&str] = &[
    "71-43-2",     // benzene
    "50-00-0",     // formaldehyde
    "75-21-8",     // ethylene oxide
    "50-32-8",     // benzo[a]pyrene
    "80-05-7",     // bisphenol A
    "117-81-7",    // DEHP
    "335-67-1",    // PFOA
    "1763-23-1",   // PFOS
    "1071-83-6",   // glyphosate
    "1912-24-9",   // atrazine
    "2921-88-2",   // chlorpyrifos
    "138261-41-3", // imidacloprid
    "52645-53-1",  // permethrin
    "56073-10-0",  // brodifacoum
    "7440-43-9",   // cadmium
    "7439-92-1",   // lead
    "7439-97-6",   // mercury
    "7440-38-2",   // arsenic
    "1333-82-0",   // chromium trioxide
    "108-88-3",    // toluene
    "75-09-2",     // dichloromethane
    "67-66-3",     // chloroform
    "107-21-1",    // ethylene glycol
    "87-99-0",     // xylitol
    "83-67-0",     // theobromine
    "58-08-2",     // caffeine
    "103-90-2",    // paracetamol
    "15687-27-1",  // ibuprofen
    "143-33-9",    // sodium cyanide
    "107-44-8",    // sarin
    "7732-18-5",   // water
    "7647-14-5",   // sodium chloride
    "77-92-9",     // citric acid
    "22839-47-0",  // aspartame
    "14807-96-6",  // talc
    "1309-64-4",   // antimony trioxide
];

#[test]
fn panel_tiers_across_all_contexts() {
    let mut out = String::new();
    for cas in PANEL {
        let record = dataset()
            .by_cas(cas)
            .unwrap_or_else(|| panic!("{cas} not in corpus"));
        let a = aggregate::assess(record);
        writeln!(
            out,
            "{} ({cas}) schema={:?} mean={}",
            record.name,
            a.schema,
            a.mean_confidence()
        )
        .unwrap();
        for context in Context::ALL.map(Context::name) {
            let cell = match a.get(context) {
                Some(c) => {
                    // Each deciding rule once: several findings of one rule (three agencies'
                    // cancer calls, two documents of one poisoning) decide by the same rule.
                    let mut rules: Vec<&str> = Vec::new();
                    for e in c.evidence.iter().filter(|e| e.decisive) {
                        if !rules.contains(&e.rule.id()) {
                            rules.push(e.rule.id());
                        }
                    }
                    format!(
                        "{} {} [{}]",
                        c.risk_level.as_str(),
                        c.confidence,
                        rules.join(",")
                    )
                }
                None => "-".to_string(),
            };
            writeln!(out, "  {context:<24} {cell}").unwrap();
        }
    }
    insta::assert_snapshot!(out);
}

/// The static answer to a GET of `url` (`/api/...?name=value&...`), through the catalogue and
/// the one dispatch, as the build renders it.
fn get(d: &Dataset, url: &str) -> Rendered {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    dispatch::get_static(d, path, &api::pairs(query), None)
}

#[test]
fn full_responses() {
    let d = dataset();
    let id = |cas: &str| d.by_cas(cas).unwrap().hq_id.to_string();
    let json = |r: saferef_generator::render::Rendered| -> serde_json::Value {
        serde_json::from_slice(&r.body).unwrap()
    };
    insta::assert_json_snapshot!(
        "benzene_human_adult",
        json(get(d, &format!("/api/compound/{}", id("71-43-2"))))
    );
    insta::assert_json_snapshot!(
        "xylitol_dog",
        json(get(
            d,
            &format!("/api/compound/{}?context=dogs", id("87-99-0"))
        ))
    );
    insta::assert_json_snapshot!(
        "water_legacy",
        json(get(d, &format!("/api/compound/{}", id("7732-18-5"))))
    );
    insta::assert_json_snapshot!(
        "pfoa_all_contexts",
        json(get(
            d,
            &format!("/api/compound/{}?all_contexts=true", id("335-67-1"))
        ))
    );
    insta::assert_json_snapshot!(
        "bpa_alternatives_basic",
        json(get(
            d,
            &format!("/api/compound/{}/alternatives", id("80-05-7"))
        ))
    );
    insta::assert_json_snapshot!(
        "tce_alternatives_full",
        json(compound::alternatives(
            d,
            compound::lookup(d, &id("79-01-6")).unwrap(),
            View::Full
        ))
    );
    insta::assert_json_snapshot!(
        "glyphosate_disagreement",
        json(get(
            d,
            &format!("/api/compound/{}?context=human_adult", id("1071-83-6"))
        ))
    );
}
