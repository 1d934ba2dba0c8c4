//! `check --stats` for materials and products: counts per family and tier, empty
//! compositions, composition lines by share kind, cited sources by kind, and found-in coverage
//! from the tables and from the composition graph.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use super::citations::whole_work;
use crate::model::Dataset;
use crate::model::exposure;
use crate::model::ids::CompoundId;
use crate::model::material::Component;
use crate::model::record::SourceRef;

#[derive(Debug, Default)]
pub struct EntityStats {
    /// Family -> (materials, with an empty composition).
    pub families: BTreeMap<String, (usize, usize)>,
    /// Tier -> (products, with an empty composition).
    pub tiers: BTreeMap<String, (usize, usize)>,
    pub lines: usize,
    /// Lines naming a monomer bound as the chain's repeating units (no exposure derived).
    pub repeating_units: usize,
    /// Share kind (or `none`) -> composition lines.
    pub shares: BTreeMap<&'static str, usize>,
    /// Citation kind -> sources cited by materials and products.
    pub citations: BTreeMap<&'static str, usize>,
    pub compounds: usize,
    pub found_in_tables: usize,
    pub found_in_derived: usize,
    pub found_in_either: usize,
    /// Compounds a composition lists as substance (not only as repeating units).
    pub in_a_composition: usize,
    pub in_a_composition_with_found_in: usize,
    /// Compounds a composition names only as a polymer's repeating units.
    pub only_as_repeating_units: usize,
}

/// A cited source's kind, by what the citation names.
pub fn citation_kind(s: &SourceRef) -> &'static str {
    let t = s.title.as_str();
    let has = |words: &[&str]| words.iter().any(|w| t.contains(w));
    if whole_work(s).is_some() {
        "whole_work"
    } else if has(&["Ullmann", "Kirk-Othmer", "Encyclopedia of Polymer Science"]) {
        "encyclopedia_article"
    } else if has(&["Safety Data Sheet", "safety data sheet", " SDS"]) {
        "safety_data_sheet"
    } else if has(&[
        "Regulation",
        "Directive",
        "Decision",
        "CFR",
        "U.S.C.",
        "Public Law",
        " Act",
    ]) {
        "regulation"
    } else if has(&[
        "EN ",
        "ISO ",
        "ASTM",
        "BS ",
        "DIN ",
        "IUGS",
        "Aluminum Association",
    ]) {
        "standard"
    } else if s.url.contains("doi.org/10.") || t.contains("doi:10.") {
        "paper"
    } else {
        "agency_or_other_document"
    }
}

impl EntityStats {
    pub fn of(dataset: &Dataset) -> EntityStats {
        let mut s = EntityStats::default();
        let mut count_lines = |lines: &mut dyn Iterator<Item = &Component>| {
            for c in lines {
                s.lines += 1;
                s.repeating_units += usize::from(c.is_repeating_unit());
                *s.shares
                    .entry(c.share_kind.map_or("none", |k| k.as_str()))
                    .or_default() += 1;
            }
        };
        let mut in_composition: BTreeSet<&CompoundId> = BTreeSet::new();
        let mut as_units: BTreeSet<&CompoundId> = BTreeSet::new();
        for m in dataset.materials.values() {
            let c = &m.composition;
            let mut all = c.base.iter().chain(&c.additives).chain(&c.contaminants);
            for line in all.clone() {
                if let Some(r) = dataset.by_cas(&line.cas) {
                    let set = if line.is_repeating_unit() {
                        &mut as_units
                    } else {
                        &mut in_composition
                    };
                    set.insert(&r.hq_id);
                }
            }
            count_lines(&mut all);
            let e = s.families.entry(m.family.clone()).or_default();
            e.0 += 1;
            e.1 += usize::from(
                c.base.is_empty() && c.additives.is_empty() && c.contaminants.is_empty(),
            );
        }
        for p in dataset.products.values() {
            in_composition.extend(
                p.composition
                    .iter()
                    .filter_map(|c| dataset.by_cas(&c.cas))
                    .map(|r| &r.hq_id),
            );
            count_lines(&mut p.composition.iter());
            let e = s.tiers.entry(p.tier.clone()).or_default();
            e.0 += 1;
            e.1 += usize::from(p.composition.is_empty());
        }
        let refs = dataset
            .materials
            .values()
            .flat_map(|m| &m.sources)
            .chain(dataset.products.values().flat_map(|p| &p.sources));
        for r in refs {
            *s.citations.entry(citation_kind(r)).or_default() += 1;
        }
        let derived = exposure::derived(dataset);
        s.compounds = dataset.compounds.len();
        for r in dataset.compounds.values() {
            let table = !r.found_in.is_empty();
            let graph = derived.contains_key(&r.hq_id);
            s.found_in_tables += usize::from(table);
            s.found_in_derived += usize::from(graph);
            s.found_in_either += usize::from(table || graph);
        }
        s.in_a_composition = in_composition.len();
        s.only_as_repeating_units = as_units.difference(&in_composition).count();
        s.in_a_composition_with_found_in = in_composition
            .iter()
            .filter(|id| {
                derived.contains_key(*id)
                    || dataset
                        .compounds
                        .get(*id)
                        .is_some_and(|r| !r.found_in.is_empty())
            })
            .count();
        s
    }
}

impl fmt::Display for EntityStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = |m: &BTreeMap<String, (usize, usize)>| m.values().map(|v| v.0).sum::<usize>();
        writeln!(
            f,
            "materials: {} (family, count, empty composition)",
            total(&self.families)
        )?;
        for (k, (n, empty)) in &self.families {
            writeln!(f, "  {k:<4} {n:>6} {empty:>6}")?;
        }
        writeln!(
            f,
            "products: {} (tier, count, empty composition)",
            total(&self.tiers)
        )?;
        for (k, (n, empty)) in &self.tiers {
            writeln!(f, "  {k:<4} {n:>6} {empty:>6}")?;
        }
        writeln!(
            f,
            "composition lines: {} (by share kind); {} name a monomer as repeating units",
            self.lines, self.repeating_units
        )?;
        for (k, n) in &self.shares {
            let pct = if self.lines == 0 {
                0.0
            } else {
                100.0 * *n as f64 / self.lines as f64
            };
            writeln!(f, "  {k:<16} {n:>6}  {pct:>5.1}%")?;
        }
        writeln!(f, "entity citations by kind:")?;
        for (k, n) in &self.citations {
            writeln!(f, "  {k:<28} {n:>6}")?;
        }
        writeln!(
            f,
            "found_in: {} of {} compounds ({} from tables, {} derived from compositions); {} of {} compounds in a composition ({} more only as repeating units)",
            self.found_in_either,
            self.compounds,
            self.found_in_tables,
            self.found_in_derived,
            self.in_a_composition_with_found_in,
            self.in_a_composition,
            self.only_as_repeating_units
        )
    }
}
