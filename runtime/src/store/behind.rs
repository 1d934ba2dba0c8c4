//! Counts written behind on Redis (`Store::count_behind`). A count with no limit to check (an
//! enterprise caller's request) can never be refused, so its request does not wait for Redis:
//! the amount joins this instance's pending counts, and one task writes them (the admission
//! script without a limit: `INCRBY`, the expiry set when the counter is new) at most
//! `INTERVAL` later, and at `Store::flush`. A write that fails keeps its counts pending for the
//! next interval.
//!
//! What it changes: this instance's own reads of a counter (`Store::count`) add what it holds
//! pending, and wait for a write in flight (`turn`), so its answers are exact; another instance
//! reads a count up to `INTERVAL` late; a crash forgets up to `INTERVAL` of such counting. Counts with a limit are never written
//! behind: concurrent instances must not over-admit.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

/// How long a count waits, at most, to be written.
pub const INTERVAL: Duration = Duration::from_millis(200);

#[derive(Debug, Default)]
pub struct Pending {
    inner: Mutex<Inner>,
    /// Held while counts taken from here are written, and by a read of a counter: a read never
    /// meets counts that are neither pending nor in Redis yet.
    pub turn: tokio::sync::Mutex<()>,
}

#[derive(Debug, Default)]
struct Inner {
    /// By full key: the amount not yet written, and the counter's expiry if it is new.
    counts: HashMap<String, (u64, Duration)>,
    /// Whether a writer task is running (it stops once it finds nothing to write).
    writing: bool,
}

impl Pending {
    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves plain numbers behind: still usable.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds `amount` to `key`'s pending count; whether the caller must start a writer.
    pub fn add(&self, key: &str, amount: u64, ttl: Duration) -> bool {
        let mut inner = self.inner();
        match inner.counts.get_mut(key) {
            Some((pending, _)) => *pending += amount,
            None => {
                inner.counts.insert(key.to_string(), (amount, ttl));
            }
        }
        !std::mem::replace(&mut inner.writing, true)
    }

    /// The counts to write now. Empty when there are none: the writer then stops, and the next
    /// `add` starts another.
    pub fn take(&self, stop_when_empty: bool) -> Vec<(String, u64, Duration)> {
        let mut inner = self.inner();
        if inner.counts.is_empty() && stop_when_empty {
            inner.writing = false;
        }
        inner
            .counts
            .drain()
            .map(|(key, (amount, ttl))| (key, amount, ttl))
            .collect()
    }

    /// Counts whose write failed, pending again.
    pub fn restore(&self, counts: Vec<(String, u64, Duration)>) {
        let mut inner = self.inner();
        for (key, amount, ttl) in counts {
            inner.counts.entry(key).or_insert((0, ttl)).0 += amount;
        }
    }

    /// What `key` holds pending.
    pub fn of(&self, key: &str) -> u64 {
        self.inner().counts.get(key).map_or(0, |(n, _)| *n)
    }

    /// Forgets `key`'s pending count (the counter is deleted).
    pub fn forget(&self, key: &str) {
        self.inner().counts.remove(key);
    }
}
