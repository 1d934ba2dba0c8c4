//! The SSRF guard: webhook URLs are https and reach public addresses only. Checked when a
//! webhook is registered and again before every attempt (`check_url`), and at connect time
//! (`GuardedResolver` drops refused addresses from what reqwest connects to), so a name that
//! re-resolves to an internal address (DNS rebinding) is never reached.
//!
//! The test-only `SAFEREF_WEBHOOK_ALLOW_LOOPBACK` lets through loopback addresses, and http
//! for URLs that reach only loopback; private, link-local and metadata ranges stay refused.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::time::Duration;

use reqwest::Url;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};

/// Longest URL accepted.
const MAX_URL: usize = 2048;
const RESOLVE_TIMEOUT: Duration = Duration::from_secs(5);

/// Why `ip` may not be reached, or `None` when it may.
pub fn refused(ip: IpAddr, allow_loopback: bool) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => refused_v4(v4, allow_loopback),
        IpAddr::V6(v6) => refused_v6(v6, allow_loopback),
    }
}

fn refused_v4(ip: Ipv4Addr, allow_loopback: bool) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    let reason = match (a, b, c) {
        (127, ..) if allow_loopback => return None,
        (127, ..) => "loopback",
        (0, ..) => "unspecified",
        (10, ..) | (192, 168, _) => "private",
        (172, 16..=31, _) => "private",
        (100, 64..=127, _) => "shared (CGNAT)",
        (169, 254, _) => "link-local (cloud metadata)",
        (192, 0, 0) => "IETF protocol",
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => "documentation",
        (192, 88, 99) => "6to4 relay",
        (198, 18..=19, _) => "benchmarking",
        (224..=239, ..) => "multicast",
        (240..=255, ..) => "reserved or broadcast",
        _ => return None,
    };
    Some(reason)
}

fn refused_v6(ip: Ipv6Addr, allow_loopback: bool) -> Option<&'static str> {
    if ip == Ipv6Addr::LOCALHOST {
        return (!allow_loopback).then_some("loopback");
    }
    if let Some(v4) = ip.to_ipv4_mapped() {
        return refused_v4(v4, allow_loopback);
    }
    let s = ip.segments();
    let embedded = |hi: u16, lo: u16| Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo));
    let reason = match s {
        [0, 0, 0, 0, 0, 0, ..] => "unspecified or IPv4-compatible",
        // NAT64 and 6to4 carry an IPv4 address: judge that one.
        [0x64, 0xff9b, 0, 0, 0, 0, hi, lo] => return refused_v4(embedded(hi, lo), false),
        [0x2002, hi, lo, ..] => return refused_v4(embedded(hi, lo), false),
        [0x64, 0xff9b, 1, ..] => "NAT64 local-use",
        [0x100, 0, 0, 0, ..] => "discard-only",
        [0x2001, 0xdb8, ..] => "documentation",
        [0x2001, x, ..] if x < 0x200 => "IETF protocol (Teredo)",
        [x, ..] if x & 0xfff0 == 0x3ff0 => "documentation",
        [x, ..] if x & 0xfe00 == 0xfc00 => "unique local (private)",
        [x, ..] if x & 0xffc0 == 0xfe80 => "link-local",
        [x, ..] if x & 0xffc0 == 0xfec0 => "site-local",
        [x, ..] if x & 0xff00 == 0xff00 => "multicast",
        _ => return None,
    };
    Some(reason)
}

/// Checks a webhook URL: its shape, its scheme, and every address its host resolves to.
pub async fn check_url(raw: &str, allow_loopback: bool) -> Result<Url, String> {
    if raw.len() > MAX_URL {
        return Err(format!("url is longer than {MAX_URL} characters"));
    }
    let url = Url::parse(raw).map_err(|e| format!("url is not a valid URL: {e}"))?;
    let http = match url.scheme() {
        "https" => false,
        "http" if allow_loopback => true,
        _ => return Err("webhook URLs must use https".to_string()),
    };
    let host = url
        .host_str()
        .filter(|h| !h.is_empty())
        .ok_or("url has no host")?;
    let port = url.port_or_known_default().ok_or("url has no port")?;
    // The URL parser writes IP hosts canonically (IPv6 in brackets); a name never parses.
    let literal = host.trim_start_matches('[').trim_end_matches(']').parse();
    let addresses: Vec<IpAddr> = match literal {
        Ok(ip) => vec![ip],
        Err(_) => resolve(host, port).await?,
    };
    for ip in &addresses {
        if let Some(reason) = refused(*ip, allow_loopback) {
            return Err(format!(
                "{host} resolves to {ip}, a {reason} address: webhook URLs must reach public addresses"
            ));
        }
        if http && !ip.is_loopback() {
            return Err("webhook URLs must use https".to_string());
        }
    }
    Ok(url)
}

