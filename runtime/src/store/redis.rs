//! The Redis backend: a multiplexed connection manager (reconnects on its own), plain GET/SET
//! with PX expiry (NX for set-if-absent), SCAN for prefixes, and a Lua script for the atomic
//! admission counter.

use std::time::Duration;

use redis::AsyncCommands;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use super::{Admitted, StoreError};

/// KEYS[1] counter; ARGV amount, limit (-1 = none), ttl ms. Returns {admitted, count}.
const ADMIT: &str = r"
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local amount = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
if limit >= 0 and current + amount > limit then
  return {0, current}
end
local next = redis.call('INCRBY', KEYS[1], amount)
if next == amount then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return {1, next}
";

#[derive(Clone)]
pub struct RedisStore {
    con: ConnectionManager,
    admit: redis::Script,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RedisStore")
    }
}

impl RedisStore {
    pub async fn connect(url: &str) -> anyhow::Result<RedisStore> {
        let client = redis::Client::open(url)
            .map_err(|e| anyhow::anyhow!("SAFEREF_REDIS_URL {url:?}: {e}"))?;
        // Bounded waits: with Redis down a request gets its 503 in about two seconds instead
        // of hanging on reconnection attempts.
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Duration::from_secs(2))
            .set_response_timeout(Duration::from_secs(2))
            .set_number_of_retries(2)
            .set_max_delay(500);
        let con = ConnectionManager::new_with_config(client, config)
            .await
            .map_err(|e| anyhow::anyhow!("cannot reach Redis at {url}: {e}"))?;
        Ok(RedisStore {
            con,
            admit: redis::Script::new(ADMIT),
        })
    }

    pub async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.con.clone().get(key).await?)
    }

    pub async fn put(
        &self,
        key: &str,
        value: &[u8],
        ttl: Option<Duration>,
    ) -> Result<(), StoreError> {
        let mut con = self.con.clone();
        match ttl {
            Some(t) => {
                let _: () = redis::cmd("SET")
                    .arg(key)
                    .arg(value)
                    .arg("PX")
                    .arg(t.as_millis().max(1) as u64)
                    .query_async(&mut con)
                    .await?;
            }
            None => {
                let _: () = con.set(key, value).await?;
            }
        }
        Ok(())
    }

    pub async fn put_if_absent(
        &self,
        key: &str,
        value: &[u8],
        ttl: Option<Duration>,
    ) -> Result<bool, StoreError> {
        let mut cmd = redis::cmd("SET");
        cmd.arg(key).arg(value).arg("NX");
        if let Some(t) = ttl {
            cmd.arg("PX").arg(t.as_millis().max(1) as u64);
        }
        let set: Option<String> = cmd.query_async(&mut self.con.clone()).await?;
        Ok(set.is_some())
    }

    pub async fn delete(&self, key: &str) -> Result<bool, StoreError> {
        let n: u64 = self.con.clone().del(key).await?;
        Ok(n > 0)
    }

    pub async fn scan(&self, prefix: &str) -> Result<Vec<(String, Vec<u8>)>, StoreError> {
        let mut con = self.con.clone();
        let pattern = format!("{}*", escape_glob(prefix));
        let mut keys: Vec<String> = Vec::new();
        let mut cursor: u64 = 0;
        loop {
            let (next, batch): (u64, Vec<String>) = redis::cmd("SCAN")
                .arg(cursor)
                .arg("MATCH")
                .arg(&pattern)
                .arg("COUNT")
                .arg(500)
                .query_async(&mut con)
                .await?;
            keys.extend(batch);
            if next == 0 {
                break;
            }
            cursor = next;
        }
        keys.sort();
        keys.dedup();
        let mut out = Vec::with_capacity(keys.len());
        for key in keys {
            // A key may expire between SCAN and GET; it is then left out.
            if let Some(v) = con.get::<_, Option<Vec<u8>>>(&key).await? {
                out.push((key, v));
            }
        }
        Ok(out)
    }

    pub async fn admit(
        &self,
        key: &str,
        amount: u64,
        limit: Option<u64>,
        ttl: Duration,
    ) -> Result<Admitted, StoreError> {
        let mut con = self.con.clone();
        let (admitted, count): (i64, u64) = self
            .admit
            .key(key)
            .arg(amount)
            .arg(limit.map_or(-1, |l| l as i64))
            .arg(ttl.as_millis() as u64)
            .invoke_async(&mut con)
            .await?;
        Ok(Admitted {
            admitted: admitted == 1,
            count,
        })
    }
}

/// Escapes Redis glob characters so a prefix matches literally.
fn escape_glob(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
