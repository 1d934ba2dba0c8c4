//! API keys: `sr_live_` + 32 random base62 characters, stored only as a SHA-256
//! hash with a display prefix; the full key is shown once, when created.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use chrono::{DateTime, Utc};
use rand::Rng;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

pub use saferef_generator::render::runtime_answers::keys::Billing;

use crate::store::keyspace;
use crate::store::{Store, StoreError};
use crate::tier::Tier;

pub const KEY_PREFIX: &str = "sr_live_";
/// A key's length: the prefix and 32 base62 characters.
const KEY_LEN: usize = 40;
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

/// The store key of `key`'s record, `keyspace::api_key(&hash(key))` built in one buffer (on
/// every keyed request).
fn record_key(key: &str) -> String {
    let mut out = String::with_capacity(keyspace::API_KEYS.len() + 64);
    out.push_str(keyspace::API_KEYS);
    push_hex(&mut out, &Sha256::digest(key.as_bytes()));
    out
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
    key.len() == KEY_LEN
        && key
            .strip_prefix(KEY_PREFIX)
            .is_some_and(|b| b.bytes().all(|c| c.is_ascii_alphanumeric()))
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
    Ok(lookup_shared(store, key).await?.map(|r| (*r).clone()))
}

/// `lookup` as the request path reads it: the record held in memory with its stored bytes,
/// parsed once per stored form (`Store::get_decoded`), shared rather than copied. A record
/// written again (rotation, revocation, a payment state) replaces the held one, so it is
/// parsed again. The record's store key is hashed once per key (`RecordKeys`), not per
/// request.
pub async fn lookup_shared(store: &Store, key: &str) -> Result<Option<Arc<KeyRecord>>, StoreError> {
    let Some(presented) = Presented::of(key) else {
        return Ok(None);
    };
    let known = RECORD_KEYS.get(&presented);
    let at = known.clone().unwrap_or_else(|| record_key(key).into());
    let record = store
        .get_decoded(&at, |bytes| serde_json::from_slice::<KeyRecord>(bytes).ok())
        .await?;
    if known.is_none() && record.is_some() {
        RECORD_KEYS.keep(presented, at);
    }
    Ok(record)
}

/// A well-formed key as presented, compared in constant time: looking it up among the keys
/// remembered takes as long for a guess one character away from a real key as for any other
/// (the map's SipHash is keyed at random per process, so where a guess lands tells nothing
/// either), as the SHA-256 of every guess did before (`examples/brute_force_timing.rs`).
struct Presented([u8; KEY_LEN]);

impl Presented {
    fn of(key: &str) -> Option<Presented> {
        well_formed(key).then(|| Presented(key.as_bytes().try_into().expect("KEY_LEN bytes")))
    }
}

impl PartialEq for Presented {
    fn eq(&self, other: &Presented) -> bool {
        crate::accounts::constant_time_eq(&self.0, &other.0)
    }
}

impl Eq for Presented {}

// Equal keys are equal bytes, so hashing the bytes agrees with the constant-time equality.
impl std::hash::Hash for Presented {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

/// Past this many keys the map starts again empty (as the store's read cache does).
const MAX_REMEMBERED: usize = 100_000;

/// The store key of each key whose record was found, by the key: a key's SHA-256 never
/// changes, so what is kept here is never stale and needs no invalidation; whether the key
/// opens anything is its record's, which the store's read cache holds and drops on every
/// write (rotation and revocation, across instances on Redis). A key never found is not
/// kept, so made-up keys do not fill it.
static RECORD_KEYS: LazyLock<RecordKeys> = LazyLock::new(RecordKeys::default);

#[derive(Default)]
struct RecordKeys(Mutex<HashMap<Presented, Arc<str>>>);

impl RecordKeys {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<Presented, Arc<str>>> {
        // A panic while holding the lock leaves plain values behind: still usable.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn get(&self, key: &Presented) -> Option<Arc<str>> {
        self.map().get(key).cloned()
    }

    fn keep(&self, key: Presented, at: Arc<str>) {
        let mut map = self.map();
        if map.len() >= MAX_REMEMBERED {
            map.clear();
        }
        map.insert(key, at);
    }
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
        assert_eq!(record_key(&k), keyspace::api_key(&hash(&k)));
    }

    #[tokio::test]
    async fn a_record_is_parsed_once_and_read_again_once_written_again() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::embedded(&dir.path().join("store.redb")).unwrap();
        let (key, record) = create(&store, Tier::Pro, None, None).await.unwrap();
        let first = lookup_shared(&store, &key).await.unwrap().unwrap();
        let again = lookup_shared(&store, &key).await.unwrap().unwrap();
        assert!(
            std::sync::Arc::ptr_eq(&first, &again),
            "shared, not parsed again"
        );
        assert_eq!(*first, record);
        revoke(&store, &record.prefix).await.unwrap();
        let revoked = lookup_shared(&store, &key).await.unwrap().unwrap();
        assert!(!revoked.active);
        assert!(
            first.active,
            "a request holding the old record keeps its own"
        );
        assert_eq!(
            lookup_shared(&store, "sr_live_unknown").await.unwrap(),
            None
        );
    }

    #[tokio::test]
    async fn a_found_key_s_store_key_is_kept_and_its_record_still_follows_every_write() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::embedded(&dir.path().join("store.redb")).unwrap();
        let (key, record) = create(&store, Tier::Pro, None, None).await.unwrap();
        let kept = |k: &str| RECORD_KEYS.get(&Presented::of(k).unwrap());

        let made_up = generate();
        assert_eq!(lookup_shared(&store, &made_up).await.unwrap(), None);
        assert_eq!(kept(&made_up), None, "a key never found is not kept");

        assert!(lookup_shared(&store, &key).await.unwrap().unwrap().active);
        assert_eq!(kept(&key).as_deref(), Some(record_key(&key).as_str()));
        let mut near = key.clone().into_bytes();
        near[39] = if near[39] == b'a' { b'b' } else { b'a' };
        let near = String::from_utf8(near).unwrap();
        assert!(Presented::of(&near) != Presented::of(&key));
        assert_eq!(kept(&near), None);

        // The store key kept, the record it names is the store's: a rotation ends the old
        // key at once.
        let (new_key, _) = replace(&store, &record).await.unwrap().unwrap();
        assert_eq!(lookup_shared(&store, &key).await.unwrap(), None);
        assert!(
            lookup_shared(&store, &new_key)
                .await
                .unwrap()
                .unwrap()
                .active
        );
    }
}
