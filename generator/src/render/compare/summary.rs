//! The summary of a one-context comparison (key differences and shared traits), and the
//! sentence helpers both modes write with.

use serde::Serialize;

use super::compared::{Compared, label, split};
use super::dose::DoseComparison;
use super::hazards::{HazardComparison, iarc_label};
use super::regulatory::RegulatoryComparison;
use super::single::ExposureSources;
use crate::aggregate::signals::fmt_num;
use crate::model::Dataset;
use crate::model::ids::CompoundId;
use crate::model::vocab::RiskLevel;

#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct Summary {
    key_differences: Vec<String>,
    shared_traits: Vec<String>,
}

/// "a, b and c".
pub(super) fn listed<S: AsRef<str>>(items: &[S]) -> String {
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == items.len() { " and " } else { ", " });
        }
        out.push_str(item.as_ref());
    }
    out
}

/// How the summary names every compared compound.
pub(super) fn every(n: usize) -> &'static str {
    if n == 2 { "Both" } else { "All" }
}

pub(super) fn all_equal<T: PartialEq>(values: &[T]) -> bool {
    values.windows(2).all(|w| w[0] == w[1])
}

/// The summary as it is written.
struct Notes<'c, 'd> {
    all: &'c [Compared<'d>],
    differences: Vec<String>,
    shared: Vec<String>,
}

impl Notes<'_, '_> {
    /// One property of every compound: a shared trait when all have the same value, a
    /// difference naming each compound's value when they differ, nothing when none has one.
    fn property<T: PartialEq>(
        &mut self,
        what: &str,
        values: &[Option<T>],
        shared: impl FnOnce(&T) -> String,
        each: impl Fn(Option<&T>) -> String,
    ) {
        match values.first() {
            Some(Some(v)) if all_equal(values) => self.shared.push(shared(v)),
            _ if !all_equal(values) => {
                let mut line = format!("{what}: ");
                for (i, (c, v)) in self.all.iter().zip(values).enumerate() {
                    if i > 0 {
                        line.push_str("; ");
                    }
                    line.push_str(c.name());
                    line.push(' ');
                    line.push_str(&each(v.as_ref()));
                }
                self.differences.push(line);
            }
            _ => {}
        }
    }

    fn names(&self, ids: &[&CompoundId]) -> String {
        let names: Vec<&str> = ids
            .iter()
            .filter_map(|id| self.all.iter().find(|c| c.id() == *id))
            .map(Compared::name)
            .collect();
        listed(&names)
    }
}

