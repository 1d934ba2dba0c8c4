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
    // Sodium chloride: the curator's everyday call is low for people and for ingestion only,
    // and not for infants, whose intake it does not describe.
    let salt = assessed("7647-14-5");
    assert_eq!(tier(&salt, "human_adult"), Some(Low));
    assert_eq!(tier(&salt, "human_child"), Some(Low));
    assert_eq!(tier(&salt, "human_infant"), None);
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
    assert_eq!(
        tier(&nma, "human_nursing"),
        Some(Moderate),
        "no H362: harm to the offspring reaches no breast-fed child"
    );
    // Ethylene glycol (H302; Proposition 65 developmental by an authoritative body): neither an
    // acute class nor a developmental listing without H362 raises the child, and a carried
    // listing does not raise pregnancy.
    let eg = assessed("107-21-1");
    assert_eq!(tier(&eg, "human_adult"), Some(High));
    assert_eq!(tier(&eg, "human_child"), Some(High));
    assert_eq!(tier(&eg, "human_infant"), Some(High));
    assert_eq!(tier(&eg, "human_pregnant"), Some(High));
    // Tetrapropenyl phenol (H360F, fertility only): pregnancy is not raised.
    let tpp = assessed("74499-35-7");
    assert_eq!(tier(&tpp, "human_adult"), Some(High));
    assert_eq!(tier(&tpp, "human_pregnant"), Some(High));
    // MCCP (H362): breastfeeding is raised by the lactation class.
    let mccp = assessed("85535-85-9");
    assert_eq!(tier(&mccp, "human_adult"), Some(Moderate));
    assert_eq!(tier(&mccp, "human_nursing"), Some(High));
    // Lead (H360, H362): shown to reach the child after birth, its developmental class is
    // raised for breastfeeding, infants and children.
    let lead = assessed("7439-92-1");
    for context in ["human_nursing", "human_infant", "human_child"] {
        assert_eq!(tier(&lead, context), Some(VeryHigh), "{context}");
    }
}

#[test]
fn life_stages_are_raised_by_what_concerns_them_not_mechanically() {
    // Caffeine (H302): an acute class is per kg of body weight and raises no life stage.
    let caffeine = assessed("58-08-2");
    assert_eq!(
        tier(&caffeine, "human_infant"),
        tier(&caffeine, "human_adult")
    );
    assert!(!rules(&caffeine, "human_infant").contains(&Rule::LifeStage));
    // Goserelin acetate (Proposition 65 developmental on its labelling, no H362; an implant,
    // so moderate for people): pregnancy is raised, children are not.
    let goserelin = assessed("65807-02-5");
    assert_eq!(tier(&goserelin, "human_adult"), Some(Moderate));
    assert_eq!(tier(&goserelin, "human_pregnant"), Some(High));
    assert_eq!(tier(&goserelin, "human_child"), Some(Moderate));
    assert_eq!(tier(&goserelin, "human_infant"), Some(Moderate));
    // 4-Methylbenzylidene camphor (SVHC, endocrine disruptor for human health): pregnancy is
    // raised with children, infants and teenagers.
    let mbc = assessed("741687-98-9");
    assert_eq!(tier(&mbc, "human_adult"), Some(Moderate));
    for context in [
        "human_pregnant",
        "human_child",
        "human_infant",
        "human_teen",
    ] {
        assert_eq!(tier(&mbc, context), Some(High), "{context}");
    }
    // Benzoic acid: its inhalation-only H372 is moderate for people, older adults included.
    let benzoic = assessed("65-85-0");
    assert_eq!(tier(&benzoic, "human_elderly"), Some(Moderate));
    assert!(!rules(&benzoic, "human_elderly").contains(&Rule::LifeStage));
    // Older adults are not raised: carbon tetrachloride's H372 (liver, kidney) counts for them
    // as for adults (METHODOLOGY.md, life_stage).
    let ccl4 = assessed("56-23-5");
    assert_eq!(tier(&ccl4, "human_elderly"), tier(&ccl4, "human_adult"));
    assert!(!rules(&ccl4, "human_elderly").contains(&Rule::LifeStage));
}

