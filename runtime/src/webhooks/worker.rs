//! The delivery worker: polls the queue, leases each due delivery so that no two workers (on
//! one Redis) attempt it at once, checks the URL again (SSRF), signs and POSTs the body, and
//! then drops it (2xx), reschedules it with backoff, or gives up after the last retry. Every
//! attempt is logged. Delivery is at least once: receivers dedupe by event id.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::Utc;
use rand::Rng;

use super::log::{self, Outcome};
use super::queue::{self, Delivery};
use super::registry::{self, Webhook};
use super::{crypto, signature, ssrf};
use crate::Config;
use crate::config::SecretKey;
use crate::store::keyspace;
use crate::store::{Store, StoreError};

/// A receiver has this long to answer.
pub const TIMEOUT: Duration = Duration::from_secs(10);
/// How long a delivery stays leased to the worker attempting it. The holder renews it every
/// third of that while the attempt runs, so it only lapses when its holder died (or lost the
/// store for that long); then another worker takes the delivery over.
pub const LEASE: Duration = Duration::from_secs(30);
/// Delays before the retries; after the last one the delivery fails.
pub const RETRIES: [Duration; 5] = [
    Duration::from_secs(30),
    Duration::from_secs(120),
    Duration::from_secs(600),
    Duration::from_secs(3600),
    Duration::from_secs(6 * 3600),
];
const POLL: Duration = Duration::from_secs(1);
/// Deliveries attempted at once per poll.
const BATCH: usize = 16;
const ERROR_MAX: usize = 300;

#[derive(Debug)]
struct Worker {
    store: Store,
    key: SecretKey,
    allow_loopback: bool,
    retries: Vec<Duration>,
    lease: Duration,
    client: reqwest::Client,
    /// Written into leases: the process id says which instance holds one.
    id: String,
}

/// Why an attempt failed.
struct Failure {
    status: Option<u16>,
    error: String,
}

/// Delivers queued webhooks until the process ends. Returns at once without a secret key
/// (deliveries then wait in the queue: their secrets cannot be read).
pub async fn run(store: Store, config: Config) {
    let Some(key) = config.secret_key.clone() else {
        tracing::warn!("webhook deliveries wait in the queue: SAFEREF_SECRET_KEY is not set");
        return;
    };
    let client = match client(config.webhook_allow_loopback) {
        Ok(c) => c,
        Err(e) => {
            tracing::error!("webhook deliveries stopped: no HTTP client: {e}");
            return;
        }
    };
    let worker = Arc::new(Worker {
        store,
        key,
        allow_loopback: config.webhook_allow_loopback,
        retries: config
            .webhook_retry_delays
            .clone()
            .unwrap_or_else(|| RETRIES.to_vec()),
        lease: config.webhook_lease.unwrap_or(LEASE),
        client,
        id: format!(
            "worker_{}_{}",
            std::process::id(),
            crate::keys::random_base62(8)
        ),
    });
    match queue::recover(&worker.store).await {
        Ok(n) => tracing::debug!(queued = n, "webhook queue recovered"),
        Err(e) => tracing::error!("webhook queue: {e}"),
    }
    loop {
        if let Err(e) = worker.clone().poll().await {
            tracing::error!("webhook queue: {e}");
        }
        tokio::time::sleep(POLL).await;
    }
}

