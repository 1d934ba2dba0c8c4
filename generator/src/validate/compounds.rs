//! The compound records' rules: ids, CAS check digits, duplicates, dangling references,
//! vocabularies, and values without a source reference.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::Sink;
use crate::model::cas::Cas;
use crate::model::ids::CompoundId;
use crate::model::record::{CompoundRecord, MolecularWeight};
use crate::model::vocab::{self, CATEGORIES, PICTOGRAMS, USE_CLASSES};
use crate::model::{Dataset, Problem};

/// The checks of every compound record (those not in `clean`), the id registry and the curation
/// files.
pub(super) fn validate(
    dataset: &Dataset,
    clean: &std::collections::HashSet<CompoundId>,
    problems: &mut Vec<Problem>,
) {
    let agencies = AgencyIndex::new(dataset, problems);
    let mut seen_cas: BTreeMap<&str, &CompoundId> = BTreeMap::new();
    for (id, record) in &dataset.compounds {
        let file = dataset.file_of(id);
        let mut out = Sink {
            file: file.clone(),
            problems,
        };
        if !clean.contains(id) {
            check_record(record, &file, dataset, &agencies, &mut out);
        }
        if let Some(other) = seen_cas.insert(record.cas.as_str(), id) {
            out.push("cas", format!("duplicate CAS {}: also {other}", record.cas));
        }
    }
    check_registry(dataset, problems);
    check_curated(dataset, problems);
    check_pending(dataset, problems);
}

/// A pending call (adopted, not yet applicable) names the date it applies from, later than
/// the data's date (`Dataset::release_date`); once that date is reached the curated file must
/// drop the status so that the call becomes current (data/README.md "Lifecycle"). Checked
/// across the dataset, not per record, because the data's date moves with other records.
fn check_pending(dataset: &Dataset, problems: &mut Vec<Problem>) {
    use crate::model::record::Lifecycle;
    let today = dataset.release_date();
    let today = &today[..10];
    for (id, r) in &dataset.compounds {
        let file = dataset.file_of(id);
        let calls = r
            .safety
            .ghs
            .iter()
            .enumerate()
            .map(|(i, g)| {
                (
                    format!("safety.ghs[{i}]"),
                    g.status,
                    g.applies_from.as_deref(),
                )
            })
            .chain(
                r.regulatory
                    .classifications
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        (
                            format!("regulatory.classifications[{i}]"),
                            c.status,
                            c.applies_from.as_deref(),
                        )
                    }),
            );
        for (path, status, applies_from) in calls {
            let message = match (status, applies_from) {
                (Some(Lifecycle::Pending), None) => {
                    "a pending call names the date it applies from (`applies_from`)".to_string()
                }
                (_, Some(d)) if chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").is_err() => {
                    format!("applies_from {d:?} is not a YYYY-MM-DD date")
                }
                (Some(Lifecycle::Pending), Some(d)) if d <= today => format!(
                    "pending until {d}, but the data is of {today}: the call applies now; drop its status in the curated file"
                ),
                (None | Some(Lifecycle::Current), Some(d)) if d > today => format!(
                    "applies from {d}, after the data's date {today}, yet is current: mark it pending"
                ),
                _ => continue,
            };
            problems.push(Problem::new(&*file, path, message));
        }
    }
}

/// Agency names and the attribution strings each accepts.
struct AgencyIndex {
    by_name: BTreeMap<String, BTreeSet<String>>,
    attribution_owner: BTreeMap<String, String>,
}

impl AgencyIndex {
    fn new(dataset: &Dataset, problems: &mut Vec<Problem>) -> AgencyIndex {
        let file = dataset.dir.join("agencies.json").display().to_string();
        let file = file.as_str();
        let mut index = AgencyIndex {
            by_name: BTreeMap::new(),
            attribution_owner: BTreeMap::new(),
        };
        let mut ids = BTreeSet::new();
        for (i, a) in dataset.agencies.iter().enumerate() {
            if !ids.insert(a.id.as_str()) {
                problems.push(Problem::new(
                    file,
                    format!("agencies[{i}].id"),
                    format!("duplicate agency id {:?}", a.id),
                ));
            }
            if index
                .by_name
                .insert(a.name.clone(), a.attributions.iter().cloned().collect())
                .is_some()
            {
                problems.push(Problem::new(
                    file,
                    format!("agencies[{i}].name"),
                    format!("duplicate agency name {:?}", a.name),
                ));
            }
            for (j, s) in a.attributions.iter().enumerate() {
                if let Some(owner) = index.attribution_owner.insert(s.clone(), a.name.clone()) {
                    problems.push(Problem::new(
                        file,
                        format!("agencies[{i}].attributions[{j}]"),
                        format!("attribution {s:?} also belongs to {owner}"),
                    ));
                }
            }
        }
        index
    }