/// Methyl methanesulfonate and 1,3-propane sultone (IARC 2A, no mutagen class in the record)
/// alkylate DNA directly, an alkyl sulfonate ester and a sultone: beside their probable calls
/// the young are raised as for a germ cell mutagen (METHODOLOGY.md, life_stage); teenagers are
/// not. Diisopropyl sulfate, of the same class, has only a possible call (IARC 2B) and raises
/// no child.
#[test]
fn a_direct_acting_alkylator_with_a_probable_call_raises_the_young() {
    for cas in ["66-27-3", "1120-71-4"] {
        let a = assessed(cas);
        assert_eq!(tier(&a, "human_adult"), Some(High), "{cas}");
        assert_eq!(tier(&a, "human_teen"), Some(High), "{cas}");
        for context in ["human_child", "human_infant"] {
            assert_eq!(tier(&a, context), Some(VeryHigh), "{cas} {context}");
            assert!(rules(&a, context).contains(&Rule::LifeStage), "{cas}");
        }
    }
    let diisopropyl = assessed("2973-10-6");
    assert_eq!(
        tier(&diisopropyl, "human_child"),
        tier(&diisopropyl, "human_adult")
    );
}

#[test]
fn corrosion_follows_its_sub_category_and_reaches_the_airways() {
    // Thionyl chloride: Skin Corr. 1A, Acute Tox. 4 * (H302, H332), boiling at 76 °C.
    let socl2 = assessed("7719-09-7");
    for context in [
        "human_adult",
        "human_pregnant",
        "human_elderly",
        "exposure_inhalation",
        "exposure_dermal",
        "occupational_exposure",
    ] {
        assert_eq!(tier(&socl2, context), Some(High), "{context}");
    }
    for context in ["dog", "cat"] {
        let c = socl2.get(context).unwrap();
        assert_eq!(c.risk_level, High, "{context}");
        assert!(
            c.evidence
                .iter()
                .any(|e| e.decisive && e.surrogate && e.finding.contains("H314")),
            "{context}: {:?}",
            c.evidence
        );
    }
    // Its "Acute Tox. 4 *" is a minimum classification: moderate, said to be at least that.
    let adult = socl2.get("human_adult").unwrap();
    assert!(
        adult.evidence.iter().any(|e| e.rule == Rule::AcuteToxicity
            && e.tier == Moderate
            && e.finding
                .contains("at least (Annex VI minimum classification)")),
        "{:?}",
        adult.evidence
    );
}

#[test]
fn a_species_own_finding_decides_over_the_watch_list() {
    // Difenacoum, a curated acute toxin: cat oral LD50 100 mg/kg (high band), dog 50 mg/kg
    // (very high band), Gupta, Veterinary Toxicology, 3rd ed., Table 46.1.
    let difenacoum = assessed("56073-07-5");
    assert_eq!(tier(&difenacoum, "cat"), Some(High));
    assert!(!rules(&difenacoum, "cat").contains(&Rule::WatchLists));
    assert_eq!(tier(&difenacoum, "dog"), Some(VeryHigh));
    // People still take the watch list.
    assert!(rules(&difenacoum, "human_adult").contains(&Rule::WatchLists));
}

#[test]
fn a_vpvb_listing_is_no_toxicity_finding() {
    // Karanal, on the Candidate List as vPvB only.
    let karanal = assessed("117933-89-8");
    assert_eq!(tier(&karanal, "environmental"), Some(VeryHigh));
    assert_eq!(tier(&karanal, "aquatic_life"), Some(Moderate));
    assert_eq!(tier(&karanal, "terrestrial_wildlife"), Some(Moderate));
    // PFNA, PBT: its T criterion rests on a class (Repr. 1B), not on an aquatic value.
    assert_eq!(tier(&assessed("375-95-1"), "aquatic_life"), Some(High));
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
    // Propiconazole: Aquatic Chronic 1 whose entry states M=1 only (ATP13): high.
    let propiconazole = assessed("60207-90-1");
    assert_eq!(tier(&propiconazole, "aquatic_life"), Some(High));
    assert_eq!(tier(&propiconazole, "environmental"), Some(High));
    // Lead: Aquatic Chronic 1 with an M-factor of 10 beside one of 1: very high.
    assert_eq!(tier(&assessed("7439-92-1"), "aquatic_life"), Some(VeryHigh));
    // 1,2-Dichlorobenzene: Aquatic Chronic 1 in an entry that states no M-factor, which
    // suppliers set (CLP Article 10(4)): not read as M=1.
    assert_eq!(tier(&assessed("95-50-1"), "aquatic_life"), Some(VeryHigh));
    // 2-Phenylphenol: ATP22's entry (curated) labels its factors "Aquatic Acute 1: M = 1;
    // Aquatic Chronic 1: M = 1": high, as for an Annex VI "M=1 | M=1".
    assert_eq!(tier(&assessed("90-43-7"), "aquatic_life"), Some(High));
}

