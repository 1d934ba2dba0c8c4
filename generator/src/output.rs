//! The one way files are written: whole, atomically (temp file + rename, so a crash never
//! leaves half a file), and only when the bytes differ (so unchanged files keep their times
//! and a rerun is cheap).

use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` unless it already holds them. Returns whether it wrote.
pub fn write_if_changed(path: &Path, bytes: &[u8]) -> std::io::Result<bool> {
    if let Ok(existing) = std::fs::read(path)
        && existing == bytes
    {
        return Ok(false);
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension(format!(
        "{}.tmp{}",
        path.extension().and_then(|e| e.to_str()).unwrap_or(""),
        std::process::id()
    ));
    // No fsync: the rename is atomic for readers and for a crash of this process, and every
    // file written here can be regenerated (data/ by ingest, site/ by build).
    std::fs::File::create(&tmp)?.write_all(bytes)?;
    std::fs::rename(&tmp, path)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_only_changes() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a/b.json");
        assert!(write_if_changed(&p, b"x").unwrap());
        assert!(!write_if_changed(&p, b"x").unwrap());
        assert!(write_if_changed(&p, b"y").unwrap());
        assert_eq!(std::fs::read(&p).unwrap(), b"y");
        assert_eq!(std::fs::read_dir(dir.path().join("a")).unwrap().count(), 1);
    }
}