    fn knows(&self, agency_or_attribution: &str) -> bool {
        self.by_name.contains_key(agency_or_attribution)
            || self.attribution_owner.contains_key(agency_or_attribution)
    }
}

fn check_record(
    r: &CompoundRecord,
    file: &str,
    dataset: &Dataset,
    agencies: &AgencyIndex,
    out: &mut Sink<'_>,
) {
    check_identity(r, file, dataset, out);
    check_sources(r, out);
    check_vocabularies(r, out);
    check_agencies(r, agencies, out);
    if let Some(parent) = &r.hierarchy.parent
        && dataset.compound(parent).is_none()
        && !dataset.unread.contains(parent)
    {
        out.push(
            "hierarchy.parent",
            format!("dangling reference: no compound {parent}"),
        );
    }
    if let Some(MolecularWeight::Number(mw)) = &r.properties.chemical_properties.molecular_weight
        && *mw <= 0.0
    {
        out.push(
            "properties.chemical_properties.molecular_weight",
            "must be positive",
        );
    }
    check_dates(r, out);
    for (i, q) in r.data_quality.iter().flatten().enumerate() {
        if q.status != "under_review" || q.finding != "SCI-DAT-01" {
            out.push(
                format!("data_quality[{i}]"),
                "status must be under_review and finding SCI-DAT-01",
            );
        }
    }
}

/// The id (well formed, or the file would not have loaded) names the file; the name is not
/// empty; data/ids.tsv gives the CAS (valid, likewise) this id.
fn check_identity(r: &CompoundRecord, file: &str, dataset: &Dataset, out: &mut Sink<'_>) {
    let stem = std::path::Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str());
    if stem != Some(r.hq_id.to_string().as_str()) {
        out.push(
            "hq_id",
            format!(
                "{} is stored in a file named {:?}",
                r.hq_id,
                stem.unwrap_or("")
            ),
        );
    }
    if r.name.trim().is_empty() {
        out.push("name", "a compound needs a name");
    }
    let cas = &r.cas;
    match dataset.ids.get(cas) {
        None => out.push("cas", format!("CAS {cas} is not in data/ids.tsv")),
        Some(id) if *id != r.hq_id => {
            out.push(
                "cas",
                format!("data/ids.tsv gives CAS {cas} the id {id}, not {}", r.hq_id),
            );
        }
        Some(_) => {}
    }
}

/// The record's dates, as the OpenAPI document states them (`format: date`).
fn check_dates(r: &CompoundRecord, out: &mut Sink<'_>) {
    let meta_dates = [
        ("meta.created".to_string(), Some(&r.meta.created)),
        (
            "meta.last_reviewed".to_string(),
            Some(&r.meta.last_reviewed),
        ),
    ];
    let revisions = r.meta.revision_history.iter().enumerate();
    let revisions =
        revisions.map(|(i, v)| (format!("meta.revision_history[{i}].date"), Some(&v.date)));
    let accessed = r.sources.iter().enumerate();
    let accessed = accessed.map(|(i, s)| (format!("sources[{i}].accessed"), s.accessed.as_ref()));
    for (path, date) in meta_dates.into_iter().chain(revisions).chain(accessed) {
        if let Some(date) = date
            && chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").is_err()
        {
            out.push(path, format!("{date:?} is not a YYYY-MM-DD date"));
        }
    }
}

