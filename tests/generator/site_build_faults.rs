//! `saferef-generate build` (the real binary) when the file system refuses it: a read-only
//! tree, a full disk, a file size limit, and a file where the build needs a directory. Each
//! build exits non-zero with a message naming the path, the OS error and that the previous
//! tree is unchanged, and leaves that tree exactly as it was: the same paths, and every file
//! the same inode with the same bytes. Once the cause is gone, the next build gives the tree a
//! build from scratch gives.

use std::collections::BTreeMap;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use saferef_generator::ingest::{IngestOptions, run};
use sha2::{Digest, Sha256};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The fixture tables ingested into `<dir>/data` (a folder of its own, so no `templates/` is
/// found beside it).
fn fixture(dir: &Path) -> PathBuf {
    let data = dir.join("data");
    for folder in ["compounds", "documents", "release-notes"] {
        std::fs::create_dir_all(data.join(folder)).unwrap();
    }
    for f in ["sources.json", "agencies.json", "contexts.json"] {
        std::fs::copy(repo().join("data").join(f), data.join(f)).unwrap();
    }
    for folder in ["documents", "release-notes"] {
        for e in std::fs::read_dir(repo().join("data").join(folder)).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), data.join(folder).join(e.file_name())).unwrap();
        }
    }
    run(&IngestOptions {
        data_dir: data.clone(),
        source_roots: vec![repo().join("tests/fixtures/sources")],
        date: "2026-01-01".into(),
        dry_run: false,
    })
    .unwrap();
    data
}

/// Benzene's record file and id.
fn benzene(data: &Path) -> (PathBuf, String) {
    let (dataset, _) = saferef_generator::load::load(data).unwrap();
    let id = dataset.by_cas("71-43-2").unwrap().hq_id;
    (PathBuf::from(&dataset.files[&id]), id.to_string())
}

/// Renames benzene in data/: its responses, its CAS lookup and the snapshot change.
fn rename_benzene(data: &Path) {
    let (file, _) = benzene(data);
    let mut record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    record["name"] = "Benzene (renamed)".into();
    let text = serde_json::to_string_pretty(&record).unwrap() + "\n";
    std::fs::write(&file, text).unwrap();
}

fn build_command(data: &Path, out: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_saferef-generate"));
    c.arg("build")
        .arg("--data")
        .arg(data)
        .arg("--out")
        .arg(out)
        .env_remove("SAFEREF_RUNTIME_ORIGIN");
    c
}

fn build(data: &Path, out: &Path) -> Output {
    build_command(data, out).output().unwrap()
}

fn built(data: &Path, out: &Path) {
    let output = build(data, out);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Asserts the build failed, saying where, what the OS said and that `out` is unchanged.
fn assert_failed_clearly(output: &Output, out: &Path, os_error: &str) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert!(!output.status.success(), "{stderr}");
    let error = stderr
        .lines()
        .find(|l| l.starts_with("error: "))
        .unwrap_or_else(|| panic!("no error line in {stderr}"));
    assert!(
        error.contains(&format!("the previous {} is unchanged", out.display())),
        "{error}"
    );
    assert!(error.contains(os_error), "{error}");
    assert!(error.contains(&out.display().to_string()), "{error}");
    error.to_string()
}

/// Every path below `dir` (directories too): for a file its inode and the SHA-256 of its
/// bytes, so a file rewritten with the same bytes also shows.
fn tree(dir: &Path) -> Tree {
    walkdir::WalkDir::new(dir)
        .min_depth(1)
        .into_iter()
        .map(|e| {
            let e = e.unwrap();
            let rel = e.path().strip_prefix(dir).unwrap().display().to_string();
            let file = e.file_type().is_file().then(|| {
                let ino = e.metadata().unwrap().ino();
                (ino, Sha256::digest(std::fs::read(e.path()).unwrap()).into())
            });
            (rel, file)
        })
        .collect()
}

type Tree = BTreeMap<String, Option<(u64, [u8; 32])>>;

