//! Rule tests on small records, and the monotonicity property: adding evidence never lowers
//! a tier and never removes a context.

use serde_json::{Value, json};

use super::*;
use crate::model::vocab::RiskLevel::{self, *};

fn source(id: &str) -> Value {
    json!({"id": id, "title": id, "publisher": "p", "edition": "1", "url": "https://example.org"})
}

/// A record with the given parts merged in (sources are declared for every id used).
fn record(parts: &[Value]) -> CompoundRecord {
    let mut v = json!({
        "hq_id": "hq-c-org-000001", "name": "Test", "name_source": "t", "cas": "50-00-0",
        "identity": {}, "crossrefs": {}, "properties": {"chemical_properties": {}},
        "safety": {}, "regulatory": {}, "hierarchy": {},
        "sources": [], "meta": {"created": "2026-01-01", "last_reviewed": "2026-01-01", "version": 1}
    });
    for p in parts {
        crate::model::merge::merge(&mut v, p.clone(), &|_: &str| 0);
    }
    let ids = crate::model::merge::referenced_sources(&v);
    v["sources"] = Value::Array(ids.iter().map(|id| source(id)).collect());
    serde_json::from_value(v).unwrap()
}

fn ghs(codes: &[&str], classes: &[&str]) -> Value {
    json!({"safety": {"ghs": [{"jurisdiction": "EU", "hazard_classes": classes, "h_codes": codes, "source": "clp"}]},
           "regulatory": {"classifications": [{"agency": "European Commission", "attribution": "EU CLP Annex VI", "classification": "x", "source_url": "u", "source": "clp"}]}})
}

fn iarc(group: &str) -> Value {
    json!({"regulatory": {"listings": {"iarc_group": {"group": group, "volumes": "1", "year": 2020, "source": "iarc"}}}})
}

fn tier(r: &CompoundRecord, context: &str) -> Option<RiskLevel> {
    assess(r).get(context).map(|c| c.risk_level)
}

#[test]
fn carcinogen_calls_map_to_tiers() {
    assert_eq!(tier(&record(&[iarc("1")]), "human_adult"), Some(VeryHigh));
    assert_eq!(tier(&record(&[iarc("2A")]), "human_adult"), Some(High));
    assert_eq!(tier(&record(&[iarc("2B")]), "human_adult"), Some(Moderate));
    assert_eq!(
        tier(&record(&[iarc("3")]), "human_adult"),
        None,
        "Group 3 is inadequate evidence, not evidence of low concern"
    );
    assert_eq!(
        tier(&record(&[ghs(&["H350"], &["Carc. 1A"])]), "human_adult"),
        Some(VeryHigh)
    );
    assert_eq!(
        tier(&record(&[ghs(&["H350"], &["Carc. 1B"])]), "human_adult"),
        Some(High)
    );
}

#[test]
fn inhalation_only_carcinogens_do_not_reach_ingestion_or_the_skin() {
    let r = record(&[ghs(&["H350i"], &["Carc. 1A"])]);
    assert_eq!(tier(&r, "exposure_inhalation"), Some(High));
    assert_eq!(tier(&r, "occupational_exposure"), Some(High));
    assert_eq!(tier(&r, "human_adult"), Some(Moderate));
    for route in ["exposure_ingestion", "exposure_dermal"] {
        assert!(
            tier(&r, route).is_none_or(|t| t == Low),
            "{route}: {:?}",
            tier(&r, route)
        );
    }
}

#[test]
fn an_oral_cancer_position_reaches_ingestion_beside_an_inhalation_only_entry() {
    let oral = json!({"safety": {"cancer_positions": [{"agency": "NTP", "position": "clear evidence in drinking water", "call": "probable", "year": 2008, "route": "oral", "source": "ntp"}]}});
    let r = record(&[ghs(&["H350i"], &["Carc. 1B"]), iarc("1"), oral]);
    assert_eq!(tier(&r, "exposure_ingestion"), Some(High));
    assert_eq!(tier(&r, "human_adult"), Some(High));
    // The oral evidence says nothing of the skin; the inhalation-only calls keep theirs.
    assert!(tier(&r, "exposure_dermal").is_none_or(|t| t == Low));
    assert_eq!(tier(&r, "exposure_inhalation"), Some(VeryHigh));
}

/// H360Fd is fertility category 1B and development category 2 (Lilial, CLP Annex VI
/// 605-041-00-3): pregnancy takes the suspected developmental class, not "may damage".
#[test]
fn a_lower_case_effect_letter_is_category_2() {
    let fd = record(&[ghs(&["H360Fd"], &["Repr. 1B"])]);
    let df = record(&[ghs(&["H360Df"], &["Repr. 1B"])]);
    assert_eq!(tier(&fd, "human_pregnant"), Some(High));
    assert_eq!(tier(&df, "human_pregnant"), Some(VeryHigh));
}

#[test]
fn a_life_stage_finding_counts_for_that_stage_only() {
    let note = json!({"safety": {"species": {"human_child": [{"finding": "developmental neurotoxicity", "severity": "very_high", "source": "efsa"}]}}});
    let r = record(&[ghs(&["H360Df"], &["Repr. 1A"]), note]);
    assert_eq!(tier(&r, "human_child"), Some(VeryHigh));
    assert_eq!(tier(&r, "human_adult"), Some(High));
    assert_eq!(tier(&r, "human_teen"), Some(High));
}

#[test]
fn an_equivalent_concern_for_the_environment_is_high_for_the_environment_only() {
    let r = record(&[
        json!({"regulatory": {"listings": {"eu_svhc": {"reasons": ["Equivalent level of concern having probable serious effects to the environment (Article 57(f) - environment)"], "date_of_inclusion": "2019-07-16", "source": "svhc"}}}}),
    ]);
    assert_eq!(tier(&r, "environmental"), Some(High));
    assert_eq!(tier(&r, "aquatic_life"), None);
}

#[test]
fn acute_toxicity_by_route() {
    let r = record(&[ghs(&["H300", "H312", "H332"], &[])]);
    assert_eq!(tier(&r, "exposure_ingestion"), Some(VeryHigh));
    assert_eq!(tier(&r, "exposure_dermal"), Some(Moderate));
    assert_eq!(tier(&r, "exposure_inhalation"), Some(Moderate));
    assert_eq!(tier(&r, "human_adult"), Some(VeryHigh));
    // Dogs: the mammalian oral class stands in, at lower confidence.
    let dog = assess(&r).get("dog").cloned().unwrap();
    assert_eq!(dog.risk_level, VeryHigh);
    assert!(dog.confidence < assess(&r).get("exposure_ingestion").unwrap().confidence);
}

