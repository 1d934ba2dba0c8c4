//! How many compounds each context answers (`check --stats`): the share of all compounds, and
//! of the compounds that carry a classification, for which the rules find evidence
//! (METHODOLOGY.md, "How a tier is decided": a context without any finding is not answered).

use std::fmt;

use crate::model::Dataset;
use crate::model::contexts::Context;

#[derive(Debug, Default)]
pub struct Coverage {
    pub compounds: usize,
    /// Compounds with a current GHS classification or an agency classification.
    pub classified: usize,
    /// Compounds with an insecticide, organophosphate, neonicotinoid or acaricide use class
    /// (the classes the pollinator target names, `signals.rs`).
    pub insecticides: usize,
    /// Per context, in `Context::ALL` order: (context, answered, answered among classified,
    /// answered among insecticides).
    pub per_context: Vec<(Context, usize, usize, usize)>,
}

impl Coverage {
    pub fn of(dataset: &Dataset) -> Coverage {
        let mut per = [(0usize, 0usize, 0usize); Context::ALL.len()];
        let mut c = Coverage {
            compounds: dataset.compounds.len(),
            ..Coverage::default()
        };
        for r in dataset.compounds.values() {
            let classified = !r.regulatory.classifications.is_empty()
                || r.safety.ghs.iter().any(|g| g.is_current());
            let insecticide = r.use_classes.iter().any(|u| {
                matches!(
                    u.class.as_str(),
                    "insecticide" | "neonicotinoid" | "organophosphate" | "acaricide"
                )
            });
            c.classified += usize::from(classified);
            c.insecticides += usize::from(insecticide);
            let assessment = super::assess(r);
            for (i, context) in Context::ALL.iter().enumerate() {
                if assessment.get(context.name()).is_some() {
                    per[i].0 += 1;
                    per[i].1 += usize::from(classified);
                    per[i].2 += usize::from(insecticide);
                }
            }
        }
        c.per_context = Context::ALL
            .iter()
            .zip(per)
            .map(|(&context, (all, classified, insecticides))| {
                (context, all, classified, insecticides)
            })
            .collect();
        c
    }
}

fn pct(n: usize, of: usize) -> f64 {
    if of == 0 {
        0.0
    } else {
        100.0 * n as f64 / of as f64
    }
}

impl fmt::Display for Coverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "contexts answered (of {} compounds; of {} classified; of {} insecticides and acaricides):",
            self.compounds, self.classified, self.insecticides
        )?;
        for (context, all, classified, insecticides) in &self.per_context {
            writeln!(
                f,
                "  {:<28} {all:>6} {:>5.1}%  {classified:>6} {:>5.1}%  {insecticides:>4} {:>5.1}%",
                context.name(),
                pct(*all, self.compounds),
                pct(*classified, self.classified),
                pct(*insecticides, self.insecticides),
            )?;
        }
        Ok(())
    }
}
