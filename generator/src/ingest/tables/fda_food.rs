//! FDA Substances Added to Food (CSV: "CAS Reg No (or other ID)", Substance, "Used for
//! (Technical Effect)", effects separated by ",<br />") and the Inventory of Food Contact
//! Substances Listed in 21 CFR (CSV: "CAS Registry No. (or other ID)", Substance). Both files
//! start with provenance lines; the header row is found by its text.
//!
//! - Ids: only those that parse as CAS numbers with a valid check digit are kept. FDA gives
//!   substances without a CAS an internal number of the same shape (977xxx-xx-x). These fail
//!   the check digit, all but one of the ~1,400 in the 2025-02 files: 977140-27-5 (food
//!   contact) passes it. Such an id is then taken for a CAS number and only matches a compound
//!   if the corpus holds that CAS (none does).
//! - Technical effects are kept as FDA writes them (upper case, e.g. "FLAVORING AGENT OR
//!   ADJUVANT"), trailing commas trimmed. They become `use_classes` through `EFFECT_CLASSES`.
//! - FDA marks some names with a status suffix: "--PROHIBITED", "--PROHIBITED WITH
//!   EXCEPTIONS" (21 CFR 189 and similar), "--DELISTED" (delisted color additives), "--NLFG"
//!   (no longer FEMA GRAS, on flavouring substances). The listing keeps the name as written and
//!   the classification says "(marked PROHIBITED)". A marked substance is not presented as
//!   used in food: it gets no `found_in` and no `use_classes` from these tables (NLFG only
//!   withdraws food uses, not the 21 CFR food-contact listing). The name hint omits the marker.

use std::path::Path;

use serde_json::{Value, json};

use super::call;
use super::ledger::Ledger;
use super::text::{cell, csv_error, read_utf8, reader};
use super::{Parsed, TableError};
use crate::ingest::contribution::{Contribution, Subject, to_json};
use crate::model::cas::Cas;
use crate::model::catalog::SourceDescriptor;
use crate::model::record::{Classification, FdaFoodListing, FoundIn, UseClass};

pub fn read_substances_added(path: &Path, src: &SourceDescriptor) -> Result<Parsed, TableError> {
    parse(
        &read_utf8(path)?,
        src,
        &SUBSTANCES_ADDED,
        &path.display().to_string(),
    )
}

pub fn read_food_contact(path: &Path, src: &SourceDescriptor) -> Result<Parsed, TableError> {
    parse(
        &read_utf8(path)?,
        src,
        &FOOD_CONTACT,
        &path.display().to_string(),
    )
}

/// FDA technical effects (21 CFR 170.3(o) wording) and the use class each one names. Effects
/// not listed (pH control agent, processing aid, sequestrant, fumigant, flavor enhancer...)
/// name no class of the vocabulary, or not reliably: FUMIGANT is printed against sodium
/// benzoate and calcium chloride, and a flavour enhancer (MSG) is not a flavouring. 21 CFR
/// 170.3(o)(2) defines antimicrobial agents as substances that preserve food, hence both.
const EFFECT_CLASSES: &[(&str, &str)] = &[
    ("ANTIMICROBIAL AGENT", "antimicrobial"),
    ("ANTIMICROBIAL AGENT", "preservative"),
    ("ANTIOXIDANT", "antioxidant"),
    ("COLOR OR COLORING ADJUNCT", "colorant"),
    ("EMULSIFIER OR EMULSIFIER SALT", "emulsifier"),
    ("FLAVORING AGENT OR ADJUVANT", "flavoring"),
    ("NON-NUTRITIVE SWEETENER", "sweetener"),
    ("NUTRIENT SUPPLEMENT", "dietary_supplement"),
    ("NUTRITIVE SWEETENER", "sweetener"),
    ("PRESERVATIVE", "preservative"),
    ("SOLVENT", "solvent"),
    ("SOLVENT OR VEHICLE", "solvent"),
    ("STABILIZER OR THICKENER", "thickener"),
    ("SURFACE-ACTIVE AGENT", "surfactant"),
];

