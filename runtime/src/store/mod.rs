//! The store: everything the runtime keeps between requests (keys, quota counters, usage,
//! and later watchlists, webhooks and their queue) behind one small contract with two
//! backends: Redis (`SAFEREF_REDIS_URL`; several runtimes share it) and an embedded on-disk
//! database (redb under `--state`; the default on one machine). Both pass the same contract
//! tests (`tests/store_contract.rs`).
//!
//! The contract is deliberately small: byte values under string keys with an optional expiry,
//! prefix scans, set-if-absent, one atomic admission counter, and a count without a limit that
//! Redis is given behind the request (`behind.rs`). Domain modules (`keys`, `quota`) build on it.

mod behind;
mod cache;
mod embedded;
pub mod keyspace;
mod redis;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use cache::{Held, Lookup, ReadCache};

use embedded::Embedded;
use redis::RedisStore;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("embedded store: {0}")]
    Embedded(String),
    #[error("redis: {0}")]
    Redis(#[from] ::redis::RedisError),
}

/// The result of an admission: whether `amount` was counted, and the counter afterwards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Admitted {
    pub admitted: bool,
    pub count: u64,
}

/// The configured backend, with an optional key namespace (tests share one Redis; so could
/// several deployments).
#[derive(Debug, Clone)]
pub struct Store {
    backend: Backend,
    namespace: String,
    /// The values under `keyspace::CACHED`, in memory (`cache.rs`); shared by clones.
    cache: Arc<ReadCache>,
    /// Counts not yet written to Redis (`behind.rs`); shared by clones.
    pending: Arc<behind::Pending>,
}

#[derive(Debug, Clone)]
enum Backend {
    Embedded(Embedded),
    // Boxed: the connection manager is large and the store is cloned into every task.
    Redis(Box<RedisStore>),
}

impl Store {
    /// Redis when a URL is given, else the embedded database under `state_dir`.
    pub async fn open(redis_url: Option<&str>, state_dir: &Path) -> anyhow::Result<Store> {
        match redis_url {
            Some(url) => Store::redis(url).await,
            None => Store::embedded(&state_dir.join("store.redb")),
        }
    }

    /// The embedded store, its cache on from the start: this process is its only writer.
    pub fn embedded(path: &Path) -> anyhow::Result<Store> {
        let cache = Arc::new(ReadCache::default());
        cache.set_on(true);
        Ok(Store {
            backend: Backend::Embedded(Embedded::open(path)?),
            namespace: String::new(),
            cache,
            pending: Arc::default(),
        })
    }

    /// A Redis store, its cache off until `follow_invalidations` (a one-off command such as
    /// `keys revoke` reads the store itself and only announces its writes).
    pub async fn redis(url: &str) -> anyhow::Result<Store> {
        Ok(Store {
            backend: Backend::Redis(Box::new(RedisStore::connect(url).await?)),
            namespace: String::new(),
            cache: Arc::default(),
            pending: Arc::default(),
        })
    }

