//! Account mail: a minijinja template from `templates/mail/` rendered to a plain-text message,
//! sent over SMTP when `SAFEREF_SMTP_URL` is set, else written to `<state>/outbox/` as an
//! `.eml` file (one machine, tests: the codes and keys are read there).
//!
//! Outbox files are written to a temporary name and renamed, so a reader never sees half a
//! message and a crash leaves none behind.

use std::path::Path;

use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use minijinja::Environment;

use crate::config::Config;

/// The templates, compiled in (see templates/README.md).
const TEMPLATES: &[(&str, &str)] = &[
    (
        "trial_key",
        include_str!("../../templates/mail/trial_key.txt.j2"),
    ),
    (
        "trial_again",
        include_str!("../../templates/mail/trial_again.txt.j2"),
    ),
    ("code", include_str!("../../templates/mail/code.txt.j2")),
    (
        "key_issued",
        include_str!("../../templates/mail/key_issued.txt.j2"),
    ),
    ("erased", include_str!("../../templates/mail/erased.txt.j2")),
];

#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("mail template {0}: {1}")]
    Template(&'static str, String),
    #[error("mail address: {0}")]
    Address(String),
    #[error("mail delivery: {0}")]
    Delivery(String),
}

/// Renders `template` with `ctx` and sends it to `to`.
pub async fn send(
    config: &Config,
    template: &'static str,
    to: &str,
    ctx: minijinja::Value,
) -> Result<(), MailError> {
    let (subject, body) = render(template, ctx)?;
    let from: Mailbox = config
        .mail_from
        .parse()
        .map_err(|e| MailError::Address(format!("SAFEREF_MAIL_FROM: {e}")))?;
    let to: Mailbox = to.parse().map_err(|e| MailError::Address(format!("{e}")))?;
    let message = Message::builder()
        .from(from)
        .to(to)
        .subject(subject)
        .body(body)
        .map_err(|e| MailError::Delivery(e.to_string()))?;
    match &config.smtp_url {
        Some(url) => {
            let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
                .map_err(|e| MailError::Delivery(format!("SAFEREF_SMTP_URL: {e}")))?
                .build();
            transport
                .send(message)
                .await
                .map_err(|e| MailError::Delivery(e.to_string()))?;
        }
        None => write_outbox(&config.state_dir.join("outbox"), &message.formatted())
            .await
            .map_err(|e| MailError::Delivery(format!("outbox: {e}")))?,
    }
    tracing::info!(template, "mail sent");
    Ok(())
}

/// Subject (the template's first line) and body.
fn render(template: &'static str, ctx: minijinja::Value) -> Result<(String, String), MailError> {
    let source = TEMPLATES
        .iter()
        .find(|(name, _)| *name == template)
        .map(|(_, s)| *s)
        .ok_or_else(|| MailError::Template(template, "no such template".into()))?;
    let text = Environment::new()
        .render_str(source, ctx)
        .map_err(|e| MailError::Template(template, e.to_string()))?;
    let (first, body) = text.split_once('\n').unwrap_or((&text, ""));
    let subject = first
        .strip_prefix("Subject:")
        .ok_or_else(|| MailError::Template(template, "first line must be `Subject: ...`".into()))?
        .trim()
        .to_string();
    Ok((subject, body.trim_start_matches('\n').to_string()))
}

async fn write_outbox(dir: &Path, message: &[u8]) -> std::io::Result<()> {
    tokio::fs::create_dir_all(dir).await?;
    // Sortable by time; the random tail keeps two messages of one millisecond apart.
    let name = format!(
        "{}-{}",
        chrono::Utc::now().format("%Y%m%dT%H%M%S%.3fZ"),
        crate::keys::random_base62(6)
    );
    let tmp = dir.join(format!(".{name}.tmp"));
    tokio::fs::write(&tmp, message).await?;
    tokio::fs::rename(&tmp, dir.join(format!("{name}.eml"))).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_renders_with_a_subject() {
        let ctx = minijinja::context! {
            key => "sr_live_x", expires_at => "2026-11-28T00:00:00Z", code => "123456",
            purpose => "recover", action => "recover your key", tier => "pro", keys => 1,
            provider => true,
        };
        for (name, _) in TEMPLATES {
            let (subject, body) = render(name, ctx.clone()).unwrap();
            assert!(!subject.is_empty() && !body.is_empty(), "{name}");
            assert!(!body.starts_with('\n'), "{name}");
        }
    }

    #[tokio::test]
    async fn outbox_mail_is_a_whole_eml_file() {
        let dir = tempfile::tempdir().unwrap();
        let config = Config {
            state_dir: dir.path().to_path_buf(),
            mail_from: "saferef <no-reply@saferef.invalid>".into(),
            ..Config::default()
        };
        let ctx = minijinja::context! { code => "654321", purpose => "erasure", action => "erase" };
        send(&config, "code", "ada@example.org", ctx).await.unwrap();
        let files: Vec<_> = std::fs::read_dir(dir.path().join("outbox"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].extension().unwrap(), "eml");
        let text = std::fs::read_to_string(&files[0]).unwrap();
        assert!(text.contains("To: ada@example.org"), "{text}");
        assert!(
            text.contains("Subject: Your saferef erasure code: 654321"),
            "{text}"
        );
        assert!(text.contains("654321"));
        assert!(
            send(&config, "code", "not an address", minijinja::context! {})
                .await
                .is_err()
        );
    }
}
