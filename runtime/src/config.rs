//! Settings the request path and the background workers read, validated once at start
//! (`Config::check`): production refuses to run without the secret key or with test-only
//! switches. `Debug` never prints a secret.

use std::path::PathBuf;

use base64::Engine;

use crate::tier::Tier;

/// A 32-byte AES-256-GCM key (`SAFEREF_SECRET_KEY`, base64) for secrets kept in the store.
#[derive(Clone, PartialEq, Eq)]
pub struct SecretKey(pub [u8; 32]);

impl std::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretKey(..)")
    }
}

impl SecretKey {
    pub fn from_base64(text: &str) -> Result<SecretKey, String> {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(text.trim())
            .map_err(|e| format!("SAFEREF_SECRET_KEY is not base64: {e}"))?;
        let key: [u8; 32] = bytes.try_into().map_err(|b: Vec<u8>| {
            format!(
                "SAFEREF_SECRET_KEY must decode to 32 bytes, not {}",
                b.len()
            )
        })?;
        Ok(SecretKey(key))
    }
}

#[derive(Clone, Default)]
pub struct Config {
    /// `SAFEREF_MARKETPLACE_PROXY_SECRET`: gateway requests carrying it are bucketed per
    /// subscriber; without it every request is bucketed per key or IP.
    pub marketplace_secret: Option<String>,
    /// `SAFEREF_TRUSTED_PROXY_HEADER` (e.g. `X-Forwarded-For`): read the client IP from this
    /// header's last hop; only set it behind a proxy that writes it.
    pub trusted_proxy_header: Option<String>,
    /// `SAFEREF_ENV=production`: strict mode (see `check`).
    pub production: bool,
    /// `SAFEREF_SECRET_KEY`: encrypts webhook signing secrets at rest. Outside production,
    /// when unset, `main` takes the state directory's key (`local_key`).
    pub secret_key: Option<SecretKey>,
    /// `SAFEREF_WEBHOOK_ALLOW_LOOPBACK=1` (any `parse_bool` spelling): tests only; webhook
    /// URLs on loopback over http.
    pub webhook_allow_loopback: bool,
    /// `SAFEREF_WEBHOOK_RETRY_DELAYS` (milliseconds, comma-separated): tests only; replaces
    /// the webhook retry schedule (30 s .. 6 h) so retries happen within a test.
    pub webhook_retry_delays: Option<Vec<std::time::Duration>>,
    /// `SAFEREF_WEBHOOK_LEASE_SECS`: how long a delivery stays leased to the worker
    /// attempting it (renewed meanwhile); `None` is `webhooks::worker::LEASE`.
    pub webhook_lease: Option<std::time::Duration>,
    /// `--state`: the embedded store and the mail outbox (`<state>/outbox/`).
    pub state_dir: PathBuf,
    /// `SAFEREF_SMTP_URL` (e.g. `smtps://user:pass@host`); without it mail goes to the outbox.
    pub smtp_url: Option<String>,
    /// `SAFEREF_MAIL_FROM`: the sender of account mail.
    pub mail_from: String,
    /// `SAFEREF_PAYMENT_WEBHOOK_SECRET`: verifies `POST /api/billing/webhook`; without it the
    /// endpoint refuses every notification.
    pub payment_webhook_secret: Option<String>,
    /// `SAFEREF_PAYMENT_API_URL`: base URL of the payment provider's API (customer deletion).
    pub payment_api_url: Option<String>,
    /// `SAFEREF_PAYMENT_API_KEY`: bearer token for that API.
    pub payment_api_key: Option<String>,
    /// `SAFEREF_PAYMENT_PRICES` (`price_id=tier,...`): which provider price buys which tier.
    pub payment_prices: Vec<(String, Tier)>,
    /// `SAFEREF_CORS_ORIGINS`: which pages on other origins may read the runtime's answers.
    pub cors_origins: CorsOrigins,
    /// `SAFEREF_NETLIFY_SITE_ID` with `SAFEREF_NETLIFY_PURGE_TOKEN`: the Netlify site whose
    /// CDN keeps the runtime's public answers; a reload purges the previous release's
    /// (`edge_purge.rs`). `None`: only a deploy drops them.
    pub netlify_purge: Option<NetlifyPurge>,
}

/// Where and how a reload purges a release's answers from Netlify's CDN.
#[derive(Clone, PartialEq, Eq)]
pub struct NetlifyPurge {
    /// `SAFEREF_NETLIFY_API_URL`: Netlify's API (`https://api.netlify.com`).
    pub api_url: String,
    pub site_id: String,
    /// A personal access token of the site's team; never logged.
    pub token: String,
}

