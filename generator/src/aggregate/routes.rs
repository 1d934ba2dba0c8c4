//! Routes of exposure the evidence states. Agents whose cancer hazard is by inhaled fibres,
//! dusts or powders, with their physical form and the document that says so (METHODOLOGY.md,
//! rules "carcinogenicity" and "route_relevance"): such an agent reaches the lungs without
//! boiling, and its cancer calls count as a hazard by inhalation, whatever the wording of each
//! list. Agents whose cancer evidence is by injection only, likewise with their document: their
//! calls count for no route a person meets them by. And the routes an authority states for organ toxicity classes (rule
//! "organ_toxicity"): read from the record's GHS entries (`safety.ghs[].routes`), where a
//! curated document may state the route of a class its entry gives without one
//! (`stated_routes` in data/curated/ghs-routes.json).

use crate::model::formula;
use crate::model::record::CompoundRecord;

/// The form in which an agent reaches the air.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Fibre,
    Dust,
    Powder,
    /// Dusts, fumes and mists of a compound made airborne where it is produced or used
    /// (nickel refining, electroplating).
    WorkplaceAerosol,
}

impl Form {
    /// Fibres and dusts are the agent as named; a powder (titanium dioxide, talc) is a bulk
    /// material that people meet mostly bound in products, airborne only when handled, and a
    /// workplace aerosol is airborne only where the compound is worked.
    pub fn is_airborne_as_named(self) -> bool {
        matches!(self, Form::Fibre | Form::Dust)
    }

    pub fn words(self) -> &'static str {
        match self {
            Form::Fibre => "fibres",
            Form::Dust => "dust",
            Form::Powder => "powder",
            Form::WorkplaceAerosol => "dust or mist",
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct InhaledAgent {
    pub cas: &'static str,
    pub form: Form,
    /// The document that places the cancer evidence on inhaled particles.
    pub basis: &'static str,
}

const ASBESTOS: &str = "IARC Monographs Volume 100C (2012), asbestos: cancers of the lung, larynx and ovary and mesothelioma from inhaled fibres";
const SILICA: &str = "IARC Monographs Volume 100C (2012), silica dust, crystalline, in the form of quartz or cristobalite: lung cancer from inhaled dust";
const NICKEL: &str = "IARC Monographs Volume 100C (2012), nickel compounds: cancers of the lung, nasal cavity and paranasal sinuses from dusts, fumes and mists inhaled in nickel refining and processing";
const CERAMIC_FIBRES: &str = "EU CLP Annex VI index 650-017-00-8, refractory ceramic fibres: Carc. 1B (H350i), Note R (fibres of respirable length-weighted geometric mean diameter); IARC Monographs Volume 81 (2002): Group 2B on lung tumours and mesothelioma in rats and hamsters that inhaled them";
const BERYLLIUM: &str = "IARC Monographs Volume 100C (2012), beryllium and beryllium compounds: lung cancer from inhaled dust and fume";

pub const INHALED_AGENTS: &[InhaledAgent] = &[
    InhaledAgent {
        cas: "1332-21-4",
        form: Form::Fibre,
        basis: ASBESTOS,
    },
    InhaledAgent {
        cas: "12001-29-5",
        form: Form::Fibre,
        basis: ASBESTOS,
    },
    InhaledAgent {
        cas: "12001-28-4",
        form: Form::Fibre,
        basis: ASBESTOS,
    },
    InhaledAgent {
        cas: "12172-73-5",
        form: Form::Fibre,
        basis: ASBESTOS,
    },
    InhaledAgent {
        cas: "77536-66-4",
        form: Form::Fibre,
        basis: ASBESTOS,
    },
    InhaledAgent {
        cas: "77536-67-5",
        form: Form::Fibre,
        basis: ASBESTOS,
    },
    InhaledAgent {
        cas: "77536-68-6",
        form: Form::Fibre,
        basis: ASBESTOS,
    },
    InhaledAgent {
        cas: "14808-60-7",
        form: Form::Dust,
        basis: SILICA,
    },
    InhaledAgent {
        cas: "14464-46-1",
        form: Form::Dust,
        basis: SILICA,
    },
    InhaledAgent {
        cas: "142844-00-6",
        form: Form::Fibre,
        basis: CERAMIC_FIBRES,
    },
    InhaledAgent {
        cas: "7440-41-7",
        form: Form::Dust,
        basis: BERYLLIUM,
    },
    InhaledAgent {
        cas: "1304-56-9",
        form: Form::Dust,
        basis: BERYLLIUM,
    },
    InhaledAgent {
        cas: "1313-99-1",
        form: Form::WorkplaceAerosol,
        basis: NICKEL,
    },
    InhaledAgent {
        cas: "3333-67-3",
        form: Form::WorkplaceAerosol,
        basis: NICKEL,
    },
    InhaledAgent {
        cas: "7786-81-4",
        form: Form::WorkplaceAerosol,
        basis: NICKEL,
    },
    InhaledAgent {
        cas: "11113-75-0",
        form: Form::WorkplaceAerosol,
        basis: NICKEL,
    },
    InhaledAgent {
        cas: "12035-72-2",
        form: Form::WorkplaceAerosol,
        basis: NICKEL,
    },
    InhaledAgent {
        cas: "12054-48-7",
        form: Form::WorkplaceAerosol,
        basis: NICKEL,
    },
    InhaledAgent {
        cas: "373-02-4",
        form: Form::WorkplaceAerosol,
        basis: NICKEL,
    },
    InhaledAgent {
        cas: "13463-67-7",
        form: Form::Powder,
        basis: "IARC Monographs Volume 93 (2010), titanium dioxide: Group 2B on lung tumours in rats exposed by inhalation",
    },
    InhaledAgent {
        cas: "14807-96-6",
        form: Form::Powder,
        basis: "IARC Monographs Volume 136 (2025), talc: Group 2A on ovarian cancer after perineal use and on inhaled talc dust, the main route of occupational exposure; no evidence by ingestion",
    },
];

/// The agent of a CAS number, if its cancer hazard is by inhalation.
pub fn inhaled_agent(cas: &str) -> Option<&'static InhaledAgent> {
    INHALED_AGENTS.iter().find(|a| a.cas == cas)
}

/// The IARC Monographs volumes that evaluated agents as constituents of engine exhaust
/// particles: Volume 46 (1989) and Volume 105 (2014), "Diesel and Gasoline Engine Exhausts and
/// Some Nitroarenes". A compound IARC evaluated in one of them is met in the air on those
/// particles, whatever its boiling point (METHODOLOGY.md, route_relevance).
pub const EXHAUST_VOLUMES: [&str; 2] = ["46", "105"];

/// Whether IARC evaluated the compound in a volume on engine exhausts (its listing's volumes,
/// "Sup 7, 46, 105").
pub fn on_exhaust_particles(record: &CompoundRecord) -> bool {
    record
        .regulatory
        .listings
        .iarc_group
        .as_ref()
        .is_some_and(|iarc| {
            iarc.volumes
                .split(',')
                .any(|v| EXHAUST_VOLUMES.contains(&v.trim()))
        })
}

/// An agent whose cancer evidence is by injection only (sarcomas where it was injected): the
/// evidence speaks to no route by which people swallow, breathe or touch it.
#[derive(Debug, Clone, Copy)]
pub struct InjectedAgent {
    pub cas: &'static str,
    /// The document that places the cancer evidence at the injection site.
    pub basis: &'static str,
}

pub const INJECTED_AGENTS: &[InjectedAgent] = &[InjectedAgent {
    cas: "9004-66-4",
    basis: "IARC Monographs Volume 2 (1973) and Supplement 7 (1987), iron-dextran complex: Group 2B on sarcomas at the site of intramuscular or subcutaneous injection in animals",
}];

/// How a peptide or protein medicine is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Given {
    /// By injection, infusion or an implant placed under the skin: it reaches no one but the
    /// patient it is given to.
    Injected,
    /// By nasal spray, absorbed through the nose of whoever breathes it.
    Nasal,
}

