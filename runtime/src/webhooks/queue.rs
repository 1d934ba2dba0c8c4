//! The delivery queue, kept in the store so it survives restarts and is shared by every
//! runtime on one Redis: one key per pending delivery, `whq:<due ms, 16 digits>:<delivery id>`,
//! so a prefix scan (sorted by key) lists deliveries in the order they fall due.

use serde::{Deserialize, Serialize};

use super::payload::{self, Event};
use super::registry::Webhook;
use crate::store::{Store, StoreError};

const PREFIX: &str = "whq:";

/// One event on its way to one webhook, with the exact body to sign and send.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Delivery {
    pub id: String,
    pub account: String,
    pub webhook_id: String,
    pub event_id: String,
    pub event_type: String,
    pub body: String,
    /// Attempts made so far.
    pub attempts: u32,
}

pub fn key(due_ms: i64, id: &str) -> String {
    format!("{PREFIX}{:016}:{id}", due_ms.max(0))
}

/// Queues `event` for `hook`, due at `due_ms`.
pub async fn enqueue(
    store: &Store,
    hook: &Webhook,
    event: &Event,
    due_ms: i64,
) -> Result<Delivery, StoreError> {
    let delivery = Delivery {
        id: format!("dlv_{}", crate::keys::random_base62(20)),
        account: hook.account.clone(),
        webhook_id: hook.id.clone(),
        event_id: event.id.clone(),
        event_type: event.kind.clone(),
        body: payload::body(event, hook.format),
        attempts: 0,
    };
    put(store, &delivery, due_ms).await?;
    Ok(delivery)
}

pub async fn put(store: &Store, delivery: &Delivery, due_ms: i64) -> Result<(), StoreError> {
    let json = serde_json::to_vec(delivery).expect("deliveries serialize");
    store.put(&key(due_ms, &delivery.id), &json, None).await
}

/// Every queued delivery with its store key, earliest due first.
pub async fn pending(store: &Store) -> Result<Vec<(String, Delivery)>, StoreError> {
    Ok(store
        .scan(PREFIX)
        .await?
        .into_iter()
        .filter_map(|(k, v)| Some((k, serde_json::from_slice(&v).ok()?)))
        .collect())
}

/// The deliveries due at `now_ms`, earliest first, at most `max`.
pub async fn due(
    store: &Store,
    now_ms: i64,
    max: usize,
) -> Result<Vec<(String, Delivery)>, StoreError> {
    let cutoff = key(now_ms, "~");
    Ok(pending(store)
        .await?
        .into_iter()
        .take_while(|(k, _)| *k <= cutoff)
        .take(max)
        .collect())
}

/// Pending deliveries (the health monitor's queue depth).
pub async fn depth(store: &Store) -> Result<usize, StoreError> {
    Ok(store.scan(PREFIX).await?.len())
}

/// Removes the queued deliveries `doomed` picks; how many.
pub async fn remove(
    store: &Store,
    doomed: impl Fn(&Delivery) -> bool,
) -> Result<usize, StoreError> {
    let mut n = 0;
    for (k, d) in pending(store).await? {
        if doomed(&d) && store.delete(&k).await? {
            n += 1;
        }
    }
    Ok(n)
}