#[test]
fn an_agency_value_for_air_or_an_exhaust_volume_puts_a_solid_carcinogen_in_the_air() {
    // 4-Aminobiphenyl: boiling point 302 °C, IARC Group 1, OEHHA inhalation unit risk.
    let aminobiphenyl = assessed("92-67-1");
    assert_eq!(tier(&aminobiphenyl, "exposure_inhalation"), Some(VeryHigh));
    assert_eq!(
        tier(&aminobiphenyl, "occupational_exposure"),
        Some(VeryHigh)
    );
    // 3,7-Dinitrofluoranthene and 6-nitrochrysene: no boiling point or air value, IARC Volumes
    // 46 and 105 (engine exhausts): their cancer tier counts for inhalation (an authoritative-
    // body Proposition 65 listing with no EU Carc. 2 beside it, and IARC 2A).
    let dnf = assessed("105735-71-5");
    assert_eq!(tier(&dnf, "exposure_inhalation"), Some(High));
    assert!(rules(&dnf, "exposure_inhalation").contains(&Rule::RouteRelevance));
    assert_eq!(
        tier(&assessed("7496-02-8"), "exposure_inhalation"),
        Some(High)
    );
    // Sodium hydroxide: Skin Corr. 1A and Minnesota's acute inhalation benchmark.
    assert_eq!(
        tier(&assessed("1310-73-2"), "exposure_inhalation"),
        Some(High)
    );
    // A salt with no such value is still held at moderate (METHODOLOGY.md, "What the rules do
    // not do yet").
    assert_eq!(
        tier(&assessed("612-82-8"), "exposure_inhalation"),
        Some(Moderate)
    );
    // An air value does not carry a cancer class by inhalation only to ingestion.
    let nickel_oxide = assessed("1313-99-1");
    assert!(!rules(&nickel_oxide, "exposure_ingestion").contains(&Rule::Carcinogenicity));
}

#[test]
fn cancer_evidence_by_one_route_counts_by_that_route() {
    // Nickel(II) oxide: its Annex VI class is by inhalation (H350i), so NTP's and Proposition
    // 65's route-free calls on it are too (IARC Monographs Volume 100C, nickel compounds).
    let nio = assessed("1313-99-1");
    assert_eq!(tier(&nio, "exposure_inhalation"), Some(VeryHigh));
    assert_eq!(tier(&nio, "occupational_exposure"), Some(VeryHigh));
    assert!(
        !rules(&nio, "exposure_ingestion").contains(&Rule::Carcinogenicity),
        "{:?}",
        rules(&nio, "exposure_ingestion")
    );
    // People meet it as a compound worked as dust: cancer at most high for them.
    assert_eq!(tier(&nio, "human_adult"), Some(High));
    let cancer_for_people = nio
        .get("human_adult")
        .unwrap()
        .evidence
        .iter()
        .filter(|e| e.rule == Rule::Carcinogenicity)
        .map(|e| e.tier)
        .max();
    assert_eq!(cancer_for_people, Some(High));
    // Iron dextran: IARC 2B, NTP and Proposition 65 on injection-site sarcomas: moderate for
    // people, and no route of exposure is answered by it.
    let iron_dextran = assessed("9004-66-4");
    assert_eq!(tier(&iron_dextran, "human_adult"), Some(Moderate));
    for context in [
        "exposure_ingestion",
        "exposure_inhalation",
        "exposure_dermal",
        "occupational_exposure",
    ] {
        assert_eq!(tier(&iron_dextran, context), None, "{context}");
    }
}

