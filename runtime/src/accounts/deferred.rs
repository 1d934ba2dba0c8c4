//! The work of an account request that depends on the address (is there an account, is this
//! a first trial, does the mail go out), done after the request is answered: the answer then
//! takes the same time and has the same status for every address, and a mail server that
//! fails or stalls is never seen by the caller (issue 23: 1.2 ms with an account against
//! 0.37 ms without, and a 503 only when there was a mail to send).
//!
//! A job is written to the store before its request is answered (the same write for every
//! address), and removed once it has run, so a stop does not lose it: at a graceful stop the
//! queue is given `DRAIN` to empty, and whatever is left, or was queued when the process was
//! killed, is run at the next start (`replay`). One worker per service runs the jobs in the
//! order they were queued; a job is claimed in the store before it runs, so of the instances
//! sharing a store exactly one runs it, and each instance takes over, once a minute, the jobs
//! whose claim lapsed (an instance that died holding them). The embedded store is one
//! process's, so a claim found there at start is a dead process's and is dropped at once.
//! Past `CAPACITY` jobs waiting in memory a new one waits in the store for the next sweep.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use chrono::{DateTime, Utc};
use minijinja::context;
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc::{self, error::TrySendError};

use super::codes::{self, Purpose};
use crate::Service;
use crate::keys::{self, Billing};
use crate::mail;
use crate::store::{StoreError, keyspace};
use crate::tier::Tier;

/// Jobs waiting in memory at most; each is one store lookup and at most one mail.
const CAPACITY: usize = 4096;
/// How long a graceful stop waits for the queue to empty; the rest runs at the next start.
pub const DRAIN: Duration = Duration::from_secs(5);
/// How long a claim holds a job: past it, another instance may run the job.
const CLAIM: Duration = Duration::from_secs(120);
/// How often an instance looks for jobs no live instance holds.
const SWEEP: Duration = Duration::from_secs(60);
/// A job not run by then is dropped (its caller has long asked again).
const KEPT: Duration = Duration::from_secs(7 * 86_400);

/// Trial keys open this tier for `TRIAL_DAYS`.
pub const TRIAL_TIER: Tier = Tier::Developer;
pub const TRIAL_DAYS: u64 = 7;
/// How long a trial mark refuses a second trial to its mailbox.
const TRIAL_MARK_KEPT: Duration = Duration::from_secs(365 * 86_400);

/// One job, as kept in the store until it has run.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "job", rename_all = "snake_case")]
pub enum Job {
    /// A trial key for the address, if its mailbox had none.
    Trial {
        email: String,
        at: DateTime<Utc>,
        expires: DateTime<Utc>,
    },
    /// A code to the address, if it has an account.
    Code { email: String, purpose: Purpose },
}

/// The queue of one service. Its worker is started on the first job, on the runtime that
/// queues it, and again if that runtime has ended (tests run services on several).
#[derive(Debug, Default)]
pub struct Deferred {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    jobs: Option<mpsc::Sender<String>>,
    /// Ids queued in memory and not yet run, so a sweep does not queue one twice.
    waiting: HashSet<String>,
}

/// Writes `job` to the store, then queues it to run after the jobs before it; never waits
/// for the job. An error is the store's, the same for every address.
pub async fn queue(service: &Arc<Service>, job: &Job) -> Result<(), StoreError> {
    let now = Utc::now();
    let micros = now.timestamp_micros();
    // Sortable by time; the random tail keeps two jobs of one microsecond apart.
    let id = format!("{micros:016x}-{}", keys::random_base62(8));
    // Strings and times: serialising cannot fail.
    let body = serde_json::to_vec(job).unwrap_or_default();
    let store = &service.store;
    store
        .put(&keyspace::account_job(&id), &body, Some(KEPT))
        .await?;
    store.rank(keyspace::ACCOUNT_JOBS, &id, micros).await?;
    push(service, id);
    Ok(())
}

/// At start: every job left in the store by an earlier process, queued in order; then a
/// sweep each `SWEEP` for jobs another instance left (their claims lapse after `CLAIM`).
pub async fn replay(service: Arc<Service>) {
    let embedded = service.store.backend() == "embedded";
    let mut first = true;
    loop {
        let due = Utc::now().timestamp_micros();
        match service
            .store
            .ranked_upto(keyspace::ACCOUNT_JOBS, due, CAPACITY)
            .await
        {
            Ok(ids) => {
                if first && !ids.is_empty() {
                    tracing::info!(jobs = ids.len(), "account jobs left by an earlier process");
                }
                for id in ids {
                    if first && embedded {
                        // Only this process opens the embedded store: the holder is gone.
                        let _ = service
                            .store
                            .delete(&keyspace::account_job_claim(&id))
                            .await;
                    }
                    push(&service, id);
                }
            }
            Err(e) => tracing::warn!("account jobs: {e} (looked for again in a minute)"),
        }
        first = false;
        tokio::time::sleep(SWEEP).await;
    }
}