/// Status suffixes FDA appends to names, and whether each withdraws food-contact uses too.
const STATUS_MARKERS: &[(&str, bool)] = &[
    ("PROHIBITED WITH EXCEPTIONS", true),
    ("PROHIBITED", true),
    ("DELISTED", true),
    ("NLFG", false),
];

/// What differs between the two inventories.
struct Inventory {
    /// The first header cell, by which the header row is found.
    header: &'static str,
    attribution: &'static str,
    classification: &'static str,
    /// The inventory's name, as `basis` of the use class every row implies.
    title: &'static str,
    /// The use class every (unmarked) row implies.
    class: &'static str,
    found_in: &'static str,
    /// The food-contact inventory (no technical-effect column; NLFG leaves its uses alone).
    food_contact: bool,
    listing_key: &'static str,
}

const SUBSTANCES_ADDED: Inventory = Inventory {
    header: "CAS Reg No (or other ID)",
    attribution: "FDA Substances Added to Food",
    classification: "Listed in FDA Substances Added to Food",
    title: "FDA Substances Added to Food",
    class: "food_additive",
    found_in: "food",
    food_contact: false,
    listing_key: "fda_food_additive",
};

const FOOD_CONTACT: Inventory = Inventory {
    header: "CAS Registry No. (or other ID)",
    attribution: "FDA Inventory of Food Contact Substances",
    classification: "Listed in FDA Inventory of Food Contact Substances (21 CFR)",
    title: "FDA Inventory of Food Contact Substances Listed in 21 CFR",
    class: "food_contact_substance",
    found_in: "food_contact_materials",
    food_contact: true,
    listing_key: "fda_food_contact",
};

/// The text from the header row on (the lines before it are provenance notes).
fn from_header<'a>(text: &'a str, header: &str) -> Option<&'a str> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with(header) {
            return Some(&text[offset..]);
        }
        offset += line.len();
    }
    None
}

