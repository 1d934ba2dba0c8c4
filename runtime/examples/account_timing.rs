//! Does an account request's answer tell whether the address has an account? Starts a
//! `saferef-serve` binary (this build's, or the one given, to compare two builds) on a tree of
//! the committed dataset with `keys` accounts in its store, sends recovery step 1 for
//! addresses with and without an account and trials for new and already-used addresses,
//! interleaved in random order, each from its own client address (`X-Forwarded-For`), and
//! prints the median, p10 and p90 answer time and the statuses of each kind. Then starts it
//! again with a mail server that refuses every connection and prints the statuses the same
//! requests get. Prints figures; asserts nothing (RELIABILITY.md, issue 23).
//!
//! `cargo run -p saferef-runtime --example account_timing -- [samples per kind] [binary]`

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;

const KINDS: [&str; 4] = [
    "recover step 1, address with an account",
    "recover step 1, address without one",
    "trial, a new address",
    "trial, an address that had one",
];

struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start(
    binary: &Path,
    tree: &Path,
    state: &Path,
    smtp: Option<&str>,
) -> anyhow::Result<(Running, String)> {
    let mut command = Command::new(binary);
    command
        .args(["--listen", "127.0.0.1:0", "--data"])
        .arg(tree.join("data"))
        .arg("--site")
        .arg(tree.join("site"))
        .arg("--state")
        .arg(state)
        .env_remove("SAFEREF_REDIS_URL")
        .env("SAFEREF_TRUSTED_PROXY_HEADER", "x-forwarded-for")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    if let Some(url) = smtp {
        command.env("SAFEREF_SMTP_URL", url);
    }
    let mut child = command.spawn()?;
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("piped")).read_line(&mut line)?;
    let base = line
        .trim()
        .strip_prefix("listening on ")
        .ok_or_else(|| anyhow::anyhow!("unexpected first line {line:?}"))?
        .to_string();
    Ok((Running(child), base))
}

/// `POST /api/keys/{path} {"email": email}` from the client address `from`: how long the
/// answer took, body included, and its status.
async fn post(
    client: &reqwest::Client,
    base: &str,
    path: &str,
    from: &str,
    email: &str,
) -> anyhow::Result<(Duration, u16)> {
    let started = Instant::now();
    let res = client
        .post(format!("{base}/api/keys/{path}"))
        .header("x-forwarded-for", from)
        .json(&serde_json::json!({ "email": email }))
        .send()
        .await?;
    let status = res.status().as_u16();
    res.bytes().await?;
    Ok((started.elapsed(), status))
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let samples: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    // target/<profile>/examples/account_timing -> target/<profile>/saferef-serve
    let binary = match args.get(2) {
        Some(path) => PathBuf::from(path),
        None => std::env::current_exe()?
            .parent()
            .and_then(Path::parent)
            .map(|d| d.join("saferef-serve"))
            .ok_or_else(|| anyhow::anyhow!("no target directory"))?,
    };
    let dir = tempfile::tempdir()?;
    let tree = write_tree(dir.path())?;
    let state = dir.path().join("state");
    std::fs::create_dir_all(&state)?;
    create_keys(&binary, &state, samples)?;

    let (server, base) = start(&binary, &tree, &state, None)?;
    let client = reqwest::Client::new();
    // The address whose trial is taken; and warm-up of connections and the store.
    post(&client, &base, "trial", "10.9.0.1", "used@example.org").await?;
    tokio::time::sleep(Duration::from_millis(500)).await;
    for _ in 0..20 {
        client.get(format!("{base}/api/health")).send().await?;
    }
    let (times, statuses) = measure(&client, &base, samples).await?;
    drop(server);
    println!(
        "{} ({samples} samples per kind, loopback, embedded store, mail to the outbox)",
        binary.display()
    );
    println!(
        "{:<42} {:>9} {:>9} {:>9}  statuses",
        "request", "p10 µs", "median µs", "p90 µs"
    );
    for ((kind, mut t), s) in KINDS.iter().zip(times).zip(statuses) {
        t.sort();
        println!(
            "{kind:<42} {:>9} {:>9} {:>9}  {s:?}",
            percentile(&t, 0.1).as_micros(),
            percentile(&t, 0.5).as_micros(),
            percentile(&t, 0.9).as_micros()
        );
    }

    // Nothing listens on loopback's port 9: every delivery fails at connect.
    let (server, base) = start(&binary, &tree, &state, Some("smtp://127.0.0.1:9"))?;
    println!("with a mail server that refuses every connection:");
    refused_mail(&client, &base).await?;
    drop(server);
    Ok(())
}

