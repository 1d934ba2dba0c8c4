//! The risk rules on named compounds of the committed dataset (METHODOLOGY.md, "The rules"):
//! each rule change is held by a compound a toxicologist knows.

use std::path::PathBuf;
use std::sync::OnceLock;

use saferef_generator::aggregate::rules::Rule;
use saferef_generator::aggregate::{self, Assessment};
use saferef_generator::api;
use saferef_generator::load::load;
use saferef_generator::model::Dataset;
use saferef_generator::model::vocab::RiskLevel::{self, *};
use saferef_generator::model::vocab::WatchClass;
use saferef_generator::render::dispatch;

fn dataset() -> &'static Dataset {
    static DATA: OnceLock<Dataset> = OnceLock::new();
    DATA.get_or_init(|| {
        load(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data"))
            .unwrap()
            .0
    })
}

fn assessed(cas: &str) -> Assessment {
    aggregate::assess(dataset().by_cas(cas).unwrap())
}

fn tier(a: &Assessment, context: &str) -> Option<RiskLevel> {
    a.get(context).map(|c| c.risk_level)
}

fn rules(a: &Assessment, context: &str) -> Vec<Rule> {
    a.get(context)
        .map(|c| c.evidence.iter().map(|e| e.rule).collect())
        .unwrap_or_default()
}

#[test]
fn low_needs_positive_evidence() {
    // Potassium cyanide's aquatic tier comes from the Annex VI group entry "salts of hydrogen
    // cyanide" (Aquatic Acute 1, Aquatic Chronic 1), not from any absence.
    assert_eq!(tier(&assessed("151-50-8"), "aquatic_life"), Some(VeryHigh));
    // Benzene's Annex VI entry has no aquatic class: aquatic life is not answered.
    assert_eq!(tier(&assessed("71-43-2"), "aquatic_life"), None);
    // Cadmium: no skin notation or dermal class, and no class's absence reads as low.
    assert_eq!(tier(&assessed("7440-43-9"), "exposure_dermal"), None);
    // Glycerol: an FDA food listing authorises a use; it is not a finding of low hazard.
    assert_eq!(tier(&assessed("56-81-5"), "human_adult"), None);
    // Sodium chloride: the curator's everyday call is low for people and for ingestion only.
    let salt = assessed("7647-14-5");
    assert_eq!(tier(&salt, "human_adult"), Some(Low));
    assert_eq!(tier(&salt, "exposure_ingestion"), Some(Low));
    assert_eq!(tier(&salt, "exposure_ocular"), None);
    assert_eq!(tier(&salt, "aquatic_life"), None);
}

#[test]
fn agents_inhaled_as_particles_raise_inhalation_not_ingestion() {
    // Chrysotile: CLP Carc. 1A (H350) and IARC Group 1, on inhaled fibres.
    let chrysotile = assessed("12001-29-5");
    assert_eq!(tier(&chrysotile, "exposure_inhalation"), Some(VeryHigh));
    assert_eq!(tier(&chrysotile, "occupational_exposure"), Some(VeryHigh));
    // People meet asbestos as inhaled fibres: its Group 1 call stands for them.
    assert_eq!(tier(&chrysotile, "human_adult"), Some(VeryHigh));
    assert_eq!(tier(&assessed("1332-21-4"), "human_adult"), Some(VeryHigh));
    assert!(
        !rules(&chrysotile, "exposure_ingestion").contains(&Rule::Carcinogenicity),
        "{:?}",
        rules(&chrysotile, "exposure_ingestion")
    );
    // Talc: IARC 2A on perineal use and inhaled dust; nothing by ingestion.
    let talc = assessed("14807-96-6");
    assert!(
        !rules(&talc, "exposure_ingestion").contains(&Rule::Carcinogenicity),
        "{:?}",
        rules(&talc, "exposure_ingestion")
    );
    assert!(tier(&talc, "exposure_inhalation").is_some_and(|t| t >= Moderate));
    // Titanium dioxide powder reaches the lungs though it never boils.
    let tio2 = assessed("13463-67-7");
    assert!(tier(&tio2, "exposure_inhalation").is_some());
    assert!(!rules(&tio2, "exposure_ingestion").contains(&Rule::Carcinogenicity));
}

