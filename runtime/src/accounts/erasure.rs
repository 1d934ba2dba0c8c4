//! Erasure of an address's personal data : its keys, and for each of
//! their accounts the usage history, watchlist, webhooks with their queued deliveries and
//! logs, pending codes and a trial record of the older kind (the address's plain hash); then
//! the payment provider's customer record. The trial mark (`accounts::trial_mark`) stays: it
//! holds no address, and it keeps an erasure from opening a second trial.

use std::collections::BTreeSet;

use saferef_generator::render::runtime_answers::accounts::Erased;

use super::codes::{self, Purpose};
use super::provider::{self, Deletion};
use super::{email_hash, keys_of};
use crate::AppState;
use crate::store::StoreError;
use crate::store::keyspace;
use crate::{keys, watchlist};

/// Erases everything of `email` (normalized).
pub async fn erase(state: &AppState, email: &str) -> Result<Erased, StoreError> {
    let store = &state.service.store;
    let records = keys_of(store, email).await?;
    let accounts: BTreeSet<String> = records.iter().map(|r| r.account_id().to_string()).collect();
    let customers: BTreeSet<String> = records
        .iter()
        .filter_map(|r| r.billing.customer_id.clone())
        .collect();
    let mut out = Erased::default();
    for r in &records {
        keys::delete(store, r).await?;
        out.keys += 1;
    }
    // The keys no longer work anywhere; the counts their last requests left behind (`store/behind.rs`)
    // are waited for, so that the scan finds every counter.
    store.settle_counts().await?;
    for account in &accounts {
        for (key, _) in store.scan(&keyspace::account_quotas(account)).await? {
            store.delete(&key).await?;
            out.usage_days += 1;
        }
        out.watchlist_entries += watchlist::erase(store, account).await?;
        out.webhooks += crate::webhooks::erase_account(store, account).await?;
    }
    store.delete(&keyspace::trial(&email_hash(email))).await?;
    codes::forget(store, Purpose::Recover, email).await?;
    codes::forget(store, Purpose::Erasure, email).await?;
    for customer in &customers {
        let deletion: Deletion =
            provider::delete_customer(&state.service.config, store, customer).await?;
        out.payment_customers.push(deletion);
    }
    Ok(out)
}
