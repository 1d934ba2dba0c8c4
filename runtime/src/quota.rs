//! Daily quotas: one counter per bucket per UTC day, counted atomically in the store
//! before a request is served, and the rate-limit headers every response carries.

use std::time::Duration;

use chrono::{DateTime, Days, NaiveTime, Utc};
use saferef_generator::render::pages::docs::{UPGRADE_TIERS, UPGRADE_TRIAL};

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
    let result = store
        .admit(
            &keyspace::quota(&caller.bucket, now.date_naive()),
            cost,
            limit,
            ttl,
        )
        .await?;
    Ok(Usage {
        limit,
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

/// The headers (and the IETF RateLimit pair); enterprise callers get only the tier.
pub fn headers(caller: &Caller, usage: &Usage, now: DateTime<Utc>) -> Vec<(&'static str, String)> {
    let mut out = vec![("x-api-tier", caller.tier.name().to_string())];
    let Some(limit) = usage.limit else {
        return out;
    };
    let remaining = limit.saturating_sub(usage.used);
    let seconds = (usage.reset - now).num_seconds().max(0);
    out.push(("x-ratelimit-limit", limit.to_string()));
    out.push(("x-ratelimit-remaining", remaining.to_string()));
    out.push((
        "x-ratelimit-reset",
        usage.reset.timestamp_millis().to_string(),
    ));
    out.push(("ratelimit-policy", format!("\"daily\";q={limit};w=86400")));
    out.push(("ratelimit", format!("\"daily\";r={remaining};t={seconds}")));
    let share = usage.used as f64 / limit as f64;
    if !usage.admitted {
        out.push(("retry-after", seconds.to_string()));
        out.push(("x-upgrade-url", upgrade_url(caller.tier).to_string()));
    } else if share >= 0.8 {
        let level = if share >= 0.95 { 95 } else { 80 };
        out.push((
            "x-usage-warning",
            format!(
                "{level}% of the daily quota used ({} of {limit})",
                usage.used
            ),
        ));
        out.push(("x-upgrade-url", upgrade_url(caller.tier).to_string()));
    }
    out
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
        let h = |u: Usage| headers(&caller(Tier::Public), &u, now);
        let get = |hs: &[(&str, String)], n: &str| {
            hs.iter().find(|(k, _)| *k == n).map(|(_, v)| v.clone())
        };
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
        assert_eq!(
            headers(&caller(Tier::Enterprise), &enterprise, now),
            vec![("x-api-tier", "enterprise".to_string())]
        );
    }
}