#[test]
fn life_stages_follow_what_each_class_concerns() {
    // N-methylacetamide, H360D only: the unborn child, not the child once born.
    let nma = assessed("79-16-3");
    assert_eq!(tier(&nma, "human_adult"), Some(High));
    assert_eq!(tier(&nma, "human_pregnant"), Some(VeryHigh));
    assert_eq!(tier(&nma, "human_child"), Some(High));
    assert_eq!(tier(&nma, "human_infant"), Some(High));
    assert_eq!(tier(&nma, "human_nursing"), Some(High), "no H362");
    // Ethylene glycol: Proposition 65 developmental toxicity covers exposure after birth.
    let eg = assessed("107-21-1");
    assert_eq!(tier(&eg, "human_child"), Some(VeryHigh));
    // Tetrapropenyl phenol (H360F, fertility only): pregnancy is not raised.
    let tpp = assessed("74499-35-7");
    assert_eq!(tier(&tpp, "human_adult"), Some(High));
    assert_eq!(tier(&tpp, "human_pregnant"), Some(High));
    // MCCP (H362): breastfeeding is raised by the lactation class.
    let mccp = assessed("85535-85-9");
    assert_eq!(tier(&mccp, "human_adult"), Some(Moderate));
    assert_eq!(tier(&mccp, "human_nursing"), Some(High));
    // Lead (H360, H362): shown to reach the breast-fed child, its developmental class is raised.
    assert_eq!(
        tier(&assessed("7439-92-1"), "human_nursing"),
        Some(VeryHigh)
    );
}

#[test]
fn skin_sensitisers_count_for_every_group_of_people() {
    // Cinnamyl alcohol: H317 only.
    let a = assessed("104-54-1");
    for context in [
        "human_adult",
        "human_child",
        "human_infant",
        "human_elderly",
        "exposure_dermal",
    ] {
        assert_eq!(tier(&a, context), Some(Moderate), "{context}");
    }
}

#[test]
fn acute_toxins_are_not_raised_for_eye_contact() {
    let nacn = assessed("143-33-9");
    assert_eq!(tier(&nacn, "exposure_ingestion"), Some(VeryHigh));
    assert!(!rules(&nacn, "exposure_ocular").contains(&Rule::WatchLists));
}

#[test]
fn amiton_is_refused_as_schedule_1_agents_are() {
    let d = dataset();
    let amiton = d.by_cas("78-53-5").unwrap();
    assert_eq!(amiton.watch_class, WatchClass::CriticalThreat);
    let path = format!("/api/compound/{}", amiton.hq_id);
    assert_eq!(
        dispatch::get_static(d, &path, &api::pairs(""), None).status,
        403
    );
    assert_eq!(tier(&assessed("78-53-5"), "human_adult"), Some(Critical));
    // PFIB (Schedule 2A, a pulmonary agent) stays a watched precursor.
    assert_eq!(
        d.by_cas("382-21-8").unwrap().watch_class,
        WatchClass::Precursor
    );
}

#[test]
fn the_laboratory_mammal_stands_in_for_animals_without_data() {
    // Trichloroacetonitrile (H301), no species data: dogs, cats and wildlife take the rat.
    let tca = assessed("545-06-2");
    for context in ["dog", "cat", "terrestrial_wildlife"] {
        let c = tca.get(context).unwrap();
        assert_eq!(c.risk_level, High, "{context}");
        assert!(
            c.evidence.iter().any(|e| e.surrogate && e.decisive),
            "{context}"
        );
        assert!(c.confidence < tca.get("exposure_ingestion").unwrap().confidence);
    }
    // Warfarin (H300): the curated veterinary finding replaces the stand-in.
    let warfarin = assessed("81-81-2");
    for context in ["dog", "cat"] {
        assert!(
            !warfarin
                .get(context)
                .unwrap()
                .evidence
                .iter()
                .any(|e| e.surrogate),
            "{context}"
        );
    }
}

