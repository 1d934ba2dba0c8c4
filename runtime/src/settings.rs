//! Command-line arguments and environment, validated into `Settings` before anything runs.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Parser, Subcommand};

#[derive(Debug, Clone, Parser)]
#[command(name = "saferef-serve", version, about = "The saferef HTTP service")]
pub struct Settings {
    /// Address to listen on.
    #[arg(
        long,
        env = "SAFEREF_LISTEN",
        default_value = "127.0.0.1:8080",
        global = true
    )]
    pub listen: SocketAddr,
    /// The dataset directory.
    #[arg(long, default_value = "data", global = true)]
    pub data: PathBuf,
    /// The generated static tree (built from --data when missing or stale).
    #[arg(long, default_value = "site", global = true)]
    pub site: PathBuf,
    /// Embedded store and mail outbox.
    #[arg(long, default_value = "var", global = true)]
    pub state: PathBuf,
    /// Use Redis at this URL instead of the embedded store (several runtimes may share it).
    #[arg(long, env = "SAFEREF_REDIS_URL", global = true, hide_env_values = true)]
    pub redis_url: Option<String>,
    /// The git revision served (reported by /api/health).
    #[arg(long, env = "SAFEREF_COMMIT", default_value = "unknown")]
    pub commit: String,
    /// Token for admin-only checks.
    #[arg(long, env = "SAFEREF_ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,
    /// Shared secret of the marketplace gateway (its requests are bucketed per subscriber).
    #[arg(long, env = "SAFEREF_MARKETPLACE_PROXY_SECRET", hide_env_values = true)]
    pub marketplace_secret: Option<String>,
    /// Read the client IP from this header's last hop (only behind a proxy that sets it).
    #[arg(long, env = "SAFEREF_TRUSTED_PROXY_HEADER")]
    pub trusted_proxy_header: Option<String>,
    /// `production` turns on strict mode (the secret key is required).
    #[arg(long = "env", env = "SAFEREF_ENV", default_value = "development")]
    pub environment: String,
    /// Base64 of 32 bytes: encrypts webhook signing secrets at rest.
    #[arg(long, env = "SAFEREF_SECRET_KEY", hide_env_values = true)]
    pub secret_key: Option<String>,
    /// Tests only: allow webhook URLs on loopback over http (1/0, true/false, yes/no, on/off).
    #[arg(long, env = "SAFEREF_WEBHOOK_ALLOW_LOOPBACK", default_value = "false",
          num_args = 0..=1, default_missing_value = "true")]
    pub webhook_allow_loopback: String,
    /// Tests only: webhook retry delays in milliseconds, comma-separated (e.g. `3000`).
    #[arg(long, env = "SAFEREF_WEBHOOK_RETRY_DELAYS")]
    pub webhook_retry_delays: Option<String>,
    /// Seconds a webhook delivery stays leased to the instance attempting it; renewed while
    /// the attempt runs, so it only lapses (and another instance takes over) when that
    /// instance died.
    #[arg(long, env = "SAFEREF_WEBHOOK_LEASE_SECS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(2..=600))]
    pub webhook_lease_secs: u64,
    /// SMTP server for account mail (else .eml files in <state>/outbox/).
    #[arg(long, env = "SAFEREF_SMTP_URL", hide_env_values = true)]
    pub smtp_url: Option<String>,
    /// Sender address of account mail.
    #[arg(
        long,
        env = "SAFEREF_MAIL_FROM",
        default_value = "saferef <no-reply@saferef.invalid>"
    )]
    pub mail_from: String,
    /// Secret that signs the payment provider's notifications.
    #[arg(long, env = "SAFEREF_PAYMENT_WEBHOOK_SECRET", hide_env_values = true)]
    pub payment_webhook_secret: Option<String>,
    /// Base URL of the payment provider's API (customer deletion on erasure).
    #[arg(long, env = "SAFEREF_PAYMENT_API_URL")]
    pub payment_api_url: Option<String>,
    /// Bearer token for the payment provider's API.
    #[arg(long, env = "SAFEREF_PAYMENT_API_KEY", hide_env_values = true)]
    pub payment_api_key: Option<String>,
    /// Which provider price buys which tier: `price_id=developer,price_id=pro`.
    #[arg(long, env = "SAFEREF_PAYMENT_PRICES", default_value = "")]
    pub payment_prices: String,
    /// Origins whose pages may read the runtime's answers: `*` (any, the default) or a
    /// comma-separated list such as `https://shop.example,https://app.example`.
    #[arg(long, env = "SAFEREF_CORS_ORIGINS", default_value = "*")]
    pub cors_origins: String,
    /// The Netlify site whose CDN keeps the runtime's public answers: a reload purges the
    /// previous release's from it (with `SAFEREF_NETLIFY_PURGE_TOKEN`).
    #[arg(long, env = "SAFEREF_NETLIFY_SITE_ID")]
    pub netlify_site_id: Option<String>,
    /// A Netlify personal access token allowed to purge that site's cache.
    #[arg(long, env = "SAFEREF_NETLIFY_PURGE_TOKEN", hide_env_values = true)]
    pub netlify_purge_token: Option<String>,
    /// Netlify's API.
    #[arg(
        long,
        env = "SAFEREF_NETLIFY_API_URL",
        default_value = "https://api.netlify.com"
    )]
    pub netlify_api_url: String,
    /// Log lines queued for the log writer before new ones are dropped (and counted) rather
    /// than waited for (RELIABILITY.md, "Logging").
    #[arg(long, env = "SAFEREF_LOG_QUEUE", default_value_t = crate::log_writer::DEFAULT_CAPACITY,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=16_777_216))]
    pub log_queue: usize,
    #[command(subcommand)]
    pub command: Option<Command>,
}