/// "SAFROLE--PROHIBITED" -> ("SAFROLE", Some(("PROHIBITED", true))).
fn split_status(name: &str) -> (&str, Option<(&'static str, bool)>) {
    if let Some(i) = name.rfind("--") {
        let suffix = name[i + 2..].trim();
        if let Some(&marker) = STATUS_MARKERS.iter().find(|(m, _)| *m == suffix) {
            return (name[..i].trim_end(), Some(marker));
        }
    }
    (name, None)
}

/// " FLAVOR ENHANCER,<br /> FLAVORING AGENT OR ADJUVANT" -> the two effects.
fn technical_effects(raw: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for effect in raw.split("<br />") {
        let effect = effect.trim().trim_end_matches(',').trim_end();
        if !effect.is_empty() && !out.iter().any(|e| e == effect) {
            out.push(effect.to_string());
        }
    }
    out
}

/// Longer effect lists pool the uses of every regulation that names the substance (phosphoric
/// acid: eight effects, among them "NON-NUTRITIVE SWEETENER"; talc: five, the same), so none
/// of them says what the substance is for; up to this many, each effect is a main use.
const MAX_EFFECTS_FOR_A_CLASS: usize = 3;

/// The use classes the effects name, one per class, with the effects that named it; none
/// when the list is too long to say what the substance is for.
fn use_classes_of(effects: &[String], source: &str) -> Vec<UseClass> {
    let mut out: Vec<UseClass> = Vec::new();
    if effects.len() > MAX_EFFECTS_FOR_A_CLASS {
        return out;
    }
    for effect in effects {
        for (_, class) in EFFECT_CLASSES.iter().filter(|(e, _)| e == effect) {
            match out.iter_mut().find(|u| u.class == *class) {
                Some(u) => {
                    let basis = u.basis.get_or_insert_with(String::new);
                    basis.push_str("; ");
                    basis.push_str(effect);
                }
                None => out.push(UseClass {
                    class: class.to_string(),
                    source: source.to_string(),
                    basis: Some(effect.clone()),
                }),
            }
        }
    }
    out
}

fn parse(
    text: &str,
    src: &SourceDescriptor,
    inv: &Inventory,
    path: &str,
) -> Result<Parsed, TableError> {
    let body = from_header(text, inv.header).ok_or_else(|| TableError::Format {
        path: path.to_string(),
        message: format!("no header row starting with {:?}", inv.header),
    })?;
    let mut out = Vec::new();
    let mut ledger = Ledger::default();
    for row in reader(body, b',', true).records() {
        let row = row.map_err(|e| csv_error(path, e))?;
        let id = ledger.row(cell(&row, 1).unwrap_or_default());
        let Some(cas) = cell(&row, 0).and_then(|c| Cas::parse_lenient(c).ok()) else {
            ledger.skip(id, "no valid CAS number in the row");
            continue;
        };
        ledger.about(id, [Subject::Cas(cas.clone())]);
        let listed_name = cell(&row, 1)
            .unwrap_or_default()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let (name, status) = split_status(&listed_name);
        let effects = if inv.food_contact {
            Vec::new()
        } else {
            technical_effects(cell(&row, 2).unwrap_or_default())
        };
        // A row of Substances Added to Food with no technical effect states no purpose (benzene
        // is listed so), so it gives no use class and no "found in".
        let in_use = match status {
            None => inv.food_contact || !effects.is_empty(),
            Some((_, withdraws_contact)) => inv.food_contact && !withdraws_contact,
        };
        let classification = classification(inv, status.map(|(marker, _)| marker), &effects, src);
        let listing = FdaFoodListing {
            listed_name: listed_name.clone(),
            technical_effects: effects.clone(),
            source: src.id.clone(),
        };
        let mut fragment = json!({"regulatory": {
            "classifications": [to_json(&classification)],
            "listings": {inv.listing_key: to_json(&listing)},
        }});
        if in_use {
            add_use(&mut fragment, inv, &effects, src);
        }
        out.push(Contribution::new(cas, fragment).named(name));
    }
    Ok(Parsed {
        contributions: out,
        ledger,
    })
}

/// The listing as an FDA classification; a status marker on the name is kept in it.
fn classification(
    inv: &Inventory,
    marker: Option<&str>,
    effects: &[String],
    src: &SourceDescriptor,
) -> Classification {
    Classification {
        basis: (!effects.is_empty()).then(|| effects.join("; ")),
        ..call::stated(
            src,
            "FDA",
            inv.attribution,
            match marker {
                Some(marker) => format!("{} (marked {marker})", inv.classification),
                None => inv.classification.into(),
            },
        )
    }
}

/// A substance in use: where it is found, the inventory's use class and those its technical
/// effects name.
fn add_use(fragment: &mut Value, inv: &Inventory, effects: &[String], src: &SourceDescriptor) {
    let found = FoundIn {
        category: inv.found_in.into(),
        examples: effects.to_vec(),
        detail: None,
        source: src.id.clone(),
    };
    let mut classes = vec![UseClass {
        class: inv.class.into(),
        source: src.id.clone(),
        basis: Some(inv.title.into()),
    }];
    classes.extend(use_classes_of(effects, &src.id));
    fragment["found_in"] = json!([to_json(&found)]);
    fragment["use_classes"] = Value::Array(classes.iter().map(to_json).collect());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::tables::testing::descriptor;
    use crate::model::vocab::USE_CLASSES;

    const ADDED: &str = "Downloaded from FDA Substances Added to Food <em>(formerly EAFUS)</em>; http://www.hfpappexternal.fda.gov/scripts/fdcc/?set=FoodSubstances; Last updated 2/13/2025; downloaded 3/24/2025.,,\n\
        Data was truncated to the first two columns for file size purposes.,,\n\
        ,,\n\
        CAS Reg No (or other ID),Substance,Used for (Technical Effect)\n \
        55589-62-3, ACESULFAME POTASSIUM, NON-NUTRITIVE SWEETENER\n \
        105-57-7, ACETAL,\" FLAVOR ENHANCER,<br /> FLAVORING AGENT OR ADJUVANT\"\n \
        977164-02-5,\" ACACIA, EXTRACT\", FLAVORING AGENT OR ADJUVANT\n \
        94-59-7, SAFROLE--PROHIBITED, FLAVORING AGENT OR ADJUVANT\n \
        7631-86-9, SILICON DIOXIDE,\" ANTICAKING AGENT OR FREE-FLOW AGENT,<br /> HUMECTANT,<br /> LUBRICANT OR RELEASE AGENT,\"\n \
        532-32-1, SODIUM BENZOATE,\" ANTIMICROBIAL AGENT,<br /> NUTRITIVE SWEETENER,<br /> NON-NUTRITIVE SWEETENER\"\n\
        , vitamin D<sub>2</sub> mushroom powder, NUTRIENT SUPPLEMENT\n \
        93-15-2, EUGENYL METHYL ETHER--NLFG,\n \
        7664-38-2, PHOSPHORIC ACID,\" ANTIMICROBIAL AGENT,<br /> FLAVOR ENHANCER,<br /> FUMIGANT,<br /> NON-NUTRITIVE SWEETENER\"\n \
        71-43-2, BENZENE,\n";

    #[test]
    fn substances_added_to_food() {
        let got = parse(ADDED, &descriptor("saf"), &SUBSTANCES_ADDED, "t")
            .expect("table parses")
            .contributions;
        let cas: Vec<_> = got
            .iter()
            .map(|c| c.cas().expect("keyed by CAS").as_str())
            .collect();
        assert_eq!(
            cas,
            [
                "55589-62-3",
                "105-57-7",
                "94-59-7",
                "7631-86-9",
                "532-32-1",
                "93-15-2",
                "7664-38-2",
                "71-43-2"
            ]
        );
        let acetal = &got[1].fragment;
        assert_eq!(
            acetal["regulatory"]["listings"]["fda_food_additive"],
            json!({
                "listed_name": "ACETAL",
                "technical_effects": ["FLAVOR ENHANCER", "FLAVORING AGENT OR ADJUVANT"],
                "source": "saf",
            })
        );
        let c = &acetal["regulatory"]["classifications"][0];
        assert_eq!(c["agency"], "FDA");
        assert_eq!(
            c["classification"],
            "Listed in FDA Substances Added to Food"
        );
        assert_eq!(c["basis"], "FLAVOR ENHANCER; FLAVORING AGENT OR ADJUVANT");
        assert_eq!(
            acetal["found_in"],
            json!([{"category": "food", "examples": ["FLAVOR ENHANCER", "FLAVORING AGENT OR ADJUVANT"], "source": "saf"}])
        );
        assert_eq!(
            acetal["use_classes"],
            json!([
                {"class": "food_additive", "source": "saf", "basis": "FDA Substances Added to Food"},
                {"class": "flavoring", "source": "saf", "basis": "FLAVORING AGENT OR ADJUVANT"},
            ])
        );
        assert_eq!(got[1].name.as_deref(), Some("ACETAL"));

        let silica = &got[3].fragment["regulatory"]["listings"]["fda_food_additive"];
        assert_eq!(silica["technical_effects"][2], "LUBRICANT OR RELEASE AGENT");

        let benzoate = &got[4].fragment["use_classes"];
        assert_eq!(benzoate[1]["class"], "antimicrobial");
        assert_eq!(benzoate[2]["class"], "preservative");
        assert_eq!(benzoate[3]["class"], "sweetener");
        assert_eq!(
            benzoate[3]["basis"],
            "NUTRITIVE SWEETENER; NON-NUTRITIVE SWEETENER"
        );
        assert_eq!(benzoate.as_array().map(Vec::len), Some(4));

        let phosphoric = &got[6].fragment["use_classes"];
        assert_eq!(
            phosphoric,
            &json!([{"class": "food_additive", "source": "saf", "basis": "FDA Substances Added to Food"}]),
            "four effects pool several regulations' uses: no class from them"
        );
        let benzene = &got[7].fragment;
        assert!(
            benzene.get("use_classes").is_none() && benzene.get("found_in").is_none(),
            "a row with no technical effect states no purpose"
        );
        assert!(benzene["regulatory"]["listings"]["fda_food_additive"].is_object());
    }

    #[test]
    fn marked_substances_are_listed_but_not_in_use() {
        let got = parse(ADDED, &descriptor("saf"), &SUBSTANCES_ADDED, "t")
            .expect("table parses")
            .contributions;
        let safrole = &got[2];
        assert_eq!(safrole.name.as_deref(), Some("SAFROLE"));
        let f = &safrole.fragment;
        assert_eq!(
            f["regulatory"]["listings"]["fda_food_additive"]["listed_name"],
            "SAFROLE--PROHIBITED"
        );
        assert_eq!(
            f["regulatory"]["classifications"][0]["classification"],
            "Listed in FDA Substances Added to Food (marked PROHIBITED)"
        );
        assert!(f.get("use_classes").is_none() && f.get("found_in").is_none());
        let nlfg = &got[5].fragment;
        assert!(nlfg.get("use_classes").is_none());
        assert!(
            nlfg["regulatory"]["listings"]["fda_food_additive"]
                .get("technical_effects")
                .is_none()
        );
    }

    #[test]
    fn food_contact_substances() {
        let text = "Downloaded from FDA Inventory of Food Contact Substances Listed in 21 CFR; Last updated 2/13/2025; downloaded 3/24/2025.,\n\
            Consult the regulation(s) cited to see if your substance is authorized for your intended use.,\n\
            ,\n\
            CAS Registry No. (or other ID),Substance\n \
            514-10-3, ABIETIC ACID\n \
            977110-24-9, SOME FDA-NUMBERED SUBSTANCE\n \
            101-14-4,\" 4,4'-METHYLENEBIS(2-CHLOROANILINE)--PROHIBITED\"\n \
            100-42-5, STYRENE--NLFG\n";
        let got = parse(text, &descriptor("fcs"), &FOOD_CONTACT, "t")
            .expect("table parses")
            .contributions;
        assert_eq!(got.len(), 3);
        let abietic = &got[0].fragment;
        assert_eq!(
            abietic["regulatory"]["listings"]["fda_food_contact"],
            json!({"listed_name": "ABIETIC ACID", "source": "fcs"})
        );
        assert_eq!(
            abietic["regulatory"]["classifications"][0]["classification"],
            "Listed in FDA Inventory of Food Contact Substances (21 CFR)"
        );
        assert!(
            abietic["regulatory"]["classifications"][0]
                .get("basis")
                .is_none()
        );
        assert_eq!(
            abietic["found_in"],
            json!([{"category": "food_contact_materials", "source": "fcs"}])
        );
        assert_eq!(abietic["use_classes"][0]["class"], "food_contact_substance");
        assert!(got[1].fragment.get("use_classes").is_none(), "prohibited");
        assert_eq!(
            got[2].fragment["use_classes"][0]["class"], "food_contact_substance",
            "NLFG concerns flavour use only"
        );
        assert_eq!(got[2].name.as_deref(), Some("STYRENE"));
    }

    #[test]
    fn a_missing_header_is_an_error() {
        let err = parse("just notes,\n1,2\n", &descriptor("fcs"), &FOOD_CONTACT, "t");
        assert!(matches!(err, Err(TableError::Format { .. })));
    }

    #[test]
    fn effect_table_names_known_classes() {
        for (effect, class) in EFFECT_CLASSES {
            assert!(USE_CLASSES.contains(class), "{effect} -> {class}");
            assert_eq!(
                *effect,
                effect.trim().to_uppercase(),
                "FDA writes effects upper case"
            );
        }
        assert!(EFFECT_CLASSES.windows(2).all(|w| w[0] < w[1]), "sorted");
        assert!(USE_CLASSES.contains(&SUBSTANCES_ADDED.class));
        assert!(USE_CLASSES.contains(&FOOD_CONTACT.class));
    }

    #[test]
    fn status_markers() {
        assert_eq!(
            split_status("COBALT SULFATE--PROHIBITED WITH EXCEPTIONS"),
            ("COBALT SULFATE", Some(("PROHIBITED WITH EXCEPTIONS", true)))
        );
        assert_eq!(
            split_status("DIETHYL PYROCARBONATE-- PROHIBITED"),
            ("DIETHYL PYROCARBONATE", Some(("PROHIBITED", true)))
        );
        assert_eq!(
            split_status("METHYL ACRYLATE--DVB-(DEG-DIVINYL ETHER), TERPOLYMER"),
            ("METHYL ACRYLATE--DVB-(DEG-DIVINYL ETHER), TERPOLYMER", None)
        );
    }
}
