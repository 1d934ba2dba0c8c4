//! Watchlists: per account, one store entry per watched compound
//! (`wl:<account>:<compound id>` holding when it was added), so adding and removing are single
//! writes that concurrent requests and several runtimes cannot lose.

use chrono::{DateTime, Utc};

use crate::store::keyspace;
use crate::store::{Store, StoreError};
use crate::tier::Tier;

/// The most compounds a watchlist of `tier` holds.
pub fn cap(tier: Tier) -> usize {
    match tier {
        Tier::Public => 0,
        Tier::Developer => 100,
        Tier::Pro => 1_000,
        Tier::Enterprise => 10_000,
    }
}

/// The watched compound ids with the time each was added, by id.
pub async fn entries(
    store: &Store,
    account: &str,
) -> Result<Vec<(String, DateTime<Utc>)>, StoreError> {
    let p = keyspace::watchlist(account);
    Ok(store
        .scan(&p)
        .await?
        .into_iter()
        .map(|(k, v)| {
            let added = std::str::from_utf8(&v)
                .ok()
                .and_then(|s| DateTime::parse_from_rfc3339(s).ok())
                .map_or(DateTime::UNIX_EPOCH, |d| d.with_timezone(&Utc));
            (k[p.len()..].to_string(), added)
        })
        .collect())
}

/// The watched compound ids (webhooks without a compound filter follow them).
pub async fn ids(store: &Store, account: &str) -> Result<Vec<String>, StoreError> {
    Ok(entries(store, account)
        .await?
        .into_iter()
        .map(|(id, _)| id)
        .collect())
}

/// Adds `ids` (already validated); those already present keep their date. How many were new.
pub async fn add(store: &Store, account: &str, ids: &[String]) -> Result<usize, StoreError> {
    let now = Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let mut added = 0;
    for id in ids {
        let key = keyspace::watched(account, id);
        if store.put_if_absent(&key, now.as_bytes(), None).await? {
            added += 1;
        }
    }
    Ok(added)
}

/// Removes one compound; whether it was watched.
pub async fn remove(store: &Store, account: &str, id: &str) -> Result<bool, StoreError> {
    store.delete(&keyspace::watched(account, id)).await
}

/// Removes the whole watchlist (erasure); how many entries it had.
pub async fn erase(store: &Store, account: &str) -> Result<usize, StoreError> {
    let found = store.scan(&keyspace::watchlist(account)).await?;
    for (key, _) in &found {
        store.delete(key).await?;
    }
    Ok(found.len())
}
