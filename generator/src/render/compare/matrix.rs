//! Multi-context comparison: a compound by context risk matrix, the escalation from a
//! baseline context, each compound's most vulnerable contexts and the insights across them.

use serde::Serialize;
use serde_json::value::RawValue;

use super::DEFAULT_CONTEXT;
use super::compared::{Compared, Ident, InOrder, TierCell, cell, idents, label, rank};
use super::summary::{all_equal, every, listed};
use crate::model::Dataset;
use crate::model::contexts::Context;
use crate::model::vocab::RiskLevel;

#[derive(Serialize, schemars::JsonSchema)]
struct Ranked<'a> {
    #[schemars(with = "Context")]
    context: &'a str,
    risk_level: RiskLevel,
    confidence: f64,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct AcrossContexts<'a> {
    #[schemars(with = "Vec<Ident<'a>>")]
    compounds: Vec<&'a RawValue>,
    #[schemars(with = "Vec<Context>")]
    contexts: Vec<&'a str>,
    /// The context escalation is measured from: `human_adult` when compared, else the first.
    #[schemars(with = "Context")]
    baseline: &'a str,
    /// Compound -> context -> tier, or null where the context has no evidence.
    risk_matrix: InOrder<&'a str, InOrder<&'a str, Option<TierCell<'a>>>>,
    /// Compound -> context -> tier rank minus the baseline's (null when either is missing).
    escalation_factors: InOrder<&'a str, InOrder<&'a str, Option<i8>>>,
    /// Compound -> its assessable contexts, most vulnerable first.
    vulnerability_rankings: InOrder<&'a str, Vec<Ranked<'a>>>,
    cross_context_insights: Vec<String>,
}

pub(super) fn across_contexts<'a>(
    dataset: &'a Dataset,
    all: &'a [Compared<'a>],
    contexts: &[&'a str],
) -> AcrossContexts<'a> {
    let baseline = if contexts.contains(&DEFAULT_CONTEXT) {
        DEFAULT_CONTEXT
    } else {
        contexts[0]
    };
    let risk_matrix = Compared::each(all, |c| {
        InOrder(
            contexts
                .iter()
                .map(|ctx| (*ctx, c.result(ctx).map(|r| cell(r, false))))
                .collect(),
        )
    });
    let escalation_factors = Compared::each(all, |c| {
        let base = c.result(baseline).map(|r| rank(r.risk_level));
        InOrder(
            contexts
                .iter()
                .map(|ctx| {
                    let here = c.result(ctx).map(|r| rank(r.risk_level));
                    (*ctx, here.zip(base).map(|(h, b)| h - b))
                })
                .collect(),
        )
    });
    let vulnerability_rankings = Compared::each(all, |c| ranking(c, contexts));
    AcrossContexts {
        compounds: idents(all),
        contexts: contexts.to_vec(),
        baseline,
        risk_matrix,
        escalation_factors,
        vulnerability_rankings,
        cross_context_insights: insights(dataset, all, contexts, baseline),
    }
}

/// A compound's assessable contexts by tier, then confidence, then request order.
fn ranking<'a>(c: &'a Compared<'_>, contexts: &[&'a str]) -> Vec<Ranked<'a>> {
    let mut ranked: Vec<Ranked<'a>> = contexts
        .iter()
        .filter_map(|ctx| {
            c.result(ctx).map(|r| Ranked {
                context: ctx,
                risk_level: r.risk_level,
                confidence: r.confidence,
            })
        })
        .collect();
    // Stable: equal tiers and confidences keep the request's order.
    ranked.sort_by(|a, b| {
        b.risk_level
            .cmp(&a.risk_level)
            .then(b.confidence.total_cmp(&a.confidence))
    });
    ranked
}

fn insights(
    dataset: &Dataset,
    all: &[Compared<'_>],
    contexts: &[&str],
    baseline: &str,
) -> Vec<String> {
    let mut out = Vec::new();
    let base_label = label(dataset, baseline);
    for c in all {
        let ranked = ranking(c, contexts);
        let Some(top) = ranked.first() else {
            out.push(format!(
                "{} has no evidence for any of the compared contexts",
                c.name()
            ));
            continue;
        };
        let worst: Vec<&str> = ranked
            .iter()
            .filter(|r| r.risk_level == top.risk_level)
            .map(|r| label(dataset, r.context))
            .collect();
        if worst.len() == ranked.len() && ranked.len() == contexts.len() {
            out.push(format!(
                "{} is {} risk in every compared context",
                c.name(),
                top.risk_level.words()
            ));
        } else {
            let mut line = format!(
                "{} is most vulnerable for {} ({} risk)",
                c.name(),
                listed(&worst),
                top.risk_level.words()
            );
            if let Some(base) = c.result(baseline) {
                let up = rank(top.risk_level) - rank(base.risk_level);
                if up > 0 {
                    line.push_str(&format!(
                        ", {up} tier{} above {base_label}",
                        if up == 1 { "" } else { "s" }
                    ));
                }
            }
            out.push(line);
        }
        let missing: Vec<&str> = contexts
            .iter()
            .filter(|ctx| c.result(ctx).is_none())
            .map(|ctx| label(dataset, ctx))
            .collect();
        if !missing.is_empty() && missing.len() < contexts.len() {
            out.push(format!(
                "{} has no evidence for {}",
                c.name(),
                listed(&missing)
            ));
        }
    }
    for ctx in contexts {
        let tiers: Vec<Option<RiskLevel>> = all
            .iter()
            .map(|c| c.result(ctx).map(|r| r.risk_level))
            .collect();
        let ctx_label = label(dataset, ctx);
        let Some(top) = tiers.iter().flatten().max() else {
            continue;
        };
        if all_equal(&tiers) {
            out.push(format!(
                "For {ctx_label}, {} compounds are {} risk",
                every(all.len()).to_lowercase(),
                top.words()
            ));
            continue;
        }
        let leaders: Vec<&str> = all
            .iter()
            .zip(&tiers)
            .filter(|(_, t)| *t == &Some(*top))
            .map(|(c, _)| c.name())
            .collect();
        if leaders.len() < all.len() {
            out.push(format!(
                "For {ctx_label}, {} {} the highest risk ({})",
                listed(&leaders),
                if leaders.len() == 1 { "has" } else { "have" },
                top.words()
            ));
        }
    }
    out
}
