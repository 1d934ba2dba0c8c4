//! The delivery queue, kept in the store so it survives restarts and is shared by every
//! runtime on one Redis: each pending delivery's body under `whd:<delivery id>`, and its id in
//! the ordered set `whq` scored by the time it falls due (a Redis sorted set), so reading what
//! is due costs a range read, never a scan of the keyspace.

use serde::{Deserialize, Serialize};

use super::payload::{self, Event};
use super::registry::Webhook;
use crate::store::keyspace;
use crate::store::{Store, StoreError};

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
    /// When it falls due (Unix ms): its score in `whq`, kept here too so `recover` can
    /// schedule a body that a crash left unscheduled.
    pub due_ms: i64,
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
        due_ms,
    };
    put(store, &delivery).await?;
    Ok(delivery)
}

/// Stores `delivery` (new, or with its attempts counted) and schedules it at its `due_ms`.
/// The body is written first: a crash between the two leaves a body that `recover` schedules.
pub async fn put(store: &Store, delivery: &Delivery) -> Result<(), StoreError> {
    let json = serde_json::to_vec(delivery).expect("deliveries serialize");
    store
        .put(&keyspace::delivery_body(&delivery.id), &json, None)
        .await?;
    store
        .rank(keyspace::DELIVERY_QUEUE, &delivery.id, delivery.due_ms)
        .await
}

/// Schedules every stored delivery at its own due time (idempotent): run when a worker
/// starts, it picks up bodies a crash left unscheduled. How many there are.
pub async fn recover(store: &Store) -> Result<usize, StoreError> {
    let all = pending(store).await?;
    for d in &all {
        store
            .rank(keyspace::DELIVERY_QUEUE, &d.id, d.due_ms)
            .await?;
    }
    Ok(all.len())
}

/// The delivery `id` as stored now (`None` once delivered, failed or removed).
pub async fn get(store: &Store, id: &str) -> Result<Option<Delivery>, StoreError> {
    Ok(store
        .get(&keyspace::delivery_body(id))
        .await?
        .and_then(|v| serde_json::from_slice(&v).ok()))
}

/// Takes `id` off the queue: unscheduled first, then its body.
pub async fn done(store: &Store, id: &str) -> Result<(), StoreError> {
    store.unrank(keyspace::DELIVERY_QUEUE, id).await?;
    store.delete(&keyspace::delivery_body(id)).await?;
    Ok(())
}

/// The deliveries due at `now_ms`, earliest first, at most `max`.
pub async fn due(store: &Store, now_ms: i64, max: usize) -> Result<Vec<Delivery>, StoreError> {
    let mut out = Vec::new();
    for id in store
        .ranked_upto(keyspace::DELIVERY_QUEUE, now_ms, max)
        .await?
    {
        match get(store, &id).await? {
            Some(d) => out.push(d),
            // Scheduled without a body: removed meanwhile.
            None => {
                store.unrank(keyspace::DELIVERY_QUEUE, &id).await?;
            }
        }
    }
    Ok(out)
}

/// Every queued delivery (erasure, the monitor; rare, so a prefix scan).
async fn pending(store: &Store) -> Result<Vec<Delivery>, StoreError> {
    Ok(store
        .scan(keyspace::DELIVERY_BODIES)
        .await?
        .into_iter()
        .filter_map(|(_, v)| serde_json::from_slice(&v).ok())
        .collect())
}

/// Pending deliveries (the health monitor's queue depth).
pub async fn depth(store: &Store) -> Result<usize, StoreError> {
    Ok(pending(store).await?.len())
}

/// Removes the queued deliveries `doomed` picks; how many.
pub async fn remove(
    store: &Store,
    doomed: impl Fn(&Delivery) -> bool,
) -> Result<usize, StoreError> {
    let mut n = 0;
    for d in pending(store).await? {
        if doomed(&d) {
            done(store, &d.id).await?;
            n += 1;
        }
    }
    Ok(n)
}
