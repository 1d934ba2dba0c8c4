//! Command-line arguments and environment, validated into `Settings` before anything runs.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Parser;

#[derive(Debug, Clone, Parser)]
#[command(name = "saferef-serve", version, about = "The saferef HTTP service")]
pub struct Settings {
    /// Address to listen on.
    #[arg(long, env = "SAFEREF_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// The dataset directory.
    #[arg(long, default_value = "data")]
    pub data: PathBuf,
    /// The generated static tree.
    #[arg(long, default_value = "site")]
    pub site: PathBuf,
    /// Embedded store and mail outbox.
    #[arg(long, default_value = "var")]
    pub state: PathBuf,
    /// The git revision served (reported by /api/health).
    #[arg(long, env = "SAFEREF_COMMIT", default_value = "unknown")]
    pub commit: String,
    /// Token for admin-only checks.
    #[arg(long, env = "SAFEREF_ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,
}
