//! The real `saferef-serve` binary: started on a loopback port, and its `keys` commands.
//!
//! Every server started here writes its log to a file, and when it is dropped the log must
//! hold no panic line: no panic may be reachable from the network (RELIABILITY.md, "Hostile
//! input"), so none may happen anywhere in the suite.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// A running `saferef-serve`; killed (SIGKILL) when dropped or by `child.kill()`, and then
/// its log is checked for panics.
pub struct Server {
    pub child: Child,
    pub base: String,
    log: Option<PathBuf>,
    _scratch: Option<tempfile::TempDir>,
}

impl Server {
    /// A started `saferef-serve` (stdout piped), once its first line says where it listens.
    /// Its log is the caller's to check (`assert_no_panic`).
    pub fn listening(mut child: Child) -> Server {
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let base = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        Server {
            child,
            base,
            log: None,
            _scratch: None,
        }
    }

    /// As `listening`, for a server whose stderr goes to `log` (`log_file`): checked for panic
    /// lines when the server is dropped.
    pub fn logged(child: Child, log: LogFile) -> Server {
        let mut server = Server::listening(child);
        server.log = Some(log.path);
        server._scratch = log.scratch;
        server
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        // Not while a failed test unwinds: a second panic would abort the run.
        if let Some(log) = &self.log
            && !std::thread::panicking()
        {
            assert_no_panic(&std::fs::read_to_string(log).unwrap_or_default());
        }
    }
}

/// A server's log file: at `path`, or in a scratch directory of its own.
pub struct LogFile {
    path: PathBuf,
    scratch: Option<tempfile::TempDir>,
}

impl LogFile {
    pub fn at(path: &Path) -> LogFile {
        LogFile {
            path: path.to_path_buf(),
            scratch: None,
        }
    }

    pub fn scratch() -> LogFile {
        let dir = tempfile::tempdir().unwrap();
        LogFile {
            path: dir.path().join("server.log"),
            scratch: Some(dir),
        }
    }

    /// The file, created empty, as a child's stderr.
    pub fn stderr(&self) -> Stdio {
        Stdio::from(std::fs::File::create(&self.path).unwrap())
    }
}

/// Fails when a server's log holds a panic (the line Rust's panic handler writes).
pub fn assert_no_panic(log: &str) {
    let panics: Vec<&str> = log.lines().filter(|l| l.contains("panicked at")).collect();
    assert!(
        panics.is_empty(),
        "the server panicked (RELIABILITY.md: no panic may be reachable):\n{}",
        panics.join("\n")
    );
}

/// `saferef-serve --listen 127.0.0.1:0 --data DATA --site SITE --state STATE` with `env`
/// (the embedded store unless `env` sets `SAFEREF_REDIS_URL`); returns once it prints the
/// address it listens on.
pub fn serve(data: &Path, site: &Path, state: &Path, env: &[(&str, &str)]) -> Server {
    serve_logged(data, site, state, env, None)
}

/// As `serve`, with the server's log (stderr) written to `log` when given, else to a file
/// of its own; either is checked for panics when the server is dropped.
pub fn serve_logged(
    data: &Path,
    site: &Path,
    state: &Path,
    env: &[(&str, &str)],
    log: Option<&Path>,
) -> Server {
    let log = log.map_or_else(LogFile::scratch, LogFile::at);
    let child = serve_command(data, site, state)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(log.stderr())
        .spawn()
        .unwrap();
    Server::logged(child, log)
}

/// The command `serve` runs, not yet started: the embedded store (no `SAFEREF_REDIS_URL`).
pub fn serve_command(data: &Path, site: &Path, state: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_saferef-serve"));
    command
        .args(["--listen", "127.0.0.1:0", "--data"])
        .arg(data)
        .arg("--site")
        .arg(site)
        .arg("--state")
        .arg(state)
        .env_remove("SAFEREF_REDIS_URL");
    command
}

/// A new key of `tier` in the embedded store under `state` (`keys create` prints it last).
pub fn create_key(state: &Path, tier: &str) -> String {
    create_key_with(state, tier, &[])
}

/// As `create_key`, in the store `env` configures (`SAFEREF_REDIS_URL`).
pub fn create_key_with(state: &Path, tier: &str, env: &[(&str, &str)]) -> String {
    let state = state.to_str().unwrap();
    keys_command(&["create", "--tier", tier, "--state", state], env)
        .lines()
        .last()
        .unwrap()
        .to_string()
}

/// `saferef-serve keys ARGS` run as its own process in the store `env` configures (the
/// embedded one without `SAFEREF_REDIS_URL`): its output; the command must succeed.
pub fn keys_command(args: &[&str], env: &[(&str, &str)]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_saferef-serve"))
        .arg("keys")
        .args(args)
        .env_remove("SAFEREF_REDIS_URL")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A dataset served by the binary from a tree of its snapshot (every request reaches the
/// runtime), with a key of `tier` and the server's log kept for a failure message.
pub struct Served {
    pub server: Server,
    pub key: String,
    pub state: tempfile::TempDir,
    tree: tempfile::TempDir,
}

impl Served {
    /// The committed dataset, served.
    pub fn start(tier: &str, env: &[(&str, &str)]) -> Served {
        Served::of(&super::dataset(), tier, env)
    }

    /// `dataset` served. The key is made before the server starts: the embedded store is
    /// locked by its server.
    pub fn of(
        dataset: &saferef_generator::model::Dataset,
        tier: &str,
        env: &[(&str, &str)],
    ) -> Served {
        let tree = tempfile::tempdir().unwrap();
        super::write_tree(tree.path(), dataset);
        let state = tempfile::tempdir().unwrap();
        let key = create_key(state.path(), tier);
        let server = serve_logged(
            &tree.path().join("data"),
            &tree.path().join("site"),
            state.path(),
            env,
            Some(&tree.path().join("serve.log")),
        );
        Served {
            server,
            key,
            state,
            tree,
        }
    }

    /// Serves `dataset` at the next reload (SIGHUP) instead.
    pub fn replace(&self, dataset: &saferef_generator::model::Dataset) {
        super::write_tree(self.tree.path(), dataset);
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(self.tree.path().join("serve.log")).unwrap_or_default()
    }
}
