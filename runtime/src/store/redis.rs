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

/// KEYS[1] lease; ARGV holder, ttl ms (0 = release). Acts only while the holder holds it.
const IF_HOLDS: &str = r"
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
if tonumber(ARGV[2]) == 0 then
  return redis.call('DEL', KEYS[1])
end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
";

#[derive(Clone)]
pub struct RedisStore {
    /// For the Pub/Sub connection of `subscribe` (a connection of its own).
    client: redis::Client,
    con: ConnectionManager,
    admit: redis::Script,
    if_holds: redis::Script,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RedisStore")
    }
}

impl RedisStore {
    pub async fn connect(url: &str) -> anyhow::Result<RedisStore> {
        let client = redis::Client::open(url)
            .map_err(|e| anyhow::anyhow!("SAFEREF_REDIS_URL {:?}: {e}", redacted(url)))?;
        // Bounded waits: with Redis down a request gets its 503 in about two seconds instead
        // of hanging on reconnection attempts.
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Duration::from_secs(2))
            .set_response_timeout(Duration::from_secs(2))
            .set_number_of_retries(2)
            .set_max_delay(500);
        let con = ConnectionManager::new_with_config(client.clone(), config)
            .await
            .map_err(|e| anyhow::anyhow!("cannot reach Redis at {}: {e}", redacted(url)))?;
        Ok(RedisStore {
            client,
            con,
            admit: redis::Script::new(ADMIT),
            if_holds: redis::Script::new(IF_HOLDS),
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
        for chunk in keys.chunks(500) {
            // MGET answers nil for a key that expired since SCAN and for one that is not a
            // string (the sorted sets of `rank`): both are left out.
            let values: Vec<Option<Vec<u8>>> =
                redis::cmd("MGET").arg(chunk).query_async(&mut con).await?;
            for (key, value) in chunk.iter().zip(values) {
                if let Some(v) = value {
                    out.push((key.clone(), v));
                }
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

impl RedisStore {
    /// Renews (`ttl`) or releases (`None`) `key` if it holds `holder`; whether it did.
    pub async fn if_holds(
        &self,
        key: &str,
        holder: &[u8],
        ttl: Option<Duration>,
    ) -> Result<bool, StoreError> {
        let done: i64 = self
            .if_holds
            .key(key)
            .arg(holder)
            .arg(ttl.map_or(0, |t| t.as_millis().max(1) as u64))
            .invoke_async(&mut self.con.clone())
            .await?;
        Ok(done == 1)
    }
}

/// KEYS the keys to remove, then the keys to write; ARGV[1] how many to remove, then the
/// values to write. A script runs (and reaches the AOF) as one unit: all of it or nothing.
const SWAP: &str = r"
local n = tonumber(ARGV[1])
for i = 1, n do
  if redis.call('EXISTS', KEYS[i]) == 0 then
    return 0
  end
end
for i = 1, n do
  redis.call('DEL', KEYS[i])
end
for i = n + 1, #KEYS do
  redis.call('SET', KEYS[i], ARGV[i - n + 1])
end
return 1
";

static SWAP_SCRIPT: std::sync::LazyLock<redis::Script> =
    std::sync::LazyLock::new(|| redis::Script::new(SWAP));

impl RedisStore {
    pub async fn swap(
        &self,
        remove: &[String],
        put: &[(String, Vec<u8>)],
    ) -> Result<bool, StoreError> {
        let mut call = SWAP_SCRIPT.prepare_invoke();
        call.key(remove).arg(remove.len());
        for (key, value) in put {
            call.key(key).arg(value.as_slice());
        }
        let applied: i64 = call.invoke_async(&mut self.con.clone()).await?;
        Ok(applied == 1)
    }
}

impl RedisStore {
    pub async fn rank(&self, set: &str, member: &str, score: i64) -> Result<(), StoreError> {
        let _: i64 = self.con.clone().zadd(set, member, score).await?;
        Ok(())
    }

    pub async fn ranked_upto(
        &self,
        set: &str,
        max: i64,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        Ok(self
            .con
            .clone()
            .zrangebyscore_limit(set, "-inf", max, 0, limit as isize)
            .await?)
    }

    pub async fn unrank(&self, set: &str, member: &str) -> Result<bool, StoreError> {
        let n: i64 = self.con.clone().zrem(set, member).await?;
        Ok(n > 0)
    }
}

/// `url` with its credentials masked: messages name the server, never its password.
fn redacted(url: &str) -> String {
    match url.split_once("://") {
        Some((scheme, rest)) => match rest.rfind('@') {
            Some(at) => format!("{scheme}://***@{}", &rest[at + 1..]),
            None => url.to_string(),
        },
        None => "(not a URL)".to_string(),
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

impl RedisStore {
    /// Publishes `message` on `channel`; how many subscribers received it.
    pub async fn publish(&self, channel: &str, message: &str) -> Result<u64, StoreError> {
        Ok(self.con.clone().publish(channel, message).await?)
    }

    /// A connection subscribed to `channel` (confirmed by Redis when this returns).
    pub async fn subscribe(&self, channel: &str) -> Result<redis::aio::PubSub, StoreError> {
        let mut pubsub = self.client.get_async_pubsub().await?;
        pubsub.subscribe(channel).await?;
        Ok(pubsub)
    }

    /// Adds one to the counter at `key`, which expires `ttl` after this call.
    pub async fn increment(&self, key: &str, ttl: Duration) -> Result<(), StoreError> {
        let _: (i64, i64) = redis::pipe()
            .atomic()
            .incr(key, 1)
            .pexpire(key, ttl.as_millis() as i64)
            .query_async(&mut self.con.clone())
            .await?;
        Ok(())
    }
}
