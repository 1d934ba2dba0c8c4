//! A file's stamp: what its metadata says about its bytes without reading them, as `git`'s
//! index and `make` use it. A load that finds a compound file with the stamp an earlier load
//! recorded beside the file's digest takes that digest instead of reading and hashing the file
//! (`load::RecordCache::digest`).

use std::fs::Metadata;
use std::os::unix::fs::MetadataExt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Length, modification and change times (to the nanosecond), device and inode. Every write
/// sets the change time to the clock's present, and nothing sets it back (unlike the
/// modification time, which `touch -d` or a restore can), so a file written since it was
/// stamped has another stamp.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileStamp {
    pub len: u64,
    pub mtime: (i64, i64),
    pub ctime: (i64, i64),
    pub dev: u64,
    pub ino: u64,
}

/// How close to the read a change must be for the stamp not to tell it from a later one: a
/// file's times come from a coarse clock (a few milliseconds), so a write in the same tick as
/// the read, after it, would leave the stamp unchanged. A second is far above any tick.
const RACY: Duration = Duration::from_secs(1);

impl FileStamp {
    /// The stamp of a file whose metadata (taken before its bytes are read) is `meta`, when it
    /// can be trusted: its last change is at least `RACY` before `read_at`, so any later write
    /// gives another change time. `None` for a file changed just before it was read: it is
    /// read and hashed again next time.
    pub fn of(meta: &Metadata, read_at: SystemTime) -> Option<FileStamp> {
        let cutoff = read_at.checked_sub(RACY)?.duration_since(UNIX_EPOCH).ok()?;
        let changed = |secs: i64, nanos: i64| {
            let secs = u64::try_from(secs).ok()?;
            let nanos = u32::try_from(nanos).ok()?;
            Some(Duration::new(secs, nanos))
        };
        let newest = changed(meta.mtime(), meta.mtime_nsec())?
            .max(changed(meta.ctime(), meta.ctime_nsec())?);
        (newest < cutoff).then_some(FileStamp {
            len: meta.len(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
            dev: meta.dev(),
            ino: meta.ino(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_changed_within_a_second_of_its_read_has_no_stamp() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.json");
        std::fs::write(&path, b"{}").unwrap();
        let meta = std::fs::metadata(&path).unwrap();
        let now = SystemTime::now();
        assert_eq!(FileStamp::of(&meta, now), None);
        let later = FileStamp::of(&meta, now + Duration::from_secs(2)).unwrap();
        assert_eq!(later.len, 2);
        // Written again, even to the same length and with its modification time put back,
        // it has another stamp: its change time moved.
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(&path, b"[]").unwrap();
        let file = std::fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(meta.modified().unwrap()).unwrap();
        let again = std::fs::metadata(&path).unwrap();
        let stamp = FileStamp::of(&again, now + Duration::from_secs(2)).unwrap();
        assert_eq!((stamp.len, stamp.mtime), (later.len, later.mtime));
        assert_ne!(stamp, later);
    }
}
