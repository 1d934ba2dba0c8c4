//! `check` rules for `data/fragrance/`: CAS numbers (check digits, one entry per CAS, every
//! entry and constituent a corpus compound, extracts `mix` compounds), class ids defined in
//! `classes.json`, every cited source defined in its file, the EU labelling thresholds of the
//! regulation and ISO dates.

use std::collections::{BTreeMap, BTreeSet};

use super::Sink;
use crate::model::cas::Cas;
use crate::model::fragrance::{
    CLASSES_FILE, ClassDef, ClassFamily, Fragrance, INGREDIENTS_FILE, Ingredient, IngredientKind,
};
use crate::model::ids::CompoundKind;
use crate::model::record::SourceRef;
use crate::model::vocab::WatchClass;
use crate::model::{Dataset, Problem};

/// The labelling thresholds of Regulation (EC) No 1223/2009 Annex III as amended, in %:
/// leave-on and rinse-off products.
const LEAVE_ON_PCT: f64 = 0.001;
const RINSE_OFF_PCT: f64 = 0.01;

/// Use classes that make a compound a fragrance ingredient: each needs an entry here.
const FRAGRANCE_TYPES: [&str; 2] = ["fragrance_allergen", "fragrance_ingredient"];

pub fn validate(f: &Fragrance, dataset: &Dataset, problems: &mut Vec<Problem>) {
    let file = |name: &str| dataset.dir.join(name).display().to_string();
    let mut out = Sink {
        file: file(CLASSES_FILE).into(),
        problems,
    };
    let class_sources = sources(&f.classes.sources, &mut out);
    let mut seen = BTreeSet::new();
    for (family, list) in [
        ("odour_families", &f.classes.odour_families),
        ("chemical_classes", &f.classes.chemical_classes),
    ] {
        for (i, class) in list.iter().enumerate() {
            class_def(class, &format!("{family}[{i}]"), &class_sources, &mut out);
            if !seen.insert(class.id.as_str()) {
                out.push(
                    format!("{family}[{i}].id"),
                    format!("class id {:?} is defined twice", class.id),
                );
            }
        }
    }
    let mut out = Sink {
        file: file(INGREDIENTS_FILE).into(),
        problems: out.problems,
    };
    ingredients(f, dataset, &mut out);
}

/// The file's source ids, each checked once.
fn sources<'a>(list: &'a [SourceRef], out: &mut Sink<'_>) -> BTreeSet<&'a str> {
    let mut ids = BTreeSet::new();
    for (i, s) in list.iter().enumerate() {
        if !ids.insert(s.id.as_str()) {
            out.push(
                format!("sources[{i}].id"),
                format!("source {:?} is defined twice", s.id),
            );
        }
        if s.title.trim().is_empty() || s.url.trim().is_empty() {
            out.push(format!("sources[{i}]"), "a source needs a title and a url");
        }
        if let Some(date) = &s.accessed
            && !iso_date(date)
        {
            out.push(
                format!("sources[{i}].accessed"),
                format!("{date:?} is not a YYYY-MM-DD date"),
            );
        }
    }
    ids
}

fn class_def(class: &ClassDef, path: &str, sources: &BTreeSet<&str>, out: &mut Sink<'_>) {
    let well_formed = class.id.starts_with(|c: char| c.is_ascii_lowercase())
        && class
            .id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    if !well_formed {
        out.push(
            format!("{path}.id"),
            format!(
                "class id {:?} must be lowercase letters, digits and _ (it is a query value)",
                class.id
            ),
        );
    }
    if class.name.trim().is_empty() || class.description.trim().is_empty() {
        out.push(path, "a class needs a name and a description");
    }
    cited(sources, &class.source, &format!("{path}.source"), out);
}

fn cited(sources: &BTreeSet<&str>, id: &str, path: &str, out: &mut Sink<'_>) {
    if !sources.contains(id) {
        out.push(
            path,
            format!("cites source {id:?}, which the file's sources[] does not define"),
        );
    }
}

/// A real calendar date written YYYY-MM-DD.
fn iso_date(text: &str) -> bool {
    text.len() == 10 && chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").is_ok()
}

