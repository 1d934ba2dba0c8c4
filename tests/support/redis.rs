//! A private `redis-server` for tests that stop, restart or share it between processes:
//! a free loopback port, its own directory (AOF on, so a restart keeps every write), and
//! SIGKILL when dropped.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct RedisServer {
    pub port: u16,
    pub url: String,
    dir: tempfile::TempDir,
    child: Option<Child>,
}

impl RedisServer {
    pub fn start() -> RedisServer {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut server = RedisServer {
            port,
            url: format!("redis://127.0.0.1:{port}/"),
            dir: tempfile::tempdir().unwrap(),
            child: None,
        };
        server.resume();
        server
    }

    /// Starts the server (again) on its port and directory; returns once it answers.
    pub fn resume(&mut self) {
        let child = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &self.port.to_string()])
            .arg("--dir")
            .arg(self.dir.path())
            .args([
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
            ])
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

    /// Stops the server the way an operator would (`SHUTDOWN`: the AOF is complete).
    pub fn stop(&mut self) {
        let _ = self.cli(&["shutdown"]);
        if let Some(mut child) = self.child.take() {
            let _ = child.wait();
        }
    }

    /// `redis-cli -p PORT ARGS...`, its trimmed output when it ran.
    pub fn cli(&self, args: &[&str]) -> Option<String> {
        let out = Command::new("redis-cli")
            .args(["-p", &self.port.to_string()])
            .args(args)
            .output()
            .ok()?;
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
