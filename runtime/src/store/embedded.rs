//! The embedded backend: one redb database file. Values carry their expiry time; expired
//! entries read as absent. Calls run on the blocking pool.
//!
//! Admission counters are kept in memory and written behind (at most a second late, by a task
//! of their own so no request waits for it, and at `flush`): redb locks its file, so this process is the only writer and the in-memory count
//! is authoritative and atomic under one mutex. A write transaction per request would bound
//! throughput; a crash forgets at most the last second of counting, never a key.
//!
//! Every live counter under `keyspace::COUNTERS` is read into memory when the database is
//! opened, so a counter under those prefixes that memory does not hold does not exist: its
//! first admission starts at 0 on the async worker, without a read on the blocking pool (a
//! public client's first request of the day). A counter under another key (a namespaced
//! store's) is read from the database at its first admission, as before.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use redb::{Database, ReadableTable, TableDefinition};

use super::{Admitted, StoreError, keyspace};

/// key -> (expiry in Unix ms, 0 = never; value)
const TABLE: TableDefinition<&str, (u64, &[u8])> = TableDefinition::new("kv");
/// Ordered sets: (set, score, member), and (set, member) -> score to find a member's entry.
const RANKED: TableDefinition<(&str, i64, &str), ()> = TableDefinition::new("ranked");
const SCORES: TableDefinition<(&str, &str), i64> = TableDefinition::new("scores");

#[derive(Debug, Clone)]
pub struct Embedded {
    db: Arc<Database>,
    /// Counters by key. A `std` mutex: held only for map updates, never across an await.
    counters: Arc<Mutex<Counters>>,
    /// The turn to write counters (`write_dirty`).
    writer: Arc<tokio::sync::Mutex<()>>,
}

#[derive(Debug, Default)]
struct Counters {
    map: HashMap<String, Counter>,
    /// The keys of the counters marked dirty since the last write (a key at most once while
    /// its counter stays dirty): the write takes these, not a scan of the whole map, which
    /// holds every public client's counter of the day.
    dirty: Vec<String>,
    last_write: Option<Instant>,
    /// When expired counters were last dropped from memory (`take_dirty`).
    last_sweep: Option<Instant>,
}

