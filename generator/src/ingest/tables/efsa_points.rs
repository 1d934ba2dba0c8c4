//! EFSA OpenFoodTox's reference points (`oft_reference_points.csv`: Substance, Author, Year,
//! OutputID, Study, TestType, Species, Route, DurationDays, Endpoint, qualifier, value, unit,
//! Effect, Toxicity), the part of the EFSA table reader (`efsa.rs`) that keeps the acute
//! median lethal and effect values the animal and environmental contexts read (data/README.md,
//! "EFSA OpenFoodTox reference points"; METHODOLOGY.md, "Severity rubric for animals and the
//! environment"):
//! - honey bee acute LD50, oral or contact, in µg per bee;
//! - aquatic acute LC50 and EC50 (fish, invertebrates, algae) of at most 4 days, in mg/l or
//!   µg/l;
//! - bird acute oral LD50, in mg/kg bw;
//! - rat and mouse acute oral LD50, in mg/kg bw (the laboratory mammal that stands in for
//!   dogs, cats and wild mammals).
//!
//! Each value keeps the row's qualifier (a ">" value is a bound), unit, route, species and
//! opinion. `population` names which of the four groups the value belongs to, so the rules
//! read the group and never guess it from a species name.

use std::borrow::Cow;
use std::collections::HashMap;

use super::dose;
use super::efsa::SubstanceDoses;
use super::ledger::Ledger;
use super::text::{cell, reader};
use crate::ingest::contribution::{Contribution, Subject};
use crate::model::cas::Cas;
use crate::model::catalog::SourceDescriptor;
use crate::model::record::DoseValue;
use crate::model::vocab::{DoseKind, EcotoxGroup};

pub const FILE: &str = "oft_reference_points.csv";

/// Birds OpenFoodTox names in its non-target animal health rows.
const BIRDS: &[&str] = &[
    "Bird",
    "Bobwhite quail",
    "Canary",
    "Chicken",
    "Common pheasant",
    "Common quail",
    "Duck",
    "Japanese quail",
    "Mallard duck",
    "Partridge",
    "Quail",
    "Red-winged blackbird",
    "Ringneck dove",
    "Zebra finch",
];

/// The longest acute aquatic test (GHS chapter 4.1: fish 96 h, crustacea 48 h, algae 72 or
/// 96 h).
const ACUTE_AQUATIC_DAYS: f64 = 4.0;

/// The qualifiers OpenFoodTox writes; anything else is not read.
const QUALIFIERS: &[&str] = &["=", ">", ">=", "<", "<=", "ca."];

/// What one row is, once read: the group it informs, its kind, its route and its unit as
/// served.
struct Endpoint {
    group: EcotoxGroup,
    kind: DoseKind,
    route: Option<&'static str>,
    unit: &'static str,
}

/// An acute dose per kg of body weight is one dose (an LD50 is the dose given once that kills
/// half the animals; an acute reference dose is eaten at one meal or within one day), so the
/// "/day" OpenFoodTox writes after some of them is dropped: "mg/kg bw/day" -> "mg/kg bw"
/// (data/README.md, "Acute values are single doses"). Other units are kept.
pub(super) fn single_dose(unit: &str) -> &str {
    match unit.strip_suffix("/day") {
        Some(dose) if dose.ends_with("/kg bw") => dose,
        _ => unit,
    }
}

/// Why an endpoint other than LD50, LC50 and EC50 is not read, named per endpoint so the
/// reconciliation counts each kind left unused (data/README.md, "EFSA OpenFoodTox reference
/// points"): the animal and environmental contexts read median lethal and effect values only.
fn unread_endpoint(endpoint: &str) -> String {
    let why = match endpoint {
        "NOAEL" | "NOEL" | "NOEC" | "NOAEC" | "LOAEL" | "LOEL" | "LOEC" | "NOAR" | "NOEDD"
        | "NOAEDD" => "a no- or lowest-observed-effect level",
        e if e.starts_with("BMD") => "a benchmark dose",
        "TEF" | "RPF" => "a potency factor relative to another substance",
        "LR50" | "ER50" | "EL50" => {
            "a median effect per application rate or loading (non-target arthropods and \
             plants), not a dose or concentration the bands read"
        }
        "EC5" | "EC10" | "EC15" | "EC20" | "EC25" | "LC10" => "an effect level below the median",
        "dose level" | "conc. Level" => "a tested dose or concentration, not a median",
        e if e.starts_with("LDD50") => {
            "a lethal dietary dose (honey bee chronic feeding), not an acute LD50"
        }
        _ => "not a median lethal or effect value",
    };
    format!(
        "endpoint {endpoint}: {why}; the animal and environmental contexts read LD50, LC50 and EC50 only"
    )
}