async fn resolve(host: &str, port: u16) -> Result<Vec<IpAddr>, String> {
    let found = tokio::time::timeout(RESOLVE_TIMEOUT, tokio::net::lookup_host((host, port)))
        .await
        .map_err(|_| format!("resolving {host} timed out"))?
        .map_err(|e| format!("cannot resolve {host}: {e}"))?;
    let addresses: Vec<IpAddr> = found.map(|a| a.ip()).collect();
    if addresses.is_empty() {
        return Err(format!("{host} has no address"));
    }
    Ok(addresses)
}

/// reqwest's resolver for deliveries: resolves as the system does and keeps only the
/// addresses `refused` allows, so the connection goes to a checked address.
#[derive(Debug, Clone, Copy)]
pub struct GuardedResolver {
    pub allow_loopback: bool,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let allow_loopback = self.allow_loopback;
        let host = name.as_str().to_string();
        Box::pin(async move {
            let found = resolve(&host, 0).await?;
            let allowed: Vec<_> = found
                .into_iter()
                .filter(|ip| refused(*ip, allow_loopback).is_none())
                .map(|ip| std::net::SocketAddr::new(ip, 0))
                .collect();
            if allowed.is_empty() {
                return Err(format!("{host} resolves to no public address").into());
            }
            Ok(Box::new(allowed.into_iter()) as Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(ip: &str, loopback: bool) -> Option<&'static str> {
        refused(ip.parse().unwrap(), loopback)
    }

    #[test]
    fn internal_ranges_are_refused_and_public_ones_allowed() {
        for ip in [
            "127.0.0.1",
            "0.0.0.0",
            "10.0.0.1",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "100.64.0.1",
            "169.254.169.254",
            "192.0.2.1",
            "198.51.100.7",
            "203.0.113.9",
            "224.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "ff02::1",
            "2001:db8::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a00:1",
            "2002:c0a8:101::1",
        ] {
            assert!(check(ip, false).is_some(), "{ip} must be refused");
        }
        for ip in [
            "93.184.216.34",
            "1.1.1.1",
            "172.32.0.1",
            "100.128.0.1",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
        ] {
            assert_eq!(check(ip, false), None, "{ip} is public");
        }
    }

    #[test]
    fn the_test_setting_opens_loopback_only() {
        for ip in ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"] {
            assert_eq!(check(ip, true), None, "{ip}");
        }
        for ip in [
            "10.0.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "fc00::1",
            "0.0.0.0",
        ] {
            assert!(check(ip, true).is_some(), "{ip} stays refused");
        }
    }

    #[tokio::test]
    async fn urls_are_checked_by_scheme_and_resolved_address() {
        for (url, why) in [
            ("http://example.com/hook", "https"),
            ("ftp://example.com/", "https"),
            ("https://127.0.0.1/hook", "loopback"),
            ("https://[::1]:8443/", "loopback"),
            ("https://2130706433/", "loopback"),
            ("https://localhost/", "loopback"),
            ("https://10.0.0.1/", "private"),
            ("https://[fc00::1]/", "private"),
            ("https://169.254.169.254/latest/meta-data", "metadata"),
            ("not a url", "valid URL"),
        ] {
            let err = check_url(url, false).await.unwrap_err();
            assert!(err.contains(why), "{url}: {err}");
        }
        assert!(check_url("http://127.0.0.1:9/x", true).await.is_ok());
        assert!(check_url("http://localhost:9/x", true).await.is_ok());
        assert!(check_url("https://192.168.1.1/", true).await.is_err());
        assert!(check_url("http://93.184.216.34/", true).await.is_err());
    }

    #[tokio::test]
    async fn the_connect_time_resolver_drops_refused_addresses() {
        let name: Name = "localhost".parse().unwrap();
        let refused = GuardedResolver {
            allow_loopback: false,
        }
        .resolve(name)
        .await;
        assert!(refused.is_err());
        let name: Name = "localhost".parse().unwrap();
        let allowed: Vec<_> = GuardedResolver {
            allow_loopback: true,
        }
        .resolve(name)
        .await
        .unwrap()
        .collect();
        assert!(!allowed.is_empty() && allowed.iter().all(|a| a.ip().is_loopback()));
    }
}