#[test]
fn an_acute_dermal_class_does_not_carry_cancer_to_the_skin() {
    // Arsenic acid: IARC Group 1 (arsenic compounds) and an H312 from Safe Work Australia, no
    // skin notation: skin contact is answered by its corrosion, not its cancer call.
    let arsenic_acid = assessed("7778-39-4");
    let dermal = arsenic_acid.get("exposure_dermal").unwrap();
    assert!(
        dermal
            .evidence
            .iter()
            .all(|e| !e.finding.to_lowercase().contains("carcino")),
        "{:?}",
        dermal.evidence
    );
    assert_eq!(dermal.risk_level, High);
}

#[test]
fn older_adults_take_reproductive_findings_at_most_moderate() {
    // Diglyme (Repr. 1B H360FD): high for adults, moderate for older adults.
    let diglyme = assessed("111-96-6");
    assert_eq!(tier(&diglyme, "human_adult"), Some(High));
    assert_eq!(tier(&diglyme, "human_elderly"), Some(Moderate));
}

#[test]
fn a_peptide_medicine_is_not_rated_for_swallowing_by_its_systemic_hazards() {
    // Leuprorelin acetate and filgrastim: Proposition 65 reproductive and developmental listings
    // of medicines given by depot injection; swallowed, the peptide and the protein are digested.
    for cas in ["74381-53-6", "121181-53-1"] {
        let a = assessed(cas);
        assert_eq!(tier(&a, "exposure_ingestion"), None, "{cas}");
        assert!(
            tier(&a, "human_adult").is_some(),
            "{cas}: people keep their tier"
        );
    }
}

#[test]
fn a_carried_cancer_listing_takes_the_grade_of_the_call_beside_it() {
    // Pentosan polysulfate (Labor Code, IARC 2B) and mepanipyrim (authoritative body, EU
    // Carc. 2): possible, not probable.
    for cas in ["37319-17-8", "110235-47-7"] {
        let a = assessed(cas);
        for context in ["human_adult", "exposure_ingestion", "human_pregnant"] {
            assert_eq!(tier(&a, context), Some(Moderate), "{cas} {context}");
        }
    }
    // 1,2-Diethylhydrazine (State's Qualified Experts, IARC 2B) and TDCPP (State's Qualified
    // Experts, Carc. 2): the State's own evaluation stays probable; 1-tert-butoxypropan-2-ol
    // (authoritative body, IARC 2B, no EU Carc. 2): the body's grade is not in the record, so
    // the listing keeps its own.
    for cas in ["1615-80-1", "13674-87-8", "57018-52-7"] {
        assert_eq!(tier(&assessed(cas), "human_adult"), Some(High), "{cas}");
    }
}

#[test]
fn a_developmental_listing_raises_pregnancy_by_its_basis() {
    // Atrazine and methanol (authoritative body; no EU developmental class): high, not raised.
    for cas in ["1912-24-9", "67-56-1"] {
        assert_eq!(tier(&assessed(cas), "human_pregnant"), Some(High), "{cas}");
    }
    // Lovastatin (labelling, FR): the FDA's 2021 review did not uphold it for pregnancy.
    let lovastatin = assessed("75330-75-5");
    assert_eq!(tier(&lovastatin, "human_pregnant"), Some(High));
    // Carbamazepine (FR, no later evaluation) is still raised.
    assert_eq!(
        tier(&assessed("298-46-4"), "human_pregnant"),
        Some(VeryHigh)
    );
}

#[test]
fn breastfeeding_children_and_infants_take_what_reaches_them() {
    // Developmental listings without H362: at most moderate for breastfeeding.
    for cas in ["298-46-4", "3963-95-9", "121181-53-1"] {
        assert_eq!(
            tier(&assessed(cas), "human_nursing"),
            Some(Moderate),
            "{cas}"
        );
    }
    // Lithium carbonate: a curated finding of transfer to milk keeps breastfeeding high.
    assert_eq!(tier(&assessed("554-13-2"), "human_nursing"), Some(High));
    // Chrysoidine (Muta. 2): children and infants as adults.
    let chrysoidine = assessed("532-82-1");
    for context in ["human_child", "human_infant"] {
        assert_eq!(
            tier(&chrysoidine, context),
            tier(&chrysoidine, "human_adult"),
            "{context}"
        );
    }
    // Curcumin: its EFSA ADI says nothing of infants below 16 weeks.
    let curcumin = assessed("458-37-7");
    assert_eq!(tier(&curcumin, "human_adult"), Some(Low));
    assert_eq!(tier(&curcumin, "human_infant"), None);
}