/// Which group a row informs, or why it informs none (the reason is the ledger's).
fn endpoint(row: &csv::StringRecord) -> Result<Endpoint, Cow<'static, str>> {
    let study = cell(row, 4).unwrap_or_default();
    let test = cell(row, 5).unwrap_or_default();
    let species = cell(row, 6).unwrap_or_default();
    let route = cell(row, 7).unwrap_or_default();
    let endpoint = cell(row, 9).unwrap_or_default();
    let unit = cell(row, 12).unwrap_or_default();
    let kind = match endpoint {
        "LD50" => DoseKind::Ld50,
        "LC50" => DoseKind::Lc50,
        "EC50" => DoseKind::Ec50,
        other => return Err(unread_endpoint(other).into()),
    };
    if test != "acute toxicity" {
        return Err(
            "not an acute test (short-term dietary, chronic or reproduction): the bands are \
             for acute values"
                .into(),
        );
    }
    if species == "Honey bee" {
        return honey_bee(kind, route, unit);
    }
    if study == "Ecotox (water compartment)" {
        let days = cell(row, 8).and_then(|d| d.parse::<f64>().ok());
        return aquatic(kind, species, unit, days);
    }
    vertebrate(kind, species, route, unit)
}

fn honey_bee(kind: DoseKind, route: &str, unit: &str) -> Result<Endpoint, Cow<'static, str>> {
    if kind != DoseKind::Ld50 || unit != "µg/piece" {
        return Err("honey bee value that is not an LD50 per bee".into());
    }
    let route = match route {
        "dermal" => "contact",
        _ if route.starts_with("oral") => "oral",
        _ => return Err("honey bee LD50 by a route neither oral nor contact".into()),
    };
    Ok(Endpoint {
        group: EcotoxGroup::Pollinators,
        kind,
        route: Some(route),
        unit: "µg/piece",
    })
}

fn aquatic(
    kind: DoseKind,
    species: &str,
    unit: &str,
    days: Option<f64>,
) -> Result<Endpoint, Cow<'static, str>> {
    let unit = match unit {
        "mg/L" if kind != DoseKind::Ld50 => "mg/L",
        "µg/L" if kind != DoseKind::Ld50 => "µg/L",
        _ => return Err("aquatic value that is not an L(E)C50 in mg/l or µg/l".into()),
    };
    if species == "not reported" {
        return Err("aquatic test species not reported".into());
    }
    if days.is_some_and(|d| d > ACUTE_AQUATIC_DAYS) {
        return Err("aquatic test longer than 4 days (not an acute GHS test)".into());
    }
    Ok(Endpoint {
        group: EcotoxGroup::AquaticLife,
        kind,
        route: None,
        unit,
    })
}

/// Birds and laboratory rodents: an oral LD50 per kg of body weight.
fn vertebrate(
    kind: DoseKind,
    species: &str,
    route: &str,
    unit: &str,
) -> Result<Endpoint, Cow<'static, str>> {
    let group = if BIRDS.contains(&species) {
        EcotoxGroup::Birds
    } else if matches!(species, "Rat" | "Mouse") {
        EcotoxGroup::LaboratoryMammals
    } else {
        return Err(
            "species outside the four groups read (honey bee, aquatic life, birds, rat and \
             mouse): soil organisms, other arthropods, plants, farm and target animals"
                .into(),
        );
    };
    if kind != DoseKind::Ld50 {
        return Err("bird or laboratory mammal value that is not an LD50 (a dietary LC50)".into());
    }
    if !route.starts_with("oral") {
        return Err(
            "bird or laboratory mammal LD50 not by mouth (dermal, inhalation, injection or \
             not reported)"
                .into(),
        );
    }
    let unit = match unit {
        // One dose either way (`single_dose`).
        "mg/kg bw" | "mg/kg bw/day" => "mg/kg bw",
        _ => {
            return Err(
                "LD50 not per kg of body weight (mg/kg without bw may be a feed content)".into(),
            );
        }
    };
    Ok(Endpoint {
        group,
        kind,
        route: Some("oral"),
        unit,
    })
}

