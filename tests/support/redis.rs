//! A private `redis-server` for tests that stop, restart or share it between processes:
//! a free loopback port, its own directory (AOF on, every write fsynced, so a restart keeps
//! every write), an optional password, and SIGKILL when dropped.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct RedisServer {
    pub port: u16,
    /// The URL a client connects with, the password included when there is one.
    pub url: String,
    password: Option<String>,
    dir: tempfile::TempDir,
    child: Option<Child>,
}

impl RedisServer {
    pub fn start() -> RedisServer {
        RedisServer::launch(None)
    }

    /// As `start`, with `--requirepass password`.
    pub fn start_with_password(password: &str) -> RedisServer {
        RedisServer::launch(Some(password.to_string()))
    }

    fn launch(password: Option<String>) -> RedisServer {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let auth = password
            .as_ref()
            .map(|p| format!(":{p}@"))
            .unwrap_or_default();
        let mut server = RedisServer {
            port,
            url: format!("redis://{auth}127.0.0.1:{port}/"),
            password,
            dir: tempfile::tempdir().unwrap(),
            child: None,
        };
        server.resume();
        server
    }

    /// Starts the server (again) on its port and directory; returns once it answers.
    pub fn resume(&mut self) {
        let mut cmd = Command::new("redis-server");
        cmd.args(["--bind", "127.0.0.1", "--port", &self.port.to_string()])
            .arg("--dir")
            .arg(self.dir.path())
            .args([
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
            ]);
        if let Some(p) = &self.password {
            cmd.args(["--requirepass", p]);
        }
        let child = cmd
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server is installed by ./scripts/test");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.cli(&["ping"]).as_deref() != Some("PONG") {
            assert!(Instant::now() < deadline, "redis-server did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stops the server the way an operator would (`SHUTDOWN`: the AOF is complete); returns
    /// once the process has exited, cleanly.
    pub fn stop(&mut self) {
        let _ = self.cli(&["shutdown"]);
        let Some(child) = self.child.as_mut() else {
            return;
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            assert!(Instant::now() < deadline, "redis-server did not stop");
            std::thread::sleep(Duration::from_millis(20));
        };
        self.child = None;
        assert!(status.success(), "redis-server exited with {status}");
    }

    /// Everything in the append-only files.
    pub fn aof(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(self.dir.path().join("appendonlydir")).unwrap() {
            out.extend(std::fs::read(entry.unwrap().path()).unwrap());
        }
        out
    }

    /// `redis-cli -p PORT ARGS...` (authenticated when there is a password), its trimmed
    /// output when it ran.
    pub fn cli(&self, args: &[&str]) -> Option<String> {
        let mut cmd = Command::new("redis-cli");
        cmd.args(["-p", &self.port.to_string()]).args(args);
        // In the environment rather than `-a`, which warns on every call.
        if let Some(p) = &self.password {
            cmd.env("REDISCLI_AUTH", p);
        }
        let out = cmd.output().ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