#[test]
fn a_call_on_the_drink_counts_for_drinking_only() {
    // Ethanol: IARC Group 1 "in alcoholic beverages" (Vol 96, 100E) and Proposition 65
    // developmental toxicity "in alcoholic beverages": people who drink it and ingestion,
    // pregnancy most; never inhalation, skin or work.
    let ethanol = assessed("64-17-5");
    assert_eq!(tier(&ethanol, "human_adult"), Some(VeryHigh));
    assert_eq!(tier(&ethanol, "human_pregnant"), Some(VeryHigh));
    assert_eq!(tier(&ethanol, "exposure_ingestion"), Some(VeryHigh));
    assert!(rules(&ethanol, "human_pregnant").contains(&Rule::ReproductiveToxicity));
    for context in [
        "exposure_inhalation",
        "exposure_dermal",
        "occupational_exposure",
    ] {
        assert!(
            !rules(&ethanol, context).contains(&Rule::Carcinogenicity),
            "{context}"
        );
    }
    assert_eq!(tier(&ethanol, "dog"), None);
}

#[test]
fn organ_toxicity_counts_only_by_the_route_its_class_states() {
    // Benzoic acid: H372 (lungs) (Inhalation), Annex VI index 607-705-00-8. Inhalation and the
    // workplace take it; ingestion does not, and people get at most moderate from it.
    let benzoic = assessed("65-85-0");
    assert_eq!(tier(&benzoic, "exposure_inhalation"), Some(High));
    assert_eq!(tier(&benzoic, "occupational_exposure"), Some(High));
    assert!(!rules(&benzoic, "exposure_ingestion").contains(&Rule::OrganToxicity));
    assert_eq!(tier(&benzoic, "human_adult"), Some(Moderate));
    // Crystalline silica: HCIS H372 "if inhaled"; people meet it as a dust, so it stands for
    // them, but it never raises ingestion.
    let silica = assessed("14808-60-7");
    assert_eq!(tier(&silica, "exposure_inhalation"), Some(VeryHigh));
    assert!(
        rules(&silica, "human_adult").contains(&Rule::OrganToxicity),
        "{:?}",
        rules(&silica, "human_adult")
    );
    assert!(!rules(&silica, "exposure_ingestion").contains(&Rule::OrganToxicity));
    // Mercury: its H372 states no route, so it counts for ingestion as before.
    assert!(rules(&assessed("7439-97-6"), "exposure_ingestion").contains(&Rule::OrganToxicity));
}

#[test]
fn aquatic_classes_and_m_factors_follow_the_rubric() {
    // Dichlorvos: Aquatic Acute 1 (H400) with M=1000 (acute L(E)C50 at most 0.001 mg/l).
    let dichlorvos = assessed("62-73-7");
    let aquatic = dichlorvos.get("aquatic_life").unwrap();
    assert_eq!(aquatic.risk_level, VeryHigh);
    assert!(
        aquatic
            .evidence
            .iter()
            .any(|e| e.finding.contains("M-factor 1000")),
        "{:?}",
        aquatic.evidence
    );
    // Chlorine: H400 with M=100.
    assert_eq!(tier(&assessed("7782-50-5"), "aquatic_life"), Some(VeryHigh));
    // d-Limonene: H400 with M=1 stays high.
    assert_eq!(tier(&assessed("5989-27-5"), "aquatic_life"), Some(High));
    // Cadmium sulfide: Aquatic Chronic 4 (H413) only.
    assert_eq!(tier(&assessed("1306-23-6"), "aquatic_life"), Some(Moderate));
}