pub(super) fn summarise(
    dataset: &Dataset,
    all: &[Compared<'_>],
    context: &str,
    regulatory: &RegulatoryComparison<'_>,
    hazards: &HazardComparison<'_>,
    exposure: &ExposureSources<'_>,
    dose: &DoseComparison<'_>,
) -> Summary {
    let every = every(all.len());
    let mut notes = Notes {
        all,
        differences: Vec::new(),
        shared: Vec::new(),
    };
    notes.tiers_and_hazards(label(dataset, context), context, every);
    notes.ghs_codes(hazards, every);
    notes.regulators(regulatory, every);
    notes.endocrine(every);
    notes.use_and_fate(every);
    notes.exposure(exposure, every);
    notes.doses(dose);
    Summary {
        key_differences: notes.differences,
        shared_traits: notes.shared,
    }
}

/// The summary's sections, in the order they are written.
impl Notes<'_, '_> {
    /// The tier in the context, the deciding hazard and the IARC group.
    fn tiers_and_hazards(&mut self, label: &str, context: &str, every: &str) {
        let all = self.all;
        let tiers: Vec<Option<RiskLevel>> = all
            .iter()
            .map(|c| c.result(context).map(|r| r.risk_level))
            .collect();
        self.property(
            &format!("Risk for {label}"),
            &tiers,
            |t| format!("{every} are {} risk for {label}", t.words()),
            |t| t.map_or("not assessable", |t| t.words()).to_string(),
        );
        let classes: Vec<Option<&str>> = all.iter().map(|c| c.hazard_label(context)).collect();
        self.property(
            "Deciding hazard",
            &classes,
            |c| {
                format!(
                    "The deciding hazard of {} is {}",
                    every.to_lowercase(),
                    c.to_lowercase()
                )
            },
            |c| c.map_or("none".into(), |c| c.to_lowercase()),
        );
        let iarc: Vec<Option<&str>> = all.iter().map(|c| iarc_label(&c.record)).collect();
        self.property(
            "IARC",
            &iarc,
            |g| format!("{every} are in IARC Group {g}"),
            |g| g.map_or("not evaluated".into(), |g| format!("Group {g}")),
        );
    }

    /// The H codes all carry, and those only one carries.
    fn ghs_codes(&mut self, hazards: &HazardComparison<'_>, every: &str) {
        if !hazards.ghs.shared.is_empty() {
            self.shared
                .push(format!("{every} carry {}", listed(&hazards.ghs.shared)));
        }
        for (c, (_, codes)) in self.all.iter().zip(&hazards.ghs.unique.0) {
            if !codes.is_empty() {
                self.differences
                    .push(format!("Only {} carries {}", c.name(), listed(codes)));
            }
        }
    }

    /// The agencies that classify all, and each that classifies only some.
    fn regulators(&mut self, regulatory: &RegulatoryComparison<'_>, every: &str) {
        if !regulatory.agreement.classify_all.is_empty() {
            self.shared.push(format!(
                "{every} are classified by {}",
                listed(&regulatory.agreement.classify_all)
            ));
        }
        for p in &regulatory.agreement.classify_some {
            let others: Vec<&CompoundId> = self
                .all
                .iter()
                .map(Compared::id)
                .filter(|id| !p.compounds.contains(id))
                .collect();
            let line = format!(
                "{} classifies {} but not {}",
                p.agency,
                self.names(&p.compounds),
                self.names(&others)
            );
            self.differences.push(line);
        }
    }

    /// The agencies with endocrine-disruption findings on every compound.
    fn endocrine(&mut self, every: &str) {
        let endocrine: Vec<&[String]> = self
            .all
            .iter()
            .map(|c| c.profile.endocrine.as_slice())
            .collect();
        let (agencies, _) = split(&endocrine);
        if !agencies.is_empty() {
            self.shared.push(format!(
                "{every} have endocrine-disruption findings ({})",
                listed(&agencies)
            ));
        }
    }

    /// The use class and the bioaccumulation potential (log Kow).
    fn use_and_fate(&mut self, every: &str) {
        let all = self.all;
        let kinds: Vec<Option<&str>> = all.iter().map(|c| c.record.kind.as_deref()).collect();
        self.property(
            "Use class",
            &kinds,
            |k| format!("{every} have the use class {}", k.replace('_', " ")),
            |k| k.map_or("none".into(), |k| k.replace('_', " ")),
        );
        let kow: Vec<Option<f64>> = all
            .iter()
            .map(|c| {
                let fate = &c.record.properties.environmental_fate;
                fate.log_kow.as_ref().map(|m| m.value)
            })
            .collect();
        self.property(
            "log Kow (bioaccumulation potential)",
            &kow,
            |k| format!("{every} have a log Kow of {}", fmt_num(*k)),
            |k| k.map_or("not available".into(), |k| fmt_num(*k)),
        );
    }

    /// Where all are found, and where only one is.
    fn exposure(&mut self, exposure: &ExposureSources<'_>, every: &str) {
        if !exposure.shared.is_empty() {
            self.shared.push(format!(
                "{every} are found in {}",
                listed(&exposure.shared).replace('_', " ")
            ));
        }
        for (c, (_, only)) in self.all.iter().zip(&exposure.unique.0) {
            if !only.is_empty() {
                self.differences.push(format!(
                    "Only {} is found in {}",
                    c.name(),
                    listed(only).replace('_', " ")
                ));
            }
        }
    }

    /// The oral LD50 ratios, and oral guidance values that only some have.
    fn doses(&mut self, dose: &DoseComparison<'_>) {
        for r in dose.ld50_ratios.iter().flatten() {
            let line = format!(
                "Oral LD50{}: {} is {} times that of {}",
                r.species.map_or(String::new(), |s| format!(" ({s})")),
                self.names(&[r.first]),
                fmt_num(r.ratio),
                self.names(&[r.second])
            );
            self.differences.push(line);
        }
        let guided: Vec<&CompoundId> = dose
            .guidance_values
            .0
            .iter()
            .filter(|(_, v)| v.is_some())
            .map(|(id, _)| *id)
            .collect();
        if !guided.is_empty() && guided.len() < self.all.len() {
            let line = format!(
                "Oral guidance values (ADI, TDI, TWI, ARfD) exist for {} only",
                self.names(&guided)
            );
            self.differences.push(line);
        }
    }
}