/// Parses a CAS number, reporting why it is not one.
fn cas(text: &str, path: &str, out: &mut Sink<'_>) -> Option<Cas> {
    Cas::parse(text)
        .map_err(|e| out.push(path, e.to_string()))
        .ok()
}

fn ingredients(f: &Fragrance, dataset: &Dataset, out: &mut Sink<'_>) {
    let sources = sources(&f.ingredients.sources, out);
    let mut by_cas: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_eu_entry: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, entry) in f.ingredients.entries.iter().enumerate() {
        let path = format!("entries[{i}]");
        if let Some(first) = by_cas.insert(entry.cas.clone(), i) {
            out.push(
                format!("{path}.cas"),
                format!("CAS {} already has entry {first}", entry.cas),
            );
        }
        if let Some(eu) = &entry.eu_allergen
            && let Some(first) = by_eu_entry.insert(eu.entry.as_str(), i)
        {
            out.push(
                format!("{path}.eu_allergen.entry"),
                format!("Annex III entry {} is also entry {first}", eu.entry),
            );
        }
        ingredient(entry, &path, f, dataset, &sources, out);
    }
    // A compound the corpus types as a fragrance ingredient belongs in this view. Only when
    // the view has data: a corpus without data/fragrance/ has no view to be missing from.
    if f.ingredients.entries.is_empty() {
        return;
    }
    // An entry's other CAS numbers are the regulation's own (Annex III entry 157, "Rose
    // ketones", names eight): each is the entry's compound as much as its first CAS.
    let other_cas: BTreeSet<&str> = f
        .ingredients
        .entries
        .iter()
        .flat_map(|e| e.other_cas.iter().map(String::as_str))
        .collect();
    for record in dataset.compounds.values() {
        let typed = record
            .kind
            .as_deref()
            .is_some_and(|t| FRAGRANCE_TYPES.contains(&t));
        if typed
            && !by_cas.contains_key(record.cas.as_str())
            && !other_cas.contains(record.cas.as_str())
        {
            out.push(
                "entries",
                format!(
                    "{} ({}, CAS {}) has type {}, but no entry",
                    record.hq_id,
                    record.name,
                    record.cas,
                    record.kind.as_deref().unwrap_or_default()
                ),
            );
        }
    }
}

fn ingredient(
    entry: &Ingredient,
    path: &str,
    f: &Fragrance,
    dataset: &Dataset,
    sources: &BTreeSet<&str>,
    out: &mut Sink<'_>,
) {
    if entry.name.trim().is_empty() {
        out.push(format!("{path}.name"), "an entry needs a name");
    }
    cited(sources, &entry.source, &format!("{path}.source"), out);
    if let Some(main) = cas(&entry.cas, &format!("{path}.cas"), out) {
        in_corpus(entry, &main, path, dataset, out);
    }
    let mut other = BTreeSet::new();
    for (j, text) in entry.other_cas.iter().enumerate() {
        let at = format!("{path}.other_cas[{j}]");
        if cas(text, &at, out).is_some() && (text == &entry.cas || !other.insert(text)) {
            out.push(at, format!("CAS {text} is already listed for this entry"));
        }
    }
    if let Some(eu) = &entry.eu_allergen {
        let at = |field: &str| format!("{path}.eu_allergen.{field}");
        if eu.entry.is_empty() || !eu.entry.bytes().all(|b| b.is_ascii_digit()) {
            out.push(
                at("entry"),
                format!("{:?} is not an Annex III entry number", eu.entry),
            );
        }
        for (field, value, expected) in [
            (
                "leave_on_threshold_pct",
                eu.leave_on_threshold_pct,
                LEAVE_ON_PCT,
            ),
            (
                "rinse_off_threshold_pct",
                eu.rinse_off_threshold_pct,
                RINSE_OFF_PCT,
            ),
        ] {
            if value != expected {
                out.push(
                    at(field),
                    format!("{value} is not the regulation's threshold ({expected} %)"),
                );
            }
        }
        if !iso_date(&eu.applies_from) {
            out.push(
                at("applies_from"),
                format!("{:?} is not a YYYY-MM-DD date", eu.applies_from),
            );
        }
        cited(sources, &eu.source, &at("source"), out);
    }
    if let Some(ifra) = &entry.ifra {
        if ifra.standard.trim().is_empty() {
            out.push(format!("{path}.ifra.standard"), "name the IFRA Standard");
        }
        cited(sources, &ifra.source, &format!("{path}.ifra.source"), out);
    }
    classes(entry, path, f, sources, out);
    constituents(entry, path, dataset, sources, out);
}