/// Every `source` resolves in `sources[]`, and every block with values names its source.
fn check_sources(r: &CompoundRecord, out: &mut Sink<'_>) {
    let mut ids = BTreeSet::new();
    for (i, s) in r.sources.iter().enumerate() {
        if !ids.insert(s.id.as_str()) {
            out.push(
                format!("sources[{i}].id"),
                format!("duplicate source id {:?}", s.id),
            );
        }
    }
    let value = serde_json::to_value(r).unwrap_or_default();
    let mut refs = Vec::new();
    collect_refs(&value, String::new(), &mut refs);
    for (path, id) in refs {
        if !ids.contains(id.as_str()) {
            out.push(path, format!("source {id:?} is not defined in sources[]"));
        }
    }
    let id = &r.identity;
    let identity_has_values = id.smiles.is_some()
        || id.inchi.is_some()
        || id.inchi_key.is_some()
        || id.iupac_name.is_some()
        || !id.synonyms.is_empty();
    if identity_has_values && id.source.is_none() {
        out.push(
            "identity.source",
            "identity values without a source reference",
        );
    }
    if id.exact_mass.is_some() && id.exact_mass_source.is_none() && id.source.is_none() {
        out.push("identity.exact_mass", "value without a source reference");
    }
    let x = &r.crossrefs;
    if (x.pubchem_cid.is_some() || x.inchi.is_some()) && x.source.is_none() {
        out.push(
            "crossrefs.source",
            "crossref values without a source reference",
        );
    }
    let c = &r.properties.chemical_properties;
    if (c.molecular_formula.is_some() || c.molecular_weight.is_some()) && c.source.is_none() {
        out.push(
            "properties.chemical_properties.source",
            "values without a source reference",
        );
    }
    if c.exact_mass.is_some() && c.exact_mass_source.is_none() && c.source.is_none() {
        out.push(
            "properties.chemical_properties.exact_mass",
            "value without a source reference",
        );
    }
    if r.name_source.is_empty() {
        out.push("name_source", "the name has no source reference");
    }
}

