//! The real `saferef-serve` binary: started on a loopback port, and its `keys create`.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A running `saferef-serve`; killed (SIGKILL) when dropped or by `child.kill()`.
pub struct Server {
    pub child: Child,
    pub base: String,
}

impl Server {
    /// A started `saferef-serve` (stdout piped), once its first line says where it listens.
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
        Server { child, base }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `saferef-serve --listen 127.0.0.1:0 --data DATA --site SITE --state STATE` with `env`
/// (the embedded store unless `env` sets `SAFEREF_REDIS_URL`); returns once it prints the
/// address it listens on.
pub fn serve(data: &Path, site: &Path, state: &Path, env: &[(&str, &str)]) -> Server {
    serve_logged(data, site, state, env, None)
}

/// As `serve`, with the server's log (stderr) written to `log` when given.
pub fn serve_logged(
    data: &Path,
    site: &Path,
    state: &Path,
    env: &[(&str, &str)],
    log: Option<&Path>,
) -> Server {
    let stderr = match log {
        Some(path) => Stdio::from(std::fs::File::create(path).unwrap()),
        None => Stdio::null(),
    };
    let child = Command::new(env!("CARGO_BIN_EXE_saferef-serve"))
        .args(["--listen", "127.0.0.1:0", "--data"])
        .arg(data)
        .arg("--site")
        .arg(site)
        .arg("--state")
        .arg(state)
        .env_remove("SAFEREF_REDIS_URL")
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap();
    Server::listening(child)
}

/// A new key of `tier` in the embedded store under `state` (`keys create` prints it last).
pub fn create_key(state: &Path, tier: &str) -> String {
    create_key_with(state, tier, &[])
}

/// As `create_key`, in the store `env` configures (`SAFEREF_REDIS_URL`).
pub fn create_key_with(state: &Path, tier: &str, env: &[(&str, &str)]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_saferef-serve"))
        .args(["keys", "create", "--tier", tier, "--state"])
        .arg(state)
        .env_remove("SAFEREF_REDIS_URL")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .last()
        .unwrap()
        .to_string()
}

/// The committed dataset served by the binary (a tree of its snapshot: every request reaches
/// the runtime), with a key of `tier` and the server's log kept for a failure message.
pub struct Served {
    pub server: Server,
    pub key: String,
    pub state: tempfile::TempDir,
    tree: tempfile::TempDir,
}

impl Served {
    pub fn start(tier: &str, env: &[(&str, &str)]) -> Served {
        let tree = tempfile::tempdir().unwrap();
        super::write_tree(tree.path(), &super::dataset());
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

    pub fn log(&self) -> String {
        std::fs::read_to_string(self.tree.path().join("serve.log")).unwrap_or_default()
    }
}