#[test]
fn local_effects_by_route() {
    let r = record(&[ghs(&["H314"], &["Skin Corr. 1B"])]);
    assert_eq!(tier(&r, "exposure_dermal"), Some(High));
    assert_eq!(tier(&r, "exposure_ocular"), Some(High));
    assert_eq!(tier(&r, "human_adult"), Some(Moderate));
    let eye = record(&[ghs(&["H319"], &["Eye Irrit. 2"])]);
    assert_eq!(tier(&eye, "exposure_ocular"), Some(Moderate));
    assert_eq!(
        tier(&eye, "exposure_dermal"),
        None,
        "an Annex VI entry without a skin class says nothing of the skin"
    );
}

#[test]
fn life_stages_raise_sensitive_hazards_only() {
    let dev = record(&[ghs(&["H360D"], &["Repr. 1B"])]);
    assert_eq!(tier(&dev, "human_adult"), Some(High));
    assert_eq!(tier(&dev, "human_pregnant"), Some(VeryHigh));
    // Older adults neither bear nor nurse children (METHODOLOGY.md, life_stage).
    assert_eq!(tier(&dev, "human_elderly"), Some(Moderate));
    let lact = record(&[ghs(&["H362"], &["Lact."])]);
    assert_eq!(tier(&lact, "human_nursing"), Some(High));
    assert_eq!(tier(&lact, "human_adult"), Some(Moderate));
}

#[test]
fn corrosion_by_sub_category() {
    let c1a = record(&[ghs(&["H314"], &["Skin Corr. 1A"])]);
    let c1b = record(&[ghs(&["H314"], &["Skin Corr. 1B"])]);
    assert_eq!(tier(&c1a, "human_adult"), Some(High));
    assert_eq!(tier(&c1b, "human_adult"), Some(Moderate));
    // A child swallows what it finds: a 1B corrosive burns the gullet (METHODOLOGY.md,
    // local_effects); 1C needs longer.
    for young in ["human_child", "human_infant"] {
        assert_eq!(tier(&c1a, young), Some(High));
        assert_eq!(tier(&c1b, young), Some(High));
        let c1c = record(&[ghs(&["H314"], &["Skin Corr. 1C"])]);
        assert_eq!(tier(&c1c, young), Some(Moderate));
    }
    assert_eq!(tier(&c1b, "human_elderly"), Some(Moderate));
    for r in [&c1a, &c1b] {
        assert_eq!(tier(r, "exposure_dermal"), Some(High));
        assert_eq!(tier(r, "dog"), Some(High));
        assert_eq!(
            tier(r, "exposure_inhalation"),
            None,
            "not shown to reach the air"
        );
    }
    let volatile = json!({"properties": {"physical_properties": {"boiling_point": {"value": 76.0, "unit": "°C", "source": "crc"}}}});
    let in_air = record(&[ghs(&["H314"], &["Skin Corr. 1B"]), volatile]);
    assert_eq!(tier(&in_air, "exposure_inhalation"), Some(High));
}

#[test]
fn life_stages_by_what_concerns_them() {
    let acute = record(&[ghs(&["H301"], &["Acute Tox. 3"])]);
    assert_eq!(tier(&acute, "human_child"), Some(High));
    assert_eq!(tier(&acute, "human_infant"), Some(High));
    let ed = record(&[
        json!({"regulatory": {"listings": {"eu_svhc": {"reasons": ["Endocrine disrupting properties (Article 57(f) - human health)"], "date_of_inclusion": "2020-01-01", "source": "svhc"}}}}),
    ]);
    assert_eq!(tier(&ed, "human_adult"), Some(Moderate));
    assert_eq!(tier(&ed, "human_pregnant"), Some(High));
    assert_eq!(tier(&ed, "human_child"), Some(High));
    let dev = record(&[ghs(&["H360D"], &["Repr. 1B"])]);
    assert_eq!(tier(&dev, "human_child"), Some(High));
    let dev_milk = record(&[ghs(&["H360D", "H362"], &["Repr. 1B", "Lact."])]);
    assert_eq!(tier(&dev_milk, "human_child"), Some(VeryHigh));
    assert_eq!(tier(&dev_milk, "human_infant"), Some(VeryHigh));
}

#[test]
fn inhalation_needs_the_substance_in_the_air() {
    let carc = ghs(&["H350"], &["Carc. 1B"]);
    assert_eq!(
        tier(&record(std::slice::from_ref(&carc)), "exposure_inhalation"),
        Some(Moderate)
    );
    let volatile = json!({"properties": {"physical_properties": {"boiling_point": {"value": 80.1, "unit": "°C", "source": "crc"}}}});
    assert_eq!(
        tier(&record(&[carc, volatile]), "exposure_inhalation"),
        Some(High)
    );
}

/// Vanadium pentoxide (1314-62-1), Annex VI as amended by ATP18: Carc. 1B, Acute Tox. 2
/// (H330) with "ATE = 0.05 mg/L dusts or mists", no boiling point (a solid). An acute
/// inhalation class puts the substance in the air, so its cancer hazard keeps its tier for
/// inhalation without any boiling point (METHODOLOGY.md, rule "route_relevance").
#[test]
fn a_dust_or_mist_inhalation_class_reaches_the_lungs_without_boiling() {
    let v2o5 = ghs(
        &["H350", "H330", "H301"],
        &["Carc. 1B", "Acute Tox. 2", "Acute Tox. 3"],
    );
    let r = record(&[v2o5]);
    assert!(exposure(&r, &signals::signals(&r)).reaches_air);
    assert_eq!(tier(&r, "exposure_inhalation"), Some(VeryHigh));
    let without_h330 = record(&[ghs(&["H350", "H301"], &["Carc. 1B", "Acute Tox. 3"])]);
    assert!(!exposure(&without_h330, &signals::signals(&without_h330)).reaches_air);
    assert_eq!(tier(&without_h330, "exposure_inhalation"), Some(Moderate));
}

