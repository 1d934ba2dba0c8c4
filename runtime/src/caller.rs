//! Who is calling: an API key (`X-API-Key` or `api_key`), a marketplace subscriber vouched
//! for by the gateway's proxy secret, or the public (bucketed per client IP). Resolved once
//! per request, before routing.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use chrono::Utc;
use saferef_generator::render::error::ApiError;
use warp::http::HeaderMap;
use warp::http::header::HeaderName;

use crate::AppState;
use crate::accounts;
use crate::keys::{self, KeyRecord};
use crate::store::keyspace;
use crate::tier::{Plan, Tier};

#[derive(Debug, Clone)]
pub struct Caller {
    pub tier: Tier,
    /// Quota bucket: `acct:<account>` (survives rotation), `mkt:<user>` or `ip:<address>` (an
    /// IPv6 client's /64).
    pub bucket: String,
    /// The key's record as held in memory (`keys::lookup_shared`), shared, not copied.
    pub key: Option<Arc<KeyRecord>>,
    pub plan: Option<Plan>,
}

impl Caller {
    pub fn batch_cap(&self) -> usize {
        self.plan.map_or(self.tier.batch_cap(), Plan::batch_cap)
    }
}

/// Resolves the caller; a key that is given but unknown, revoked or expired is a 401.
pub async fn resolve(
    state: &AppState,
    headers: &HeaderMap,
    query_key: Option<&str>,
    remote: Option<SocketAddr>,
) -> Result<Caller, ApiError> {
    // On every request: the name made once, not parsed per lookup.
    const X_API_KEY: HeaderName = HeaderName::from_static("x-api-key");
    let given = headers
        .get(X_API_KEY)
        .and_then(|v| v.to_str().ok())
        .or(query_key)
        .map(str::trim)
        .filter(|k| !k.is_empty());
    if let Some(key) = given {
        let record = keys::lookup_shared(&state.service.store, key)
            .await
            .map_err(|e| {
                tracing::error!("store: {e}");
                ApiError::unavailable("the key store is unavailable; retry shortly")
            })?;
        return match record {
            Some(r) if r.usable(Utc::now()) => Ok(Caller {
                tier: r.tier,
                bucket: keyspace::bucket_account(r.account_id()),
                key: Some(r),
                plan: None,
            }),
            Some(r) if r.active => Err(ApiError::unauthorized(
                "this API key has expired; subscribe or request a new trial at POST /api/keys/trial",
            )),
            _ => Err(ApiError::unauthorized("invalid or inactive API key")),
        };
    }
    if let Some(caller) = marketplace(state, headers) {
        return Ok(caller);
    }
    Ok(Caller {
        tier: Tier::Public,
        bucket: keyspace::bucket_ip(&client_ip(state, headers, remote)),
        key: None,
        plan: None,
    })
}

/// A gateway request: the proxy secret must match (compared in constant time), else the
/// request falls back to per-IP public bucketing.
fn marketplace(state: &AppState, headers: &HeaderMap) -> Option<Caller> {
    let secret = state.service.config.marketplace_secret.as_deref()?;
    let header = |n: &str| headers.get(n).and_then(|v| v.to_str().ok());
    let given = header("x-marketplace-proxy-secret")?;
    if !accounts::same_secret(given.as_bytes(), secret.as_bytes()) {
        return None;
    }
    let user = header("x-marketplace-user").filter(|u| !u.is_empty() && u.len() <= 200)?;
    let plan = Plan::parse(header("x-marketplace-subscription")?)?;
    Some(Caller {
        tier: plan.tier(),
        bucket: keyspace::bucket_marketplace(user),
        key: None,
        plan: Some(plan),
    })
}

/// The socket's address, or the configured trusted proxy header's last hop; an IPv6 client is
/// its /64 network (`2001:db8:1:2::/64`), the block one subscriber is given, so one host
/// cannot take a fresh public quota per address.
fn client_ip(state: &AppState, headers: &HeaderMap, remote: Option<SocketAddr>) -> String {
    let from_proxy = state
        .service
        .config
        .trusted_proxy_header
        .as_deref()
        .and_then(|name| {
            headers
                .get(name)?
                .to_str()
                .ok()?
                .rsplit(',')
                .next()?
                .trim()
                .parse::<IpAddr>()
                .ok()
        });
    from_proxy
        .or(remote.map(|r| r.ip()))
        .map_or_else(|| "unknown".to_string(), client_network)
}

/// An IPv4 address as it is; an IPv6 one as its /64 (a v4-mapped one as its IPv4 address).
fn client_network(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let network = u128::from(v6) & !((1u128 << 64) - 1);
                format!("{}/64", std::net::Ipv6Addr::from(network))
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ipv6_client_is_its_64_network() {
        let net = |s: &str| client_network(s.parse().unwrap());
        assert_eq!(net("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
        assert_eq!(net("2001:db8:1:2::ffff"), "2001:db8:1:2::/64");
        assert_eq!(net("2001:db8:1:3::1"), "2001:db8:1:3::/64");
        assert_eq!(net("::ffff:192.0.2.7"), "192.0.2.7");
        assert_eq!(net("192.0.2.7"), "192.0.2.7");
    }
}
