//! Multi-context comparison: a compound by context risk matrix, the escalation from a
//! baseline context, each compound's most vulnerable contexts and the insights across them.

use serde::Serialize;
use serde_json::value::RawValue;

use super::DEFAULT_CONTEXT;
use super::compared::{Compared, Ident, InOrder, TierCell, cell, idents, label, rank};
use super::summary::{all_equal, every, listed};
use crate::model::Dataset;
use crate::model::contexts::Context;
use crate::model::ids::CompoundId;
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
    risk_matrix: InOrder<&'a CompoundId, InOrder<&'a str, Option<TierCell<'a>>>>,
    /// Compound -> context -> tier rank minus the baseline's (null when either is missing).
    escalation_factors: InOrder<&'a CompoundId, InOrder<&'a str, Option<i8>>>,
    /// Compound -> its assessable contexts, most vulnerable first.
    vulnerability_rankings: InOrder<&'a CompoundId, Vec<Ranked<'a>>>,
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
    for c in all {
        compound_insights(dataset, c, contexts, baseline, &mut out);
    }
    for ctx in contexts {
        out.extend(context_insight(dataset, all, ctx));
    }
    out
}

/// Where one compound is most vulnerable (and how far above the baseline), and the compared
/// contexts it has no evidence for.
fn compound_insights(
    dataset: &Dataset,
    c: &Compared<'_>,
    contexts: &[&str],
    baseline: &str,
    out: &mut Vec<String>,
) {
    let ranked = ranking(c, contexts);
    let Some(top) = ranked.first() else {
        out.push(format!(
            "{} has no evidence for any of the compared contexts",
            c.name()
        ));
        return;
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
                    ", {up} tier{} above {}",
                    if up == 1 { "" } else { "s" },
                    label(dataset, baseline)
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

/// For one context: the tier all compounds share, or which have the highest; nothing when
/// none is assessed there or the leaders are all of them.
fn context_insight(dataset: &Dataset, all: &[Compared<'_>], ctx: &str) -> Option<String> {
    let tiers: Vec<Option<RiskLevel>> = all
        .iter()
        .map(|c| c.result(ctx).map(|r| r.risk_level))
        .collect();
    let ctx_label = label(dataset, ctx);
    let top = tiers.iter().flatten().max()?;
    if all_equal(&tiers) {
        return Some(format!(
            "For {ctx_label}, {} compounds are {} risk",
            every(all.len()).to_lowercase(),
            top.words()
        ));
    }
    let leaders: Vec<&str> = all
        .iter()
        .zip(&tiers)
        .filter(|(_, t)| *t == &Some(*top))
        .map(|(c, _)| c.name())
        .collect();
    (leaders.len() < all.len()).then(|| {
        format!(
            "For {ctx_label}, {} {} the highest risk ({})",
            listed(&leaders),
            if leaders.len() == 1 { "has" } else { "have" },
            top.words()
        )
    })
}
