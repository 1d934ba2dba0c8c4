//! Webhook records in the store, one per key `wh:<account>:<id>`: they belong to the account
//! (stable across key rotation), hold the signing secret sealed (`crypto.rs`), and say which
//! events and compounds they want. The stored form is internal; `http/webhooks.rs` has the wire form.

use serde::{Deserialize, Serialize};

use super::payload::Format;
use crate::store::keyspace;
use crate::store::{Store, StoreError};
use crate::tier::Tier;

/// Which compounds' events a webhook receives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "mode", content = "ids")]
pub enum Compounds {
    /// `compounds` absent: those on the account's watchlist when the event is emitted.
    Watchlist,
    /// `["*"]`.
    All,
    /// Listed compound ids (checked against the dataset at registration).
    Ids(Vec<String>),
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Webhook {
    pub id: String,
    pub account: String,
    pub url: String,
    pub events: Vec<String>,
    pub compounds: Compounds,
    pub format: Format,
    /// The signing secret, sealed under `SAFEREF_SECRET_KEY`; never stored in clear.
    pub sealed_secret: String,
    /// Unix seconds.
    pub created: i64,
}

/// Webhooks an account may hold, by tier (a decision, ARCHITECTURE.md).
pub fn cap(tier: Tier) -> usize {
    match tier {
        Tier::Public => 0,
        Tier::Developer => 5,
        Tier::Pro => 25,
        Tier::Enterprise => 100,
    }
}

pub fn new_id() -> String {
    format!("wh_{}", crate::keys::random_base62(20))
}

/// Whether `id` has the shape of a webhook id (checked before it is used in a store key).
pub fn well_formed(id: &str) -> bool {
    id.strip_prefix("wh_").is_some_and(|r| {
        !r.is_empty() && r.len() <= 40 && r.bytes().all(|c| c.is_ascii_alphanumeric())
    })
}

pub async fn save(store: &Store, hook: &Webhook) -> Result<(), StoreError> {
    let json = serde_json::to_vec(hook).expect("webhook records serialize");
    store
        .put(&keyspace::webhook(&hook.account, &hook.id), &json, None)
        .await
}

pub async fn get(store: &Store, account: &str, id: &str) -> Result<Option<Webhook>, StoreError> {
    if !well_formed(id) {
        return Ok(None);
    }
    Ok(store
        .get(&keyspace::webhook(account, id))
        .await?
        .and_then(|v| serde_json::from_slice(&v).ok()))
}

/// The account's webhooks, oldest first.
pub async fn of_account(store: &Store, account: &str) -> Result<Vec<Webhook>, StoreError> {
    Ok(sorted(store.scan(&keyspace::webhooks_of(account)).await?))
}

/// Every webhook of every account (event fan-out).
pub async fn all(store: &Store) -> Result<Vec<Webhook>, StoreError> {
    Ok(sorted(store.scan(keyspace::WEBHOOKS).await?))
}

fn sorted(found: Vec<(String, Vec<u8>)>) -> Vec<Webhook> {
    let mut hooks: Vec<Webhook> = found
        .into_iter()
        .filter_map(|(k, v)| {
            let parsed = serde_json::from_slice(&v);
            if parsed.is_err() {
                tracing::warn!(key = %k, "unreadable webhook record skipped");
            }
            parsed.ok()
        })
        .collect();
    hooks.sort_by(|a: &Webhook, b| (a.created, &a.id).cmp(&(b.created, &b.id)));
    hooks
}

/// Whether `hook` wants events about `compound_id`. An event about no compound (a
/// regulatory-status cell of an analyte outside the corpus) goes only to webhooks that follow
/// all compounds: a watchlist or id list says which compounds the receiver cares about.
pub async fn covers(
    store: &Store,
    hook: &Webhook,
    compound_id: Option<&str>,
) -> Result<bool, StoreError> {
    let Some(compound_id) = compound_id else {
        return Ok(matches!(hook.compounds, Compounds::All));
    };
    Ok(match &hook.compounds {
        Compounds::All => true,
        Compounds::Ids(ids) => ids.iter().any(|i| i == compound_id),
        Compounds::Watchlist => crate::watchlist::ids(store, &hook.account)
            .await?
            .iter()
            .any(|i| i == compound_id),
    })
}
