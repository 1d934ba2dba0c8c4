//! The secret key outside production: when `SAFEREF_SECRET_KEY` is unset, the key is made on
//! first start in the state directory (`<state>/secret.key`, base64, owner-only 0600) and
//! read back on later starts, so webhooks work on the embedded default (README, "Flags and
//! environment"). Production never gets here: it refuses to start without the variable.

use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use base64::Engine;
use rand::Rng;

use crate::config::SecretKey;

/// The key file, relative to the state directory.
pub const FILE: &str = "secret.key";

/// The key in `state`, made now if there is none; `true` when it was made by this call.
pub fn load_or_create(state: &Path) -> anyhow::Result<(SecretKey, bool)> {
    let path = state.join(FILE);
    if let Some(key) = read(&path)? {
        return Ok((key, false));
    }
    std::fs::create_dir_all(state)?;
    let mut bytes = [0u8; 32];
    rand::rng().fill(&mut bytes);
    let text = base64::engine::general_purpose::STANDARD.encode(bytes);
    // Written whole under another name, then linked into place: a concurrent start or a
    // crash never leaves a partial key, and a key already there is never replaced.
    let partial = state.join(format!(".{FILE}.{}", std::process::id()));
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&partial)?;
    file.write_all(format!("{text}\n").as_bytes())?;
    file.sync_all()?;
    let linked = std::fs::hard_link(&partial, &path);
    std::fs::remove_file(&partial)?;
    match linked {
        Ok(()) => Ok((SecretKey(bytes), true)),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let key = read(&path)?.ok_or_else(|| anyhow::anyhow!("{} vanished", path.display()))?;
            Ok((key, false))
        }
        Err(e) => Err(e.into()),
    }
}

/// The key at `path`, if the file exists; refused when others may read it or it is not a key.
fn read(path: &PathBuf) -> anyhow::Result<Option<SecretKey>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(anyhow::anyhow!("{}: {e}", path.display())),
    };
    let mode = std::fs::metadata(path)?.permissions().mode() & 0o777;
    anyhow::ensure!(
        mode & 0o077 == 0,
        "{} has mode {mode:o}: the secret key must be readable by its owner only (chmod 600)",
        path.display()
    );
    SecretKey::from_base64(&text)
        .map(Some)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_made_once_owner_only_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("var");
        let (made, created) = load_or_create(&state).unwrap();
        assert!(created);
        let mode = std::fs::metadata(state.join(FILE))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        let (again, created) = load_or_create(&state).unwrap();
        assert!(!created);
        assert_eq!(again, made);
        assert_eq!(
            std::fs::read_dir(&state).unwrap().count(),
            1,
            "no partial file left"
        );

        std::fs::set_permissions(state.join(FILE), std::fs::Permissions::from_mode(0o644)).unwrap();
        let refused = load_or_create(&state).unwrap_err().to_string();
        assert!(refused.contains("chmod 600"), "{refused}");
        std::fs::write(state.join(FILE), "not a key").unwrap();
        std::fs::set_permissions(state.join(FILE), std::fs::Permissions::from_mode(0o600)).unwrap();
        assert!(load_or_create(&state).is_err());
    }
}
