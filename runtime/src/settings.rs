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
    #[command(subcommand)]
    pub command: Option<Command>,
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