/// The entry's compound: in the corpus, served, and a `mix` compound for an extract.
fn in_corpus(entry: &Ingredient, cas: &Cas, path: &str, dataset: &Dataset, out: &mut Sink<'_>) {
    let at = format!("{path}.cas");
    let Some(id) = dataset.ids.get(cas) else {
        out.push(
            at,
            format!(
                "CAS {cas} is not a corpus compound (add it to curated/selection.tsv and ingest)",
                cas = cas.as_str()
            ),
        );
        return;
    };
    let Some(record) = dataset.compounds.get(id) else {
        if dataset.unread.contains(&id.to_string()) {
            return;
        }
        out.push(
            at,
            format!("{id} (CAS {}) has no compound file", cas.as_str()),
        );
        return;
    };
    if entry.kind == IngredientKind::Extract && id.kind != CompoundKind::Mix {
        out.push(
            format!("{path}.kind"),
            format!(
                "an extract is a mix compound, but CAS {} is {id}",
                cas.as_str()
            ),
        );
    }
    if record.watch_class == WatchClass::CriticalThreat {
        out.push(
            at,
            format!("{id} is on the critical-threat watch list, whose records are not served"),
        );
    }
}

fn classes(
    entry: &Ingredient,
    path: &str,
    f: &Fragrance,
    sources: &BTreeSet<&str>,
    out: &mut Sink<'_>,
) {
    for (field, list, family) in [
        ("odour_families", &entry.odour_families, ClassFamily::Odour),
        (
            "chemical_classes",
            &entry.chemical_classes,
            ClassFamily::Chemical,
        ),
    ] {
        let mut seen = BTreeSet::new();
        for (j, id) in list.iter().enumerate() {
            let at = format!("{path}.{field}[{j}]");
            if f.class(id).is_none_or(|(fam, _)| fam != family) {
                out.push(
                    at,
                    format!("{id:?} is not one of the {field} of {CLASSES_FILE}"),
                );
            } else if !seen.insert(id) {
                out.push(at, format!("{id:?} is listed twice"));
            }
        }
    }
    match &entry.odour_source {
        Some(s) => {
            cited(sources, s, &format!("{path}.odour_source"), out);
            if entry.odour_families.is_empty() {
                out.push(
                    format!("{path}.odour_source"),
                    "cites a source for no odour family",
                );
            }
        }
        None if !entry.odour_families.is_empty() => {
            out.push(
                format!("{path}.odour_source"),
                "odour families need their source",
            );
        }
        None => {}
    }
}

fn constituents(
    entry: &Ingredient,
    path: &str,
    dataset: &Dataset,
    sources: &BTreeSet<&str>,
    out: &mut Sink<'_>,
) {
    if !entry.constituents.is_empty() && entry.kind != IngredientKind::Extract {
        out.push(
            format!("{path}.constituents"),
            "only an extract has constituents",
        );
    }
    let mut seen = BTreeSet::new();
    for (j, text) in entry.constituents.iter().enumerate() {
        let at = format!("{path}.constituents[{j}]");
        let Some(c) = cas(text, &at, out) else {
            continue;
        };
        if text == &entry.cas || !seen.insert(text) {
            out.push(
                at,
                format!("CAS {text} is listed twice or is the entry itself"),
            );
        } else if dataset.ids.get(&c).is_none() {
            out.push(
                at,
                format!("constituent CAS {text} is not a corpus compound"),
            );
        }
    }
    match &entry.constituents_source {
        Some(s) => {
            cited(sources, s, &format!("{path}.constituents_source"), out);
            if entry.constituents.is_empty() {
                out.push(
                    format!("{path}.constituents_source"),
                    "cites a source for no constituents",
                );
            }
        }
        None if !entry.constituents.is_empty() => {
            out.push(
                format!("{path}.constituents_source"),
                "constituents need their source",
            );
        }
        None => {}
    }
}