/// Cadmium sulfide (1306-23-6), Annex VI index 048-010-00-4: Carc. 1B, no boiling point (a
/// pigment). IARC Monographs Volume 100C evaluates cadmium compounds on lung cancer in workers
/// who inhaled their dust, so a compound of cadmium reaches the air (rule "route_relevance");
/// zinc sulfide, the same solid without the element, does not.
#[test]
fn a_compound_of_a_dust_element_reaches_the_air() {
    let carc = ghs(&["H350"], &["Carc. 1B"]);
    let cds = record(&[
        carc.clone(),
        json!({"identity": {"inchi": "InChI=1S/Cd.S"}}),
    ]);
    assert!(exposure(&cds, &signals::signals(&cds)).reaches_air);
    assert_eq!(tier(&cds, "exposure_inhalation"), Some(High));
    let zns = record(&[carc, json!({"identity": {"inchi": "InChI=1S/S.Zn"}})]);
    assert!(!exposure(&zns, &signals::signals(&zns)).reaches_air);
    assert_eq!(tier(&zns, "exposure_inhalation"), Some(Moderate));
}

#[test]
fn watch_lists_and_species_and_environment() {
    let critical = json!({"watch_class": "critical_threat", "watch_basis": {"value": "CWC Schedule 1A", "source": "cwc"}});
    let r = record(&[critical]);
    assert_eq!(tier(&r, "human_adult"), Some(Critical));
    assert_eq!(tier(&r, "dog"), Some(Critical));
    assert_eq!(tier(&r, "aquatic_life"), None);
    let xylitol = json!({"safety": {"species": {"dog": [{"finding": "hypoglycaemia", "severity": "very_high", "source": "mvm"}]}}});
    let r = record(&[xylitol]);
    assert_eq!(tier(&r, "dog"), Some(VeryHigh));
    assert_eq!(tier(&r, "cat"), None);
    // A species' own dose decides over the acute-toxin watch list, for that species only; an
    // account of the class without a value does not.
    let watched = json!({"watch_class": "acute_toxin"});
    let cat_ld50 = json!({"safety": {"species": {"cat": [{"finding": "lethal", "toxic_dose": "Oral LD50 in cats 100 mg/kg body weight.", "severity": "high", "source": "vt"}]}}});
    let dog_class = json!({"safety": {"species": {"dog": [{"finding": "coagulopathy", "toxic_dose": "one-tenth of the lowest reported LD50", "severity": "moderate", "source": "vt"}]}}});
    let r = record(&[watched, cat_ld50, dog_class]);
    assert_eq!(tier(&r, "cat"), Some(High));
    assert_eq!(tier(&r, "dog"), Some(VeryHigh));
    assert_eq!(tier(&r, "human_adult"), Some(VeryHigh));
    let neonic = json!({"use_classes": [{"class": "neonicotinoid", "source": "sel"}]});
    assert_eq!(tier(&record(&[neonic]), "pollinator"), Some(VeryHigh));
    let aquatic = record(&[ghs(&["H400", "H410"], &[])]);
    assert_eq!(tier(&aquatic, "aquatic_life"), Some(VeryHigh));
    assert_eq!(tier(&aquatic, "environmental"), Some(High));
}

#[test]
fn schema_follows_available_data() {
    assert_eq!(assess(&record(&[])).schema, Schema::V2Research);
    let species_only = json!({"safety": {"species": {"dog": [{"finding": "x", "source": "m"}]}}});
    assert_eq!(assess(&record(&[species_only])).schema, Schema::Legacy);
    assert_eq!(assess(&record(&[ghs(&["H302"], &[])])).schema, Schema::V2);
}

#[test]
fn disagreement_is_visible_and_lowers_confidence() {
    let agree = record(&[
        iarc("2A"),
        json!({"regulatory": {"listings": {"prop65": [{"toxicity": "cancer", "listing_mechanism": "LC", "date_listed": "2017-07-07", "source": "p65"}]}}}),
    ]);
    let disagree = record(&[
        json!({"safety": {"cancer_positions": [{"agency": "US EPA", "position": "not likely to be carcinogenic to humans", "call": "not_likely", "year": 2017, "source": "epa"}]}}),
        json!({"regulatory": {"listings": {"ntp_roc": {"listing": "known", "edition": "15th", "source": "ntp"}}}}),
    ]);
    assert!(assess(&agree).disagreements.is_empty());
    let a = assess(&disagree);
    assert_eq!(a.disagreements.len(), 1);
    assert_eq!(a.disagreements[0].positions.len(), 2);
    assert_eq!(
        a.get("human_adult").unwrap().risk_level,
        VeryHigh,
        "strongest call decides"
    );
}

/// The evidence fragments the property test combines.
fn fragments() -> Vec<Value> {
    let mut out: Vec<Value> = [
        &["H300"][..], &["H302"], &["H311"], &["H331"], &["H314"], &["H318"], &["H319"], &["H317"], &["H334"],
        &["H340"], &["H341"], &["H350"], &["H351"], &["H360FD"], &["H361d"], &["H362"], &["H372"], &["H373"],
        &["H400", "H410"], &["H412"], &["H304"], &["H335"],
    ]
    .iter()
    .enumerate()
    .map(|(i, codes)| {
        json!({"safety": {"ghs": [{"jurisdiction": "EU", "hazard_classes": [format!("c{i}")], "h_codes": codes, "source": format!("clp{i}")}]}})
    })
    .collect();
    // One value per single-valued field: merging two IARC groups would replace, not add.
    out.push(iarc("2B"));
    out.push(json!({"regulatory": {"listings": {"ntp_roc": {"listing": "known", "edition": "15th", "source": "ntp"}}}}));
    out.push(json!({"watch_class": "acute_toxin"}));
    out.push(json!({"use_classes": [{"class": "neonicotinoid", "source": "s"}, {"class": "everyday_substance", "source": "s"}]}));
    out.push(json!({"safety": {"species": {"cat": [{"finding": "x", "severity": "very_high", "source": "v"}]}}}));
    out.push(json!({"regulatory": {"listings": {"eu_svhc": {"reasons": ["PBT (Article 57d)", "Endocrine disrupting properties (Article 57(f) - human health)"], "date_of_inclusion": "2020-01-01", "source": "svhc"}}}}));
    out.push(json!({"dose_response": [{"kind": "tdi", "value": 0.2, "unit": "ng/kg bw/day", "agency": "EFSA", "source": "efsa"}]}));
    out.push(json!({"safety": {"exposure_limits": [{"agency": "Ontario Ministry of Labour", "jurisdiction": "CA-ON", "kind": "twa", "value": 0.005, "unit": "mg/m3", "skin": true, "source": "on"}]}}));
    out
}

