//! API keys: `sr_live_` + 32 random base62 characters, stored only as a SHA-256
//! hash with a display prefix; the full key is shown once, when created.

use chrono::{DateTime, Utc};
use rand::Rng;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

pub use saferef_generator::render::runtime_answers::keys::Billing;

use crate::store::keyspace;
use crate::store::{Store, StoreError};
use crate::tier::Tier;

pub const KEY_PREFIX: &str = "sr_live_";
const BASE62: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// A stored key. Never holds the key itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyRecord {
    /// SHA-256 of the key, hex: the store key and the bucket of its quota.
    pub hash: String,
    /// The account the key belongs to (`acc_...`): stays the same when the key is rotated,
    /// so quota, usage history, watchlist and webhooks follow the account, not the key.
    #[serde(default)]
    pub account: String,
    /// The first 12 characters (`sr_live_abcd`), to recognise a key in lists and logs.
    pub prefix: String,
    pub tier: Tier,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    pub created: DateTime<Utc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<DateTime<Utc>>,
    pub active: bool,
    /// active, past_due or unpaid (payment-provider state; absent for keys made by hand).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment_status: Option<String>,
    #[serde(default, flatten)]
    pub billing: Billing,
}

impl KeyRecord {
    /// The account id; records written before accounts existed use their own hash.
    pub fn account_id(&self) -> &str {
        if self.account.is_empty() {
            &self.hash
        } else {
            &self.account
        }
    }

    /// Whether the key opens the API at `now`.
    pub fn usable(&self, now: DateTime<Utc>) -> bool {
        self.active && self.expires_at.is_none_or(|e| now < e)
    }
}

pub fn hash(key: &str) -> String {
    let mut hex = String::with_capacity(64);
    push_hex(&mut hex, &Sha256::digest(key.as_bytes()));
    hex
}

/// Appends `bytes` as lowercase hex (on every keyed request and every response: one buffer,
/// not a string per byte).
pub fn push_hex(out: &mut String, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for b in bytes {
        out.push(DIGITS[(b >> 4) as usize] as char);
        out.push(DIGITS[(b & 0xf) as usize] as char);
    }
}

/// `n` random base62 characters.
pub fn random_base62(n: usize) -> String {
    let mut rng = rand::rng();
    (0..n)
        .map(|_| BASE62[rng.random_range(0..BASE62.len())] as char)
        .collect()
}

/// A new random key.
pub fn generate() -> String {
    format!("{KEY_PREFIX}{}", random_base62(32))
}

/// Whether `key` has the shape of a key (checked before any store lookup).
pub fn well_formed(key: &str) -> bool {
    key.strip_prefix(KEY_PREFIX)
        .is_some_and(|b| b.len() == 32 && b.bytes().all(|c| c.is_ascii_alphanumeric()))
}

/// Creates and stores a key for a new account; returns the key (shown once) and its record.
pub async fn create(
    store: &Store,
    tier: Tier,
    email: Option<String>,
    expires_at: Option<DateTime<Utc>>,
) -> Result<(String, KeyRecord), StoreError> {
    let key = generate();
    let record = KeyRecord {
        hash: hash(&key),
        account: format!("acc_{}", random_base62(16)),
        prefix: key[..12].to_string(),
        tier,
        email,
        created: Utc::now(),
        expires_at,
        active: true,
        payment_status: None,
        billing: Billing::default(),
    };
    save(store, &record).await?;
    Ok((key, record))
}

/// A new key for the account of `old`, with everything else of `old` (tier, e-mail, expiry,
/// billing); `old` stops working in the same atomic change, so a crash leaves exactly one
/// of the two keys, never both and never none. `None` when `old` is no longer stored (a
/// concurrent rotation replaced it first): each key is replaced at most once.
pub async fn replace(
    store: &Store,
    old: &KeyRecord,
) -> Result<Option<(String, KeyRecord)>, StoreError> {
    let key = generate();
    let record = KeyRecord {
        hash: hash(&key),
        account: old.account_id().to_string(),
        prefix: key[..12].to_string(),
        created: Utc::now(),
        ..old.clone()
    };
    let (gone, made) = (
        keyspace::api_key(&old.hash),
        keyspace::api_key(&record.hash),
    );
    let swapped = store.swap(&[&gone], &[(&made, &encode(&record))]).await?;
    Ok(swapped.then_some((key, record)))
}

