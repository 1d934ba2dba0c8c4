//! Daily quotas: one counter per bucket per UTC day, counted atomically in the store
//! before a request is served, and the rate-limit headers every response carries.

use std::time::Duration;

use chrono::{DateTime, Days, NaiveTime, Utc};
use saferef_generator::render::pages::docs::{UPGRADE_TIERS, UPGRADE_TRIAL};
use warp::http::header::{HeaderMap, HeaderName, HeaderValue};

use crate::caller::Caller;
use crate::store::keyspace;
use crate::store::{Store, StoreError};
use crate::tier::Tier;

/// Counters are kept this long after their day, as the usage history of a key.
const HISTORY_DAYS: u64 = 35;

/// The state of a caller's quota after a request was counted (or refused).
#[derive(Debug, Clone, Copy)]
pub struct Usage {
    pub limit: Option<u64>,
    /// Requests counted today, this one included; 0 for a caller without a limit, whose count
    /// no answer states and the request does not wait for (`Store::count_behind`).
    pub used: u64,
    pub admitted: bool,
    /// Next 00:00 UTC.
    pub reset: DateTime<Utc>,
}

fn next_midnight(now: DateTime<Utc>) -> DateTime<Utc> {
    (now.date_naive() + Days::new(1))
        .and_time(NaiveTime::MIN)
        .and_utc()
}

/// Counts `cost` requests for the caller unless that passes the daily limit.
pub async fn admit(
    store: &Store,
    caller: &Caller,
    cost: u64,
    now: DateTime<Utc>,
) -> Result<Usage, StoreError> {
    let limit = caller.tier.daily_limit();
    let reset = next_midnight(now);
    let ttl =
        (reset - now).to_std().unwrap_or_default() + Duration::from_secs(HISTORY_DAYS * 86_400);
    let key = keyspace::quota(&caller.bucket, now.date_naive());
    let Some(limit) = limit else {
        store.count_behind(&key, cost, ttl).await?;
        return Ok(Usage {
            limit,
            used: 0,
            admitted: true,
            reset,
        });
    };
    let result = store.admit(&key, cost, Some(limit), ttl).await?;
    Ok(Usage {
        limit: Some(limit),
        used: result.count,
        admitted: result.admitted,
        reset,
    })
}

/// Where a caller near or over a limit can get more.
fn upgrade_url(tier: Tier) -> &'static str {
    match tier {
        Tier::Public => UPGRADE_TRIAL,
        _ => UPGRADE_TIERS,
    }
}

/// The names of the quota headers, made once.
const X_API_TIER: HeaderName = HeaderName::from_static("x-api-tier");
const X_RATELIMIT_LIMIT: HeaderName = HeaderName::from_static("x-ratelimit-limit");
const X_RATELIMIT_REMAINING: HeaderName = HeaderName::from_static("x-ratelimit-remaining");
const X_RATELIMIT_RESET: HeaderName = HeaderName::from_static("x-ratelimit-reset");
const RATELIMIT_POLICY: HeaderName = HeaderName::from_static("ratelimit-policy");
const RATELIMIT: HeaderName = HeaderName::from_static("ratelimit");
const RETRY_AFTER: HeaderName = HeaderName::from_static("retry-after");
const X_UPGRADE_URL: HeaderName = HeaderName::from_static("x-upgrade-url");
const X_USAGE_WARNING: HeaderName = HeaderName::from_static("x-usage-warning");

/// The tier's header alone: an answer not counted.
pub fn tier_header(caller: &Caller, h: &mut HeaderMap) {
    h.insert(X_API_TIER, HeaderValue::from_static(caller.tier.name()));
}

/// Puts the headers (and the IETF RateLimit pair) into `h`; enterprise callers get only the
/// tier. Numbers are written straight into their values, names and fixed values are static.
pub fn headers(caller: &Caller, usage: &Usage, now: DateTime<Utc>, h: &mut HeaderMap) {
    tier_header(caller, h);
    let Some(limit) = usage.limit else {
        return;
    };
    let remaining = limit.saturating_sub(usage.used);
    let seconds = (usage.reset - now).num_seconds().max(0);
    h.insert(X_RATELIMIT_LIMIT, HeaderValue::from(limit));
    h.insert(X_RATELIMIT_REMAINING, HeaderValue::from(remaining));
    h.insert(
        X_RATELIMIT_RESET,
        HeaderValue::from(usage.reset.timestamp_millis()),
    );
    let formatted = |v: String| HeaderValue::from_str(&v).expect("digits and quotes");
    h.insert(
        RATELIMIT_POLICY,
        formatted(format!("\"daily\";q={limit};w=86400")),
    );
    h.insert(
        RATELIMIT,
        formatted(format!("\"daily\";r={remaining};t={seconds}")),
    );
    let share = usage.used as f64 / limit as f64;
    let upgrade = HeaderValue::from_static(upgrade_url(caller.tier));
    if !usage.admitted {
        h.insert(RETRY_AFTER, HeaderValue::from(seconds));
        h.insert(X_UPGRADE_URL, upgrade);
    } else if share >= 0.8 {
        let level = if share >= 0.95 { 95 } else { 80 };
        h.insert(
            X_USAGE_WARNING,
            formatted(format!(
                "{level}% of the daily quota used ({} of {limit})",
                usage.used
            )),
        );
        h.insert(X_UPGRADE_URL, upgrade);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caller(tier: Tier) -> Caller {
        Caller {
            tier,
            bucket: keyspace::bucket_ip("1"),
            key: None,
            plan: None,
        }
    }

    #[test]
    fn headers_warn_at_80_and_95_percent_and_refusals_say_when_to_retry() {
        let now = "2026-11-21T23:00:00Z".parse().unwrap();
        let usage = |used, admitted| Usage {
            limit: Some(500),
            used,
            admitted,
            reset: next_midnight(now),
        };
        let h = |u: Usage| {
            let mut h = HeaderMap::new();
            headers(&caller(Tier::Public), &u, now, &mut h);
            h
        };
        let get = |hs: &HeaderMap, n: &str| hs.get(n).map(|v| v.to_str().unwrap().to_string());
        let low = h(usage(10, true));
        assert_eq!(get(&low, "x-ratelimit-remaining").unwrap(), "490");
        assert_eq!(get(&low, "x-ratelimit-reset").unwrap(), "1795305600000");
        assert!(get(&low, "x-usage-warning").is_none());
        assert!(
            get(&h(usage(400, true)), "x-usage-warning")
                .unwrap()
                .starts_with("80%")
        );
        assert!(
            get(&h(usage(480, true)), "x-usage-warning")
                .unwrap()
                .starts_with("95%")
        );
        let refused = h(usage(500, false));
        assert_eq!(get(&refused, "retry-after").unwrap(), "3600");
        assert_eq!(get(&refused, "x-upgrade-url").unwrap(), "/api/docs#keys");
        let enterprise = Usage {
            limit: None,
            ..usage(1, true)
        };
        let mut h = HeaderMap::new();
        headers(&caller(Tier::Enterprise), &enterprise, now, &mut h);
        assert_eq!(h.len(), 1);
        assert_eq!(h["x-api-tier"], "enterprise");
    }
}