#[test]
fn adding_evidence_never_lowers_a_tier() {
    let frags = fragments();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..300 {
        let base: Vec<Value> = frags.iter().filter(|_| next() % 4 == 0).cloned().collect();
        let extra = frags[(next() % frags.len() as u64) as usize].clone();
        let before = assess(&record(&base));
        let mut more = base.clone();
        more.push(extra.clone());
        let after = assess(&record(&more));
        for c in &before.contexts {
            let now = after.get(c.context).map(|x| x.risk_level);
            assert!(
                now.is_some_and(|t| t >= c.risk_level),
                "adding {extra} lowered {} from {:?} to {now:?}",
                c.context,
                c.risk_level
            );
        }
    }
}

#[test]
fn potency_bands() {
    let tdi = |value: f64, unit: &str| json!({"dose_response": [{"kind": "tdi", "value": value, "unit": unit, "agency": "EFSA", "source": "efsa"}]});
    // 0.2 ng/kg bw/day = 2e-7 mg/kg bw/day: the highest band.
    assert_eq!(
        tier(&record(&[tdi(0.2, "ng/kg bw/day")]), "exposure_ingestion"),
        Some(High)
    );
    assert_eq!(
        tier(&record(&[tdi(4.0, "µg/kg bw/day")]), "exposure_ingestion"),
        Some(Moderate)
    );
    assert_eq!(
        tier(&record(&[tdi(0.5, "mg/kg bw/day")]), "exposure_ingestion"),
        Some(Low)
    );
    // A weekly intake is divided by 7: 4.4 ng/kg bw/week is below 1e-4 mg/kg bw/day.
    assert_eq!(
        tier(&record(&[tdi(4.4, "ng/kg bw/week")]), "human_adult"),
        Some(High)
    );
    let oel = |value: f64, unit: &str| {
        json!({"safety": {"exposure_limits": [{"agency": "Ontario Ministry of Labour", "jurisdiction": "CA-ON", "kind": "twa", "value": value, "unit": unit, "source": "on"}]},
               "properties": {"chemical_properties": {"molecular_weight": 78.11, "source": "p"}}})
    };
    assert_eq!(
        tier(&record(&[oel(0.005, "mg/m3")]), "occupational_exposure"),
        Some(VeryHigh)
    );
    assert_eq!(
        tier(&record(&[oel(0.5, "mg/m3")]), "occupational_exposure"),
        Some(Moderate)
    );
    // 0.5 ppm of a substance of MW 78.11 is 1.6 mg/m3: low.
    assert_eq!(
        tier(&record(&[oel(0.5, "ppm")]), "occupational_exposure"),
        Some(Low)
    );
}

#[test]
fn sensitisers_organ_toxicity_and_endocrine() {
    let resp = record(&[ghs(&["H334"], &["Resp. Sens. 1"])]);
    assert_eq!(tier(&resp, "exposure_inhalation"), Some(High));
    assert_eq!(tier(&resp, "human_adult"), Some(Moderate));
    let skin = record(&[ghs(&["H317"], &["Skin Sens. 1"])]);
    assert_eq!(tier(&skin, "exposure_dermal"), Some(Moderate));
    let organ = record(&[ghs(&["H372"], &["STOT RE 1"])]);
    assert_eq!(tier(&organ, "human_adult"), Some(High));
    assert_eq!(tier(&organ, "human_elderly"), Some(High));
    let ed = record(&[
        json!({"regulatory": {"listings": {"eu_svhc": {"reasons": ["Endocrine disrupting properties (Article 57(f) - human health)"], "date_of_inclusion": "2017-01-12", "source": "svhc"}}}}),
    ]);
    assert_eq!(tier(&ed, "human_adult"), Some(Moderate));
    assert_eq!(tier(&ed, "human_teen"), Some(High));
    assert_eq!(tier(&ed, "human_elderly"), Some(Moderate));
}

#[test]
fn skin_absorption_gates_systemic_hazards() {
    let carc = ghs(&["H350"], &["Carc. 1B"]);
    assert_eq!(
        tier(&record(std::slice::from_ref(&carc)), "exposure_dermal"),
        None
    );
    let notation = json!({"safety": {"exposure_limits": [{"agency": "Ontario Ministry of Labour", "jurisdiction": "CA-ON", "kind": "twa", "value": 1.0, "unit": "mg/m3", "skin": true, "source": "on"}]}});
    assert_eq!(
        tier(&record(&[carc, notation]), "exposure_dermal"),
        Some(High)
    );
}

#[test]
fn wildlife_and_environment() {
    let rodenticide =
        record(&[json!({"use_classes": [{"class": "rodenticide", "source": "sel"}]})]);
    assert_eq!(tier(&rodenticide, "terrestrial_wildlife"), Some(VeryHigh));
    assert_eq!(tier(&rodenticide, "dog"), Some(High));
    let gwp = record(&[
        json!({"properties": {"environmental_fate": {"gwp_100yr": {"value": 1530.0, "unit": "CO2-eq (100 yr)", "source": "ipcc"}}}}),
    ]);
    assert_eq!(tier(&gwp, "environmental"), Some(High));
    let pbt = record(&[
        json!({"regulatory": {"listings": {"eu_svhc": {"reasons": ["vPvB (Article 57e)"], "date_of_inclusion": "2020-01-01", "source": "svhc"}}}}),
    ]);
    assert_eq!(tier(&pbt, "environmental"), Some(VeryHigh));
    assert_eq!(
        tier(&pbt, "aquatic_life"),
        Some(Moderate),
        "vPvB meets no T criterion"
    );
    assert_eq!(tier(&pbt, "terrestrial_wildlife"), Some(Moderate));
    let with_t = record(&[
        json!({"regulatory": {"listings": {"eu_svhc": {"reasons": ["PBT (Article 57d)", "vPvB (Article 57e)"], "date_of_inclusion": "2020-01-01", "source": "svhc"}}}}),
    ]);
    assert_eq!(tier(&with_t, "aquatic_life"), Some(High));
    assert_eq!(tier(&with_t, "terrestrial_wildlife"), Some(High));
    assert_eq!(
        tier(&pbt, "human_nursing"),
        None,
        "PBT alone says nothing of human hazard classes"
    );
}