/// A tree the server starts on under `dir`: the committed dataset's snapshot, empty routing
/// files and a manifest with its build time.
fn write_tree(dir: &Path) -> anyhow::Result<PathBuf> {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data");
    let (dataset, _) = saferef_generator::load::load(&data)?;
    let tree = dir.join("tree");
    let site = tree.join("site");
    let snapshot = site.join(saferef_generator::load::snapshot::PATH);
    std::fs::create_dir_all(snapshot.parent().expect("a folder"))?;
    std::fs::write(
        &snapshot,
        saferef_generator::load::snapshot::encode(&dataset)?,
    )?;
    std::fs::write(site.join("_redirects"), "")?;
    std::fs::write(site.join("_headers"), "")?;
    std::fs::write(
        site.join(saferef_generator::build::site::MANIFEST),
        format!(r#"{{"built_at":"{}"}}"#, chrono::Utc::now().to_rfc3339()),
    )?;
    std::fs::create_dir_all(tree.join("data"))?;
    Ok(tree)
}

/// The accounts `k{i}@example.org`, one developer key each.
fn create_keys(binary: &Path, state: &Path, samples: usize) -> anyhow::Result<()> {
    for i in 0..samples {
        let made = Command::new(binary)
            .args(["keys", "create", "--tier", "developer", "--email"])
            .arg(format!("k{i}@example.org"))
            .arg("--state")
            .arg(state)
            .env_remove("SAFEREF_REDIS_URL")
            .output()?;
        anyhow::ensure!(
            made.status.success(),
            "keys create: {}",
            String::from_utf8_lossy(&made.stderr)
        );
    }
    Ok(())
}

/// `samples` requests of each kind of `KINDS`, interleaved in random order: the answer times
/// and the count of each status, per kind.
async fn measure(
    client: &reqwest::Client,
    base: &str,
    samples: usize,
) -> anyhow::Result<(Vec<Vec<Duration>>, Vec<BTreeMap<u16, usize>>)> {
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); KINDS.len()];
    let mut statuses: Vec<BTreeMap<u16, usize>> = vec![BTreeMap::new(); KINDS.len()];
    let mut order: Vec<usize> = (0..KINDS.len()).collect();
    for i in 0..samples {
        order.shuffle(&mut rand::rng());
        for &k in &order {
            // A client of its own per request: no per-client allowance is reached.
            let from = format!("10.{}.{}.{}", 10 + k, i / 250, i % 250);
            let (path, email) = match k {
                0 => ("recover", format!("k{i}@example.org")),
                1 => ("recover", format!("n{i}@example.org")),
                2 => ("trial", format!("t{i}@example.org")),
                _ => ("trial", "used@example.org".to_string()),
            };
            let (took, status) = post(client, base, path, &from, &email).await?;
            times[k].push(took);
            *statuses[k].entry(status).or_default() += 1;
        }
    }
    Ok((times, statuses))
}

/// Prints the status each account request gets while mail cannot be delivered.
async fn refused_mail(client: &reqwest::Client, base: &str) -> anyhow::Result<()> {
    for (path, label, email) in [
        (
            "recover",
            "recover step 1, with an account",
            "k0@example.org",
        ),
        ("recover", "recover step 1, without one", "n0@example.org"),
        (
            "erasure",
            "erasure step 1, with an account",
            "k1@example.org",
        ),
        ("erasure", "erasure step 1, without one", "n1@example.org"),
        ("trial", "trial, a new address", "fresh@example.org"),
        (
            "trial",
            "trial, an address that had one",
            "used@example.org",
        ),
    ] {
        let (_, status) = post(client, base, path, "10.99.0.1", email).await?;
        println!("{label:<42} {status}");
    }
    Ok(())
}
