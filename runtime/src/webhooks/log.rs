//! The delivery log: one entry per attempt under
//! `whlog:<account>:<webhook id>:<time ms, 16 digits>:<delivery id>:<attempt>`, kept 30 days.
//! The account leads the key so erasure removes an account's logs with one prefix scan.

use std::time::Duration;

pub use saferef_generator::render::runtime_answers::webhooks::{Attempt, Outcome};

use crate::store::keyspace;
use crate::store::{Store, StoreError};

const KEEP: Duration = Duration::from_secs(30 * 24 * 3600);

pub async fn record(
    store: &Store,
    account: &str,
    webhook_id: &str,
    at_ms: i64,
    attempt: &Attempt,
) -> Result<(), StoreError> {
    let key = keyspace::delivery_attempt(
        account,
        webhook_id,
        at_ms,
        &attempt.delivery_id,
        attempt.attempt,
    );
    let json = serde_json::to_vec(attempt).expect("log entries serialize");
    store.put(&key, &json, Some(KEEP)).await
}

/// The webhook's attempts, newest first: the total and the page `offset..offset+limit`.
pub async fn page(
    store: &Store,
    account: &str,
    webhook_id: &str,
    offset: usize,
    limit: usize,
) -> Result<(usize, Vec<Attempt>), StoreError> {
    let entries = store
        .scan(&keyspace::delivery_log(account, webhook_id))
        .await?;
    let total = entries.len();
    let page = entries
        .into_iter()
        .rev()
        .skip(offset)
        .take(limit)
        .filter_map(|(_, v)| serde_json::from_slice(&v).ok())
        .collect();
    Ok((total, page))
}

/// Removes one webhook's logs; how many.
pub async fn remove_webhook(
    store: &Store,
    account: &str,
    webhook_id: &str,
) -> Result<usize, StoreError> {
    remove_prefix(store, &keyspace::delivery_log(account, webhook_id)).await
}

/// Removes every log of the account's webhooks, current or deleted; how many.
pub async fn remove_account(store: &Store, account: &str) -> Result<usize, StoreError> {
    remove_prefix(store, &keyspace::delivery_logs_of(account)).await
}

async fn remove_prefix(store: &Store, prefix: &str) -> Result<usize, StoreError> {
    let mut n = 0;
    for (k, _) in store.scan(prefix).await? {
        if store.delete(&k).await? {
            n += 1;
        }
    }
    Ok(n)
}
