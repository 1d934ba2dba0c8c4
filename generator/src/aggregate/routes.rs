//! Routes of exposure the evidence states. Agents whose cancer hazard is by inhaled fibres,
//! dusts or powders, with their physical form and the document that says so (METHODOLOGY.md,
//! rules "carcinogenicity" and "route_relevance"): such an agent reaches the lungs without
//! boiling, and its cancer calls count as a hazard by inhalation, whatever the wording of each
//! list. And the organ toxicity classes whose route an authority states (rule
//! "organ_toxicity"): the stored classification keeps the code only, so the route is here with
//! the words that state it.

/// The form in which an agent reaches the air.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Fibre,
    Dust,
    Powder,
}

impl Form {
    /// Fibres and dusts are the agent as named; a powder (titanium dioxide, talc) is a bulk
    /// material that people meet mostly bound in products, airborne only when handled.
    pub fn is_airborne_as_named(self) -> bool {
        self != Form::Powder
    }

    pub fn words(self) -> &'static str {
        match self {
            Form::Fibre => "fibres",
            Form::Dust => "dust",
            Form::Powder => "powder",
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

/// A route of exposure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    Inhalation,
    Oral,
    Dermal,
}

impl Route {
    pub fn words(self) -> &'static str {
        match self {
            Route::Inhalation => "inhalation",
            Route::Oral => "ingestion",
            Route::Dermal => "skin contact",
        }
    }
}

/// An organ toxicity class (H370-H373) of a substance, with the routes its classification
/// states and the words that state them.
#[derive(Debug, Clone, Copy)]
pub struct StatedRoutes {
    pub cas: &'static str,
    pub code: &'static str,
    pub routes: &'static [Route],
    pub basis: &'static str,
}

