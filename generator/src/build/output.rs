//! The one way files are written. `write_if_changed` writes one file whole and atomically
//! (temp file + rename), only when its bytes differ. `Staged` changes a whole tree at once or
//! not at all: files are written into a staging directory inside the tree (so moving them in
//! is a rename on one file system and needs no space), and the tree changes only in `commit`,
//! which undoes everything it did when any step fails. A build that runs out of disk, meets a
//! read-only directory or a file in its way leaves the previous tree as it was.

use std::io::Write;
use std::path::{Path, PathBuf};

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

/// A file-system operation that failed: what, on which path, and the OS error (the source).
#[derive(Debug, thiserror::Error)]
#[error("cannot {action} {}", path.display())]
pub struct FsError {
    pub action: &'static str,
    pub path: PathBuf,
    #[source]
    pub source: std::io::Error,
}

fn fs_error(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> FsError {
    let path = path.to_path_buf();
    move |source| FsError {
        action,
        path,
        source,
    }
}

/// Why `commit` did not apply a change.
#[derive(Debug)]
pub struct CommitError {
    /// The step that failed; everything done before it was undone.
    pub cause: FsError,
    /// The first step of the undoing that failed too, if any: the tree is then in between.
    pub undo: Option<FsError>,
}

/// The name of the staging directory inside the tree, before the process id.
const STAGING: &str = ".staging-";

/// A change to the tree at `out`, staged in `out/.staging-<pid>/`: `new/` holds the files
/// written, `old/` what `commit` took out of the tree (until it succeeded), `last/` the files
/// set aside to go in last. Dropped without a successful `commit`, it removes the staging
/// directory, and `out` too when it created it.
#[derive(Debug)]
pub struct Staged {
    out: PathBuf,
    dir: PathBuf,
    created_out: bool,
    committed: bool,
}

/// What undoes one step of `commit`.
enum Undo {
    /// Rename `.0` back to `.1`.
    Rename(PathBuf, PathBuf),
    /// Remove the (empty) directory the step created.
    RemoveDir(PathBuf),
}

impl Staged {
    /// Starts a change of `out`, creating it when there is none; removes what builds that
    /// crashed left in it.
    pub fn begin(out: &Path) -> Result<Staged, FsError> {
        let created_out = !out.is_dir();
        if created_out {
            std::fs::create_dir_all(out).map_err(fs_error("create", out))?;
        }
        if let Ok(entries) = std::fs::read_dir(out) {
            for e in entries.filter_map(Result::ok) {
                let name = e.file_name();
                let leftover = name.to_str().and_then(|n| n.strip_prefix(STAGING));
                if leftover.is_some_and(|pid| pid.bytes().all(|b| b.is_ascii_digit())) {
                    let _ = std::fs::remove_dir_all(e.path());
                }
            }
        }
        let dir = out.join(format!("{STAGING}{}", std::process::id()));
        if let Err(e) = std::fs::create_dir(&dir) {
            if created_out {
                let _ = std::fs::remove_dir(out);
            }
            return Err(fs_error("create", &dir)(e));
        }
        Ok(Staged {
            out: out.to_path_buf(),
            dir,
            created_out,
            committed: false,
        })
    }

    /// Whether there was no tree at `out` before.
    pub fn fresh(&self) -> bool {
        self.created_out
    }

    /// Stages `bytes` as the file `rel` (relative to the tree) unless the tree already holds
    /// them. Returns whether it staged.
    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<bool, FsError> {
        if !self.created_out
            && let Ok(existing) = std::fs::read(self.out.join(rel))
            && existing == bytes
        {
            return Ok(false);
        }
        self.write_new(rel, bytes)?;
        Ok(true)
    }

    /// Stages `bytes` as the file `rel` without comparing them with the tree's: for large
    /// files that differ anyway (the manifest holds the build time).
    pub fn write_new(&self, rel: &str, bytes: &[u8]) -> Result<(), FsError> {
        let path = self.dir.join("new").join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(fs_error("create", parent))?;
        }
        // No fsync: a crash leaves the previous tree and a staging directory the next build
        // removes.
        std::fs::write(&path, bytes).map_err(fs_error("write", &path))
    }

    /// Applies the change: every staged file (a directory the tree lacks moves whole) goes
    /// into place, then the tree's files at `remove` go (relative paths; those already gone
    /// are skipped), and the files at `last` (the manifest) are taken out before anything
    /// moves and put in after, so a crash in between leaves no manifest describing a tree
    /// half changed. Returns how many files it removed. When a step fails, every step before
    /// it is undone in reverse order: replaced files come back from hard links made before
    /// they were replaced, so the tree holds the very same files as before.
    pub fn commit(mut self, remove: &[String], last: &[&str]) -> Result<usize, CommitError> {
        let mut undo = Vec::new();
        match self.apply(remove, last, &mut undo) {
            Ok(removed) => {
                self.committed = true;
                // What is left is what the change replaced or removed.
                remove_tree(&self.dir);
                Ok(removed)
            }
            Err(cause) => {
                let mut first_failure = None;
                for step in undo.into_iter().rev() {
                    let result = match &step {
                        Undo::Rename(from, to) => {
                            std::fs::rename(from, to).map_err(fs_error("move back", to))
                        }
                        Undo::RemoveDir(dir) => {
                            std::fs::remove_dir(dir).map_err(fs_error("remove", dir))
                        }
                    };
                    if let Err(e) = result {
                        first_failure.get_or_insert(e);
                    }
                }
                Err(CommitError {
                    cause,
                    undo: first_failure,
                })
            }
        }
    }

    fn apply(
        &self,
        remove: &[String],
        last: &[&str],
        undo: &mut Vec<Undo>,
    ) -> Result<usize, FsError> {
        let (new, old, aside) = (
            self.dir.join("new"),
            self.dir.join("old"),
            self.dir.join("last"),
        );
        let mut last_staged = Vec::new();
        for rel in last {
            let staged = new.join(rel);
            if staged.is_file() {
                let to = aside.join(rel);
                create_parent(&to)?;
                std::fs::rename(&staged, &to).map_err(fs_error("move", &staged))?;
                last_staged.push(*rel);
            }
        }
        for rel in &last_staged {
            self.take_out(rel, &old, undo)?;
        }
        if new.is_dir() {
            self.place_dir(&new, Path::new(""), &old, undo)?;
        }
        let mut removed = 0;
        for rel in remove {
            removed += usize::from(self.take_out(rel, &old, undo)?);
        }
        for rel in last_staged {
            let (from, to) = (aside.join(rel), self.out.join(rel));
            self.create_tree_parent(&to, undo)?;
            std::fs::rename(&from, &to).map_err(fs_error("move into place", &to))?;
            undo.push(Undo::Rename(to, from));
        }
        Ok(removed)
    }

    /// Moves the tree's file `rel` into `old/`; whether there was one.
    fn take_out(&self, rel: &str, old: &Path, undo: &mut Vec<Undo>) -> Result<bool, FsError> {
        let from = self.out.join(rel);
        if std::fs::symlink_metadata(&from).is_err() {
            return Ok(false);
        }
        let to = old.join(rel);
        create_parent(&to)?;
        std::fs::rename(&from, &to).map_err(fs_error("move away", &from))?;
        undo.push(Undo::Rename(to, from));
        Ok(true)
    }

    /// Moves what `staged` (the staging counterpart of the tree's directory `rel`) holds into
    /// place, in name order: a directory the tree also has is entered, anything else is
    /// renamed over the tree's path, after a hard link in `old/` keeps the file it replaces.
    fn place_dir(
        &self,
        staged: &Path,
        rel: &Path,
        old: &Path,
        undo: &mut Vec<Undo>,
    ) -> Result<(), FsError> {
        let mut entries: Vec<(std::ffi::OsString, bool)> = std::fs::read_dir(staged)
            .map_err(fs_error("read", staged))?
            .map(|e| {
                let e = e.map_err(fs_error("read", staged))?;
                let is_dir = e.file_type().map_err(fs_error("read", &e.path()))?.is_dir();
                Ok((e.file_name(), is_dir))
            })
            .collect::<Result<_, FsError>>()?;
        entries.sort();
        for (name, is_dir) in entries {
            let (from, rel) = (staged.join(&name), rel.join(&name));
            let to = self.out.join(&rel);
            let existing = std::fs::symlink_metadata(&to).ok();
            if is_dir && existing.as_ref().is_some_and(std::fs::Metadata::is_dir) {
                self.place_dir(&from, &rel, old, undo)?;
                continue;
            }
            let kept = match existing {
                Some(_) if !is_dir => {
                    let copy = old.join(&rel);
                    create_parent(&copy)?;
                    std::fs::hard_link(&to, &copy).map_err(fs_error("keep a link to", &to))?;
                    Some(copy)
                }
                _ => None,
            };
            std::fs::rename(&from, &to).map_err(fs_error("move into place", &to))?;
            undo.push(match kept {
                Some(copy) => Undo::Rename(copy, to),
                None => Undo::Rename(to, from),
            });
        }
        Ok(())
    }

    /// Creates the missing directories above `path` in the tree, each undone by removal.
    fn create_tree_parent(&self, path: &Path, undo: &mut Vec<Undo>) -> Result<(), FsError> {
        let mut missing = Vec::new();
        let mut dir = path.parent();
        while let Some(d) = dir.filter(|d| !d.is_dir()) {
            missing.push(d.to_path_buf());
            dir = d.parent();
        }
        for d in missing.into_iter().rev() {
            std::fs::create_dir(&d).map_err(fs_error("create", &d))?;
            undo.push(Undo::RemoveDir(d));
        }
        Ok(())
    }
}