/// Asserts `after` is `before`, naming the paths that differ.
fn assert_unchanged(before: &Tree, after: &Tree) {
    let differing: Vec<&String> = before
        .keys()
        .chain(after.keys())
        .filter(|p| before.get(*p) != after.get(*p))
        .collect();
    assert!(
        differing.is_empty(),
        "changed, added or gone: {differing:?}"
    );
}

/// The files below `dir` and their bytes, the manifest without its build time.
fn contents(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap().display().to_string();
            let mut bytes = std::fs::read(e.path()).unwrap();
            if rel == saferef_generator::build::site::MANIFEST {
                let mut m: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
                m["built_at"] = serde_json::Value::Null;
                bytes = m.to_string().into_bytes();
            }
            (rel, bytes)
        })
        .collect()
}

/// Asserts `out` holds what a build from scratch of `data` writes.
fn assert_same_as_fresh(data: &Path, out: &Path) {
    let fresh = tempfile::tempdir().unwrap();
    let site = fresh.path().join("site");
    built(data, &site);
    let (a, b) = (contents(out), contents(&site));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (path, bytes) in &a {
        assert!(
            bytes == &b[path],
            "{path} differs from a build from scratch"
        );
    }
}

/// Runs `mount` with `args`; whether it succeeded (it needs root and a sandbox that allows it).
fn mount(args: &[&std::ffi::OsStr]) -> bool {
    Command::new("mount")
        .args(args)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A mount point, unmounted when dropped (also when an assertion fails).
struct Mounted(PathBuf);

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

fn set_directories_mode(dir: &Path, mode: u32) {
    for e in walkdir::WalkDir::new(dir) {
        let e = e.unwrap();
        if e.file_type().is_dir() {
            std::fs::set_permissions(e.path(), std::fs::Permissions::from_mode(mode)).unwrap();
        }
    }
}

#[test]
fn a_read_only_tree_is_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let data = fixture(dir.path());
    let site = dir.path().join("site");
    built(&data, &site);
    rename_benzene(&data);
    let before = tree(&site);

    set_directories_mode(&site, 0o555);
    let probe = site.join("probe");
    let privileged = std::fs::write(&probe, b"").is_ok();
    let _ = std::fs::remove_file(&probe);
    // Root (or CAP_DAC_OVERRIDE) writes through permission bits. A read-only bind mount of the
    // tree stops root too (EROFS), where the sandbox lets the test mount.
    let mounted = if privileged {
        set_directories_mode(&site, 0o755);
        if !mount(&["--bind".as_ref(), site.as_os_str(), site.as_os_str()]) {
            eprintln!(
                "skipped: running privileged, and `mount` is not permitted here, so nothing \
                 makes the tree read-only (a_file_where_a_directory_goes_is_rolled_back covers \
                 a refusal that needs neither)"
            );
            return;
        }
        let mounted = Mounted(site.clone());
        let ro = "remount,bind,ro";
        assert!(mount(&["-o".as_ref(), ro.as_ref(), site.as_os_str()]));
        Some(mounted)
    } else {
        None
    };
    let output = build(&data, &site);
    let os_error = if privileged {
        "Read-only file system"
    } else {
        "Permission denied"
    };
    let error = assert_failed_clearly(&output, &site, os_error);
    assert!(error.contains(".staging-"), "{error}");
    assert_unchanged(&before, &tree(&site));

    drop(mounted);
    set_directories_mode(&site, 0o755);
    built(&data, &site);
    assert_same_as_fresh(&data, &site);
}