/// Minnesota's persistent bioaccumulative toxicant flag is a screening list (it flags n-heptane
/// and ozone), no PBT listing: moderate for the environment, aquatic life and wildlife, where an
/// SVHC PBT listing is very high and high (METHODOLOGY.md, environment).
#[test]
fn a_screening_flag_of_persistence_is_no_pbt_listing() {
    let screened = record(&[
        json!({"properties": {"environmental_fate": {"persistent_bioaccumulative": {"value": true, "source": "mn"}}}}),
    ]);
    for context in ["environmental", "aquatic_life", "terrestrial_wildlife"] {
        assert_eq!(tier(&screened, context), Some(Moderate), "{context}");
    }
    let pbt = record(&[
        json!({"regulatory": {"listings": {"eu_svhc": {"reasons": ["PBT (Article 57d)"], "date_of_inclusion": "2020-01-01", "source": "svhc"}}}}),
    ]);
    assert_eq!(tier(&pbt, "environmental"), Some(VeryHigh));
    assert_eq!(tier(&pbt, "aquatic_life"), Some(High));
    assert_eq!(tier(&pbt, "terrestrial_wildlife"), Some(High));
}

/// Ethinylestradiol (57-63-6), a solid with no boiling point or inhalation value: workers who
/// formulate oral contraceptives take it up where its dust is (Harrington et al. 1978), so its
/// cancer call counts for inhalation (METHODOLOGY.md, route_relevance); the same call on another
/// solid without such a document is held at moderate.
#[test]
fn a_medicine_met_as_dust_where_it_is_formulated_reaches_the_air() {
    let ee = record(&[json!({"cas": "57-63-6"}), iarc("1")]);
    assert!(exposure(&ee, &signals::signals(&ee)).reaches_air);
    assert_eq!(tier(&ee, "exposure_inhalation"), Some(VeryHigh));
    let other = record(&[json!({"cas": "434-07-1"}), iarc("1")]);
    assert_eq!(tier(&other, "exposure_inhalation"), Some(Moderate));
}

/// Methanol's class (Acute Tox. 3, H301) reflects human poisonings; a rat's own oral LD50
/// stands for the laboratory mammal where the record holds one (METHODOLOGY.md, "species").
#[test]
fn a_rodent_ld50_stands_in_before_the_acute_oral_class() {
    let rat = json!({"dose_response": [{"kind": "ld50", "value": 5628.0, "unit": "mg/kg bw", "agency": "EFSA",
                     "population": "laboratory mammals", "route": "oral", "species": "Rat", "source": "efsa"}]});
    let toxic = ghs(&["H301"], &["Acute Tox. 3"]);
    let class_only = record(std::slice::from_ref(&toxic));
    for context in ["dog", "cat", "terrestrial_wildlife"] {
        assert_eq!(tier(&class_only, context), Some(High), "{context}");
    }
    let both = record(&[toxic, rat]);
    for context in ["dog", "cat", "terrestrial_wildlife"] {
        assert_eq!(tier(&both, context), Some(Low), "{context}");
    }
    assert_eq!(
        tier(&both, "human_adult"),
        Some(High),
        "people keep the class"
    );
}

#[test]
fn a_rodent_ld50_above_the_top_band_is_not_low_for_cats_when_the_compound_is_a_phenol() {
    let ld50 = |value: f64| {
        json!({"dose_response": [{"kind": "ld50", "value": value, "unit": "mg/kg bw", "agency": "EFSA",
               "population": "laboratory mammals", "route": "oral", "species": "Rat", "source": "efsa"}]})
    };
    let phenol = json!({"identity": {"smiles": "C1=CC=C(C=C1)C2=CC=CC=C2O", "source": "pc"}});
    let biphenyl = json!({"identity": {"smiles": "C1=CC=C(C=C1)C2=CC=CC=C2", "source": "pc"}});
    let r = record(&[ld50(2733.0), phenol.clone()]);
    assert_eq!(tier(&r, "cat"), None, "cats glucuronidate phenols poorly");
    assert_eq!(tier(&r, "dog"), Some(Low));
    assert_eq!(tier(&r, "terrestrial_wildlife"), Some(Low));
    assert_eq!(
        tier(&record(&[ld50(2733.0), biphenyl]), "cat"),
        Some(Low),
        "no hydroxyl: the rodent value stands in"
    );
    assert_eq!(
        tier(&record(&[ld50(200.0), phenol]), "cat"),
        Some(High),
        "a phenol toxic to the rat stays toxic for the cat"
    );
    let phenolate =
        json!({"identity": {"smiles": "C1=CC=C(C=C1)C2=CC=CC=C2[O-].[Na+]", "source": "pc"}});
    assert_eq!(
        tier(&record(&[ld50(2733.0), phenolate]), "cat"),
        None,
        "a phenolate salt is its phenol's anion"
    );
}

/// A corrosive that is fatal in contact with skin is very high for the eye; a corrosive that
/// is not stays high (METHODOLOGY.md, local_effects).
#[test]
fn a_corrosive_fatal_by_skin_is_very_high_for_the_eye() {
    let hf = record(&[ghs(&["H310", "H314"], &["Acute Tox. 1", "Skin Corr. 1A"])]);
    assert_eq!(tier(&hf, "exposure_ocular"), Some(VeryHigh));
    let toxic_by_skin = record(&[ghs(&["H311", "H314"], &["Acute Tox. 3", "Skin Corr. 1B"])]);
    assert_eq!(tier(&toxic_by_skin, "exposure_ocular"), Some(High));
    let fatal_without_burns = record(&[ghs(&["H310", "H319"], &["Acute Tox. 1", "Eye Irrit. 2"])]);
    assert_eq!(
        tier(&fatal_without_burns, "exposure_ocular"),
        Some(Moderate)
    );
}

