//! Release events : the newest release of
//! the loaded changelog as one event per entry, emitted to the webhooks once across every
//! instance that shares the store.
//!
//! Once means: a release marked done is never emitted again; while it is not done, one
//! instance at a time holds a lease on it, and each entry is marked before it is queued, so an
//! emitter that dies part-way is followed (after the lease lapses) by one that queues only the
//! entries still unmarked.

use saferef_generator::model::Dataset;
use saferef_generator::model::changelog::Entry;
use serde_json::Value;

use std::time::Duration;

use crate::AppState;
use crate::store::StoreError;
use crate::store::keyspace;
use crate::webhooks;

/// How long an emitter holds a release before another instance may take over.
const LEASE: Duration = Duration::from_secs(120);

/// One event of a release: the webhook event kind, the compound it is about (for
/// per-compound subscriptions) and the payload's `data`.
#[derive(Debug, Clone, PartialEq)]
pub struct ReleaseEvent {
    /// The changelog entry's id.
    pub id: String,
    pub kind: &'static str,
    pub compound_id: Option<String>,
    pub data: Value,
}

/// The newest release in the changelog: the release of the entry with the latest date, the
/// later-written one on a tie.
pub fn newest(dataset: &Dataset) -> Option<&str> {
    dataset
        .changelog
        .iter()
        .enumerate()
        .max_by(|(i, a), (j, b)| a.date.cmp(&b.date).then(i.cmp(j)))
        .map(|(_, e)| e.release.as_str())
}

/// One event per entry of the newest release, in changelog order.
pub fn events(dataset: &Dataset) -> Vec<ReleaseEvent> {
    let Some(release) = newest(dataset) else {
        return Vec::new();
    };
    dataset
        .changelog
        .iter()
        .filter(|e| e.release == release)
        .map(|e| ReleaseEvent {
            id: e.id.clone(),
            kind: e.kind.as_str(),
            compound_id: e.compound_id.clone(),
            data: data(e),
        })
        .collect()
}

/// The payload data: the entry without its text diff (receivers get the field changes; the
/// readable diff is in the changelog feed).
fn data(e: &Entry) -> Value {
    let mut v = serde_json::to_value(e).unwrap_or_default();
    if let Some(obj) = v.as_object_mut() {
        obj.remove("text_diff");
    }
    v
}

/// What one call of `emit` did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Emitted {
    /// Events of the release this call queued (0 when done before or held by another).
    pub events: usize,
    /// Webhook deliveries those events queued.
    pub deliveries: usize,
}

/// Emits the newest release's events to the webhooks, once across all instances.
pub async fn emit(state: &AppState) -> Result<Emitted, StoreError> {
    let mut out = Emitted::default();
    let Some(release) = newest(&state.release.dataset) else {
        return Ok(out);
    };
    let store = &state.service.store;
    let done = keyspace::release_emitted(release);
    if store.get(&done).await?.is_some() {
        return Ok(out);
    }
    let lease = keyspace::release_lease(release);
    if !store.put_if_absent(&lease, b"1", Some(LEASE)).await? {
        return Ok(out);
    }
    for event in events(&state.release.dataset) {
        if store
            .put_if_absent(&keyspace::release_event(&event.id), b"1", None)
            .await?
        {
            out.deliveries +=
                webhooks::emit(state, event.kind, event.compound_id.as_deref(), event.data).await?;
            out.events += 1;
        }
    }
    let at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    store.put(&done, at.as_bytes(), None).await?;
    store.delete(&lease).await?;
    Ok(out)
}