/// (JSON path, source id) of every source reference in the tree, except the `sources` list.
pub(crate) fn collect_refs(value: &Value, path: String, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match v {
                    Value::String(s)
                        if ["source", "name_source", "exact_mass_source"].contains(&k.as_str()) =>
                    {
                        out.push((p, s.clone()));
                    }
                    _ if k == "sources" && path.is_empty() => {}
                    _ => collect_refs(v, p, out),
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                collect_refs(v, format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

fn check_vocabularies(r: &CompoundRecord, out: &mut Sink<'_>) {
    if let Some(t) = &r.kind
        && !USE_CLASSES.contains(&t.as_str())
    {
        out.push("type", format!("unknown type {t:?}"));
    }
    if let Some(c) = &r.category
        && !CATEGORIES.contains(&c.as_str())
    {
        out.push(
            "category",
            format!("unknown category {c:?}; one of {}", CATEGORIES.join(", ")),
        );
    }
    for (i, u) in r.use_classes.iter().enumerate() {
        if !USE_CLASSES.contains(&u.class.as_str()) {
            out.push(
                format!("use_classes[{i}].class"),
                format!("unknown use class {:?}", u.class),
            );
        }
    }
    for (i, g) in r.safety.ghs.iter().enumerate() {
        for (j, h) in g.h_codes.iter().enumerate() {
            if !vocab::is_h_code(h) {
                out.push(
                    format!("safety.ghs[{i}].h_codes[{j}]"),
                    format!("{h:?} is not a hazard statement code"),
                );
            }
        }
        for (j, p) in g.pictograms.iter().enumerate() {
            if !PICTOGRAMS.contains(&p.as_str()) {
                out.push(
                    format!("safety.ghs[{i}].pictograms[{j}]"),
                    format!("unknown pictogram {p:?}"),
                );
            }
        }
    }
    for (i, c) in r.regulatory.classifications.iter().enumerate() {
        if let Some(d) = &c.date
            && chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").is_err()
        {
            out.push(
                format!("regulatory.classifications[{i}].date"),
                format!("{d:?} is not a YYYY-MM-DD date"),
            );
        }
    }
    one_live_value_per_question(r, out);
    for species in r.safety.species.keys() {
        let ok = species.len() >= 2
            && species
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !ok {
            out.push(
                format!("safety.species.{species}"),
                "species keys are lowercase context-style names",
            );
        }
    }
    for (i, p) in r.safety.human_poisoning.iter().enumerate() {
        for context in &p.contexts {
            if !poisoning_context(context) {
                out.push(
                    format!("safety.human_poisoning[{i}].contexts"),
                    format!(
                        "{context:?} is not a group of people, the workplace or a route \
                         other than the eye"
                    ),
                );
            }
        }
    }
}

/// A poisoning of people is read for a group of people, the workplace and every route but the
/// eye, whose injuries `curated/local-injuries.json` records (METHODOLOGY.md, acute_toxicity).
fn poisoning_context(name: &str) -> bool {
    use crate::model::contexts::{Context, ContextKind};
    Context::from_name(name).is_some_and(|c| {
        c != Context::ExposureOcular && matches!(c.kind(), ContextKind::Human | ContextKind::Route)
    })
}

/// Superseded values stay as history, so a question must have one live answer: one current
/// IARC call, one current EFSA value per question and population, one in-force Annex VI
/// edition.
fn one_live_value_per_question(r: &CompoundRecord, out: &mut Sink<'_>) {
    // One live call per question: every IARC classification but the listing's is superseded
    // when the dataset loads; two live ones mean the listing and the calls disagree.
    let live: Vec<usize> = r
        .regulatory
        .classifications
        .iter()
        .enumerate()
        .filter(|(_, c)| c.agency == "IARC" && c.is_current() && c.qualifier.is_none())
        .map(|(i, _)| i)
        .collect();
    if live.len() > 1 {
        out.push(
            format!("regulatory.classifications[{}]", live[1]),
            format!(
                "{} IARC classifications are current: a superseded call is served as live (the listing `regulatory.listings.iarc_group` must come from the newest call's source)",
                live.len()
            ),
        );
    }
    // One live EFSA value per question and population: the newest year's values are current
    // (load::lifecycle), so two different current values mean one opinion year answers the
    // question twice, which curated/efsa-set-aside.tsv must settle (data/README.md Lifecycle).
    // Values in units of another shape (per day against per week) are not compared.
    type Question<'a> = (&'static str, String, &'a str);
    let mut live: BTreeMap<Question<'_>, Vec<(usize, f64)>> = BTreeMap::new();
    for (i, d) in r.dose_response.iter().enumerate() {
        if let (true, Some((question, population)), Some((value, per))) = (
            d.is_current(),
            d.efsa_question(),
            in_milligrams(d.value, &d.unit),
        ) {
            live.entry((question, population, per))
                .or_default()
                .push((i, value));
        }
    }
    for ((question, population, _), values) in live {
        let (first, v0) = values[0];
        if let Some((other, _)) = values
            .iter()
            .find(|(_, v)| (v - v0).abs() > 1e-9 * v0.abs().max(1e-12))
        {
            out.push(
                format!("dose_response[{other}]"),
                format!(
                    "two current EFSA values of the {question} for {population} \
                     (dose_response[{first}] and [{other}]): set one aside in \
                     curated/efsa-set-aside.tsv, citing which is live"
                ),
            );
        }
    }
    // One in-force Annex VI edition: entries of two EU sources both current mean a later ATP
    // did not supersede the entry it replaced.
    let eu_sources: BTreeSet<&str> = r
        .safety
        .ghs
        .iter()
        .filter(|g| g.jurisdiction == "EU" && g.is_current())
        .map(|g| g.source.as_str())
        .collect();
    if eu_sources.len() > 1 {
        out.push(
            "safety.ghs",
            format!(
                "EU CLP entries of {} are all current: a superseded entry is served as live",
                eu_sources.into_iter().collect::<Vec<_>>().join(" and ")
            ),
        );
    }
}

/// A guidance value in milligrams, with the rest of its unit ("1000 µg/kg bw/week" and "1
/// mg/kg bw/week" are one value), or `None` for a unit of another shape.
fn in_milligrams(value: f64, unit: &str) -> Option<(f64, &str)> {
    let (mass, rest) = unit.split_once('/')?;
    let factor = match mass {
        "g" => 1e3,
        "mg" => 1.0,
        "µg" => 1e-3,
        "ng" => 1e-6,
        "pg" => 1e-9,
        _ => return None,
    };
    Some((value * factor, rest))
}

fn check_agencies(r: &CompoundRecord, agencies: &AgencyIndex, out: &mut Sink<'_>) {
    for (i, c) in r.regulatory.classifications.iter().enumerate() {
        match agencies.by_name.get(&c.agency) {
            None => out.push(
                format!("regulatory.classifications[{i}].agency"),
                format!("unknown agency {:?} (see data/agencies.json)", c.agency),
            ),
            Some(attributions) if !attributions.contains(&c.attribution) => out.push(
                format!("regulatory.classifications[{i}].attribution"),
                format!(
                    "{:?} is not an attribution string of {}",
                    c.attribution, c.agency
                ),
            ),
            Some(_) => {}
        }
    }
    let named = r
        .safety
        .exposure_limits
        .iter()
        .map(|l| ("safety.exposure_limits", &l.agency))
        .chain(r.dose_response.iter().map(|d| ("dose_response", &d.agency)))
        .chain(
            r.safety
                .endocrine_disruption
                .iter()
                .map(|e| ("safety.endocrine_disruption", &e.agency)),
        );
    let mut counters: BTreeMap<&str, usize> = BTreeMap::new();
    for (section, agency) in named {
        let i = counters.entry(section).or_default();
        if !agencies.knows(agency) {
            out.push(
                format!("{section}[{i}].agency"),
                format!("unknown agency {agency:?} (see data/agencies.json)"),
            );
        }
        *i += 1;
    }
}

fn check_registry(dataset: &Dataset, problems: &mut Vec<Problem>) {
    let file = dataset.dir.join("ids.tsv").display().to_string();
    for (cas, id) in dataset.ids.iter() {
        if !dataset.compounds.contains_key(id) && !dataset.unread.contains(&id.to_string()) {
            problems.push(Problem::new(
                &file,
                "",
                format!("dangling reference: {cas} maps to {id}, which has no compounds/{id}.json"),
            ));
        }
    }
}

fn check_curated(dataset: &Dataset, problems: &mut Vec<Problem>) {
    for (file, curated) in &dataset.curated {
        let mut ids = BTreeSet::new();
        for (i, s) in curated.sources.iter().enumerate() {
            if !ids.insert(s.id.as_str()) {
                problems.push(Problem::new(
                    file,
                    format!("sources[{i}].id"),
                    format!("duplicate source id {:?}", s.id),
                ));
            }
        }
        for (i, entry) in curated.entries.iter().enumerate() {
            let path = format!("entries[{i}].cas");
            match Cas::parse(&entry.cas) {
                Err(e) => problems.push(Problem::new(file, path, e.to_string())),
                Ok(_)
                    if dataset.by_cas(&entry.cas).is_none()
                        && !dataset.unread.contains(&entry.cas) =>
                {
                    problems.push(Problem::new(
                    file,
                    path,
                    format!(
                        "dangling reference: CAS {} is not in the corpus (add it to data/curated/selection.tsv and run ingest)",
                        entry.cas
                    ),
                ));
                }
                Ok(_) => {}
            }
            let mut refs = Vec::new();
            collect_refs(&entry.set, format!("entries[{i}].set"), &mut refs);
            for (p, id) in refs {
                if !ids.contains(id.as_str()) {
                    problems.push(Problem::new(
                        file,
                        p,
                        format!("source {id:?} is not defined in this file's sources[]"),
                    ));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{in_milligrams, poisoning_context};

    /// A poisoning of people names groups of people, the workplace or a route other than the
    /// eye: an animal, the eye or a misspelt context is refused.
    #[test]
    fn a_poisoning_names_people_the_workplace_or_a_route_but_the_eye() {
        for ok in [
            "human_child",
            "human_elderly",
            "exposure_ingestion",
            "occupational_exposure",
        ] {
            assert!(poisoning_context(ok), "{ok}");
        }
        for refused in ["exposure_ocular", "dog", "aquatic_life", "human_children"] {
            assert!(!poisoning_context(refused), "{refused}");
        }
    }

    #[test]
    fn guidance_values_compare_in_milligrams_per_unit_shape() {
        assert_eq!(
            in_milligrams(1000.0, "µg/kg bw/week"),
            in_milligrams(1.0, "mg/kg bw/week")
        );
        assert_ne!(
            in_milligrams(12.0, "mg/kg bw/day"),
            in_milligrams(12.5, "mg/kg bw/day")
        );
        assert_eq!(
            in_milligrams(3.0, "mg/kg bw/day").map(|(_, u)| u),
            Some("kg bw/day")
        );
        assert_eq!(in_milligrams(1.0, "IU/g"), None);
    }
}
