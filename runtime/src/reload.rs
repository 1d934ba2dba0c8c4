//! Loading a new release into a running instance (SIGHUP): the next dataset, tree and indexes
//! are built beside the served ones, on the blocking pool, then swapped in whole (`Live`).
//! Requests keep being answered from the old release until the swap, so a reload has no
//! downtime, and a release that fails to load leaves the old one served. The old release's
//! answers are then purged from the CDN when a Netlify site is configured (`edge_purge.rs`),
//! and the new release's events emitted, once across the fleet (`releases::emit`).

use std::path::PathBuf;
use std::sync::Arc;

use crate::{AppState, Live, Release, edge_purge, releases, startup};

/// What a reload did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reloaded {
    pub from: String,
    pub to: String,
    /// Release events this instance queued (0 when another instance emitted them).
    pub events: usize,
}

/// Where the releases come from: `--data` and `--site`.
#[derive(Debug, Clone)]
pub struct Source {
    pub data: PathBuf,
    pub site: PathBuf,
}

/// Loads the release at `source` and serves it from now on.
pub async fn reload(live: &Live, source: &Source) -> anyhow::Result<Reloaded> {
    let old = live.current();
    let source = source.clone();
    let release = tokio::task::spawn_blocking(move || -> anyhow::Result<Release> {
        let loaded = startup::load(&source.data, &source.site)?;
        Ok(Release::new(loaded.dataset, loaded.problems, loaded.site))
    })
    .await??;
    let next = Arc::new(AppState::new(old.service.clone(), release));
    live.replace(next.clone());
    // The CDN may keep the previous release's answers until midnight UTC: dropped now that
    // this instance no longer gives them (`edge_purge.rs`). A failed purge leaves them to the
    // next deploy, logged.
    if let Some(purge) = &next.service.config.netlify_purge {
        match edge_purge::release(purge, &old.release.dataset.fingerprint).await {
            Ok(()) => tracing::info!(
                fingerprint = %old.release.dataset.fingerprint,
                "the previous release's answers purged from the CDN"
            ),
            Err(e) => tracing::warn!("purging the previous release's answers from the CDN: {e}"),
        }
    }
    let emitted = releases::emit(&next).await?;
    Ok(Reloaded {
        from: old.release.dataset.fingerprint.clone(),
        to: next.release.dataset.fingerprint.clone(),
        events: emitted.events,
    })
}

/// Reloads on every SIGHUP until the process ends; a failed reload is logged and the served
/// release stays.
#[cfg(unix)]
pub async fn on_hangup(live: Arc<Live>, source: Source) {
    use tokio::signal::unix::{SignalKind, signal};
    let mut hangups = match signal(SignalKind::hangup()) {
        Ok(s) => s,
        Err(e) => {
            tracing::warn!("no SIGHUP handler ({e}): releases load only at start");
            return;
        }
    };
    while hangups.recv().await.is_some() {
        tracing::info!("SIGHUP: loading the release at {}", source.site.display());
        match reload(&live, &source).await {
            Ok(r) => tracing::info!(
                from_fingerprint = %r.from,
                to_fingerprint = %r.to,
                events = r.events,
                "release loaded"
            ),
            Err(e) => tracing::error!("reload failed, the previous release is still served: {e:#}"),
        }
    }
}