/// A curated injury of the eye or skin counts for that route only, at the curator's tier.
#[test]
fn a_curated_local_injury_counts_for_its_route() {
    let irritant = ghs(&["H315", "H319"], &["Skin Irrit. 2", "Eye Irrit. 2"]);
    let eye = json!({"safety": {"species": {"exposure_ocular": [{"finding": "corneal lesions", "severity": "high", "source": "paper"}]}}});
    let r = record(&[irritant.clone(), eye]);
    assert_eq!(tier(&r, "exposure_ocular"), Some(High));
    assert_eq!(tier(&r, "exposure_dermal"), Some(Moderate));
    let skin = json!({"safety": {"species": {"exposure_dermal": [{"finding": "fatal infant poisonings", "severity": "very_high", "source": "paper"}]}}});
    let r = record(&[irritant, skin]);
    assert_eq!(tier(&r, "exposure_dermal"), Some(VeryHigh));
    assert_eq!(tier(&r, "exposure_ocular"), Some(Moderate));
    assert_eq!(
        tier(&r, "human_adult"),
        None,
        "a route's injury is not a group's"
    );
}

/// A curated Stockholm Convention listing makes terrestrial wildlife and aquatic life high,
/// aquatic life not beside an EU vPvB identification without PBT; the same finding from another
/// source does not (METHODOLOGY.md, wildlife, aquatic).
#[test]
fn a_persistent_organic_pollutant_listing_is_high_for_wildlife_and_aquatic_life() {
    let listing = |source: &str| json!({"safety": {"species": {"environmental": [{"finding": "listed in Annex A", "severity": "very_high", "source": source}]}}});
    let harmful = ghs(&["H302"], &["Acute Tox. 4"]);
    let pop = record(&[harmful.clone(), listing("stockholm-sc-9-11")]);
    assert_eq!(tier(&pop, "terrestrial_wildlife"), Some(High));
    assert_eq!(tier(&pop, "environmental"), Some(VeryHigh));
    assert_eq!(
        tier(&pop, "aquatic_life"),
        Some(High),
        "the listing's bioaccumulation criterion is aquatic"
    );
    let svhc = |reasons: &[&str]| json!({"regulatory": {"listings": {"eu_svhc": {"reasons": reasons, "date_of_inclusion": "2017-07-07", "source": "svhc"}}}});
    let vpvb_only = record(&[listing("stockholm-sc-9-14"), svhc(&["vPvB (Article 57e)"])]);
    assert_eq!(
        tier(&vpvb_only, "aquatic_life"),
        Some(Moderate),
        "the EU found no toxicity criterion met"
    );
    let pbt = record(&[
        listing("stockholm-sc-9-12"),
        svhc(&["PBT (Article 57d)", "vPvB (Article 57e)"]),
    ]);
    assert_eq!(tier(&pbt, "aquatic_life"), Some(High));
    let other = record(&[harmful, listing("national-list")]);
    assert_eq!(tier(&other, "terrestrial_wildlife"), Some(Moderate));
    assert_eq!(tier(&other, "aquatic_life"), None);
}

/// An acaricide is high for pollinators only by its own bee LD50; an insecticide is high
/// whatever its LD50 (METHODOLOGY.md, pollinators).
#[test]
fn an_acaricide_takes_no_insecticide_default_for_bees() {
    let acaricide = json!({"use_classes": [{"class": "acaricide", "source": "sel"}]});
    let insecticide = json!({"use_classes": [{"class": "insecticide", "source": "sel"}]});
    let bee = json!({"dose_response": [{"kind": "ld50", "value": 47.92, "unit": "µg/piece", "agency": "EFSA",
                     "population": "pollinators", "route": "dermal", "species": "Honey bee", "source": "efsa"}]});
    assert_eq!(
        tier(&record(std::slice::from_ref(&acaricide)), "pollinator"),
        None
    );
    assert_eq!(
        tier(&record(&[acaricide.clone(), bee.clone()]), "pollinator"),
        Some(Low)
    );
    assert_eq!(tier(&record(&[insecticide, bee]), "pollinator"), Some(High));
    assert_eq!(
        tier(&record(&[acaricide]), "terrestrial_wildlife"),
        Some(Moderate),
        "a pesticide without a bird or rodent value stands in for wildlife as an insecticide does"
    );
}

fn prop65(toxicity: &str, mechanism: &str) -> Value {
    json!({"regulatory": {"listings": {"prop65": [{"toxicity": toxicity, "listing_mechanism": mechanism, "date_listed": "2004-06-11", "source": "p65"}]}}})
}

#[test]
fn a_carried_cancer_listing_takes_the_grade_beside_it() {
    for mechanism in ["AB", "LC"] {
        let listing = prop65("cancer", mechanism);
        assert_eq!(
            tier(&record(std::slice::from_ref(&listing)), "human_adult"),
            Some(High),
            "{mechanism} alone"
        );
        // IARC's 2B grades a Labor Code listing (it names IARC's call), not an
        // authoritative body's, whose own grade may be US EPA's "probable".
        let graded = record(&[listing.clone(), iarc("2B")]);
        let by_iarc = if mechanism == "LC" { Moderate } else { High };
        assert_eq!(tier(&graded, "human_adult"), Some(by_iarc), "{mechanism}");
        let eu = record(&[listing.clone(), ghs(&["H351"], &["Carc. 2"])]);
        assert_eq!(
            tier(&eu, "exposure_ingestion"),
            Some(Moderate),
            "{mechanism}"
        );
        let mutagen = record(&[listing.clone(), iarc("2B"), ghs(&["H341"], &["Muta. 2"])]);
        assert_eq!(tier(&mutagen, "human_adult"), Some(High), "{mechanism}");
    }
    let own = record(&[prop65("cancer", "SQE"), iarc("2B")]);
    assert_eq!(tier(&own, "human_adult"), Some(High));
}

