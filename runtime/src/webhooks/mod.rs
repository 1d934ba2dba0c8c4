//! Webhooks : accounts register https URLs for data-change
//! events; `emit` queues one delivery per matching webhook in the store, and the worker
//! delivers it signed (`X-Service-Signature`), retrying with backoff.
//!
//! Store layout (every key is the account's or transient):
//! - `wh:<account>:<webhook id>` — the webhook (`registry.rs`), signing secret sealed;
//! - `whd:<delivery id>` and the sorted set `whq` (by due time) — the queue (`queue.rs`);
//! - `whlease:<delivery id>` — a worker's lease on a delivery (renewed while it is attempted,
//!   `worker.rs`);
//! - `whlog:<account>:<webhook id>:<ms>:<delivery id>:<attempt>` — the log (`log.rs`, 30 days);
//! - `whlock:<account>` — held for a moment while a registration checks the tier's cap.
//!
//! **Invariant:** a signing secret is in the store only sealed under `SAFEREF_SECRET_KEY`,
//! and is never logged; without that key webhooks cannot be registered (503).

pub mod crypto;
pub mod log;
pub mod payload;
pub mod queue;
pub mod registry;
pub mod signature;
pub mod slack;
pub mod ssrf;
pub mod worker;

use serde_json::Value;

use crate::AppState;
use crate::store::keyspace;
use crate::store::{Store, StoreError};
use payload::{EVENTS, Event};

/// Queues `kind` for every webhook that wants it (its events, and its compounds when the event
/// is about `compound_id`; an event about no compound goes to the webhooks that follow all
/// compounds). Returns how many deliveries were queued.
pub async fn emit(
    state: &AppState,
    kind: &str,
    compound_id: Option<&str>,
    data: Value,
) -> Result<usize, StoreError> {
    if !EVENTS.contains(&kind) {
        tracing::warn!(kind, "not an event kind: nothing emitted");
        return Ok(0);
    }
    let event = Event::new(kind, data);
    let now = chrono::Utc::now().timestamp_millis();
    let mut queued = 0;
    for hook in registry::all(&state.service.store).await? {
        if !hook.events.iter().any(|e| e == kind) {
            continue;
        }
        if !registry::covers(&state.service.store, &hook, compound_id).await? {
            continue;
        }
        queue::enqueue(&state.service.store, &hook, &event, now).await?;
        queued += 1;
    }
    Ok(queued)
}

/// Deliveries waiting in the queue (the health monitor).
pub async fn queue_depth(store: &Store) -> Result<usize, StoreError> {
    queue::depth(store).await
}

/// Erasure: removes the account's webhooks, their queued deliveries and their delivery logs;
/// how many store entries went.
pub async fn erase_account(store: &Store, account: &str) -> Result<usize, StoreError> {
    let mut removed = 0;
    for (key, _) in store.scan(&keyspace::webhooks_of(account)).await? {
        if store.delete(&key).await? {
            removed += 1;
        }
    }
    removed += queue::remove(store, |d| d.account == account).await?;
    removed += log::remove_account(store, account).await?;
    Ok(removed)
}

/// Deletes one webhook with its queued deliveries and logs.
pub async fn delete(store: &Store, account: &str, id: &str) -> Result<bool, StoreError> {
    if registry::get(store, account, id).await?.is_none() {
        return Ok(false);
    }
    store.delete(&keyspace::webhook(account, id)).await?;
    queue::remove(store, |d| d.account == account && d.webhook_id == id).await?;
    log::remove_webhook(store, account, id).await?;
    Ok(true)
}
