//! Calls to the payment provider's own API: deleting a customer record on erasure
//! (`DELETE {SAFEREF_PAYMENT_API_URL}/v1/customers/{id}`, bearer `SAFEREF_PAYMENT_API_KEY`).
//!
//! A deletion that fails is kept in the store as pending (the customer id is the provider's
//! opaque id, not personal data) and retried hourly until the provider confirms it, so an
//! erasure is never silently incomplete.

use std::time::Duration;

use crate::config::Config;
use crate::store::keyspace;
use crate::store::{Store, StoreError};

/// Path segment encoding: everything but RFC 3986 unreserved characters.
const SEGMENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

pub use saferef_generator::render::runtime_answers::accounts::Deletion;

/// Asks the provider to delete `customer`; on failure records it as pending.
pub async fn delete_customer(
    config: &Config,
    store: &Store,
    customer: &str,
) -> Result<Deletion, StoreError> {
    let Some(base) = &config.payment_api_url else {
        return Ok(Deletion::NotConfigured);
    };
    match request_deletion(config, base, customer).await {
        Ok(()) => {
            store.delete(&keyspace::provider_delete(customer)).await?;
            Ok(Deletion::Deleted)
        }
        Err(e) => {
            tracing::warn!("payment provider: deleting a customer failed, kept pending: {e}");
            store
                .put(&keyspace::provider_delete(customer), b"1", None)
                .await?;
            Ok(Deletion::Pending)
        }
    }
}

async fn request_deletion(config: &Config, base: &str, customer: &str) -> Result<(), String> {
    let id = percent_encoding::utf8_percent_encode(customer, SEGMENT);
    let url = format!("{}/v1/customers/{id}", base.trim_end_matches('/'));
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| e.to_string())?;
    let mut req = client.delete(&url);
    if let Some(key) = &config.payment_api_key {
        req = req.bearer_auth(key);
    }
    let res = req.send().await.map_err(|e| e.without_url().to_string())?;
    // 404: the provider no longer has the record, which is what erasure wants.
    if res.status().is_success() || res.status() == reqwest::StatusCode::NOT_FOUND {
        Ok(())
    } else {
        Err(format!("status {}", res.status()))
    }
}

/// Retries the pending deletions; how many are still pending.
pub async fn retry_pending(config: &Config, store: &Store) -> Result<usize, StoreError> {
    let mut left = 0;
    for (key, _) in store.scan(keyspace::PROVIDER_DELETES).await? {
        let customer = &key[keyspace::PROVIDER_DELETES.len()..];
        if delete_customer(config, store, customer).await? == Deletion::Pending {
            left += 1;
        }
    }
    Ok(left)
}

/// Runs `retry_pending` at start and then hourly, on one instance of the fleet per hour.
pub async fn hourly(config: Config, store: Store) {
    loop {
        let hour = chrono::Utc::now().format("%Y-%m-%dT%H").to_string();
        let run = match crate::jobs::claim(&store, "provider-deletions", &hour, crate::jobs::HOUR)
            .await
        {
            Ok(run) => run,
            Err(e) => {
                tracing::error!("store: {e}");
                false
            }
        };
        if run {
            match retry_pending(&config, &store).await {
                Ok(0) => {}
                Ok(n) => tracing::warn!(pending = n, "payment provider deletions still pending"),
                Err(e) => tracing::error!("store: {e}"),
            }
        }
        tokio::time::sleep(Duration::from_secs(3600)).await;
    }
}
