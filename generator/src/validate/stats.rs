//! `check --stats`: counts and coverage of the dataset, per field and per source.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value;

use crate::model::Dataset;
use crate::model::dating::DatePrecision;
use crate::model::merge::referenced_sources;
use crate::model::record::CompoundRecord;

/// Fields whose coverage is reported (dotted paths into the record).
const FIELDS: &[&str] = &[
    "crossrefs.pubchem_cid",
    "identity.smiles",
    "identity.inchi",
    "identity.inchi_key",
    "identity.iupac_name",
    "identity.synonyms",
    "identity.exact_mass",
    "properties.chemical_properties.molecular_formula",
    "properties.chemical_properties.molecular_weight",
    "properties.physical_properties.melting_point",
    "properties.physical_properties.boiling_point",
    "properties.physical_properties.density",
    "properties.physical_properties.flash_point",
    "properties.environmental_fate.log_kow",
    "properties.environmental_fate.gwp_100yr",
    "safety.ghs",
    "safety.carcinogenicity",
    "safety.endocrine_disruption",
    "safety.exposure_limits",
    "safety.species",
    "dose_response",
    "regulatory.listings.iarc_group",
    "regulatory.listings.ntp_roc",
    "regulatory.listings.prop65",
    "regulatory.listings.eu_svhc",
    "regulatory.listings.rcra",
    "regulatory.listings.osha_carcinogen",
    "regulatory.listings.eu_cosmetics_prohibited",
    "regulatory.listings.fda_food_additive",
    "regulatory.listings.fda_food_contact",
    "regulatory.listings.cwc_schedule",
    "found_in",
    "use_classes",
    "type",
];

#[derive(Debug, Default)]
pub struct Stats {
    pub compounds: usize,
    pub by_kind: BTreeMap<String, usize>,
    pub by_category: BTreeMap<String, usize>,
    pub field_coverage: Vec<(&'static str, usize)>,
    pub by_source: BTreeMap<String, usize>,
    pub classifications_by_agency: BTreeMap<String, usize>,
    pub gaps_by_field: BTreeMap<String, usize>,
    pub watched: BTreeMap<String, usize>,
    pub agencies: usize,
    /// Per kind of value, how many carry an `effective_from` to the day, to the month, to the
    /// year only, and none (data/README.md "Dates").
    pub dates: BTreeMap<&'static str, [usize; 4]>,
    pub attribution_strings: usize,
    pub entities: super::entity_stats::EntityStats,
}

impl Stats {
    pub fn of(dataset: &Dataset) -> Stats {
        let mut s = Stats {
            compounds: dataset.compounds.len(),
            agencies: dataset.agencies.len(),
            attribution_strings: dataset.agencies.iter().map(|a| a.attributions.len()).sum(),
            entities: super::entity_stats::EntityStats::of(dataset),
            ..Stats::default()
        };
        let mut coverage = vec![0usize; FIELDS.len()];
        for r in dataset.compounds.values() {
            let kind = r.hq_id.kind.code();
            *s.by_kind.entry(kind.to_string()).or_default() += 1;
            let category = r.category.clone().unwrap_or_else(|| "(none)".into());
            *s.by_category.entry(category).or_default() += 1;
            let value = serde_json::to_value(r).unwrap_or_default();
            for (i, field) in FIELDS.iter().enumerate() {
                if present(&value, field) {
                    coverage[i] += 1;
                }
            }
            for id in referenced_sources(&value) {
                *s.by_source.entry(id).or_default() += 1;
            }
            for c in &r.regulatory.classifications {
                *s.classifications_by_agency
                    .entry(c.agency.clone())
                    .or_default() += 1;
            }
            count_dates(&mut s.dates, r);
            for g in &r.data_gaps {
                *s.gaps_by_field.entry(g.field.clone()).or_default() += 1;
            }
            if !r.watch_class.is_none() {
                let key = serde_json::to_value(r.watch_class)
                    .ok()
                    .and_then(|v| v.as_str().map(String::from))
                    .unwrap_or_default();
                *s.watched.entry(key).or_default() += 1;
            }
        }
        s.field_coverage = FIELDS.iter().copied().zip(coverage).collect();
        s
    }
}

fn count_dates(dates: &mut BTreeMap<&'static str, [usize; 4]>, r: &CompoundRecord) {
    let mut add = |kind: &'static str, precision: Option<DatePrecision>| {
        let column = match precision {
            Some(DatePrecision::Day) => 0,
            Some(DatePrecision::Month) => 1,
            Some(DatePrecision::Year) => 2,
            None => 3,
        };
        dates.entry(kind).or_default()[column] += 1;
    };
    for c in &r.regulatory.classifications {
        add("classifications", c.date_precision);
    }
    for g in &r.safety.ghs {
        add("ghs entries", g.date_precision);
    }
    for d in &r.dose_response {
        add("reference values", d.date_precision);
    }
    let l = &r.regulatory.listings;
    for p in l.iarc_group.iter().map(|i| i.date_precision) {
        add("listings", p);
    }
    for p in l.prop65.iter().map(|p| p.date_precision) {
        add("listings", p);
    }
    for p in l.eu_svhc.iter().map(|s| s.date_precision) {
        add("listings", p);
    }
}

fn present(value: &Value, field: &str) -> bool {
    match value.pointer(&format!("/{}", field.replace('.', "/"))) {
        None | Some(Value::Null) => false,
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
        Some(_) => true,
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pct = |n: usize| {
            if self.compounds == 0 {
                0.0
            } else {
                100.0 * n as f64 / self.compounds as f64
            }
        };
        writeln!(f, "compounds: {}", self.compounds)?;
        for (k, n) in &self.by_kind {
            writeln!(f, "  kind {k:<4} {n:>6}")?;
        }
        writeln!(f, "by category:")?;
        for (k, n) in &self.by_category {
            writeln!(f, "  {k:<28} {n:>6}")?;
        }
        writeln!(f, "coverage per field (compounds with a value):")?;
        for (field, n) in &self.field_coverage {
            writeln!(f, "  {field:<50} {n:>6}  {:>5.1}%", pct(*n))?;
        }
        writeln!(
            f,
            "effective_from per value (day / month / year only / none):"
        )?;
        for (kind, [day, month, year, none]) in &self.dates {
            writeln!(f, "  {kind:<28} {day:>6} {month:>6} {year:>6} {none:>6}")?;
        }
        writeln!(f, "compounds per source:")?;
        for (src, n) in &self.by_source {
            writeln!(f, "  {src:<40} {n:>6}")?;
        }
        writeln!(f, "classifications per agency:")?;
        for (a, n) in &self.classifications_by_agency {
            writeln!(f, "  {a:<40} {n:>6}")?;
        }
        writeln!(f, "data gaps per field:")?;
        for (g, n) in &self.gaps_by_field {
            writeln!(f, "  {g:<50} {n:>6}")?;
        }
        writeln!(f, "watched compounds:")?;
        for (w, n) in &self.watched {
            writeln!(f, "  {w:<20} {n:>6}")?;
        }
        writeln!(
            f,
            "agencies: {} with {} attribution strings",
            self.agencies, self.attribution_strings
        )?;
        write!(f, "{}", self.entities)
    }
}