/// Every organ toxicity class the corpus's records carry whose route EU CLP Annex VI (ATP17:
/// "(Inhalation)" beside the code) or Safe Work Australia's HCIS (2021: "if inhaled", "if
/// swallowed", "in contact with skin" in the hazard statement) states. A route stated for a
/// class holds for that class of the substance in either classification.
pub const STOT_ROUTES: &[StatedRoutes] = &[
    // Benzoic acid
    StatedRoutes {
        cas: "65-85-0",
        code: "H372",
        routes: &[Route::Inhalation],
        basis: "EU CLP Annex VI, index 607-705-00-8: H372 (lungs) (Inhalation)",
    },
    // Hexachloroethane
    StatedRoutes {
        cas: "67-72-1",
        code: "H373",
        routes: &[Route::Oral],
        basis: "Safe Work Australia HCIS: \"May cause damage to organs through prolonged or repeated exposure if swallowed\"",
    },
    // Methyl chloride
    StatedRoutes {
        cas: "74-87-3",
        code: "H373",
        routes: &[Route::Inhalation],
        basis: "Safe Work Australia HCIS: \"May cause damage to organs through prolonged or repeated exposure if inhaled\"",
    },
    // Carbon disulfide
    StatedRoutes {
        cas: "75-15-0",
        code: "H372",
        routes: &[Route::Inhalation],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure if inhaled\"",
    },
    // Ethylene oxide
    StatedRoutes {
        cas: "75-21-8",
        code: "H372",
        routes: &[Route::Inhalation],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure through inhalation\"",
    },
    // 2-Bromopropane
    StatedRoutes {
        cas: "75-26-3",
        code: "H373",
        routes: &[Route::Inhalation],
        basis: "Safe Work Australia HCIS: \"May cause damage to organs through prolonged or repeated exposure if inhaled\"",
    },
    // Pentachloroethane
    StatedRoutes {
        cas: "76-01-7",
        code: "H372",
        routes: &[Route::Inhalation],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure if inhaled\"",
    },
    // Musk ambrette
    StatedRoutes {
        cas: "83-66-9",
        code: "H372",
        routes: &[Route::Oral, Route::Dermal],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure if swallowed or in contact with skin\"",
    },
    // Furfuryl alcohol
    StatedRoutes {
        cas: "98-00-0",
        code: "H373",
        routes: &[Route::Inhalation],
        basis: "Safe Work Australia HCIS: \"May cause damage to organs through prolonged or repeated exposure through inhalation\"",
    },
    // Glycidyl methacrylate
    StatedRoutes {
        cas: "106-91-2",
        code: "H372",
        routes: &[Route::Inhalation],
        basis: "EU CLP Annex VI, index 607-123-00-4: H372 (respiratory tract) (Inhalation)",
    },
    // Trimethyl phosphite
    StatedRoutes {
        cas: "121-45-9",
        code: "H373",
        routes: &[Route::Inhalation],
        basis: "Safe Work Australia HCIS: \"May cause damage to organs through prolonged or repeated exposure through inhalation\"",
    },
    // Thiram
    StatedRoutes {
        cas: "137-26-8",
        code: "H373",
        routes: &[Route::Oral],
        basis: "Safe Work Australia HCIS: \"May cause damage to organs through prolonged or repeated exposure through the oral route\"",
    },
    // Perfluoroheptanoic acid (PFHpA)
    StatedRoutes {
        cas: "375-85-9",
        code: "H372",
        routes: &[Route::Inhalation, Route::Oral],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure if swallowed or through inhalation\"",
    },
    // Cadmium carbonate
    StatedRoutes {
        cas: "513-78-0",
        code: "H372",
        routes: &[Route::Inhalation, Route::Oral],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure if swallowed or inhaled\"",
    },
    // Dibutyltin dichloride (DBTC)
    StatedRoutes {
        cas: "683-18-1",
        code: "H372",
        routes: &[Route::Oral],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure if swallowed\"",
    },
    // Beryllium oxide
    StatedRoutes {
        cas: "1304-56-9",
        code: "H372",
        routes: &[Route::Inhalation],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure if inhaled\"",
    },
    // Cadmium oxide
    StatedRoutes {
        cas: "1306-19-0",
        code: "H372",
        routes: &[Route::Inhalation, Route::Oral],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure through inhalation or if swallowed\"",
    },
    // Carbon black
    StatedRoutes {
        cas: "1333-86-4",
        code: "H373",
        routes: &[Route::Inhalation],
        basis: "Safe Work Australia HCIS: \"May cause damage to organs through prolonged or repeated exposure if inhaled\"",
    },
    // Nickel carbonate
    StatedRoutes {
        cas: "3333-67-3",
        code: "H372",
        routes: &[Route::Inhalation],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure through inhalation\"",
    },
    // Potassium perfluorohexanesulfonate
    StatedRoutes {
        cas: "3871-99-6",
        code: "H372",
        routes: &[Route::Oral],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure if swallowed\"",
    },
    // Ammonium perfluoroheptanoate
    StatedRoutes {
        cas: "6130-43-4",
        code: "H372",
        routes: &[Route::Inhalation, Route::Oral],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure if swallowed or inhaled\"",
    },
    // Manganese
    StatedRoutes {
        cas: "7439-96-5",
        code: "H372",
        routes: &[Route::Inhalation, Route::Oral],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure if swallowed or inhaled\"",
    },
    // Nickel
    StatedRoutes {
        cas: "7440-02-0",
        code: "H372",
        routes: &[Route::Inhalation],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure if inhaled\"",
    },
    // Beryllium
    StatedRoutes {
        cas: "7440-41-7",
        code: "H372",
        routes: &[Route::Inhalation],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure if inhaled\"",
    },
    // Silica, amorphous
    StatedRoutes {
        cas: "7631-86-9",
        code: "H372",
        routes: &[Route::Inhalation],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs (lungs) through prolonged or repeated exposure if inhaled\"",
    },
    // Beryllium chloride
    StatedRoutes {
        cas: "7787-47-5",
        code: "H372",
        routes: &[Route::Inhalation],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure if inhaled\"",
    },
    // Beryllium sulfate tetrahydrate
    StatedRoutes {
        cas: "7787-56-6",
        code: "H372",
        routes: &[Route::Inhalation],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure through inhalation\"",
    },
    // Cobalt(II) sulfate heptahydrate
    StatedRoutes {
        cas: "10026-24-1",
        code: "H372",
        routes: &[Route::Inhalation],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure if inhaled\"",
    },
    // Cobalt oxide
    StatedRoutes {
        cas: "11104-61-3",
        code: "H372",
        routes: &[Route::Inhalation],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure if inhaled\"",
    },
    // Palygorskite (Attapulgite) (long fibres, > 5 micrometres)
    StatedRoutes {
        cas: "12174-11-7",
        code: "H373",
        routes: &[Route::Inhalation],
        basis: "Safe Work Australia HCIS: \"May cause damage to organs through prolonged or repeated exposure if inhaled\"",
    },
    // Zinc pyrithione
    StatedRoutes {
        cas: "13463-41-7",
        code: "H372",
        routes: &[Route::Inhalation, Route::Oral],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure if swallowed or inhaled\"",
    },
    // Cristobalite
    StatedRoutes {
        cas: "14464-46-1",
        code: "H372",
        routes: &[Route::Inhalation],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs (lungs) through prolonged or repeated exposure if inhaled\"",
    },
    // Silica dust, crystalline, in the form of quartz or cristobalite
    StatedRoutes {
        cas: "14808-60-7",
        code: "H372",
        routes: &[Route::Inhalation],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs (lungs) through prolonged or repeated exposure if inhaled\"",
    },
    // Cadmium hydroxide
    StatedRoutes {
        cas: "21041-95-2",
        code: "H372",
        routes: &[Route::Inhalation, Route::Oral],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure if swallowed or inhaled\"",
    },
    // Ammonium perfluorohexanesulfonate
    StatedRoutes {
        cas: "68259-08-5",
        code: "H372",
        routes: &[Route::Oral],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure if swallowed\"",
    },
    // Tridecafluorohexanesulphonic acid, compound with 2,2'-iminodiethanol (1:1)
    StatedRoutes {
        cas: "70225-16-0",
        code: "H372",
        routes: &[Route::Oral],
        basis: "Safe Work Australia HCIS: \"Causes damage to organs through prolonged or repeated exposure if swallowed\"",
    },
];

/// The routes an authority states for a substance's organ toxicity class, if it states any.
pub fn stated_routes(cas: &str, code: &str) -> Option<&'static StatedRoutes> {
    STOT_ROUTES.iter().find(|r| r.cas == cas && r.code == code)
}