impl Settings {
    /// The request-path configuration, or every problem that stops the service from starting.
    pub fn config(&self) -> Result<crate::Config, Vec<String>> {
        let mut problems = Vec::new();
        let secret_key = reported(
            &mut problems,
            self.secret_key
                .as_deref()
                .map(crate::config::SecretKey::from_base64)
                .transpose(),
            None,
        );
        let payment_prices = reported(
            &mut problems,
            crate::config::parse_prices(&self.payment_prices),
            Vec::new(),
        );
        let webhook_retry_delays = reported(
            &mut problems,
            self.webhook_retry_delays
                .as_deref()
                .map(crate::config::parse_retry_delays)
                .transpose(),
            None,
        );
        let webhook_allow_loopback = reported(
            &mut problems,
            crate::config::parse_bool(&self.webhook_allow_loopback)
                .map_err(|e| format!("SAFEREF_WEBHOOK_ALLOW_LOOPBACK: {e}")),
            false,
        );
        let cors_origins = reported(
            &mut problems,
            crate::config::CorsOrigins::parse(&self.cors_origins),
            crate::config::CorsOrigins::Any,
        );
        let production = reported(&mut problems, self.production(), false);
        let netlify_purge = reported(&mut problems, self.netlify_purge(), None);
        let config = crate::Config {
            marketplace_secret: self.marketplace_secret.clone(),
            trusted_proxy_header: self.trusted_proxy_header.clone(),
            production,
            secret_key,
            webhook_allow_loopback,
            webhook_retry_delays,
            webhook_lease: Some(std::time::Duration::from_secs(self.webhook_lease_secs)),
            state_dir: self.state.clone(),
            smtp_url: self.smtp_url.clone(),
            mail_from: self.mail_from.clone(),
            payment_webhook_secret: self.payment_webhook_secret.clone(),
            payment_api_url: self.payment_api_url.clone(),
            payment_api_key: self.payment_api_key.clone(),
            payment_prices,
            cors_origins,
            netlify_purge,
        };
        problems.extend(config.check());
        if problems.is_empty() {
            Ok(config)
        } else {
            Err(problems)
        }
    }

    fn production(&self) -> Result<bool, String> {
        match self.environment.as_str() {
            "production" => Ok(true),
            "development" | "test" => Ok(false),
            other => Err(format!(
                "SAFEREF_ENV must be production, development or test, not {other:?}"
            )),
        }
    }

    fn netlify_purge(&self) -> Result<Option<crate::config::NetlifyPurge>, String> {
        match (&self.netlify_site_id, &self.netlify_purge_token) {
            (Some(site_id), Some(token)) => Ok(Some(crate::config::NetlifyPurge {
                api_url: self.netlify_api_url.clone(),
                site_id: site_id.clone(),
                token: token.clone(),
            })),
            (None, None) => Ok(None),
            _ => Err(
                "SAFEREF_NETLIFY_SITE_ID and SAFEREF_NETLIFY_PURGE_TOKEN go together: set both or neither"
                    .to_string(),
            ),
        }
    }
}

/// A setting's value, or `fallback` with its problem added to `problems`: every problem is
/// reported at once, so parsing goes on past the first.
fn reported<T>(problems: &mut Vec<String>, setting: Result<T, String>, fallback: T) -> T {
    setting.unwrap_or_else(|e| {
        problems.push(e);
        fallback
    })
}

#[derive(Debug, Clone, Subcommand)]
pub enum Command {
    /// Manage API keys in the configured store.
    Keys {
        #[command(subcommand)]
        action: KeysAction,
    },
}

#[derive(Debug, Clone, Subcommand)]
pub enum KeysAction {
    /// Create a key; prints it (once) on the last line of stdout.
    Create {
        #[arg(long, value_parser = ["developer", "pro", "enterprise"])]
        tier: String,
        #[arg(long)]
        email: Option<String>,
    },
    /// List keys (display prefix, tier, state; never the key).
    List,
    /// Deactivate the keys whose display prefix starts with PREFIX.
    Revoke { prefix: String },
}
