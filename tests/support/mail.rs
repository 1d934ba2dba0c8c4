//! The file outbox (`SAFEREF_SMTP_URL` unset writes each message to `<state>/outbox/*.eml`):
//! what the tests read the keys and codes they were mailed from.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Every message in the outbox under `state`, oldest first.
pub fn outbox(state: &Path) -> Vec<String> {
    let Ok(dir) = std::fs::read_dir(state.join("outbox")) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = dir
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

/// The first message that was not in the outbox when it held `before` messages.
pub async fn new_mail(state: &Path, before: usize) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let mail = outbox(state);
        if mail.len() > before {
            return mail[before].clone();
        }
        assert!(Instant::now() < deadline, "no mail arrived");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The outbox once it holds at least `n` messages (account mail is sent after the request is
/// answered, `accounts/deferred.rs`).
pub async fn mails(state: &Path, n: usize) -> Vec<String> {
    if n > 0 {
        new_mail(state, n - 1).await;
    }
    outbox(state)
}

/// The API key a message carries.
pub fn key_in(mail: &str) -> String {
    let at = mail.find("sr_live_").expect("a key in the mail");
    mail[at..at + 40].to_string()
}

/// The code a message carries: the last word of its subject.
pub fn code_in(mail: &str) -> String {
    let subject = mail
        .lines()
        .find(|l| l.starts_with("Subject:"))
        .expect("a subject");
    subject.rsplit(' ').next().unwrap().trim().to_string()
}
