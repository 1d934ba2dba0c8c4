//! One-time codes for the two-step flows: 6 digits, mailed, valid 15 minutes,
//! 5 tries. The store keeps only the code's hash. Tries are counted per address whether or
//! not a code exists, so answers are the same for addresses with and without an account.

use std::time::Duration;

use rand::Rng;
use sha2::{Digest, Sha256};

use super::{constant_time_eq, email_hash};
use crate::store::keyspace;
use crate::store::{Store, StoreError};

pub const VALIDITY: Duration = Duration::from_secs(15 * 60);
pub const TRIES: u64 = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Purpose {
    Recover,
    Erasure,
}

impl Purpose {
    pub fn name(self) -> &'static str {
        match self {
            Purpose::Recover => "recover",
            Purpose::Erasure => "erasure",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Valid,
    /// Wrong, expired or never issued: callers cannot tell which.
    Invalid,
    /// The fifth wrong try was used; a new code must be asked for.
    Exhausted,
}

fn code_key(purpose: Purpose, email: &str) -> String {
    keyspace::code(purpose.name(), &email_hash(email))
}

fn tries_key(purpose: Purpose, email: &str) -> String {
    keyspace::code_tries(purpose.name(), &email_hash(email))
}

fn digest(code: &str) -> Vec<u8> {
    Sha256::digest(code.as_bytes()).to_vec()
}

/// A fresh code for `email` (normalized), replacing any earlier one and its tries.
pub async fn issue(store: &Store, purpose: Purpose, email: &str) -> Result<String, StoreError> {
    let code = format!("{:06}", rand::rng().random_range(0..1_000_000u32));
    store
        .put(&code_key(purpose, email), &digest(&code), Some(VALIDITY))
        .await?;
    store.delete(&tries_key(purpose, email)).await?;
    Ok(code)
}

/// Checks `code`; a valid code is used up.
pub async fn verify(
    store: &Store,
    purpose: Purpose,
    email: &str,
    code: &str,
) -> Result<Verdict, StoreError> {
    let tries = store
        .admit(&tries_key(purpose, email), 1, Some(TRIES), VALIDITY)
        .await?;
    if !tries.admitted {
        return Ok(Verdict::Exhausted);
    }
    let stored = store.get(&code_key(purpose, email)).await?;
    let well_formed = code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit());
    match stored {
        Some(hash) if well_formed && constant_time_eq(&hash, &digest(code)) => {
            forget(store, purpose, email).await?;
            Ok(Verdict::Valid)
        }
        _ => Ok(Verdict::Invalid),
    }
}

/// Removes the code and its tries (after use, and on erasure).
pub async fn forget(store: &Store, purpose: Purpose, email: &str) -> Result<(), StoreError> {
    store.delete(&code_key(purpose, email)).await?;
    store.delete(&tries_key(purpose, email)).await?;
    Ok(())
}
