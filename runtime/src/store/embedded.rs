//! The embedded backend: one redb database file. Values carry their expiry time; expired
//! entries read as absent and are removed when next written. redb transactions are
//! serializable, so `admit` is atomic; calls run on the blocking pool.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use redb::{Database, ReadableTable, TableDefinition};

use super::{Admitted, StoreError};

/// key -> (expiry in Unix ms, 0 = never; value)
const TABLE: TableDefinition<&str, (u64, &[u8])> = TableDefinition::new("kv");

#[derive(Debug, Clone)]
pub struct Embedded {
    db: Arc<Database>,
}

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

impl Embedded {
    pub fn open(path: &Path) -> anyhow::Result<Embedded> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let db = Database::create(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let txn = db.begin_write()?;
        txn.open_table(TABLE)?;
        txn.commit()?;
        Ok(Embedded { db: Arc::new(db) })
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
        self.blocking(|db| {
            let txn = db.begin_write().map_err(err)?;
            txn.commit().map_err(err)
        })
        .await
    }

    pub async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
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

    pub async fn delete(&self, key: &str) -> Result<bool, StoreError> {
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
    }

    pub async fn scan(&self, prefix: &str) -> Result<Vec<(String, Vec<u8>)>, StoreError> {
        let prefix = prefix.to_string();
        self.blocking(move |db| {
            let txn = db.begin_read().map_err(err)?;
            let table = txn.open_table(TABLE).map_err(err)?;
            let mut out = Vec::new();
            for entry in table.range(prefix.as_str()..).map_err(err)? {
                let (k, v) = entry.map_err(err)?;
                let key = k.value();
                if !key.starts_with(prefix.as_str()) {
                    break;
                }
                let (exp, value) = v.value();
                if live(exp) {
                    out.push((key.to_string(), value.to_vec()));
                }
            }
            Ok(out)
        })
        .await
    }

    pub async fn admit(
        &self,
        key: &str,
        amount: u64,
        limit: Option<u64>,
        ttl: Duration,
    ) -> Result<Admitted, StoreError> {
        let key = key.to_string();
        self.blocking(move |db| {
            let mut txn = db.begin_write().map_err(err)?;
            // Counters commit without an fsync each (one per request would bound throughput
            // by the disk); they become durable with the next durable commit or `flush`. A
            // crash may forget the last moments of counting, never a key.
            txn.set_durability(redb::Durability::Eventual);
            let result = {
                let mut table = txn.open_table(TABLE).map_err(err)?;
                let current = table.get(key.as_str()).map_err(err)?.and_then(|guard| {
                    let (exp, v) = guard.value();
                    let n = std::str::from_utf8(v).ok().and_then(|s| s.parse().ok());
                    live(exp).then_some((exp, n.unwrap_or(0u64)))
                });
                let (exp, count) = current.unwrap_or((expiry(Some(ttl)), 0));
                if limit.is_some_and(|l| count + amount > l) {
                    Admitted {
                        admitted: false,
                        count,
                    }
                } else {
                    let next = count + amount;
                    table
                        .insert(key.as_str(), (exp, next.to_string().as_bytes()))
                        .map_err(err)?;
                    Admitted {
                        admitted: true,
                        count: next,
                    }
                }
            };
            txn.commit().map_err(err)?;
            Ok(result)
        })
        .await
    }
}