/// Peptide and protein medicines given by injection, implant or nasal spray: swallowed, they
/// are digested like food, so their systemic hazards say nothing of ingestion (rule
/// "route_relevance"). Each is named with the prescribing information that gives its route.
pub const NOT_ABSORBED_BY_MOUTH: &[(&str, Given)] = &[
    ("74381-53-6", Given::Injected), // leuprorelin acetate: Lupron Depot, intramuscular depot suspension
    ("65807-02-5", Given::Injected), // goserelin acetate: Zoladex, subcutaneous implant
    ("86220-42-0", Given::Nasal),    // nafarelin acetate: Synarel, nasal solution
    ("121181-53-1", Given::Injected), // filgrastim: Neupogen, subcutaneous or intravenous injection
    ("52232-67-4", Given::Injected), // teriparatide: Forteo, subcutaneous injection
    ("9002-68-0", Given::Injected),  // menotropins: Menopur, subcutaneous injection
    ("97048-13-0", Given::Injected), // urofollitropin: Bravelle, subcutaneous or intramuscular injection
    ("216974-75-3", Given::Injected), // bevacizumab: Avastin, intravenous infusion
    ("380610-27-5", Given::Injected), // pertuzumab: Perjeta, intravenous infusion
];

/// How a peptide or protein medicine that the gut digests is given, if the substance is one.
pub fn not_absorbed_by_mouth(cas: &str) -> Option<Given> {
    NOT_ABSORBED_BY_MOUTH
        .iter()
        .find(|(c, _)| *c == cas)
        .map(|(_, given)| *given)
}

/// An EU CLP Annex VI group entry whose members' cancer evidence IARC places on inhaled dust
/// and fume: a member classified through it is that agent (METHODOLOGY.md, carcinogenicity).
#[derive(Debug, Clone, Copy)]
pub struct InhaledGroup {
    /// How the group entry's name begins, as records give it in `via`.
    pub entry: &'static str,
    pub basis: &'static str,
}

