//! `GET /api/health`: the service's state; `check=integrity` adds the dataset's and the
//! served tree's integrity, `check=monitor` (administrators) the process's figures.

use serde::Serialize;

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Health<'a> {
    /// ok, or degraded when the dataset loaded with problems.
    #[schemars(extend("enum" = ["ok", "degraded"]))]
    pub status: &'a str,
    pub version: &'a str,
    /// RFC 3339, seconds.
    #[schemars(extend("format" = "date-time"))]
    pub timestamp: String,
    pub platform: &'a str,
    pub commit: &'a str,
    pub dataset_version: &'a str,
    /// `check=integrity`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub integrity: Option<Integrity>,
    /// `check=monitor`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub monitor: Option<Monitor>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Integrity {
    pub compounds: usize,
    pub problems: usize,
    /// Whether the static tree's files match its manifest (null when no tree is served, or
    /// until the first check has finished).
    pub site_matches_manifest: Option<bool>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Monitor {
    pub uptime_seconds: u64,
    /// The store's backend.
    #[schemars(extend("enum" = ["embedded", "redis"]))]
    pub store: &'static str,
    pub store_reachable: bool,
    pub resident_memory_bytes: Option<u64>,
    /// Webhook deliveries waiting in the queue (null when the store does not answer).
    pub webhook_queue_depth: Option<usize>,
    /// Log lines dropped since start because the log queue was full.
    pub log_lines_dropped: u64,
}
