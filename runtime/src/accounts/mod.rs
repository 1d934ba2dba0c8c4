//! Accounts (ARCHITECTURE.md, Decisions): who owns which keys, found by e-mail address; trial
//! issuance, one-time codes for recovery and erasure, payment-provider state, and erasure of
//! everything an account left in the store.
//!
//! Addresses are compared lowercased; the store holds them only inside key records (to mail
//! the owner) and as SHA-256 hashes in marks and codes.

pub mod codes;
pub mod deferred;
pub mod erasure;
pub mod provider;

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use crate::config::Config;

use crate::keys::{self, KeyRecord};
use crate::store::{Store, StoreError};

/// The address trimmed and lowercased, if it has the shape of a deliverable address
/// (RFC 5321 lengths, a dot-atom local part, a domain of at least two LDH labels).
pub fn normalize_email(raw: &str) -> Option<String> {
    let email = raw.trim().to_ascii_lowercase();
    if email.len() > 254 || !email.is_ascii() {
        return None;
    }
    let (local, domain) = email.rsplit_once('@')?;
    let local_ok = (1..=64).contains(&local.len())
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~.-".contains(c));
    let labels: Vec<&str> = domain.split('.').collect();
    let domain_ok = labels.len() >= 2
        && labels.iter().all(|l| {
            (1..=63).contains(&l.len())
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
        && labels
            .last()
            .is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()));
    (local_ok && domain_ok).then_some(email)
}

/// The hash an address is known by in marks and codes.
pub fn email_hash(email: &str) -> String {
    Sha256::digest(email.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The address a trial is counted against: `email` (normalized) without a plus tag
/// (`ada+2@example.org` is `ada@example.org`), so one mailbox takes one trial.
pub fn trial_address(email: &str) -> String {
    match email.rsplit_once('@') {
        Some((local, domain)) => {
            let base = local.split_once('+').map_or(local, |(base, _)| base);
            format!("{base}@{domain}")
        }
        None => email.to_string(),
    }
}

/// The trial mark of `email` (normalized): an HMAC-SHA256 of its trial address under the
/// service's secret key (`SAFEREF_SECRET_KEY`), so the store holds no address and nothing
/// in it can be matched against one without that key. Erasure leaves it (the privacy notice,
/// "How long data is kept"): a second trial stays refused.
pub fn trial_mark(config: &Config, email: &str) -> String {
    let key: &[u8] = config
        .secret_key
        .as_ref()
        .map_or(&b"saferef trial mark"[..], |k| &k.0[..]);
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes keys of any length");
    mac.update(trial_address(email).as_bytes());
    mac.finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The key records of `email` (normalized), active or not.
pub async fn keys_of(store: &Store, email: &str) -> Result<Vec<KeyRecord>, StoreError> {
    Ok(keys::list(store)
        .await?
        .into_iter()
        .filter(|r| {
            r.email
                .as_deref()
                .is_some_and(|e| e.eq_ignore_ascii_case(email))
        })
        .collect())
}

/// The key records matching a payment-provider subscription or customer.
pub async fn keys_of_customer(
    store: &Store,
    subscription: Option<&str>,
    customer: Option<&str>,
) -> Result<Vec<KeyRecord>, StoreError> {
    Ok(keys::list(store)
        .await?
        .into_iter()
        .filter(|r| {
            let by_sub =
                subscription.is_some_and(|s| r.billing.subscription_id.as_deref() == Some(s));
            let by_customer = customer.is_some_and(|c| r.billing.customer_id.as_deref() == Some(c));
            by_sub || by_customer
        })
        .collect())
}

/// Equality that takes as long for every pair of equal-length inputs (codes, digests): every
/// byte is compared, whatever the first difference.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    // black_box keeps the optimiser from turning the fold into an early-exit comparison.
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .fold(0u8, |acc, (x, y)| acc | std::hint::black_box(x ^ y))
            == 0
}

/// Whether `given` is the secret `expected` (admin token, proxy secret), in a time that
/// tells nothing about either: their SHA-256 digests are compared in constant time, so not
/// even the length of the secret shows.
pub fn same_secret(given: &[u8], expected: &[u8]) -> bool {
    constant_time_eq(&Sha256::digest(given), &Sha256::digest(expected))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_normalized_or_refused() {
        assert_eq!(
            normalize_email("  Ada.Lovelace+api@Example.ORG "),
            Some("ada.lovelace+api@example.org".into())
        );
        for bad in [
            "",
            "ada",
            "ada@",
            "@example.org",
            "ada@example",
            "ada@@example.org",
            "ada@exa mple.org",
            ".ada@example.org",
            "a..da@example.org",
            "ada@-example.org",
            "ada@example.o",
            "ada@example.123",
            "ädä@example.org",
            "ada@example.org\r\nBcc: x@y.org",
        ] {
            assert_eq!(normalize_email(bad), None, "{bad:?}");
        }
        assert_eq!(
            normalize_email(&format!("{}@example.org", "a".repeat(65))),
            None
        );
    }

    #[test]
    fn a_trial_mark_is_the_mailbox_s_and_holds_no_address() {
        assert_eq!(trial_address("ada+api@example.org"), "ada@example.org");
        assert_eq!(trial_address("ada+a+b@example.org"), "ada@example.org");
        assert_eq!(trial_address("ada@example.org"), "ada@example.org");
        let config = Config::default();
        let mark = trial_mark(&config, "ada@example.org");
        assert_eq!(mark, trial_mark(&config, "ada+2@example.org"));
        assert_ne!(mark, trial_mark(&config, "ada2@example.org"));
        assert_ne!(mark, email_hash("ada@example.org"), "not the plain hash");
        let keyed = Config {
            secret_key: Some(crate::config::SecretKey([7; 32])),
            ..Config::default()
        };
        assert_ne!(mark, trial_mark(&keyed, "ada@example.org"));
        assert_eq!(mark.len(), 64);
    }

    #[test]
    fn constant_time_eq_compares_whole_inputs() {
        assert!(constant_time_eq(b"123456", b"123456"));
        assert!(constant_time_eq(b"", b""));
        assert!(!constant_time_eq(b"123456", b"123457"));
        assert!(!constant_time_eq(b"023456", b"123456"));
        assert!(!constant_time_eq(b"12345", b"123456"));
        assert!(!constant_time_eq(b"123456", b""));
        // Every single-bit difference at every position is seen.
        let base = [0x5au8; 32];
        for i in 0..base.len() {
            for bit in 0..8 {
                let mut other = base;
                other[i] ^= 1 << bit;
                assert!(!constant_time_eq(&base, &other), "byte {i} bit {bit}");
            }
        }
        assert!(constant_time_eq(&base, &[0x5au8; 32]));
    }

    #[test]
    fn same_secret_matches_only_the_secret() {
        assert!(same_secret(b"Bearer admin-secret", b"Bearer admin-secret"));
        assert!(!same_secret(b"Bearer admin-secreT", b"Bearer admin-secret"));
        assert!(!same_secret(
            b"Bearer admin-secret ",
            b"Bearer admin-secret"
        ));
        assert!(!same_secret(b"", b"Bearer admin-secret"));
        assert!(same_secret(b"", b""));
    }
}