#[test]
fn a_full_disk_is_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let data = fixture(dir.path());
    let disk = dir.path().join("disk");
    std::fs::create_dir(&disk).unwrap();
    // A real ENOSPC needs a small file system: a tmpfs, where the sandbox lets the test mount
    // (root). Elsewhere a_file_size_limit_is_left_as_it_was gives the same kind of refusal
    // (EFBIG) without privileges.
    let size = "size=16m";
    if !mount(&[
        "-t".as_ref(),
        "tmpfs".as_ref(),
        "-o".as_ref(),
        size.as_ref(),
        "tmpfs".as_ref(),
        disk.as_os_str(),
    ]) {
        eprintln!("skipped: `mount -t tmpfs` is not permitted here");
        return;
    }
    let _mounted = Mounted(disk.clone());
    let site = disk.join("site");
    built(&data, &site);
    rename_benzene(&data);
    let before = tree(&site);

    // Fill what is left of the disk.
    let filler = disk.join("filler");
    let mut file = std::fs::File::create(&filler).unwrap();
    let chunk = vec![0u8; 64 * 1024];
    let full = loop {
        if let Err(e) = std::io::Write::write_all(&mut file, &chunk) {
            break e;
        }
    };
    assert_eq!(full.raw_os_error(), Some(28), "{full}");
    drop(file);

    let output = build(&data, &site);
    assert_failed_clearly(&output, &site, "No space left on device (os error 28)");
    assert_unchanged(&before, &tree(&site));

    std::fs::remove_file(&filler).unwrap();
    built(&data, &site);
    assert_same_as_fresh(&data, &site);
}

/// `build` under a file size limit of `kib` KiB (RLIMIT_FSIZE): writing past it fails with
/// EFBIG, the error a full disk's neighbour. SIGXFSZ is ignored, as the limit would otherwise
/// kill the process instead of failing the write.
fn build_limited(data: &Path, out: &Path, kib: u32) -> Output {
    let bin = env!("CARGO_BIN_EXE_saferef-generate");
    Command::new("bash")
        .arg("-c")
        .arg(format!("trap '' XFSZ; ulimit -f {kib}; exec \"$0\" \"$@\""))
        .arg(bin)
        .arg("build")
        .arg("--data")
        .arg(data)
        .arg("--out")
        .arg(out)
        .env_remove("SAFEREF_RUNTIME_ORIGIN")
        .output()
        .unwrap()
}

#[test]
fn a_file_size_limit_is_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let data = fixture(dir.path());
    let site = dir.path().join("site");
    let listing = |d: &Path| -> Vec<PathBuf> {
        let mut names: Vec<PathBuf> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        names.sort();
        names
    };

    // A first build that fails creates nothing: no tree, nothing beside it.
    let beside = listing(dir.path());
    let output = build_limited(&data, &site, 4);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(stderr.contains("File too large (os error 27)"), "{stderr}");
    assert!(
        stderr.contains(&format!("{} was not created", site.display())),
        "{stderr}"
    );
    assert_eq!(listing(dir.path()), beside);

    built(&data, &site);
    rename_benzene(&data);
    let before = tree(&site);
    let beside = listing(dir.path());
    let output = build_limited(&data, &site, 4);
    assert_failed_clearly(&output, &site, "File too large (os error 27)");
    assert_unchanged(&before, &tree(&site));
    assert_eq!(listing(dir.path()), beside);

    built(&data, &site);
    assert_same_as_fresh(&data, &site);
}

#[test]
fn a_file_where_a_directory_goes_is_rolled_back() {
    let dir = tempfile::tempdir().unwrap();
    let data = fixture(dir.path());
    let site = dir.path().join("site");
    built(&data, &site);
    let (_, id) = benzene(&data);
    rename_benzene(&data);
    // Benzene's context responses change, and a file stands where their directory goes. The
    // refusal (ENOTDIR) comes while files are moved into place: the snapshot and benzene's
    // first responses (sorted before `context/`) are already in, and are put back.
    let contexts = site.join(format!("api/compound/{id}/context"));
    let aside = dir.path().join("contexts-aside");
    std::fs::rename(&contexts, &aside).unwrap();
    std::fs::write(&contexts, b"in the way").unwrap();
    let before = tree(&site);

    let output = build(&data, &site);
    let error = assert_failed_clearly(&output, &site, "Not a directory (os error 20)");
    assert!(error.contains(&contexts.display().to_string()), "{error}");
    assert_unchanged(&before, &tree(&site));

    std::fs::remove_file(&contexts).unwrap();
    std::fs::rename(&aside, &contexts).unwrap();
    built(&data, &site);
    assert_same_as_fresh(&data, &site);
}
