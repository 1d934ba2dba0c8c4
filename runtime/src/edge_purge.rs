//! Dropping a release's answers from Netlify's CDN after a reload. The CDN keeps a public
//! answer of the runtime until the next midnight UTC, tagged `saferef-release-<fingerprint>`
//! (`http/edge_cache.rs`); a deploy drops them all, but a reload without one would leave the
//! previous release's answers served. So once an instance serves the next release it asks
//! Netlify's purge API to drop the previous release's tag (ARCHITECTURE.md, Decisions, "Edge
//! cache"). Every instance of a fleet asks once it reloaded: the last one asks after every
//! instance serves the next release, so no answer of the previous one is left kept.

use std::time::Duration;

use crate::config::NetlifyPurge;
use crate::http::RELEASE_TAG;

/// Netlify's answer must come within this long; the reload does not wait on it otherwise.
const TIMEOUT: Duration = Duration::from_secs(10);

/// Asks Netlify to drop every answer its CDN keeps under the release `fingerprint`'s tag.
pub async fn release(purge: &NetlifyPurge, fingerprint: &str) -> Result<(), String> {
    let url = format!("{}/api/v1/purge", purge.api_url.trim_end_matches('/'));
    let client = reqwest::Client::builder()
        .timeout(TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| e.to_string())?;
    let body = serde_json::json!({
        "site_id": purge.site_id,
        "cache_tags": [format!("{RELEASE_TAG}{fingerprint}")],
    });
    let res = client
        .post(&url)
        .bearer_auth(&purge.token)
        .json(&body)
        .send()
        .await
        .map_err(|e| e.without_url().to_string())?;
    match res.status().is_success() {
        true => Ok(()),
        false => Err(format!("status {}", res.status())),
    }
}