impl std::fmt::Debug for NetlifyPurge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetlifyPurge")
            .field("api_url", &self.api_url)
            .field("site_id", &self.site_id)
            .field("token", &"set")
            .finish()
    }
}

/// The origins whose pages may read the runtime's answers (`http::cors`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum CorsOrigins {
    /// `*`, the default: every origin. Keys travel in a header a page sets itself, never in a
    /// cookie, so no request carries credentials a browser would add on its own.
    #[default]
    Any,
    /// Exactly these origins (`scheme://host[:port]`, lower case).
    Listed(Vec<String>),
}

impl CorsOrigins {
    /// Parses `SAFEREF_CORS_ORIGINS`: `*`, or origins separated by commas.
    pub fn parse(text: &str) -> Result<CorsOrigins, String> {
        if text.trim() == "*" {
            return Ok(CorsOrigins::Any);
        }
        let origins = text
            .split(',')
            .map(str::trim)
            .filter(|o| !o.is_empty())
            .map(|o| {
                let (scheme, host) = o.split_once("://").unwrap_or_default();
                let plain = |c: char| c.is_ascii_alphanumeric() || "-.:[]".contains(c);
                if !matches!(scheme, "http" | "https") || host.is_empty() || !host.chars().all(plain)
                {
                    return Err(format!(
                        "SAFEREF_CORS_ORIGINS: {o:?} is not an origin like https://shop.example (scheme and host, no path), and `*` stands alone"
                    ));
                }
                Ok(o.to_ascii_lowercase())
            })
            .collect::<Result<Vec<_>, _>>()?;
        if origins.is_empty() {
            return Err("SAFEREF_CORS_ORIGINS is empty: give `*` or a list of origins".into());
        }
        Ok(CorsOrigins::Listed(origins))
    }

    /// Whether a page of `origin` (a request's `Origin` header) may read the answer.
    pub fn allows(&self, origin: &str) -> bool {
        match self {
            CorsOrigins::Any => true,
            CorsOrigins::Listed(list) => list.iter().any(|o| o.eq_ignore_ascii_case(origin)),
        }
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let set = |o: &Option<String>| if o.is_some() { "set" } else { "unset" };
        f.debug_struct("Config")
            .field("marketplace_secret", &set(&self.marketplace_secret))
            .field("trusted_proxy_header", &self.trusted_proxy_header)
            .field("production", &self.production)
            .field("secret_key", &self.secret_key.is_some())
            .field("webhook_allow_loopback", &self.webhook_allow_loopback)
            .field("webhook_retry_delays", &self.webhook_retry_delays)
            .field("webhook_lease", &self.webhook_lease)
            .field("state_dir", &self.state_dir)
            .field("smtp_url", &set(&self.smtp_url))
            .field("mail_from", &self.mail_from)
            .field("payment_webhook_secret", &set(&self.payment_webhook_secret))
            .field("payment_api_url", &self.payment_api_url)
            .field("payment_api_key", &set(&self.payment_api_key))
            .field("payment_prices", &self.payment_prices)
            .field("cors_origins", &self.cors_origins)
            .field("netlify_purge", &self.netlify_purge)
            .finish()
    }
}

impl Config {
    /// The problems that stop the service from starting, one line each.
    pub fn check(&self) -> Vec<String> {
        let mut problems = Vec::new();
        if self.production {
            if self.secret_key.is_none() {
                problems.push(
                    "SAFEREF_SECRET_KEY is required in production (base64 of 32 random bytes: `openssl rand -base64 32`)".to_string(),
                );
            }
            if self.webhook_allow_loopback {
                problems.push(
                    "SAFEREF_WEBHOOK_ALLOW_LOOPBACK is a test setting and is refused in production"
                        .to_string(),
                );
            }
            if self.webhook_retry_delays.is_some() {
                problems.push(
                    "SAFEREF_WEBHOOK_RETRY_DELAYS is a test setting and is refused in production"
                        .to_string(),
                );
            }
        }
        problems
    }

    /// The tier a provider price buys, if configured.
    pub fn tier_for_price(&self, price: &str) -> Option<Tier> {
        self.payment_prices
            .iter()
            .find(|(p, _)| p == price)
            .map(|(_, t)| *t)
    }
}

