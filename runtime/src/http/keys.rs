//! Key self-service: `GET /api/keys/status`, `GET /api/keys/usage?days=` and
//! `POST /api/keys/rotate`, for the key that makes the request.

use chrono::{Days, Utc};
use saferef_generator::render::error::ApiError;
use saferef_generator::render::runtime_answers::keys::{
    Day, KeyRotated, KeyStatus, KeyUsage, Usage,
};
use saferef_generator::render::{Cache, Rendered};

use super::Params;
use crate::AppState;
use crate::caller::Caller;
use crate::keys::{self, KeyRecord};
use crate::store::keyspace;

fn record(caller: &Caller) -> Result<&KeyRecord, ApiError> {
    caller.key.as_deref().ok_or_else(|| {
        ApiError::unauthorized("send the API key this concerns in X-API-Key or api_key")
    })
}

fn store_error(e: crate::store::StoreError) -> ApiError {
    tracing::error!("store: {e}");
    ApiError::unavailable("the key store is unavailable; retry shortly")
}

/// GET /api/keys/status
pub async fn status(state: &AppState, caller: &Caller) -> Result<Rendered, ApiError> {
    let r = record(caller)?;
    let today = keyspace::quota(&caller.bucket, Utc::now().date_naive());
    let requests = state
        .service
        .store
        .count(&today)
        .await
        .map_err(store_error)?;
    let limit = r.tier.daily_limit();
    let body = KeyStatus {
        prefix: &r.prefix,
        tier: r.tier,
        active: r.active,
        created: r.created.to_rfc3339(),
        expires_at: r.expires_at.map(|e| e.to_rfc3339()),
        payment_status: r.payment_status.as_deref(),
        billing: &r.billing,
        usage_today: Usage {
            requests,
            limit,
            remaining: limit.map(|l| l.saturating_sub(requests)),
        },
    };
    Ok(Rendered::json(200, &body, Cache::NoStore))
}

/// GET /api/keys/usage?days= (1 to 30, default 7), newest day first.
pub async fn usage(state: &AppState, caller: &Caller, q: &Params) -> Result<Rendered, ApiError> {
    let r = record(caller)?;
    let days: u64 = match q.get("days").map(str::parse::<u64>) {
        None => 7,
        Some(Ok(n)) if (1..=30).contains(&n) => n,
        _ => {
            return Err(ApiError::bad_request(
                "days must be an integer from 1 to 30",
            ));
        }
    };
    let today = Utc::now().date_naive();
    let mut out = Vec::new();
    for back in 0..days {
        let Some(date) = today.checked_sub_days(Days::new(back)) else {
            break;
        };
        let requests = state
            .service
            .store
            .count(&keyspace::quota(&caller.bucket, date))
            .await
            .map_err(store_error)?;
        out.push(Day {
            date: date.to_string(),
            requests,
        });
    }
    let total = out.iter().map(|d| d.requests).sum();
    Ok(Rendered::json(
        200,
        &KeyUsage {
            prefix: r.prefix.clone(),
            days: out,
            total,
        },
        Cache::NoStore,
    ))
}

/// POST /api/keys/rotate: a new key of the same account (tier, e-mail, expiry, usage,
/// watchlist, webhooks), shown once; the old one stops working at once.
pub async fn rotate(state: &AppState, caller: &Caller) -> Result<Rendered, ApiError> {
    let old = record(caller)?.clone();
    let replaced = keys::replace(&state.service.store, &old)
        .await
        .map_err(store_error)?;
    // A concurrent rotation replaced this key first: it no longer works.
    let (key, new) =
        replaced.ok_or_else(|| ApiError::unauthorized("invalid or inactive API key"))?;
    Ok(Rendered::json(
        201,
        &KeyRotated {
            key: &key,
            prefix: &new.prefix,
            tier: new.tier,
            expires_at: new.expires_at.map(|e| e.to_rfc3339()),
            replaced: &old.prefix,
            note: "store this key now: it is shown only once; the previous key no longer works",
        },
        Cache::NoStore,
    ))
}