    /// For a serving process on Redis: subscribes to the invalidations other processes
    /// announce and keeps the cache on while the subscription is up (`cache.rs`). Resubscribes
    /// on its own after a broken connection. Nothing to follow for the embedded store.
    pub fn follow_invalidations(&self) {
        let Backend::Redis(redis) = &self.backend else {
            return;
        };
        let (redis, cache) = (redis.clone(), self.cache.clone());
        let channel = self.key(keyspace::CACHE_INVALIDATIONS);
        let namespace = self.namespace.clone();
        tokio::spawn(async move {
            loop {
                match redis.subscribe(&channel).await {
                    Ok(pubsub) => {
                        cache.set_on(true);
                        let mut messages = pubsub.into_on_message();
                        while let Some(msg) = futures_util::StreamExt::next(&mut messages).await {
                            let Ok(payload) = msg.get_payload::<String>() else {
                                continue;
                            };
                            let Some((nonce, key)) = payload.split_once(' ') else {
                                continue;
                            };
                            cache.invalidate(key);
                            let ack = format!("{namespace}{}", keyspace::cache_ack(nonce));
                            if let Err(e) = redis.increment(&ack, cache::ACK_TTL).await {
                                tracing::warn!("store: cannot confirm a key invalidation: {e}");
                            }
                        }
                        cache.set_on(false);
                        tracing::warn!(
                            "store: the key invalidation subscription ended; reading keys from Redis until it is back"
                        );
                    }
                    Err(e) => tracing::warn!("store: cannot subscribe to key invalidations: {e}"),
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        });
    }

    /// After a write to `key`: when it is cached, drops it here and, on Redis, on every
    /// instance, waiting for their confirmations (`cache.rs`). A failure to announce is
    /// logged, not returned: the write itself took effect.
    async fn invalidated(&self, key: &str) {
        if !cache::covers(key) {
            return;
        }
        let full = self.key(key);
        self.cache.invalidate(&full);
        let Backend::Redis(redis) = &self.backend else {
            return;
        };
        let nonce = crate::keys::random_base62(16);
        let channel = self.key(keyspace::CACHE_INVALIDATIONS);
        let receivers = match redis.publish(&channel, &format!("{nonce} {full}")).await {
            Ok(n) => n,
            Err(e) => {
                tracing::error!("store: cannot announce a key change to other instances: {e}");
                return;
            }
        };
        if receivers == 0 {
            return;
        }
        let ack = self.key(&keyspace::cache_ack(&nonce));
        let deadline = tokio::time::Instant::now() + cache::ACK_WAIT;
        loop {
            match redis.get(&ack).await {
                Ok(v) => {
                    let confirmed: u64 = v
                        .and_then(|v| String::from_utf8(v).ok())
                        .and_then(|s| s.parse().ok())
                        .unwrap_or(0);
                    if confirmed >= receivers {
                        return;
                    }
                }
                Err(e) => {
                    tracing::error!("store: cannot read key invalidation confirmations: {e}");
                    return;
                }
            }
            if tokio::time::Instant::now() >= deadline {
                tracing::warn!(
                    "store: not every instance confirmed dropping a changed key within {:?}",
                    cache::ACK_WAIT
                );
                return;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }

    /// The same store with every key under `namespace`.
    pub fn namespaced(mut self, namespace: &str) -> Store {
        self.namespace = namespace.to_string();
        self
    }

    pub fn backend(&self) -> &'static str {
        match self.backend {
            Backend::Embedded(_) => "embedded",
            Backend::Redis(_) => "redis",
        }
    }

    fn key(&self, key: &str) -> String {
        format!("{}{key}", self.namespace)
    }

    /// `key` under the namespace, borrowed when there is none (a serving process's reads).
    fn full_key<'k>(&self, key: &'k str) -> std::borrow::Cow<'k, str> {
        match self.namespace.is_empty() {
            true => std::borrow::Cow::Borrowed(key),
            false => std::borrow::Cow::Owned(self.key(key)),
        }
    }

    pub async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.held(key).await?.map(|held| held.bytes.clone()))
    }

    /// The value at `key` as `decode` reads it (`None` when absent or when it does not
    /// decode). Under a cached prefix it is decoded once per value held (`cache::Held`) and
    /// shared after: a key record is neither copied nor parsed per request.
    pub async fn get_decoded<T: std::any::Any + Send + Sync>(
        &self,
        key: &str,
        decode: impl FnOnce(&[u8]) -> Option<T>,
    ) -> Result<Option<Arc<T>>, StoreError> {
        Ok(self.held(key).await?.and_then(|held| held.decoded(decode)))
    }

    /// The value at `key`, from memory under a cached prefix while the cache is on.
    async fn held(&self, key: &str) -> Result<Option<Arc<Held>>, StoreError> {
        let cached = cache::covers(key);
        let key = self.full_key(key);
        let generation = match cached.then(|| self.cache.lookup(&key)) {
            Some(Lookup::Hit(value)) => return Ok(value),
            Some(Lookup::Miss(generation)) => Some(generation),
            Some(Lookup::Off) | None => None,
        };
        let value = match &self.backend {
            Backend::Embedded(s) => s.get(&key).await,
            Backend::Redis(s) => s.get(&key).await,
        }?
        .map(|bytes| Arc::new(Held::new(bytes)));
        if let Some(generation) = generation {
            self.cache.fill(&key, &value, generation);
        }
        Ok(value)
    }

    /// Sets `key`; with `ttl` it expires after that long.
    pub async fn put(
        &self,
        key: &str,
        value: &[u8],
        ttl: Option<Duration>,
    ) -> Result<(), StoreError> {
        let full = self.key(key);
        match &self.backend {
            Backend::Embedded(s) => s.put(&full, value, ttl).await,
            Backend::Redis(s) => s.put(&full, value, ttl).await,
        }?;
        self.invalidated(key).await;
        Ok(())
    }

    /// Sets `key` only when it holds no live value; whether it was set. Atomic across
    /// processes sharing the store: one-time marks (billing event ids), leases and locks.
    pub async fn put_if_absent(
        &self,
        key: &str,
        value: &[u8],
        ttl: Option<Duration>,
    ) -> Result<bool, StoreError> {
        let full = self.key(key);
        let set = match &self.backend {
            Backend::Embedded(s) => s.put_if_absent(&full, value, ttl).await,
            Backend::Redis(s) => s.put_if_absent(&full, value, ttl).await,
        }?;
        if set {
            self.invalidated(key).await;
        }
        Ok(set)
    }

    /// For leases: renews `key` for `ttl`, or releases it (`None`), only while it still holds
    /// `holder` (a lease that lapsed and was taken over is left to its new holder); whether
    /// it did. Atomic across processes sharing the store.
    pub async fn if_holds(
        &self,
        key: &str,
        holder: &[u8],
        ttl: Option<Duration>,
    ) -> Result<bool, StoreError> {
        let full = self.key(key);
        let held = match &self.backend {
            Backend::Embedded(s) => s.if_holds(&full, holder, ttl).await,
            Backend::Redis(s) => s.if_holds(&full, holder, ttl).await,
        }?;
        if held {
            self.invalidated(key).await;
        }
        Ok(held)
    }

    /// Ordered sets (the webhook delivery queue): adds `member` to `set` with `score`, or
    /// moves it there. Redis keeps a sorted set, so reading what is due never scans the
    /// keyspace.
    pub async fn rank(&self, set: &str, member: &str, score: i64) -> Result<(), StoreError> {
        let set = self.key(set);
        match &self.backend {
            Backend::Embedded(s) => s.rank(&set, member, score).await,
            Backend::Redis(s) => s.rank(&set, member, score).await,
        }
    }

    /// Up to `limit` members of `set` with a score of at most `max`, lowest first.
    pub async fn ranked_upto(
        &self,
        set: &str,
        max: i64,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let set = self.key(set);
        match &self.backend {
            Backend::Embedded(s) => s.ranked_upto(&set, max, limit).await,
            Backend::Redis(s) => s.ranked_upto(&set, max, limit).await,
        }
    }

    /// Removes `member` from `set`; whether it was there.
    pub async fn unrank(&self, set: &str, member: &str) -> Result<bool, StoreError> {
        let set = self.key(set);
        match &self.backend {
            Backend::Embedded(s) => s.unrank(&set, member).await,
            Backend::Redis(s) => s.unrank(&set, member).await,
        }
    }

    /// Removes `key`; whether it existed.
    pub async fn delete(&self, key: &str) -> Result<bool, StoreError> {
        let full = self.key(key);
        self.pending.forget(&full);
        let existed = match &self.backend {
            Backend::Embedded(s) => s.delete(&full).await,
            Backend::Redis(s) => s.delete(&full).await,
        }?;
        self.invalidated(key).await;
        Ok(existed)
    }

    /// Every live key starting with `prefix`, with its value, sorted by key.
    pub async fn scan(&self, prefix: &str) -> Result<Vec<(String, Vec<u8>)>, StoreError> {
        let prefix = self.key(prefix);
        let found = match &self.backend {
            Backend::Embedded(s) => s.scan(&prefix).await?,
            Backend::Redis(s) => s.scan(&prefix).await?,
        };
        let strip = self.namespace.len();
        Ok(found
            .into_iter()
            .map(|(k, v)| (k[strip..].to_string(), v))
            .collect())
    }

    /// Atomically adds `amount` to the counter at `key` unless that would take it above
    /// `limit` (no limit: always). The counter expires `ttl` after it is created. Concurrent
    /// callers never over-admit.
    pub async fn admit(
        &self,
        key: &str,
        amount: u64,
        limit: Option<u64>,
        ttl: Duration,
    ) -> Result<Admitted, StoreError> {
        debug_assert!(!cache::covers(key), "a counter under a cached prefix");
        let key = self.full_key(key);
        match &self.backend {
            Backend::Embedded(s) => s.admit(&key, amount, limit, ttl).await,
            Backend::Redis(s) => s.admit(&key, amount, limit, ttl).await,
        }
    }

    /// Adds `amount` to the counter at `key`, which has no limit to check, without waiting for
    /// Redis (`behind.rs`); the embedded store counts in memory as `admit` does. The counter
    /// expires `ttl` after it is created.
    pub async fn count_behind(
        &self,
        key: &str,
        amount: u64,
        ttl: Duration,
    ) -> Result<(), StoreError> {
        debug_assert!(!cache::covers(key), "a counter under a cached prefix");
        let key = self.full_key(key);
        match &self.backend {
            Backend::Embedded(s) => s.admit(&key, amount, None, ttl).await.map(|_| ()),
            Backend::Redis(_) => {
                if self.pending.add(&key, amount, ttl) {
                    self.write_behind();
                }
                Ok(())
            }
        }
    }

    /// The task writing the pending counts every `behind::INTERVAL`, until there are none.
    fn write_behind(&self) {
        let this = self.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(behind::INTERVAL).await;
                let _turn = this.pending.turn.lock().await;
                let counts = this.pending.take(true);
                if counts.is_empty() {
                    return;
                }
                if let Err(e) = this.write_pending(counts).await {
                    tracing::warn!("store: writing counts behind: {e}; retried shortly");
                }
            }
        });
    }

    /// Writes `counts` to Redis; those not written stay pending.
    async fn write_pending(&self, counts: Vec<(String, u64, Duration)>) -> Result<(), StoreError> {
        let Backend::Redis(redis) = &self.backend else {
            return Ok(());
        };
        let mut counts = counts.into_iter();
        while let Some((key, amount, ttl)) = counts.next() {
            if let Err(e) = redis.admit(&key, amount, None, ttl).await {
                self.pending
                    .restore(std::iter::once((key, amount, ttl)).chain(counts).collect());
                return Err(e);
            }
        }
        Ok(())
    }

    /// Returns once every count written behind before the call is in the store: this
    /// instance's written now, other instances' (whose writers run every `behind::INTERVAL`)
    /// waited for. For an erasure, which must find every counter it deletes.
    pub async fn settle_counts(&self) -> Result<(), StoreError> {
        if let Backend::Redis(_) = &self.backend {
            self.flush().await?;
            tokio::time::sleep(2 * behind::INTERVAL).await;
        }
        Ok(())
    }

    /// The counter at `key` (0 when absent), with what this instance holds pending for it.
    pub async fn count(&self, key: &str) -> Result<u64, StoreError> {
        let _turn = self.pending.turn.lock().await;
        let stored: u64 = self
            .get(key)
            .await?
            .and_then(|v| String::from_utf8(v).ok())
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        Ok(stored + self.pending.of(&self.full_key(key)))
    }

    /// Makes everything written so far durable (at shutdown; Redis persists on its own, and is
    /// given the counts still pending).
    pub async fn flush(&self) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Embedded(s) => s.flush().await,
            Backend::Redis(_) => {
                let _turn = self.pending.turn.lock().await;
                self.write_pending(self.pending.take(false)).await
            }
        }
    }

    /// Whether the store answers (health monitor).
    pub async fn ping(&self) -> Result<(), StoreError> {
        self.get(keyspace::HEALTH_PING).await.map(|_| ())
    }

    /// Removes every key of `remove` and writes `put` (without expiry) as one atomic change,
    /// only if each key of `remove` holds a live value; whether it did. A crash or a reader
    /// sees all of the change or none of it, and of concurrent calls removing the same key
    /// one applies (key rotation: the new record in, the old one out). Not for counters.
    pub async fn swap(&self, remove: &[&str], put: &[(&str, &[u8])]) -> Result<bool, StoreError> {
        let removed: Vec<String> = remove.iter().map(|k| self.key(k)).collect();
        let written: Vec<(String, Vec<u8>)> =
            put.iter().map(|(k, v)| (self.key(k), v.to_vec())).collect();
        let applied = match &self.backend {
            Backend::Embedded(s) => s.swap(removed, written).await,
            Backend::Redis(s) => s.swap(&removed, &written).await,
        }?;
        if applied {
            for key in remove.iter().chain(put.iter().map(|(k, _)| k)) {
                self.invalidated(key).await;
            }
        }
        Ok(applied)
    }
}