fn encode(record: &KeyRecord) -> Vec<u8> {
    serde_json::to_vec(record).expect("key records serialize")
}

pub async fn save(store: &Store, record: &KeyRecord) -> Result<(), StoreError> {
    store
        .put(&keyspace::api_key(&record.hash), &encode(record), None)
        .await
}

/// Removes a key record (rotation, erasure): the key stops working at once.
pub async fn delete(store: &Store, record: &KeyRecord) -> Result<bool, StoreError> {
    store.delete(&keyspace::api_key(&record.hash)).await
}

/// The record of `key`, if it exists (usable or not).
pub async fn lookup(store: &Store, key: &str) -> Result<Option<KeyRecord>, StoreError> {
    if !well_formed(key) {
        return Ok(None);
    }
    Ok(store
        .get(&keyspace::api_key(&hash(key)))
        .await?
        .and_then(|v| parsed(&v)))
}

/// How many stored records `parsed` remembers before it starts again empty.
const PARSED_HELD: usize = 10_000;

/// The record stored as `bytes`. A key's record is read on every keyed request, and parsing it
/// (timestamps, the flattened billing fields) cost more than the rest of the lookup, so each
/// record is parsed once and remembered by its bytes: the same bytes are the same record,
/// and a record written again (rotation, revocation, a payment state) is other bytes, parsed
/// again. What the bytes are is the store's to say (`store/cache.rs`); this only reads them.
fn parsed(bytes: &[u8]) -> Option<KeyRecord> {
    type Parsed = std::collections::HashMap<Vec<u8>, KeyRecord>;
    static PARSED: std::sync::OnceLock<std::sync::RwLock<Parsed>> = std::sync::OnceLock::new();
    let parsed = PARSED.get_or_init(Default::default);
    if let Some(record) = parsed.read().unwrap_or_else(|e| e.into_inner()).get(bytes) {
        return Some(record.clone());
    }
    let record: KeyRecord = serde_json::from_slice(bytes).ok()?;
    let mut held = parsed.write().unwrap_or_else(|e| e.into_inner());
    if held.len() >= PARSED_HELD {
        held.clear();
    }
    held.insert(bytes.to_vec(), record.clone());
    Some(record)
}

/// Every key record, by creation time.
pub async fn list(store: &Store) -> Result<Vec<KeyRecord>, StoreError> {
    let mut out: Vec<KeyRecord> = store
        .scan(keyspace::API_KEYS)
        .await?
        .into_iter()
        .filter_map(|(_, v)| serde_json::from_slice(&v).ok())
        .collect();
    out.sort_by_key(|r| r.created);
    Ok(out)
}

/// Deactivates the keys whose display prefix starts with `prefix`; the records revoked.
pub async fn revoke(store: &Store, prefix: &str) -> Result<Vec<KeyRecord>, StoreError> {
    let mut revoked = Vec::new();
    for mut r in list(store).await? {
        if r.prefix.starts_with(prefix) && r.active {
            r.active = false;
            save(store, &r).await?;
            revoked.push(r);
        }
    }
    Ok(revoked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_have_the_documented_shape() {
        let k = generate();
        assert!(well_formed(&k), "{k}");
        assert_eq!(k.len(), 40);
        assert_ne!(generate(), k);
        assert!(!well_formed("sr_live_short"));
        assert!(!well_formed(&k.replace("sr_live_", "sr_test_")));
        assert_eq!(hash("x").len(), 64);
    }

    #[test]
    fn a_record_written_again_is_read_as_written_again() {
        let key = generate();
        let record = KeyRecord {
            hash: hash(&key),
            account: "acc_parsed".into(),
            prefix: key[..12].to_string(),
            tier: Tier::Pro,
            email: None,
            created: Utc::now(),
            expires_at: None,
            active: true,
            payment_status: None,
            billing: Billing::default(),
        };
        let revoked = KeyRecord {
            active: false,
            ..record.clone()
        };
        for _ in 0..2 {
            assert_eq!(parsed(&encode(&record)), Some(record.clone()));
            assert_eq!(parsed(&encode(&revoked)), Some(revoked.clone()));
        }
        assert_eq!(parsed(b"{not a record"), None);
    }
}