/// Queues job `id` in memory, unless it is already waiting there.
fn push(service: &Arc<Service>, id: String) {
    let mut guard = service
        .deferred
        .inner
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    let inner = &mut *guard;
    if !inner.waiting.insert(id.clone()) {
        return;
    }
    let mut id = id;
    if let Some(tx) = inner.jobs.as_ref() {
        match tx.try_send(id) {
            Ok(()) => return,
            Err(TrySendError::Full(back)) => {
                tracing::warn!(
                    "account work queue full ({CAPACITY} jobs): one waits in the store for the next sweep"
                );
                inner.waiting.remove(&back);
                return;
            }
            Err(TrySendError::Closed(back)) => id = back,
        }
    }
    let (tx, mut rx) = mpsc::channel::<String>(CAPACITY);
    // Weak: the service owns the queue, and a service dropped (a test's) ends its worker.
    let worker = Arc::downgrade(service);
    tokio::spawn(async move {
        while let Some(id) = rx.recv().await {
            let Some(service) = worker.upgrade() else {
                break;
            };
            if let Err(e) = run(&service, &id).await {
                tracing::error!("account job: {e:#}");
            }
            service
                .deferred
                .inner
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .waiting
                .remove(&id);
        }
    });
    if let Err(e) = tx.try_send(id) {
        tracing::error!("account work queue: {e}");
    }
    inner.jobs = Some(tx);
}

impl Deferred {
    /// Waits until no job waits in memory, or `bound` passes (graceful stop); whether the
    /// queue emptied. What is left stays in the store for the next start.
    pub async fn drain(&self, bound: Duration) -> bool {
        let until = tokio::time::Instant::now() + bound;
        loop {
            let left = self
                .inner
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .waiting
                .len();
            if left == 0 {
                return true;
            }
            if tokio::time::Instant::now() >= until {
                tracing::warn!(
                    jobs = left,
                    "account jobs still queued at the stop: they run at the next start"
                );
                return false;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// Runs job `id` if this instance claims it and it is still in the store, then removes it.
async fn run(service: &Service, id: &str) -> anyhow::Result<()> {
    let store = &service.store;
    let claim = keyspace::account_job_claim(id);
    if !store.put_if_absent(&claim, b"claimed", Some(CLAIM)).await? {
        return Ok(());
    }
    let key = keyspace::account_job(id);
    let outcome = match store.get(&key).await? {
        Some(body) => match serde_json::from_slice::<Job>(&body) {
            Ok(job) => perform(service, id, job).await,
            Err(e) => Err(anyhow::anyhow!("job {id} unreadable: {e}")),
        },
        None => Ok(()),
    };
    // Run or failed, it is done: a failed mail is logged, and its caller asks again.
    store.delete(&key).await?;
    store.unrank(keyspace::ACCOUNT_JOBS, id).await?;
    store.delete(&claim).await?;
    outcome
}

async fn perform(service: &Service, id: &str, job: Job) -> anyhow::Result<()> {
    match job {
        Job::Trial { email, at, expires } => issue_trial(service, id, &email, at, expires).await,
        Job::Code { email, purpose } => mail_code(service, &email, purpose).await,
    }
}

/// A first trial for the mailbox: its mark, a key, the key mailed; a later one: a mail that
/// says so. Undelivered, the key and the mark are taken back so the address can ask again.
/// The mark names the job, so a job run again after a crash mid-way still mails its key.
async fn issue_trial(
    service: &Service,
    id: &str,
    email: &str,
    at: DateTime<Utc>,
    expires: DateTime<Utc>,
) -> anyhow::Result<()> {
    let store = &service.store;
    let mark = keyspace::trial_mark(&super::trial_mark(&service.config, email));
    let value = format!("{} {id}", at.to_rfc3339());
    let first = store
        .put_if_absent(&mark, value.as_bytes(), Some(TRIAL_MARK_KEPT))
        .await?
        || store.get(&mark).await?.as_deref() == Some(value.as_bytes());
    if !first {
        mail::send(&service.config, "trial_again", email, context! {}).await?;
        return Ok(());
    }
    let made = keys::create(store, TRIAL_TIER, Some(email.to_string()), Some(expires)).await;
    let (key, mut record) = match made {
        Ok(m) => m,
        Err(e) => {
            // Without a key the mark would block the address forever.
            let _ = store.delete(&mark).await;
            return Err(e.into());
        }
    };
    record.billing = Billing {
        trial: true,
        ..Billing::default()
    };
    keys::save(store, &record).await?;
    let ctx = context! {
        key => key,
        expires_at => expires.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
    };
    if let Err(e) = mail::send(&service.config, "trial_key", email, ctx).await {
        let _ = keys::delete(store, &record).await;
        let _ = store.delete(&mark).await;
        return Err(e.into());
    }
    Ok(())
}

/// A code mailed to `email` if it has an account (a usable key to recover, any key to erase).
async fn mail_code(service: &Service, email: &str, purpose: Purpose) -> anyhow::Result<()> {
    let records = super::keys_of(&service.store, email).await?;
    let has_account = match purpose {
        Purpose::Recover => records.iter().any(|k| k.usable(Utc::now())),
        Purpose::Erasure => !records.is_empty(),
    };
    if !has_account {
        return Ok(());
    }
    let code = codes::issue(&service.store, purpose, email).await?;
    let action = match purpose {
        Purpose::Recover => "replace your saferef API key",
        Purpose::Erasure => "erase your saferef account data",
    };
    let ctx = context! { code => code, purpose => purpose.name(), action => action };
    mail::send(&service.config, "code", email, ctx).await?;
    Ok(())
}
