//! The real `saferef-serve` binary: started on a loopback port, and its `keys create`.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A running `saferef-serve`; killed (SIGKILL) when dropped or by `child.kill()`.
pub struct Server {
    pub child: Child,
    pub base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `saferef-serve --listen 127.0.0.1:0 --data DATA --site SITE --state STATE` with `env`, on
/// the embedded store; returns once it prints the address it listens on.
pub fn serve(data: &Path, site: &Path, state: &Path, env: &[(&str, &str)]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_saferef-serve"))
        .args(["--listen", "127.0.0.1:0", "--data"])
        .arg(data)
        .arg("--site")
        .arg(site)
        .arg("--state")
        .arg(state)
        .envs(env.iter().copied())
        .env_remove("SAFEREF_REDIS_URL")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
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

/// A new key of `tier` in the embedded store under `state` (`keys create` prints it last).
pub fn create_key(state: &Path, tier: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_saferef-serve"))
        .args(["keys", "create", "--tier", tier, "--state"])
        .arg(state)
        .env_remove("SAFEREF_REDIS_URL")
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