/// Chromium(VI) compounds are not here: their group entry is by inhalation (H350i), but NTP
/// Technical Report 546 found cancers of the mouth and small intestine from drinking water.
pub const INHALED_GROUPS: &[InhaledGroup] = &[InhaledGroup {
    entry: "beryllium compounds",
    basis: BERYLLIUM,
}];

const CADMIUM: &str = "IARC Monographs Volume 100C (2012), cadmium and cadmium compounds: lung cancer from dust and fume inhaled in cadmium production and battery manufacture";

/// Elements whose compounds IARC evaluated as a group on lung cancer in workers who inhaled
/// their dust and fume: a compound of one reaches the air as dust, whatever its boiling point
/// (METHODOLOGY.md, route_relevance). Membership is the element in the formula, as
/// data/curated/iarc-groups.json decides it. Arsenic and chromium are not here: IARC's groups
/// are inorganic arsenic and chromium(VI) compounds, which the element alone does not tell.
pub const DUST_ELEMENTS: &[(&str, &str)] = &[("Cd", CADMIUM), ("Ni", NICKEL), ("Be", BERYLLIUM)];

/// The element and document that put a compound in the air as dust, if its formula (the
/// record's InChI, else its molecular formula) contains one of `DUST_ELEMENTS`.
pub fn dust_element(record: &CompoundRecord) -> Option<&'static (&'static str, &'static str)> {
    let inchi = record
        .identity
        .inchi
        .as_deref()
        .and_then(|i| i.split('/').nth(1));
    let formula = inchi.or(record
        .properties
        .chemical_properties
        .molecular_formula
        .as_deref())?;
    let elements = formula::elements(formula);
    DUST_ELEMENTS
        .iter()
        .find(|(element, _)| elements.iter().any(|(symbol, _)| symbol == element))
}

const ESTROGEN_DUST_AIR: &str = "Harrington, Rivera and Lowry 1978, Am Ind Hyg Assoc J 39(2):139-143: mestranol and norethindrone dust measured in the air of a plant formulating oral contraceptives (up to 8.61 and 43.18 µg/m3), and hyperoestrogenism in its workers";
const ESTROGEN_DUST_PLASMA: &str = "Harrington, Stein, Rivera and de Morales 1978, Arch Environ Health 33(1):12-15, doi:10.1080/00039896.1978.10667301: raised plasma ethinyl estradiol and hyperoestrogenism (gynaecomastia, intermenstrual bleeding) in workers of a plant formulating oral contraceptives, where estrogen dust was sampled";

/// Medicines that a document shows met as dust where they are formulated: measured in the air
/// of the plant, or taken up by its workers where their dust was measured. They reach the air
/// whatever their boiling point (METHODOLOGY.md, route_relevance); each with its document.
pub const DRUG_DUSTS: &[(&str, &str)] = &[
    ("72-33-3", ESTROGEN_DUST_AIR),    // mestranol
    ("68-22-4", ESTROGEN_DUST_AIR),    // norethisterone (norethindrone)
    ("57-63-6", ESTROGEN_DUST_PLASMA), // ethinylestradiol
];

/// The document that shows a medicine met as dust where it is formulated, if there is one.
pub fn drug_dust(cas: &str) -> Option<&'static str> {
    DRUG_DUSTS
        .iter()
        .find(|(c, _)| *c == cas)
        .map(|(_, doc)| *doc)
}

/// The inhaled-agent group of an Annex VI group entry a record's classification comes through.
pub fn inhaled_group(via: &str) -> Option<&'static InhaledGroup> {
    INHALED_GROUPS.iter().find(|g| via.starts_with(g.entry))
}

/// The agent of a CAS number, if its cancer evidence is by injection only.
pub fn injected_agent(cas: &str) -> Option<&'static InjectedAgent> {
    INJECTED_AGENTS.iter().find(|a| a.cas == cas)
}

/// A route of exposure, as records state it beside a hazard code.
pub use crate::model::vocab::ExposureRoute as Route;

/// The routes an authority states for a substance's organ toxicity class, if it states any,
/// from a current GHS entry of the record (a route stated for a class holds for that class of
/// the substance in either classification); with the words that say so.
pub fn stated_routes(record: &CompoundRecord, code: &str) -> Option<(Vec<Route>, String)> {
    record
        .safety
        .ghs
        .iter()
        .filter(|g| g.is_current())
        .find_map(|g| {
            let stated = g.routes.iter().find(|r| r.code == code)?;
            // A statement of another source names its document: Safe Work Australia's kept
            // beside the EU entry (`fallback_for`), or a curated one (`stated_routes`).
            let cited = stated
                .source
                .as_deref()
                .and_then(|id| record.sources.iter().find(|s| s.id == id))
                .filter(|s| s.publisher != "Safe Work Australia");
            let basis = match (g.jurisdiction.as_str(), &stated.source, cited) {
                ("EU", None, _) => format!("EU CLP Annex VI: {}", stated.words),
                (_, _, Some(doc)) => {
                    format!("{}, {}: \"{}\"", doc.publisher, doc.title, stated.words)
                }
                _ => format!("Safe Work Australia HCIS: \"{}\"", stated.words),
            };
            Some((stated.routes.clone(), basis))
        })
}