/// Parses a boolean setting in any of the usual spellings, case-insensitive: `1`/`0`,
/// `true`/`false`, `yes`/`no`, `on`/`off` (README, "Flags and environment"); anything else
/// is refused at start.
pub fn parse_bool(text: &str) -> Result<bool, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        _ => Err(format!(
            "{text:?} is not a boolean: use 1/0, true/false, yes/no or on/off"
        )),
    }
}

/// Parses `SAFEREF_WEBHOOK_RETRY_DELAYS`: `3000,60000` (milliseconds, one per retry).
pub fn parse_retry_delays(text: &str) -> Result<Vec<std::time::Duration>, String> {
    let delays = text
        .split(',')
        .map(|ms| {
            ms.trim()
                .parse::<u64>()
                .map(std::time::Duration::from_millis)
                .map_err(|_| format!("SAFEREF_WEBHOOK_RETRY_DELAYS: {ms:?} is not milliseconds"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(delays)
}

/// Parses `SAFEREF_PAYMENT_PRICES`: `price_123=developer,price_456=pro`.
pub fn parse_prices(text: &str) -> Result<Vec<(String, Tier)>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (price, tier) = pair
                .split_once('=')
                .ok_or_else(|| format!("SAFEREF_PAYMENT_PRICES: {pair:?} is not price=tier"))?;
            let tier = Tier::parse(tier.trim())
                .filter(|t| t.is_keyed())
                .ok_or_else(|| format!("SAFEREF_PAYMENT_PRICES: unknown tier in {pair:?}"))?;
            Ok((price.trim().to_string(), tier))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn production_needs_the_secret_key_and_refuses_loopback_webhooks() {
        let mut c = Config {
            production: true,
            webhook_allow_loopback: true,
            ..Config::default()
        };
        assert_eq!(c.check().len(), 2);
        c.secret_key = Some(SecretKey([7; 32]));
        c.webhook_allow_loopback = false;
        assert!(c.check().is_empty());
        assert!(!format!("{c:?}").contains('7'), "no secret in Debug");
    }

    #[test]
    fn booleans_take_the_usual_spellings_and_nothing_else() {
        for yes in ["1", "true", "TRUE", "Yes", "on", "ON", " true "] {
            assert_eq!(parse_bool(yes), Ok(true), "{yes:?}");
        }
        for no in ["0", "false", "False", "no", "NO", "off", "Off"] {
            assert_eq!(parse_bool(no), Ok(false), "{no:?}");
        }
        for bad in ["", "2", "y", "enable", "truee", "nope"] {
            assert!(
                parse_bool(bad)
                    .unwrap_err()
                    .contains("1/0, true/false, yes/no or on/off"),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn secret_keys_and_prices_parse_or_explain() {
        let b64 = base64::engine::general_purpose::STANDARD.encode([1u8; 32]);
        assert_eq!(SecretKey::from_base64(&b64).unwrap().0, [1; 32]);
        assert!(
            SecretKey::from_base64("AAAA")
                .unwrap_err()
                .contains("32 bytes")
        );
        assert!(SecretKey::from_base64("not base64!").is_err());
        let prices = parse_prices("price_a=developer, price_b=pro").unwrap();
        assert_eq!(prices[1], ("price_b".to_string(), Tier::Pro));
        assert!(parse_prices("price_a=gold").is_err());
        assert!(parse_prices("price_a").is_err());
        assert_eq!(CorsOrigins::parse(" * ").unwrap(), CorsOrigins::Any);
        let listed = CorsOrigins::parse("https://Shop.example, http://127.0.0.1:8000").unwrap();
        assert!(listed.allows("https://shop.example"));
        assert!(listed.allows("http://127.0.0.1:8000"));
        assert!(!listed.allows("http://127.0.0.1:8001"));
        assert!(!listed.allows("null"));
        for bad in [
            "",
            "shop.example",
            "https://shop.example/",
            "*, https://a.example",
        ] {
            assert!(CorsOrigins::parse(bad).is_err(), "{bad:?}");
        }
        let delays = parse_retry_delays("3000, 50").unwrap();
        assert_eq!(delays[1], std::time::Duration::from_millis(50));
        assert!(parse_retry_delays("3s").is_err());
        let c = Config {
            production: true,
            secret_key: Some(SecretKey([7; 32])),
            webhook_retry_delays: Some(delays),
            ..Config::default()
        };
        assert_eq!(
            c.check().len(),
            1,
            "the test retry schedule is refused in production"
        );
    }
}
