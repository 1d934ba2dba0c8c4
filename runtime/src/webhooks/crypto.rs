//! Signing secrets at rest: AES-256-GCM under `SAFEREF_SECRET_KEY`, a random 96-bit nonce per
//! secret stored in front of the ciphertext, and the webhook id as associated data so a sealed
//! secret cannot be moved onto another webhook.

use aes_gcm::aead::{Aead, Payload};
use aes_gcm::{Aes256Gcm, Key, KeyInit, Nonce};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use rand::Rng;

use crate::config::SecretKey;

const NONCE_LEN: usize = 12;

#[derive(Debug, thiserror::Error)]
#[error(
    "the signing secret cannot be decrypted (SAFEREF_SECRET_KEY changed or the record is damaged)"
)]
pub struct Unreadable;

/// `base64(nonce || ciphertext+tag)` of `secret`, bound to `webhook_id`.
pub fn seal(key: &SecretKey, webhook_id: &str, secret: &str) -> String {
    let mut nonce = [0u8; NONCE_LEN];
    rand::rng().fill(&mut nonce);
    let sealed = Aes256Gcm::new(Key::<Aes256Gcm>::from_slice(&key.0))
        .encrypt(
            Nonce::from_slice(&nonce),
            Payload {
                msg: secret.as_bytes(),
                aad: webhook_id.as_bytes(),
            },
        )
        .expect("AES-GCM encrypts any message under 64 GiB");
    let mut out = nonce.to_vec();
    out.extend_from_slice(&sealed);
    STANDARD.encode(out)
}

/// The secret `seal` sealed for `webhook_id`.
pub fn open(key: &SecretKey, webhook_id: &str, sealed: &str) -> Result<String, Unreadable> {
    let bytes = STANDARD.decode(sealed).map_err(|_| Unreadable)?;
    if bytes.len() <= NONCE_LEN {
        return Err(Unreadable);
    }
    let (nonce, ciphertext) = bytes.split_at(NONCE_LEN);
    let plain = Aes256Gcm::new(Key::<Aes256Gcm>::from_slice(&key.0))
        .decrypt(
            Nonce::from_slice(nonce),
            Payload {
                msg: ciphertext,
                aad: webhook_id.as_bytes(),
            },
        )
        .map_err(|_| Unreadable)?;
    String::from_utf8(plain).map_err(|_| Unreadable)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_secrets_open_only_with_their_key_and_webhook() {
        let key = SecretKey([3; 32]);
        let a = seal(&key, "wh_1", "whsec_abc");
        let b = seal(&key, "wh_1", "whsec_abc");
        assert_ne!(a, b, "a fresh nonce per secret");
        assert!(!a.contains("whsec_abc"));
        assert_eq!(open(&key, "wh_1", &a).unwrap(), "whsec_abc");
        assert!(open(&key, "wh_2", &a).is_err(), "bound to the webhook id");
        assert!(open(&SecretKey([4; 32]), "wh_1", &a).is_err());
        assert!(open(&key, "wh_1", "not base64!").is_err());
        assert!(open(&key, "wh_1", "AAAA").is_err());
    }
}