#[test]
fn a_carried_cancer_listing_beside_iarc_group_3_is_possible_unless_dna_reactive() {
    let smiles = |s: &str| json!({"identity": {"smiles": s}});
    for mechanism in ["AB", "LC"] {
        let listing = prop65("cancer", mechanism);
        let limited = record(&[listing.clone(), iarc("3")]);
        for context in ["human_adult", "exposure_ingestion", "occupational_exposure"] {
            assert_eq!(
                tier(&limited, context),
                Some(Moderate),
                "{mechanism} {context}"
            );
        }
        // An N-nitrosamine, a nitro-PAH and a naphthylamine act on DNA by mechanism.
        for dna in [
            "CCN(C)N=O",
            "C1=CC=C2C(=C1)C=CC=C2[N+](=O)[O-]",
            "Nc1cccc2ccccc12",
        ] {
            let reactive = record(&[listing.clone(), iarc("3"), smiles(dna)]);
            assert_eq!(
                tier(&reactive, "human_adult"),
                Some(High),
                "{mechanism} {dna}"
            );
            let beside_2b = record(&[listing.clone(), iarc("2B"), smiles(dna)]);
            assert_eq!(
                tier(&beside_2b, "human_adult"),
                Some(High),
                "{mechanism} {dna}"
            );
        }
        // A single-ring nitro compound is not read as one.
        let nitrobenzene = record(&[
            listing.clone(),
            iarc("3"),
            smiles("C1=CC=C(C=C1)[N+](=O)[O-]"),
        ]);
        assert_eq!(
            tier(&nitrobenzene, "human_adult"),
            Some(Moderate),
            "{mechanism}"
        );
        let mutagen = record(&[listing.clone(), iarc("3"), ghs(&["H341"], &["Muta. 2"])]);
        assert_eq!(tier(&mutagen, "human_adult"), Some(High), "{mechanism}");
    }
    for mechanism in ["SQE", "FR"] {
        let own = record(&[prop65("cancer", mechanism), iarc("3")]);
        assert_eq!(tier(&own, "human_adult"), Some(High), "{mechanism}");
    }
}

#[test]
fn a_labelling_listing_of_an_injected_medicine_reaches_people_as_patients() {
    let medicine =
        |cas: &str, toxicity: &str| record(&[json!({"cas": cas}), prop65(toxicity, "FR")]);
    // Urofollitropin, given by injection: moderate for people and work, high in pregnancy.
    let injected = medicine("97048-13-0", "developmental");
    for context in ["human_adult", "human_child", "occupational_exposure"] {
        assert_eq!(tier(&injected, context), Some(Moderate), "{context}");
    }
    assert_eq!(tier(&injected, "human_pregnant"), Some(High));
    assert_eq!(
        tier(&medicine("52232-67-4", "cancer"), "human_adult"),
        Some(Moderate)
    );
    // Nafarelin, a nasal spray, is absorbed by whoever breathes it.
    let nasal = medicine("86220-42-0", "developmental");
    assert_eq!(tier(&nasal, "human_adult"), Some(High));
    assert_eq!(tier(&nasal, "human_pregnant"), Some(VeryHigh));
}

#[test]
fn a_carried_developmental_listing_does_not_raise_pregnancy() {
    let carried = record(&[prop65("developmental", "AB")]);
    assert_eq!(tier(&carried, "human_pregnant"), Some(High));
    let own = record(&[prop65("developmental", "SQE")]);
    assert_eq!(tier(&own, "human_pregnant"), Some(VeryHigh));
    let later = json!({"safety": {"species": {"human_pregnant": [{"finding": "not upheld", "severity": "high", "source": "fda"}]}}});
    let reviewed = record(&[prop65("developmental", "FR"), later]);
    assert_eq!(tier(&reviewed, "human_pregnant"), Some(High));
    assert_eq!(
        tier(&record(&[prop65("developmental", "FR")]), "human_pregnant"),
        Some(VeryHigh)
    );
}

#[test]
fn breastfeeding_takes_developmental_hazards_through_milk_only() {
    let dev = record(&[ghs(&["H360D"], &["Repr. 1B"])]);
    assert_eq!(tier(&dev, "human_adult"), Some(High));
    assert_eq!(tier(&dev, "human_nursing"), Some(Moderate));
    let milk = record(&[ghs(&["H360D", "H362"], &["Repr. 1B", "Lact."])]);
    assert_eq!(tier(&milk, "human_nursing"), Some(VeryHigh));
}

#[test]
fn a_suspected_mutagen_raises_no_child() {
    let suspected = record(&[ghs(&["H341"], &["Muta. 2"])]);
    assert_eq!(tier(&suspected, "human_child"), Some(Moderate));
    assert_eq!(tier(&suspected, "human_infant"), Some(Moderate));
    // A germ cell mutagen raises the young only as a carcinogen with a mutagenic mode of
    // action: beside a presumed carcinogen, not alone, beside Carc. 2 or a carried listing.
    let known = record(&[ghs(&["H340"], &["Muta. 1B"])]);
    assert_eq!(tier(&known, "human_child"), Some(High));
    let carcinogen = record(&[ghs(&["H340", "H350"], &["Muta. 1B", "Carc. 1B"])]);
    assert_eq!(tier(&carcinogen, "human_child"), Some(VeryHigh));
    assert_eq!(tier(&carcinogen, "human_infant"), Some(VeryHigh));
    let suspected_carcinogen = record(&[
        ghs(&["H340", "H351"], &["Muta. 1B", "Carc. 2"]),
        prop65("cancer", "AB"),
    ]);
    assert_eq!(tier(&suspected_carcinogen, "human_adult"), Some(High));
    assert_eq!(tier(&suspected_carcinogen, "human_infant"), Some(High));
}

/// N-Nitrosodiethylamine (55-18-5): IARC Group 2A, no mutagen class in the record. An
/// N-nitroso compound beside a probable call of the agent's own evaluation is a carcinogen with
/// a mutagenic mode of action, to which the young are more sensitive (US EPA 2005,
/// EPA/630/R-03/003F), as H340 beside it says (METHODOLOGY.md, life_stage); the same call on
/// another structure, or a carried listing on the same one, raises no child.
#[test]
fn a_dna_reactive_class_beside_a_probable_call_raises_the_young() {
    let ndea = json!({"identity": {"smiles": "CCN(CC)N=O"}});
    let reactive = record(&[iarc("2A"), ndea.clone()]);
    assert_eq!(tier(&reactive, "human_adult"), Some(High));
    assert_eq!(tier(&reactive, "human_child"), Some(VeryHigh));
    assert_eq!(tier(&reactive, "human_infant"), Some(VeryHigh));
    assert_eq!(tier(&reactive, "human_teen"), Some(High));
    let other = record(&[iarc("2A"), json!({"identity": {"smiles": "CCCCO"}})]);
    assert_eq!(tier(&other, "human_child"), Some(High));
    let carried = record(&[prop65("cancer", "AB"), ndea.clone()]);
    assert_eq!(tier(&carried, "human_adult"), Some(High));
    assert_eq!(tier(&carried, "human_child"), Some(High));
    let possible = record(&[iarc("2B"), ndea]);
    assert_eq!(tier(&possible, "human_child"), Some(Moderate));
}