impl Counters {
    /// Marks `counter` (held at `key`) dirty, listing its key if it was clean.
    fn mark(dirty: &mut Vec<String>, key: &str, counter: &mut Counter) {
        if !std::mem::replace(&mut counter.dirty, true) {
            dirty.push(key.to_string());
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Counter {
    count: u64,
    expires: u64,
    dirty: bool,
}

const WRITE_BEHIND: Duration = Duration::from_secs(1);
/// How often expired counters are dropped from memory: a scan of the whole map, so not at
/// every write. An expired counter held meanwhile reads as absent and is counted from 0.
const SWEEP: Duration = Duration::from_secs(60);

fn err(e: impl std::fmt::Display) -> StoreError {
    StoreError::Embedded(e.to_string())
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

fn expiry(ttl: Option<Duration>) -> u64 {
    ttl.map_or(0, |t| now_ms() + t.as_millis() as u64)
}

fn live(expires: u64) -> bool {
    expires == 0 || expires > now_ms()
}

/// Every live counter under `keyspace::COUNTERS` in the database (the module comment).
fn live_counters(db: &Database) -> anyhow::Result<HashMap<String, Counter>> {
    let txn = db.begin_read()?;
    let table = txn.open_table(TABLE)?;
    let mut map = HashMap::new();
    for prefix in keyspace::COUNTERS {
        for entry in table.range(*prefix..)? {
            let (k, v) = entry?;
            let key = k.value();
            if !key.starts_with(prefix) {
                break;
            }
            let (expires, value) = v.value();
            if !live(expires) {
                continue;
            }
            // As a first admission read it: a value that is no number counts from 0.
            let count = std::str::from_utf8(value)
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
            let counter = Counter {
                count,
                expires,
                dirty: false,
            };
            map.insert(key.to_string(), counter);
        }
    }
    Ok(map)
}

/// Counts `amount` on `entry` (held at `key`) unless that passes `limit`; an expired counter
/// starts again at 0 for `ttl`.
fn tally(
    dirty: &mut Vec<String>,
    key: &str,
    entry: &mut Counter,
    amount: u64,
    limit: Option<u64>,
    ttl: Duration,
) -> Admitted {
    if !live(entry.expires) {
        entry.count = 0;
        entry.expires = expiry(Some(ttl));
        Counters::mark(dirty, key, entry);
    }
    if limit.is_some_and(|l| entry.count + amount > l) {
        Admitted {
            admitted: false,
            count: entry.count,
        }
    } else {
        entry.count += amount;
        Counters::mark(dirty, key, entry);
        Admitted {
            admitted: true,
            count: entry.count,
        }
    }
}

impl Embedded {
    pub fn open(path: &Path) -> anyhow::Result<Embedded> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let db = Database::create(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let txn = db.begin_write()?;
        txn.open_table(TABLE)?;
        txn.open_table(RANKED)?;
        txn.open_table(SCORES)?;
        txn.commit()?;
        let counters = Counters {
            map: live_counters(&db)?,
            ..Counters::default()
        };
        Ok(Embedded {
            db: Arc::new(db),
            counters: Arc::new(Mutex::new(counters)),
            writer: Arc::default(),
        })
    }

    fn counters(&self) -> std::sync::MutexGuard<'_, Counters> {
        // A panic while holding the lock leaves plain numbers behind: still usable.
        self.counters.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The counter at `key` held in memory, if any (live or not).
    fn counter(&self, key: &str) -> Option<Counter> {
        self.counters().map.get(key).copied()
    }

    /// Writes counters to the database without an fsync (see the module comment).
    async fn write_counters(&self, batch: Vec<(String, Counter)>) -> Result<(), StoreError> {
        self.blocking(move |db| {
            let mut txn = db.begin_write().map_err(err)?;
            txn.set_durability(redb::Durability::Eventual);
            {
                let mut table = txn.open_table(TABLE).map_err(err)?;
                for (key, c) in &batch {
                    table
                        .insert(key.as_str(), (c.expires, c.count.to_string().as_bytes()))
                        .map_err(err)?;
                }
            }
            txn.commit().map_err(err)
        })
        .await
    }

    /// Takes the dirty counters (those listed since the last write), and every `SWEEP` drops
    /// expired ones from memory.
    fn take_dirty(&self) -> Vec<(String, Counter)> {
        let mut guard = self.counters();
        let c = &mut *guard;
        if c.last_sweep.is_none_or(|t| t.elapsed() >= SWEEP) {
            c.map.retain(|_, v| live(v.expires) || v.dirty);
            c.last_sweep = Some(Instant::now());
        }
        let listed = std::mem::take(&mut c.dirty);
        let mut taken = Vec::with_capacity(listed.len());
        for key in listed {
            // A key deleted since it was listed is gone; one listed again after a delete is
            // clean at its second listing once taken at its first.
            if let Some(v) = c.map.get_mut(&key).filter(|v| v.dirty) {
                v.dirty = false;
                let v = *v;
                taken.push((key, v));
            }
        }
        taken
    }

    /// Writes the dirty counters. One writer at a time, each taking the counts when it holds
    /// the turn, so a later write never carries older counts than an earlier one.
    async fn write_dirty(&self) -> Result<(), StoreError> {
        let _turn = self.writer.lock().await;
        let dirty = self.take_dirty();
        if dirty.is_empty() {
            return Ok(());
        }
        let result = self.write_counters(dirty.clone()).await;
        if result.is_err() {
            self.mark_dirty(dirty);
        }
        result
    }

    /// Marks counters whose write failed as still to write.
    fn mark_dirty(&self, batch: Vec<(String, Counter)>) {
        let mut guard = self.counters();
        let c = &mut *guard;
        for (key, _) in batch {
            if let Some(v) = c.map.get_mut(&key) {
                Counters::mark(&mut c.dirty, &key, v);
            }
        }
    }

    async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Database) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let db = self.db.clone();
        tokio::task::spawn_blocking(move || f(&db))
            .await
            .map_err(err)?
    }

    /// Makes every earlier commit durable (called at shutdown).
    pub async fn flush(&self) -> Result<(), StoreError> {
        self.write_dirty().await?;
        self.blocking(|db| {
            let txn = db.begin_write().map_err(err)?;
            txn.commit().map_err(err)
        })
        .await
    }

    pub async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        if let Some(c) = self.counter(key) {
            return Ok(live(c.expires).then(|| c.count.to_string().into_bytes()));
        }
        let key = key.to_string();
        self.blocking(move |db| {
            let txn = db.begin_read().map_err(err)?;
            let table = txn.open_table(TABLE).map_err(err)?;
            let Some(guard) = table.get(key.as_str()).map_err(err)? else {
                return Ok(None);
            };
            let (exp, value) = guard.value();
            Ok(live(exp).then(|| value.to_vec()))
        })
        .await
    }

    pub async fn put(
        &self,
        key: &str,
        value: &[u8],
        ttl: Option<Duration>,
    ) -> Result<(), StoreError> {
        let (key, value) = (key.to_string(), value.to_vec());
        self.blocking(move |db| {
            let txn = db.begin_write().map_err(err)?;
            {
                let mut table = txn.open_table(TABLE).map_err(err)?;
                table
                    .insert(key.as_str(), (expiry(ttl), value.as_slice()))
                    .map_err(err)?;
            }
            txn.commit().map_err(err)
        })
        .await
    }

    pub async fn put_if_absent(
        &self,
        key: &str,
        value: &[u8],
        ttl: Option<Duration>,
    ) -> Result<bool, StoreError> {
        let (key, value) = (key.to_string(), value.to_vec());
        // One write transaction: redb serializes writers, so check and insert are atomic.
        self.blocking(move |db| {
            let txn = db.begin_write().map_err(err)?;
            let set = {
                let mut table = txn.open_table(TABLE).map_err(err)?;
                let taken = table
                    .get(key.as_str())
                    .map_err(err)?
                    .is_some_and(|v| live(v.value().0));
                if !taken {
                    table
                        .insert(key.as_str(), (expiry(ttl), value.as_slice()))
                        .map_err(err)?;
                }
                !taken
            };
            txn.commit().map_err(err)?;
            Ok(set)
        })
        .await
    }

    /// Renews (`ttl`) or releases (`None`) `key` if it holds `holder`; whether it did.
    pub async fn if_holds(
        &self,
        key: &str,
        holder: &[u8],
        ttl: Option<Duration>,
    ) -> Result<bool, StoreError> {
        let (key, holder) = (key.to_string(), holder.to_vec());
        self.blocking(move |db| {
            let txn = db.begin_write().map_err(err)?;
            let held = {
                let mut table = txn.open_table(TABLE).map_err(err)?;
                let held = table
                    .get(key.as_str())
                    .map_err(err)?
                    .is_some_and(|v| live(v.value().0) && v.value().1 == holder.as_slice());
                match ttl {
                    _ if !held => {}
                    Some(ttl) => {
                        table
                            .insert(key.as_str(), (expiry(Some(ttl)), holder.as_slice()))
                            .map_err(err)?;
                    }
                    None => {
                        table.remove(key.as_str()).map_err(err)?;
                    }
                }
                held
            };
            txn.commit().map_err(err)?;
            Ok(held)
        })
        .await
    }

    pub async fn rank(&self, set: &str, member: &str, score: i64) -> Result<(), StoreError> {
        let (set, member) = (set.to_string(), member.to_string());
        self.blocking(move |db| {
            let txn = db.begin_write().map_err(err)?;
            {
                let mut ranked = txn.open_table(RANKED).map_err(err)?;
                let mut scores = txn.open_table(SCORES).map_err(err)?;
                let old = scores
                    .insert((set.as_str(), member.as_str()), score)
                    .map_err(err)?
                    .map(|v| v.value());
                if let Some(old) = old {
                    ranked
                        .remove((set.as_str(), old, member.as_str()))
                        .map_err(err)?;
                }
                ranked
                    .insert((set.as_str(), score, member.as_str()), ())
                    .map_err(err)?;
            }
            txn.commit().map_err(err)
        })
        .await
    }

    pub async fn ranked_upto(
        &self,
        set: &str,
        max: i64,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let set = set.to_string();
        self.blocking(move |db| {
            let txn = db.begin_read().map_err(err)?;
            let ranked = txn.open_table(RANKED).map_err(err)?;
            let mut out = Vec::new();
            for entry in ranked
                .range((set.as_str(), i64::MIN, "")..=(set.as_str(), max, "\u{10FFFF}"))
                .map_err(err)?
                .take(limit)
            {
                out.push(entry.map_err(err)?.0.value().2.to_string());
            }
            Ok(out)
        })
        .await
    }

    pub async fn unrank(&self, set: &str, member: &str) -> Result<bool, StoreError> {
        let (set, member) = (set.to_string(), member.to_string());
        self.blocking(move |db| {
            let txn = db.begin_write().map_err(err)?;
            let existed = {
                let mut ranked = txn.open_table(RANKED).map_err(err)?;
                let mut scores = txn.open_table(SCORES).map_err(err)?;
                let old = scores
                    .remove((set.as_str(), member.as_str()))
                    .map_err(err)?
                    .map(|v| v.value());
                if let Some(old) = old {
                    ranked
                        .remove((set.as_str(), old, member.as_str()))
                        .map_err(err)?;
                }
                old.is_some()
            };
            txn.commit().map_err(err)?;
            Ok(existed)
        })
        .await
    }

    pub async fn delete(&self, key: &str) -> Result<bool, StoreError> {
        let in_memory = self
            .counters()
            .map
            .remove(key)
            .is_some_and(|c| live(c.expires));
        let key = key.to_string();
        self.blocking(move |db| {
            let txn = db.begin_write().map_err(err)?;
            let existed = {
                let mut table = txn.open_table(TABLE).map_err(err)?;
                table
                    .remove(key.as_str())
                    .map_err(err)?
                    .is_some_and(|v| live(v.value().0))
            };
            txn.commit().map_err(err)?;
            Ok(existed)
        })
        .await
        .map(|existed| existed || in_memory)
    }

    pub async fn scan(&self, prefix: &str) -> Result<Vec<(String, Vec<u8>)>, StoreError> {
        let memory: Vec<(String, Counter)> = self
            .counters()
            .map
            .iter()
            .filter(|(k, _)| k.starts_with(prefix))
            .map(|(k, v)| (k.clone(), *v))
            .collect();
        let prefix = prefix.to_string();
        let mut found: std::collections::BTreeMap<String, Vec<u8>> = self
            .blocking(move |db| {
                let txn = db.begin_read().map_err(err)?;
                let table = txn.open_table(TABLE).map_err(err)?;
                let mut out = std::collections::BTreeMap::new();
                for entry in table.range(prefix.as_str()..).map_err(err)? {
                    let (k, v) = entry.map_err(err)?;
                    let key = k.value();
                    if !key.starts_with(prefix.as_str()) {
                        break;
                    }
                    let (exp, value) = v.value();
                    if live(exp) {
                        out.insert(key.to_string(), value.to_vec());
                    }
                }
                Ok(out)
            })
            .await?;
        for (k, c) in memory {
            if live(c.expires) {
                found.insert(k, c.count.to_string().into_bytes());
            } else {
                found.remove(&k);
            }
        }
        Ok(found.into_iter().collect())
    }

    pub async fn admit(
        &self,
        key: &str,
        amount: u64,
        limit: Option<u64>,
        ttl: Duration,
    ) -> Result<Admitted, StoreError> {
        // A counter under the counter prefixes not held is absent (held since the opening).
        let absent = keyspace::is_counter(key).then_some(0);
        let (result, due) = match self.count(key, amount, limit, ttl, absent) {
            Some(counted) => counted,
            None => {
                // Another key's first use in this process: continue from what an earlier run
                // persisted.
                let stored = self
                    .get(key)
                    .await?
                    .and_then(|v| String::from_utf8(v).ok())
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(0);
                self.count(key, amount, limit, ttl, Some(stored))
                    .expect("a counter given where it starts is counted")
            }
        };
        if due {
            // Written behind on a task of its own: the request that happens to come after the
            // interval does not wait for the write transaction.
            let this = self.clone();
            tokio::spawn(async move {
                if let Err(e) = this.write_dirty().await {
                    tracing::warn!("store: writing quota counters: {e}; retried at the next write");
                }
            });
        }
        Ok(result)
    }

    /// Counts `amount` at `key` under one hold of the counters' lock, and says whether the
    /// write-behind interval has passed (starting the next one if so). A counter not in
    /// memory starts at `start`; without one, `None`: the caller reads where it starts.
    fn count(
        &self,
        key: &str,
        amount: u64,
        limit: Option<u64>,
        ttl: Duration,
        start: Option<u64>,
    ) -> Option<(Admitted, bool)> {
        let mut guard = self.counters();
        let counters = &mut *guard;
        // One lookup when the counter is held (every request but a bucket's first of the day).
        let result = match counters.map.get_mut(key) {
            Some(entry) => tally(&mut counters.dirty, key, entry, amount, limit, ttl),
            None => {
                let mut entry = Counter {
                    count: start?,
                    expires: expiry(Some(ttl)),
                    dirty: false,
                };
                let result = tally(&mut counters.dirty, key, &mut entry, amount, limit, ttl);
                counters.map.insert(key.to_string(), entry);
                result
            }
        };
        let due = counters
            .last_write
            .is_none_or(|t| t.elapsed() >= WRITE_BEHIND);
        if due {
            counters.last_write = Some(Instant::now());
        }
        Some((result, due))
    }

    /// One write transaction: redb serializes writers and commits all or nothing.
    pub async fn swap(
        &self,
        remove: Vec<String>,
        put: Vec<(String, Vec<u8>)>,
    ) -> Result<bool, StoreError> {
        self.blocking(move |db| {
            let txn = db.begin_write().map_err(err)?;
            let applied = {
                let mut table = txn.open_table(TABLE).map_err(err)?;
                let mut all_live = true;
                for key in &remove {
                    all_live &= table
                        .get(key.as_str())
                        .map_err(err)?
                        .is_some_and(|v| live(v.value().0));
                }
                if all_live {
                    for key in &remove {
                        table.remove(key.as_str()).map_err(err)?;
                    }
                    for (key, value) in &put {
                        table
                            .insert(key.as_str(), (0, value.as_slice()))
                            .map_err(err)?;
                    }
                }
                all_live
            };
            if applied {
                txn.commit().map_err(err)?;
            } else {
                txn.abort().map_err(err)?;
            }
            Ok(applied)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: Duration = Duration::from_secs(86_400);

    #[tokio::test]
    async fn live_counters_are_held_from_the_opening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.redb");
        let (today, gone, other) = ("quota:ip:1:2026-11-27", "quota:ip:2:2026-11-27", "x:1");
        {
            let store = Embedded::open(&path).unwrap();
            for _ in 0..3 {
                store.admit(today, 1, Some(10), DAY).await.unwrap();
            }
            store
                .admit(gone, 1, None, Duration::from_millis(1))
                .await
                .unwrap();
            store.admit(other, 4, None, DAY).await.unwrap();
            store.flush().await.unwrap();
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
        let store = Embedded::open(&path).unwrap();
        assert_eq!(store.counter(today).map(|c| c.count), Some(3));
        assert!(
            store.counter(gone).is_none(),
            "an expired counter is not held"
        );
        assert!(
            store.counter(other).is_none(),
            "a key under no counter prefix is read at its first admission"
        );
        let next = store.admit(today, 1, Some(10), DAY).await.unwrap();
        assert_eq!((next.admitted, next.count), (true, 4));
        assert_eq!(store.admit(gone, 1, None, DAY).await.unwrap().count, 1);
        assert_eq!(store.admit(other, 1, None, DAY).await.unwrap().count, 5);
    }

    /// What the database holds at `key`, as a count.
    async fn stored(store: &Embedded, key: &str) -> Option<u64> {
        let key = key.to_string();
        store
            .blocking(move |db| {
                let txn = db.begin_read().map_err(err)?;
                let table = txn.open_table(TABLE).map_err(err)?;
                Ok(table
                    .get(key.as_str())
                    .map_err(err)?
                    .map(|v| std::str::from_utf8(v.value().1).unwrap().parse().unwrap()))
            })
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn every_count_is_written_however_often_its_counter_turns_dirty() {
        let dir = tempfile::tempdir().unwrap();
        let store = Embedded::open(&dir.path().join("store.redb")).unwrap();
        let (a, b) = ("quota:acct:a:2026-11-27", "quota:ip:b:2026-11-27");
        for round in 1..=3u64 {
            store.admit(a, 2, Some(100), DAY).await.unwrap();
            store.admit(a, 1, Some(100), DAY).await.unwrap();
            if round == 2 {
                // Deleted while listed dirty, then counted again: written once, from 0.
                store.admit(b, 5, None, DAY).await.unwrap();
                store.delete(b).await.unwrap();
                store.admit(b, 1, None, DAY).await.unwrap();
            }
            store.flush().await.unwrap();
            assert_eq!(stored(&store, a).await, Some(3 * round), "round {round}");
            assert!(store.take_dirty().is_empty(), "round {round}");
        }
        assert_eq!(stored(&store, b).await, Some(1));
        // A refusal changes nothing: nothing to write.
        assert!(!store.admit(a, 1000, Some(100), DAY).await.unwrap().admitted);
        assert!(store.take_dirty().is_empty());
    }
}