/// Removes the directory `dir` and everything in it, the files from several threads: freeing
/// a file's last link waits on the file system (milliseconds each on a busy disk), and those
/// waits overlap.
fn remove_tree(dir: &Path) {
    let files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| !e.file_type().is_dir())
        .map(walkdir::DirEntry::into_path)
        .collect();
    let threads = 8;
    std::thread::scope(|scope| {
        for chunk in files.chunks(files.len().div_ceil(threads).max(1)) {
            scope.spawn(move || {
                for f in chunk {
                    let _ = std::fs::remove_file(f);
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(dir);
}

/// Creates the directories above `path` inside the staging directory.
fn create_parent(path: &Path) -> Result<(), FsError> {
    match path.parent() {
        Some(dir) => std::fs::create_dir_all(dir).map_err(fs_error("create", dir)),
        None => Ok(()),
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if self.committed {
            return;
        }
        let _ = std::fs::remove_dir_all(&self.dir);
        if self.created_out {
            let _ = std::fs::remove_dir(&self.out);
        }
    }
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

    fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
        let mut out: Vec<(String, Vec<u8>)> = walkdir::WalkDir::new(dir)
            .into_iter()
            .map(Result::unwrap)
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                let rel = e.path().strip_prefix(dir).unwrap().display().to_string();
                (rel, std::fs::read(e.path()).unwrap())
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn a_commit_replaces_adds_and_removes_with_the_manifest_last() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        let staged = Staged::begin(&out).unwrap();
        assert!(staged.fresh());
        for (rel, bytes) in [
            ("a/x", "1"),
            ("a/y", "2"),
            ("gone", "3"),
            ("manifest", "m1"),
        ] {
            assert!(staged.write(rel, bytes.as_bytes()).unwrap());
        }
        assert_eq!(staged.commit(&[], &["manifest"]).unwrap(), 0);

        let staged = Staged::begin(&out).unwrap();
        assert!(!staged.fresh());
        assert!(!staged.write("a/x", b"1").unwrap());
        assert!(staged.write("a/y", b"2b").unwrap());
        assert!(staged.write("b/c/z", b"4").unwrap());
        assert!(staged.write("manifest", b"m2").unwrap());
        let removed = staged
            .commit(&["gone".into(), "never-there".into()], &["manifest"])
            .unwrap();
        assert_eq!(removed, 1);
        let expected = [
            ("a/x", "1"),
            ("a/y", "2b"),
            ("b/c/z", "4"),
            ("manifest", "m2"),
        ];
        let expected: Vec<(String, Vec<u8>)> = expected
            .iter()
            .map(|(p, b)| (p.to_string(), b.as_bytes().to_vec()))
            .collect();
        assert_eq!(files(&out), expected);
        // Nothing staged is left: `a`, `b` and the manifest.
        assert_eq!(std::fs::read_dir(&out).unwrap().count(), 3);
    }

    #[test]
    fn a_failed_commit_is_undone_and_a_dropped_change_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        let staged = Staged::begin(&out).unwrap();
        for (rel, bytes) in [("a/x", "1"), ("b", "in the way"), ("manifest", "m1")] {
            staged.write(rel, bytes.as_bytes()).unwrap();
        }
        staged.commit(&[], &["manifest"]).unwrap();
        let before = files(&out);

        // `a/x` is replaced, then `b/c` cannot go under the file `b`: all is undone.
        let staged = Staged::begin(&out).unwrap();
        staged.write("a/x", b"2").unwrap();
        staged.write("b/c", b"3").unwrap();
        staged.write("manifest", b"m2").unwrap();
        let e = staged.commit(&[], &["manifest"]).unwrap_err();
        assert_eq!(e.cause.path, out.join("b"));
        assert!(e.undo.is_none());
        assert_eq!(files(&out), before);

        // A change dropped before its commit (a failed build) leaves nothing behind, and a
        // tree it created goes too.
        let staged = Staged::begin(&out).unwrap();
        staged.write("a/x", b"2").unwrap();
        drop(staged);
        assert_eq!(files(&out), before);
        assert_eq!(std::fs::read_dir(&out).unwrap().count(), 3);
        let other = dir.path().join("other");
        let staged = Staged::begin(&other).unwrap();
        staged.write("a", b"1").unwrap();
        drop(staged);
        assert!(!other.exists());
    }
}