#[test]
fn a_low_intake_value_says_nothing_of_infants() {
    let adi = record(&[
        json!({"dose_response": [{"kind": "adi", "value": 3.0, "unit": "mg/kg bw/day", "agency": "EFSA", "source": "efsa"}]}),
    ]);
    assert_eq!(tier(&adi, "human_adult"), Some(Low));
    assert_eq!(tier(&adi, "human_infant"), None);
}

#[test]
fn a_gas_is_not_swallowed() {
    let bp = |value: f64| json!({"properties": {"physical_properties": {"boiling_point": {"value": value, "unit": "°C", "source": "crc"}}}});
    let carc = ghs(&["H350"], &["Carc. 1B"]);
    let gas = record(&[carc.clone(), bp(-76.0)]);
    assert_eq!(tier(&gas, "exposure_ingestion"), None);
    assert_eq!(tier(&gas, "exposure_inhalation"), Some(High));
    let liquid = record(&[carc, bp(96.0)]);
    assert_eq!(tier(&liquid, "exposure_ingestion"), Some(High));
}

/// The acute-toxin watch list counts for the skin only beside a dermal acute class of category
/// 1 to 3; an oral-only lethal class, or a harmful-by-skin one (H312, oxamyl's Acute Tox. 4 *),
/// leaves the skin to the substance's other classes (METHODOLOGY.md, watch_lists).
#[test]
fn the_acute_toxin_watch_list_reaches_the_skin_only_through_a_dermal_class() {
    let watched = json!({"watch_class": "acute_toxin"});
    let oral_only = record(&[
        watched.clone(),
        ghs(&["H300", "H314"], &["Acute Tox. 2", "Skin Corr. 1B"]),
    ]);
    assert_eq!(tier(&oral_only, "exposure_dermal"), Some(High));
    assert_eq!(tier(&oral_only, "exposure_ingestion"), Some(VeryHigh));
    assert_eq!(tier(&oral_only, "human_adult"), Some(VeryHigh));
    let harmful = record(&[
        watched.clone(),
        ghs(&["H300", "H312"], &["Acute Tox. 2 *", "Acute Tox. 4 *"]),
    ]);
    assert_eq!(tier(&harmful, "exposure_dermal"), Some(Moderate));
    assert_eq!(tier(&harmful, "exposure_ingestion"), Some(VeryHigh));
    let toxic = record(&[
        watched,
        ghs(&["H300", "H311"], &["Acute Tox. 2", "Acute Tox. 3"]),
    ]);
    assert_eq!(tier(&toxic, "exposure_dermal"), Some(VeryHigh));
}

/// A curated poisoning of people counts at the curator's tier for the contexts it names, for
/// the workplace where it names inhalation or the skin, and for older adults as a life-stage
/// finding where its document speaks of them apart (METHODOLOGY.md, acute_toxicity).
#[test]
fn a_curated_human_poisoning_counts_for_the_contexts_it_names() {
    let harmful = ghs(&["H302"], &["Acute Tox. 4 *"]);
    let syrup = json!({"safety": {"human_poisoning": [{"contexts": ["exposure_ingestion", "human_child"], "finding": "children died of contaminated syrups", "severity": "high", "source": "alert"}]}});
    let r = record(&[harmful.clone(), syrup]);
    assert_eq!(tier(&r, "exposure_ingestion"), Some(High));
    assert_eq!(tier(&r, "human_child"), Some(High));
    assert_eq!(
        tier(&r, "human_adult"),
        Some(Moderate),
        "a group the document does not speak of keeps its class"
    );
    assert_eq!(tier(&r, "occupational_exposure"), Some(Moderate));
    let gas = json!({"safety": {"human_poisoning": [
        {"contexts": ["exposure_inhalation"], "finding": "deaths at home", "severity": "very_high", "source": "deaths"},
        {"contexts": ["human_elderly"], "finding": "highest death rate at 85 and over", "severity": "very_high", "source": "deaths"}
    ]}});
    let r = record(&[ghs(&["H331"], &["Acute Tox. 3 *"]), gas]);
    assert_eq!(tier(&r, "exposure_inhalation"), Some(VeryHigh));
    assert_eq!(tier(&r, "occupational_exposure"), Some(VeryHigh));
    assert_eq!(tier(&r, "human_elderly"), Some(VeryHigh));
    assert_eq!(tier(&r, "human_adult"), Some(High));
    let assessed = assess(&r);
    let rule_of = |context: &str| {
        assessed
            .get(context)
            .and_then(|c| c.evidence.iter().find(|e| e.decisive))
            .map(|e| e.rule)
    };
    assert_eq!(rule_of("human_elderly"), Some(Rule::LifeStage));
    assert_eq!(rule_of("exposure_inhalation"), Some(Rule::AcuteToxicity));
}

/// An Annex VI entry for a grade holding at least so much of another substance (butane
/// "containing ≥ 0,1 % butadiene") gives the impurity's classes no finding about the substance;
/// a grade by particle size, the substance's own form, still counts (METHODOLOGY.md).
#[test]
fn a_grade_by_an_impurity_gives_no_finding() {
    let graded = |qualifier: &str| {
        record(&[json!({"safety": {"ghs": [
            {"jurisdiction": "EU", "hazard_classes": ["Flam. Gas 1"], "h_codes": ["H220"], "source": "clp"},
            {"jurisdiction": "EU", "hazard_classes": ["Flam. Gas 1", "Carc. 1A", "Muta. 1B"], "h_codes": ["H220", "H350", "H340"], "qualifier": qualifier, "source": "clp"}
        ]}})])
    };
    assert_eq!(
        tier(
            &graded("containing ≥ 0,1 % butadiene (203-450-8)"),
            "human_adult"
        ),
        None
    );
    assert_eq!(
        tier(
            &graded(
                "containing ≥ 0.1 % (w/w) of particles with an aerodynamic diameter of below 50 µm"
            ),
            "human_adult"
        ),
        Some(VeryHigh)
    );
    assert_eq!(
        tier(&graded("containing ≤ 0.03 % isomalathion"), "human_adult"),
        Some(VeryHigh)
    );
}