/// No redirects (a 3xx is a failure: it could point inside), no proxy (it would connect for
/// us, past the guard), and the guarded resolver.
fn client(allow_loopback: bool) -> reqwest::Result<reqwest::Client> {
    reqwest::Client::builder()
        .timeout(TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .https_only(!allow_loopback)
        .dns_resolver(Arc::new(ssrf::GuardedResolver { allow_loopback }))
        .user_agent(concat!("saferef-webhooks/", env!("CARGO_PKG_VERSION")))
        .build()
}

impl Worker {
    async fn poll(self: Arc<Self>) -> Result<(), StoreError> {
        let due = queue::due(&self.store, Utc::now().timestamp_millis(), BATCH).await?;
        let mut running = tokio::task::JoinSet::new();
        for delivery in due {
            running.spawn(self.clone().deliver(delivery));
        }
        while let Some(done) = running.join_next().await {
            match done {
                Ok(Err(e)) => tracing::error!("webhook delivery: {e}"),
                Err(e) => tracing::error!("webhook delivery task: {e}"),
                Ok(Ok(())) => {}
            }
        }
        Ok(())
    }

    /// Keeps `lease` ours while an attempt runs (aborted when it ends).
    async fn renew(self: Arc<Self>, lease: String) {
        loop {
            tokio::time::sleep(self.lease / 3).await;
            match self
                .store
                .if_holds(&lease, self.id.as_bytes(), Some(self.lease))
                .await
            {
                Ok(true) => {}
                Ok(false) => {
                    tracing::warn!("{lease} lapsed during an attempt; another worker may retry it");
                    return;
                }
                Err(e) => tracing::warn!("{lease} not renewed: {e}"),
            }
        }
    }

    /// Gives `lease` up, unless it lapsed and another worker holds it now.
    async fn release(&self, lease: &str) -> Result<(), StoreError> {
        self.store.if_holds(lease, self.id.as_bytes(), None).await?;
        Ok(())
    }

    async fn deliver(self: Arc<Self>, d: Delivery) -> Result<(), StoreError> {
        let Some((lease, hook)) = self.claim(&d).await? else {
            return Ok(());
        };
        let at = Utc::now();
        let started = Instant::now();
        let renewal = tokio::spawn(self.clone().renew(lease.clone()));
        let result = self.send(&hook, &d).await;
        renewal.abort();
        let duration_ms = started.elapsed().as_millis() as u64;
        let retry_at = self.reschedule(&d, result.is_ok()).await?;
        // Released before logging: a crash now loses a log line, never a delivery.
        self.release(&lease).await?;
        self.record(&d, at, duration_ms, result, retry_at).await
    }

    /// The delivery's lease, taken, and its webhook; `None` when there is nothing to attempt:
    /// another worker holds the lease or attempted the delivery meanwhile, or the webhook was
    /// deleted after the event was queued (the delivery is then done).
    async fn claim(&self, d: &Delivery) -> Result<Option<(String, Webhook)>, StoreError> {
        let lease = keyspace::delivery_lease(&d.id);
        if !self
            .store
            .put_if_absent(&lease, self.id.as_bytes(), Some(self.lease))
            .await?
        {
            return Ok(None);
        }
        // Another worker may have attempted it between our read and our lease: it is then
        // gone or rescheduled with one more attempt.
        match queue::get(&self.store, &d.id).await? {
            Some(now) if now.attempts == d.attempts => {}
            _ => {
                self.release(&lease).await?;
                return Ok(None);
            }
        }
        let Some(hook) = registry::get(&self.store, &d.account, &d.webhook_id).await? else {
            queue::done(&self.store, &d.id).await?;
            self.release(&lease).await?;
            return Ok(None);
        };
        Ok(Some((lease, hook)))
    }

    /// After an attempt of `d`: its next attempt queued when it failed and a retry is left
    /// (and when that one is due), else the delivery done.
    async fn reschedule(
        &self,
        d: &Delivery,
        delivered: bool,
    ) -> Result<Option<chrono::DateTime<Utc>>, StoreError> {
        let attempt = d.attempts + 1;
        let retry_at = match delivered {
            true => None,
            false => self
                .delay(attempt)
                .map(|delay| Utc::now() + chrono::Duration::milliseconds(delay.as_millis() as i64)),
        };
        match retry_at {
            Some(next) => {
                let again = Delivery {
                    attempts: attempt,
                    due_ms: next.timestamp_millis(),
                    ..d.clone()
                };
                queue::put(&self.store, &again).await?;
            }
            None => queue::done(&self.store, &d.id).await?,
        }
        Ok(retry_at)
    }

    /// The attempt of `d` made `at`, logged and written to its webhook's delivery log.
    async fn record(
        &self,
        d: &Delivery,
        at: chrono::DateTime<Utc>,
        duration_ms: u64,
        result: Result<u16, Failure>,
        retry_at: Option<chrono::DateTime<Utc>>,
    ) -> Result<(), StoreError> {
        let attempt = d.attempts + 1;
        let outcome = match (&result, retry_at) {
            (Ok(_), _) => Outcome::Delivered,
            (Err(_), Some(_)) => Outcome::Retrying,
            (Err(_), None) => Outcome::Failed,
        };
        tracing::info!(
            webhook = %d.webhook_id,
            delivery = %d.id,
            attempt,
            outcome = outcome.name(),
            "webhook attempt"
        );
        let (status_code, error) = match result {
            Ok(status) => (Some(status), None),
            Err(f) => (f.status, Some(f.error)),
        };
        let entry = log::Attempt {
            delivery_id: d.id.clone(),
            event_id: d.event_id.clone(),
            event_type: d.event_type.clone(),
            attempt,
            at: at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
            status_code,
            error,
            duration_ms,
            outcome,
            next_retry_at: retry_at.map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)),
        };
        // Not for a webhook deleted (or an account erased) while the attempt ran.
        if registry::get(&self.store, &d.account, &d.webhook_id)
            .await?
            .is_some()
        {
            log::record(
                &self.store,
                &d.account,
                &d.webhook_id,
                at.timestamp_millis(),
                &entry,
            )
            .await?;
        }
        Ok(())
    }

    /// One signed POST; the receiver's status when it is a 2xx.
    async fn send(&self, hook: &Webhook, d: &Delivery) -> Result<u16, Failure> {
        let failure = |error: String| Failure {
            status: None,
            error,
        };
        let url = ssrf::check_url(&hook.url, self.allow_loopback)
            .await
            .map_err(|e| failure(format!("refused: {e}")))?;
        let secret = crypto::open(&self.key, &hook.id, &hook.sealed_secret)
            .map_err(|e| failure(e.to_string()))?;
        let t = Utc::now().timestamp();
        let res = self
            .client
            .post(url)
            .header("content-type", "application/json")
            .header(
                signature::HEADER,
                signature::header(&secret, t, d.body.as_bytes()),
            )
            .header("x-service-event", &d.event_type)
            .header("x-service-delivery", &d.id)
            .body(d.body.clone())
            .send()
            .await
            .map_err(|e| failure(describe(e)))?;
        let status = res.status();
        if status.is_success() {
            return Ok(status.as_u16());
        }
        let error = if status.is_redirection() {
            format!("HTTP {status}: redirects are not followed")
        } else {
            format!("HTTP {status}")
        };
        Err(Failure {
            status: Some(status.as_u16()),
            error,
        })
    }

    /// The delay before retry `attempt` (1 = after the first attempt) with ±10% jitter, so
    /// deliveries that failed together do not retry together; `None` when none is left.
    fn delay(&self, attempt: u32) -> Option<Duration> {
        let base = *self.retries.get(attempt as usize - 1)?;
        Some(base.mul_f64(rand::rng().random_range(0.9..=1.1)))
    }
}

/// A transport error for the log, without the URL (it may carry credentials).
fn describe(e: reqwest::Error) -> String {
    let kind = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "connection failed"
    } else {
        "request failed"
    };
    let mut text = kind.to_string();
    let mut source = std::error::Error::source(&e);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text.chars().take(ERROR_MAX).collect()
}
