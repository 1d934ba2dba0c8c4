//! `GET /api/freshness`: how recently the records were reviewed and how old the
//! deploy is. A summary is computed at start from the served build (`source: build`) and again
//! every day at 06:00 UTC into the store (`source: redis`, the spec's name for the daily
//! cache, whichever backend holds it); with neither (no built tree), 503.

use std::sync::Arc;

use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use saferef_generator::model::Dataset;
use saferef_generator::render::error::ApiError;
pub use saferef_generator::render::runtime_answers::freshness::{Ages, Entities, Summary, Totals};
use saferef_generator::render::{Cache, Rendered};

use crate::store::StoreError;
use crate::store::keyspace;
use crate::{AppState, Live, jobs};

/// Where the daily summary of `dataset` is kept: per dataset version, so that instances
/// serving different releases (during a rollout) each read the summary of their own.
pub fn store_key(dataset: &Dataset) -> String {
    keyspace::freshness(&dataset.fingerprint)
}

/// The summary of `dataset` as of `now`, for a build made at `built_at`.
pub fn summarize(
    dataset: &Dataset,
    built_at: Option<&str>,
    now: DateTime<Utc>,
    source: &str,
) -> Summary {
    let today = now.date_naive();
    let mut compounds = Ages::default();
    let mut regulatory_stale = 0;
    for r in dataset.compounds.values() {
        compounds.add(&r.meta.last_reviewed, today);
        let old = NaiveDate::parse_from_str(&r.meta.last_reviewed, "%Y-%m-%d")
            .map_or(true, |d| (today - d).num_days() > 182);
        if old && !r.regulatory.classifications.is_empty() {
            regulatory_stale += 1;
        }
    }
    let mut materials = Ages::default();
    for m in dataset.materials.values() {
        materials.add(&m.meta.last_reviewed, today);
    }
    let mut products = Ages::default();
    for p in dataset.products.values() {
        products.add(&p.meta.last_reviewed, today);
    }
    let all = [&compounds, &materials, &products];
    let deploy_age_days = built_at
        .and_then(|b| DateTime::parse_from_rfc3339(b).ok())
        .map(|b| (now - b.with_timezone(&Utc)).num_days());
    Summary {
        snapshot_generated_at: built_at.map(str::to_string),
        last_checked_at: Some(now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)),
        deploy_age_days,
        deploy_stale: deploy_age_days.map(|d| d >= 7),
        totals: Totals {
            entities: all.iter().map(|a| a.total).sum(),
            current: all.iter().map(|a| a.current).sum(),
            stale_or_worse: all.iter().map(|a| a.stale + a.very_stale + a.never).sum(),
        },
        entities: Entities {
            compounds: Some(compounds),
            materials: Some(materials),
            products: Some(products),
        },
        regulatory_stale_count: regulatory_stale,
        source: source.into(),
    }
}

/// GET /api/freshness
pub async fn freshness(state: &AppState) -> Result<Rendered, ApiError> {
    let cached = match state
        .service
        .store
        .get(&store_key(&state.release.dataset))
        .await
    {
        Ok(v) => v.and_then(|b| serde_json::from_slice::<Summary>(&b).ok()),
        Err(e) => {
            tracing::warn!("store: {e}; serving the build-time freshness summary");
            None
        }
    };
    let summary = cached
        .or_else(|| state.release.freshness.clone())
        .ok_or_else(|| {
            ApiError::unavailable(
                "no freshness summary yet: the runtime serves no built tree and the daily summary (06:00 UTC) has not run",
            )
        })?;
    Ok(Rendered::json(200, &summary, Cache::Freshness))
}

/// Recomputes the summary into the store every day at 06:00 UTC, on one instance of the
/// fleet: the others serve what it stored.
pub async fn daily(live: Arc<Live>) {
    loop {
        let now = Utc::now();
        let six = now
            .date_naive()
            .and_time(NaiveTime::from_hms_opt(6, 0, 0).unwrap_or_default())
            .and_utc();
        let next = if now < six {
            six
        } else {
            six + chrono::Duration::days(1)
        };
        tokio::time::sleep((next - now).to_std().unwrap_or_default()).await;
        if let Err(e) = refresh(&live.current(), Utc::now()).await {
            tracing::warn!("store: {e}; the daily freshness summary was not saved");
        }
    }
}

/// The daily run for `now`'s date: computes and stores the summary when this instance claims
/// the run (once per day and dataset version across instances); whether it did.
pub async fn refresh(state: &AppState, now: DateTime<Utc>) -> Result<bool, StoreError> {
    let period = format!("{}:{}", now.date_naive(), state.release.dataset.fingerprint);
    if !jobs::claim(&state.service.store, "freshness", &period, jobs::DAY).await? {
        return Ok(false);
    }
    let summary = summarize(
        &state.release.dataset,
        state.release.built_at.as_deref(),
        now,
        "redis",
    );
    let json = serde_json::to_vec(&summary).expect("summaries serialize");
    state
        .service
        .store
        .put(&store_key(&state.release.dataset), &json, None)
        .await?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_fall_into_their_bands() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 21).unwrap();
        let mut a = Ages::default();
        for d in [
            "2026-11-01",
            "2026-08-01",
            "2026-04-01",
            "2025-01-01",
            "",
            "not a date",
        ] {
            a.add(d, today);
        }
        assert_eq!(
            a,
            Ages {
                total: 6,
                current: 1,
                aging: 1,
                stale: 1,
                very_stale: 1,
                never: 2
            }
        );
    }
}