#[test]
fn curated_life_stage_findings_raise_the_stage_they_concern() {
    let hexachlorophene = assessed("70-30-4");
    for context in ["human_infant", "human_child"] {
        assert_eq!(tier(&hexachlorophene, context), Some(VeryHigh), "{context}");
    }
    // Carbamazepine: the cap on its developmental listing lowers no other finding for older
    // adults (AGS Beers Criteria 2023).
    assert_eq!(tier(&assessed("298-46-4"), "human_elderly"), Some(High));
}

#[test]
fn a_gas_is_not_rated_for_swallowing_by_its_systemic_hazards() {
    // Tetrafluoroethylene (boiling point -76 °C; Carc. 1B) and butane (an everyday substance).
    for cas in ["116-14-3", "106-97-8"] {
        assert_eq!(tier(&assessed(cas), "exposure_ingestion"), None, "{cas}");
    }
    assert_eq!(
        tier(&assessed("116-14-3"), "exposure_inhalation"),
        Some(High)
    );
}

#[test]
fn eye_and_skin_injuries_beyond_the_class_are_read() {
    // Hydrogen fluoride: Acute Tox. 1 (H310) with Skin Corr. 1A: a penetrating burn.
    let hf = assessed("7664-39-3");
    assert_eq!(tier(&hf, "exposure_ocular"), Some(VeryHigh));
    assert!(rules(&hf, "exposure_ocular").contains(&Rule::LocalEffects));
    // Sodium pentachlorophenate (Annex VI minimum class H311*): fatal infant poisonings by
    // skin (data/curated/local-injuries.json); p-benzoquinone (Eye Irrit. 2): corneal lesions.
    assert_eq!(
        tier(&assessed("131-52-2"), "exposure_dermal"),
        Some(VeryHigh)
    );
    assert_eq!(tier(&assessed("106-51-4"), "exposure_ocular"), Some(High));
}

#[test]
fn tets_is_an_acute_toxin_for_people_and_pets() {
    let tets = assessed("80-12-6");
    for context in ["dog", "cat", "human_adult", "exposure_ingestion"] {
        assert_eq!(tier(&tets, context), Some(VeryHigh), "{context}");
    }
}

#[test]
fn persistent_organic_pollutants_and_acaricides_in_wildlife_and_pollinators() {
    // Dicofol: Stockholm Convention Annex A (SC-9/11), an acaricide with no bee LD50.
    let dicofol = assessed("115-32-2");
    assert_eq!(tier(&dicofol, "terrestrial_wildlife"), Some(High));
    assert_eq!(tier(&dicofol, "pollinator"), None);
    // Hexachlorobenzene had no wildlife finding before its listing was read.
    assert_eq!(
        tier(&assessed("118-74-1"), "terrestrial_wildlife"),
        Some(High)
    );
    // Propargite: EFSA's honey bee contact LD50 of 47.92 µg/bee decides, not a default.
    assert_eq!(tier(&assessed("2312-35-8"), "pollinator"), Some(Low));
    // Malathion: US EPA's pheasant LD50 (136 mg/kg bw) is more sensitive than EFSA's quail.
    assert_eq!(
        tier(&assessed("121-75-5"), "terrestrial_wildlife"),
        Some(High)
    );
}

#[test]
fn serious_eye_damage_counts_for_swallowing_the_neat_substance() {
    // Calcium hydroxide: Eye Dam. 1 beside the curator's everyday call: moderate, not low.
    assert_eq!(
        tier(&assessed("1305-62-0"), "exposure_ingestion"),
        Some(Moderate)
    );
}

