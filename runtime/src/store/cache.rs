//! The store's read cache: the values under `keyspace::CACHED` (the API key records) are kept
//! in memory once read, so a keyed request resolves its key without a store round trip or the
//! blocking pool. Absent keys are remembered too (a key created later is a write, which
//! invalidates).
//!
//! Invalidation. Every write to a cached key through `Store` drops it from this process's
//! memory before the write returns. With the embedded store that is all there is: redb locks
//! its file, so this process is the only writer. With Redis, several processes share the keys,
//! so a writer also publishes the key on `keyspace::CACHE_INVALIDATIONS` and waits (up to
//! `ACK_WAIT`) until every subscribed instance confirmed it dropped its copy: a rotation or a
//! revocation answers only once no instance serves the old record. An instance keeps its cache
//! on only while its subscription is up; when the subscription breaks it empties the cache and
//! reads the store on every request until it has subscribed again.
//!
//! A read that raced a write never puts the old value back: every invalidation advances a
//! generation, and a read fills the cache only if the generation is the one it started with.
//!
//! A value is held with what its reader decoded from it (`Held::decoded`: a key record,
//! parsed once), so a keyed request neither copies the bytes nor parses them again; the
//! decoded form lives and goes with the bytes it was made from.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use super::keyspace;

/// Past this many entries the cache starts again empty (a flood of made-up keys cannot grow
/// it; every entry is a hash-sized key and a record of a few hundred bytes).
const MAX_ENTRIES: usize = 100_000;
/// How long a writer waits for the other instances to confirm an invalidation.
pub const ACK_WAIT: std::time::Duration = std::time::Duration::from_secs(2);
/// How long the confirmations of one invalidation are kept (the writer reads them sooner).
pub const ACK_TTL: std::time::Duration = std::time::Duration::from_secs(10);

#[derive(Debug, Default)]
pub struct ReadCache {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    on: bool,
    generation: u64,
    map: HashMap<String, Option<Arc<Held>>>,
}

/// A value as the store answered it, with the form its reader decoded from it.
#[derive(Debug)]
pub struct Held {
    pub bytes: Vec<u8>,
    decoded: OnceLock<Option<Arc<dyn Any + Send + Sync>>>,
}

impl Held {
    pub fn new(bytes: Vec<u8>) -> Held {
        Held {
            bytes,
            decoded: OnceLock::new(),
        }
    }

    /// The value as `decode` reads it (`None` when it does not), decoded at the first call
    /// and shared after. A prefix's values are read as one type; asked for another, it
    /// decodes again without keeping it.
    pub fn decoded<T: Any + Send + Sync>(
        &self,
        decode: impl FnOnce(&[u8]) -> Option<T>,
    ) -> Option<Arc<T>> {
        if let Some(kept) = self.decoded.get() {
            return match kept.clone().map(Arc::downcast::<T>) {
                Some(Ok(value)) => Some(value),
                Some(Err(_)) => decode(&self.bytes).map(Arc::new),
                None => None,
            };
        }
        // Two first readers may both decode; the first to finish is kept, both are the same.
        let value = decode(&self.bytes).map(Arc::new);
        let shared = value.clone().map(|v| v as Arc<dyn Any + Send + Sync>);
        let _ = self.decoded.set(shared);
        value
    }
}

/// What the cache knows of a key.
pub enum Lookup {
    Hit(Option<Arc<Held>>),
    /// Not held: read the store, then `fill` with this generation.
    Miss(u64),
    /// The cache is off (a Redis store not yet following invalidations): read the store.
    Off,
}

/// Whether the (un-namespaced) key is under a cached prefix.
pub fn covers(key: &str) -> bool {
    keyspace::CACHED.iter().any(|p| key.starts_with(p))
}

impl ReadCache {
    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves a map of plain values behind: still usable.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn lookup(&self, key: &str) -> Lookup {
        let inner = self.inner();
        if !inner.on {
            return Lookup::Off;
        }
        match inner.map.get(key) {
            Some(v) => Lookup::Hit(v.clone()),
            None => Lookup::Miss(inner.generation),
        }
    }

    /// Keeps what the store answered for `key`, unless an invalidation came since the read
    /// began (`generation`).
    pub fn fill(&self, key: &str, value: &Option<Arc<Held>>, generation: u64) {
        let mut inner = self.inner();
        if !inner.on || inner.generation != generation {
            return;
        }
        if inner.map.len() >= MAX_ENTRIES {
            inner.map.clear();
        }
        inner.map.insert(key.to_string(), value.clone());
    }

    pub fn invalidate(&self, key: &str) {
        let mut inner = self.inner();
        inner.generation += 1;
        inner.map.remove(key);
    }

    /// Turns the cache on or off; either way it starts empty.
    pub fn set_on(&self, on: bool) {
        let mut inner = self.inner();
        inner.generation += 1;
        inner.map.clear();
        inner.on = on;
    }
}