/// Reads the reference points into one contribution per substance, about its CAS or, without
/// one, its name. `cas_of` and `references` are the joins `efsa.rs` builds (substance "as
/// such" -> CAS, output -> DOI).
pub fn parse(
    text: &str,
    cas_of: &HashMap<String, Cas>,
    references: &HashMap<String, String>,
    src: &SourceDescriptor,
    agency_of: fn(&str) -> Option<&'static str>,
) -> Result<(Vec<Contribution>, Ledger), csv::Error> {
    let mut doses = SubstanceDoses::default();
    let mut ledger = Ledger::default();
    for row in reader(text, b',', true).records() {
        let row = row?;
        let id = ledger.row(cell(&row, 0).unwrap_or_default());
        let Some(substance) = cell(&row, 0) else {
            ledger.skip(id, "no substance name");
            continue;
        };
        let found = match endpoint(&row) {
            Ok(found) => found,
            Err(why) => {
                ledger.skip(id, why);
                continue;
            }
        };
        let qualifier = cell(&row, 10).unwrap_or("=");
        let (Some(value), true) = (
            cell(&row, 11)
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|v| *v > 0.0),
            QUALIFIERS.contains(&qualifier),
        ) else {
            ledger.skip(id, "no positive numeric value with a known qualifier");
            continue;
        };
        let Some(agency) = cell(&row, 1).and_then(agency_of) else {
            ledger.skip(id, "author is not EFSA, the SCF or a FAO/WHO committee");
            continue;
        };
        // A substance without an "as such" CAS is named, as the reference values are: a line
        // of curated/group-rows.tsv places it on the corpus compound it is (data/README.md).
        let subject = match cas_of.get(substance) {
            Some(cas) => Subject::Cas(cas.clone()),
            None => Subject::Named(substance.to_string()),
        };
        ledger.about(id, [subject.clone()]);
        let days = cell(&row, 8).and_then(|d| d.parse::<f64>().ok());
        let author = cell(&row, 1).unwrap_or_default();
        let basis = match days {
            Some(d) => format!("{author}: acute toxicity, {} h", (d * 24.0).round()),
            None => format!("{author}: acute toxicity"),
        };
        let dose = DoseValue {
            qualifier: (qualifier != "=").then(|| qualifier.to_string()),
            year: cell(&row, 2).and_then(|y| y.parse().ok()),
            population: Some(found.group.label().to_string()),
            route: found.route.map(String::from),
            species: cell(&row, 6).map(String::from),
            basis: Some(basis),
            reference: cell(&row, 3).and_then(|id| references.get(id)).cloned(),
            ..dose::stated(src, agency, found.kind, value, found.unit)
        };
        doses.add(substance, subject, dose);
    }
    let contributions = doses.into_contributions();
    Ok((contributions, ledger))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::tables::ledger::Fate;
    use crate::ingest::tables::testing::descriptor;
    use serde_json::json;

    const HEAD: &str = "Substance,Author,Year,OutputID,Study,TestType,Species,Route,DurationDays,Endpoint,qualifier,value,unit,Effect,Toxicity\n";

    fn efsa(author: &str) -> Option<&'static str> {
        author.starts_with("EFSA").then_some("EFSA")
    }

    fn run(rows: &str) -> (Vec<Contribution>, Ledger) {
        let cas_of = HashMap::from([
            (
                "Acetamiprid".to_string(),
                Cas::parse("135410-20-7").unwrap(),
            ),
            ("Zinc".to_string(), Cas::parse("7440-66-6").unwrap()),
        ]);
        let refs = HashMap::from([(
            "100".to_string(),
            "https://doi.org/10.2903/j.efsa.2016.4610".to_string(),
        )]);
        parse(
            &format!("{HEAD}{rows}"),
            &cas_of,
            &refs,
            &descriptor("efsa"),
            efsa,
        )
        .expect("test data")
    }

    fn reasons(ledger: &Ledger) -> Vec<String> {
        ledger
            .rows()
            .iter()
            .map(|r| match &r.fate {
                Fate::About(_) => "kept".to_string(),
                Fate::Skipped(why) => why.clone(),
                Fate::Unexplained => "unexplained".to_string(),
            })
            .collect()
    }

    #[test]
    fn the_four_groups_are_read_with_qualifier_route_unit_and_opinion() {
        let (got, ledger) = run(
            "Acetamiprid,EFSA,2016,100,Ecotox (soil compartment),acute toxicity,Honey bee,dermal,2.0,LD50,=,8.09,µg/piece,mortality,\n\
             Acetamiprid,EFSA,2016,100,Ecotox (soil compartment),acute toxicity,Honey bee,oral: unspecified,,LD50,>,14.5,µg/piece,mortality,\n\
             Acetamiprid,EFSA,2016,100,Ecotox (water compartment),acute toxicity,Daphnia magna,Not reported,2.0,EC50,=,49.8,mg/L,immobilisation,\n\
             Acetamiprid,EFSA,2016,100,Ecotox (water compartment),acute toxicity,Chironomus riparius,Not reported,2.0,LC50,=,21,µg/L,mortality,\n\
             Acetamiprid,EFSA,2016,100,Animal (non-target species) health,acute toxicity,Mallard duck,oral: unspecified,,LD50,=,98,mg/kg bw/day,mortality,\n\
             Acetamiprid,EFSA,2016,100,Animal (non-target species) health,acute toxicity,Rat,oral: unspecified,,LD50,=,314,mg/kg bw,mortality,systemic\n\
             Acetamiprid,EFSA,2016,100,Animal (non-target species) health,acute toxicity,Rat,oral: unspecified,,LD50,=,314,mg/kg bw,mortality,systemic\n",
        );
        assert!(reasons(&ledger).iter().all(|r| r == "kept"));
        assert_eq!(got.len(), 1);
        let doses = got[0].fragment["dose_response"].as_array().expect("doses");
        assert_eq!(doses.len(), 6, "the repeated rat row is one value");
        assert_eq!(
            doses[0],
            json!({"kind": "ld50", "value": 8.09, "unit": "µg/piece", "agency": "EFSA",
                   "year": 2016, "population": "pollinators", "route": "contact",
                   "species": "Honey bee", "basis": "EFSA: acute toxicity, 48 h",
                   "reference": "https://doi.org/10.2903/j.efsa.2016.4610", "source": "efsa"})
        );
        assert_eq!(doses[1]["qualifier"], ">", "a bound keeps its qualifier");
        assert_eq!(doses[1]["route"], "oral");
        assert_eq!(doses[2]["kind"], "ec50");
        assert_eq!(doses[2]["population"], "aquatic life");
        assert!(doses[2].get("route").is_none());
        assert_eq!(doses[3]["unit"], "µg/L", "units are served as written");
        assert_eq!(doses[4]["population"], "birds");
        assert_eq!(
            doses[4]["unit"], "mg/kg bw",
            "an acute LD50 \"per day\" is one dose per kg bw"
        );
        assert_eq!(doses[5]["population"], "laboratory mammals");
        assert_eq!(doses[5]["basis"], "EFSA: acute toxicity");
    }

    #[test]
    fn rows_outside_the_four_groups_are_explained_by_kind() {
        let (got, ledger) = run(
            "Acetamiprid,EFSA,2016,100,Human health,subchronic,Rat,oral: feed,90,NOAEL,=,12,mg/kg bw/day,x,\n\
             Acetamiprid,EFSA,2016,100,Animal (non-target species) health,short-term toxicity,Bobwhite quail,oral: feed,5,LC50,>,5000,mg/kg bw/day,mortality,\n\
             Acetamiprid,EFSA,2016,100,Ecotox (soil compartment),acute toxicity,Tiger worm,Not reported,14,LC50,=,9,mg/kg,mortality,\n\
             Acetamiprid,EFSA,2016,100,Animal (non-target species) health,acute toxicity,Rat,inhalation: unspecified,,LC50,>,1.15,mg/L,mortality,\n\
             Acetamiprid,EFSA,2016,100,Animal (non-target species) health,acute toxicity,Rat,Not reported,,LD50,=,200,mg/kg bw,mortality,\n\
             Acetamiprid,EFSA,2016,100,Animal (non-target species) health,acute toxicity,Rat,oral: unspecified,,LD50,=,200,mg/kg,mortality,\n\
             Acetamiprid,EFSA,2016,100,Ecotox (water compartment),acute toxicity,Rainbow trout,Not reported,28,LC50,=,5,mg/L,mortality,\n\
             Acetamiprid,EFSA,2016,100,Ecotox (water compartment),acute toxicity,not reported,Not reported,2,EC50,=,5,mg/L,x,\n\
             Acetamiprid,EFSA,2016,100,Ecotox (soil compartment),acute toxicity,Honey bee,oral: unspecified,2,LD50,~,5,µg/piece,mortality,\n\
             Acetamiprid,Someone,2016,100,Ecotox (soil compartment),acute toxicity,Honey bee,oral: unspecified,2,LD50,=,5,µg/piece,mortality,\n",
        );
        assert!(got.is_empty());
        let why = reasons(&ledger);
        assert!(why.iter().all(|r| r != "kept" && r != "unexplained"));
        assert!(why[0].starts_with("endpoint NOAEL: a no- or lowest-observed-effect level"));
        assert!(why[1].starts_with("not an acute test"));
        assert!(why[2].starts_with("species outside the four groups"));
        assert!(why[3].starts_with("bird or laboratory mammal value that is not an LD50"));
        assert!(why[4].starts_with("bird or laboratory mammal LD50 not by mouth"));
        assert!(why[5].starts_with("LD50 not per kg of body weight"));
        assert!(why[6].starts_with("aquatic test longer than 4 days"));
        assert!(why[7].starts_with("aquatic test species not reported"));
        assert!(why[8].starts_with("no positive numeric value with a known qualifier"));
        assert!(why[9].starts_with("author is not EFSA"));
    }

    #[test]
    fn a_substance_without_a_cas_is_contributed_under_its_name_for_group_rows_to_place() {
        let (got, ledger) = run(
            "Phosphine,EFSA,2012,100,Ecotox (water compartment),acute toxicity,Zebra fish,Not reported,4.0,LC50,=,0.048,mg/L,mortality,\n",
        );
        assert_eq!(reasons(&ledger), ["kept"]);
        assert!(
            matches!(&ledger.rows()[0].fate, Fate::About(s) if s == &[Subject::Named("Phosphine".into())])
        );
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].subject, Subject::Named("Phosphine".into()));
        assert_eq!(got[0].name.as_deref(), Some("Phosphine"));
        assert_eq!(
            got[0].fragment["dose_response"][0]["population"],
            "aquatic life"
        );
    }

    #[test]
    fn each_unread_endpoint_kind_has_its_own_reason() {
        let kinds = [
            "NOAEL",
            "BMDL10",
            "TEF",
            "LR50",
            "EC10",
            "dose level",
            "LDD50 (Lethal Dietary Dose)",
            "IC50",
        ];
        let reasons: std::collections::BTreeSet<String> =
            kinds.iter().map(|k| unread_endpoint(k)).collect();
        assert_eq!(reasons.len(), kinds.len(), "{reasons:#?}");
        assert!(unread_endpoint("LR50").contains("application rate"));
        assert!(unread_endpoint("LDD50 (Lethal Dietary Dose)").contains("not an acute LD50"));
        assert!(unread_endpoint("IC50").starts_with("endpoint IC50: not a median"));
    }
}