#[test]
fn a_beryllium_compound_s_cancer_calls_are_by_inhalation() {
    // Beryllium phosphate: classified through the Annex VI beryllium compounds entry (H350i);
    // IARC Group 1 (Volume 100C: lung cancer from inhaled dust and fume) and NTP known count
    // for inhalation, and ingestion rests on its H301.
    let b = assessed("13598-15-7");
    assert_eq!(tier(&b, "exposure_inhalation"), Some(VeryHigh));
    assert_eq!(tier(&b, "exposure_ingestion"), Some(High));
}

#[test]
fn fibres_and_powders_people_breathe_reach_them() {
    // Refractory ceramic fibres (Annex VI 650-017-00-8, Carc. 1B H350i; NTP on respirable
    // fibres): inhaled as fibres wherever they are met, like asbestos.
    let rcf = assessed("142844-00-6");
    for context in [
        "human_adult",
        "human_child",
        "human_elderly",
        "human_nursing",
    ] {
        assert_eq!(tier(&rcf, context), Some(High), "{context}");
    }
    // Nickel carbonate, a powder: its Group 1 by inhalation is high for older and breastfeeding
    // adults too, not very high, and still nothing for ingestion.
    let nickel = assessed("3333-67-3");
    for context in ["human_elderly", "human_nursing", "human_adult"] {
        assert_eq!(tier(&nickel, context), Some(High), "{context}");
    }
    assert!(!rules(&nickel, "exposure_ingestion").contains(&Rule::Carcinogenicity));
}

#[test]
fn iarc_group_3_grades_a_carried_listing_and_dna_reactive_classes_keep_it() {
    // Chlorobenzilate: authoritative-body listing (US EPA B2), IARC Group 3, no EU Carc. class.
    let chlorobenzilate = assessed("510-15-6");
    for context in [
        "human_adult",
        "human_child",
        "human_teen",
        "human_infant",
        "human_pregnant",
        "human_nursing",
        "human_elderly",
        "human_immunocompromised",
        "occupational_exposure",
        "exposure_inhalation",
        "exposure_ingestion",
    ] {
        assert_eq!(tier(&chlorobenzilate, context), Some(Moderate), "{context}");
    }
    // N-Nitrosomethylethylamine and 1,3-dinitropyrene (Labor Code, IARC 2B): DNA-reactive.
    for cas in ["10595-95-6", "75321-20-9"] {
        let a = assessed(cas);
        for context in ["human_adult", "exposure_ingestion", "occupational_exposure"] {
            assert_eq!(tier(&a, context), Some(High), "{cas} {context}");
        }
    }
    // Titanium dioxide's Labor Code listing of respirable particles takes its Group 2B.
    let tio2 = assessed("13463-67-7");
    assert_eq!(tier(&tio2, "exposure_inhalation"), Some(Moderate));
}

#[test]
fn injected_protein_medicines_reach_people_as_patients_under_their_label() {
    // Urofollitropin (Proposition 65 developmental, FR; an FSH glycoprotein given by injection).
    let urofollitropin = assessed("97048-13-0");
    for context in ["human_adult", "human_child", "occupational_exposure"] {
        assert_eq!(tier(&urofollitropin, context), Some(Moderate), "{context}");
    }
    assert_eq!(tier(&urofollitropin, "human_pregnant"), Some(High));
    // Nafarelin, a nasal spray, is not given by injection only.
    assert_eq!(
        tier(&assessed("86220-42-0"), "human_pregnant"),
        Some(VeryHigh)
    );
}

#[test]
fn a_germ_cell_mutagen_raises_the_young_as_a_mutagenic_carcinogen_only() {
    // Trimethyl phosphate: Muta. 1B beside Carc. 2 and an authoritative-body listing.
    let tmp = assessed("512-56-1");
    for context in ["human_child", "human_infant"] {
        assert_eq!(tier(&tmp, context), Some(High), "{context}");
    }
    // Acrylamide: Muta. 1B and Carc. 1B, high for adults and raised for the young.
    let acrylamide = assessed("79-06-1");
    assert_eq!(tier(&acrylamide, "human_adult"), Some(High));
    assert_eq!(tier(&acrylamide, "human_child"), Some(VeryHigh));
}
