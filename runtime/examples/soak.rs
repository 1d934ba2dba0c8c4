//! Soak benchmark: the real `saferef-serve` binary under mixed traffic at a fixed rate for
//! minutes, on loopback. Every interval prints the requests, errors (no answer, or a status
//! other than 2xx and a compound's documented 422 for a context without evidence), latency percentiles and the server's resident memory; the end prints a
//! summary per kind of request and whether memory grew between the first and the last minute.
//! Exits with 1 on any error or on growth past `--max-growth`; otherwise asserts nothing.
//!
//! ```sh
//! cargo build --release -p saferef-runtime --bin saferef-serve --example soak
//! target/release/examples/soak                  # 500 requests/s for 5 minutes
//! target/release/examples/soak --short          # smoke run: 30 s at 100 requests/s
//! target/release/examples/soak --rate 800 --seconds 600
//! ```
//!
//! The rate is open loop: requests leave on schedule whatever the answers, so a slow server
//! shows as latency and as requests in flight, not as a lower rate. Latency runs from the
//! moment a request is sent; `lag` is how far sending fell behind the schedule (the load
//! generator shares the machine's cores with the server).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use saferef_generator::model::Dataset;
use saferef_generator::model::vocab::WatchClass;

#[derive(Debug, Parser)]
#[command(about = "Mixed traffic against saferef-serve at a fixed rate")]
struct Args {
    /// Requests per second, sent on schedule whatever the answers.
    #[arg(long, default_value_t = 500)]
    rate: u32,
    /// How long to send, in seconds.
    #[arg(long, default_value_t = 300)]
    seconds: u64,
    /// A smoke run: 30 seconds at 100 requests per second, a line every 5 seconds.
    #[arg(long)]
    short: bool,
    /// Seconds between report lines.
    #[arg(long, default_value_t = 10)]
    every: u64,
    /// Growth of the resident memory (percent, last minute's peak over the first minute's)
    /// taken for a leak.
    #[arg(long, default_value_t = 10.0)]
    max_growth: f64,
    /// The `saferef-serve` binary [default: the one beside this example's directory].
    #[arg(long)]
    server: Option<PathBuf>,
    /// The static tree the server answers from, built by the server when missing or stale
    /// [default: saferef-soak-site in the temporary directory, kept for the next run].
    #[arg(long)]
    site: Option<PathBuf>,
}

/// What a request exercises; the weights are its share of the traffic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Public lookups the static tree answers: compounds (plain, a context, raw, by CAS),
    /// materials and products.
    Static,
    /// Public compound lookups the runtime renders: a context by one of its aliases.
    Public,
    BatchGet,
    BatchPost,
    Search,
    Compare,
    /// Regulatory status with `as_of` (and now and then the forward calendar).
    Regulatory,
}

const MIX: &[(Kind, u32)] = &[
    (Kind::Static, 30),
    (Kind::Public, 10),
    (Kind::BatchGet, 10),
    (Kind::BatchPost, 5),
    (Kind::Search, 20),
    (Kind::Compare, 10),
    (Kind::Regulatory, 15),
];

/// A request to send.
struct Call {
    kind: Kind,
    path: String,
    /// A JSON body, sent as a POST.
    body: Option<String>,
}

/// The names a request is drawn from, read once from the dataset.
struct Corpus {
    /// Compounds the public may see (critical threats answer 403): id and CAS.
    compounds: Vec<(String, String)>,
    materials: Vec<String>,
    products: Vec<String>,
    contexts: Vec<String>,
    aliases: Vec<String>,
    analytes: Vec<String>,
    queries: Vec<String>,
}

impl Corpus {
    fn read(dataset: &Dataset) -> Corpus {
        let compounds: Vec<(String, String)> = dataset
            .compounds
            .values()
            .filter(|r| r.watch_class != WatchClass::CriticalThreat)
            .map(|r| (r.hq_id.to_string(), r.cas.to_string()))
            .collect();
        let contexts = &dataset.contexts.contexts;
        // Whole names, their first word (many matches), and typos.
        let mut queries: Vec<String> = [
            "BPA",
            "benzene",
            "formaldehide",
            "phthalate",
            "lead",
            "baby bottle",
            "pesticide",
            "dichloromethane",
            "toluen",
            "80-05-7",
            "pb",
        ]
        .map(str::to_string)
        .into();
        queries.extend(dataset.compounds.values().step_by(40).flat_map(|r| {
            let first = r.name.split(' ').next().unwrap_or_default().to_string();
            [r.name.clone(), first]
        }));
        queries.retain(|q| q.trim().chars().count() >= 2);
        Corpus {
            compounds,
            materials: dataset.materials.keys().cloned().collect(),
            products: dataset.products.keys().cloned().collect(),
            contexts: contexts.iter().map(|c| c.name.clone()).collect(),
            aliases: contexts.iter().flat_map(|c| c.aliases.clone()).collect(),
            analytes: dataset
                .regulatory_status
                .vocabulary
                .analytes
                .keys()
                .cloned()
                .collect(),
            queries,
        }
    }

    fn ids(&self, rng: &mut StdRng, n: usize) -> Vec<&str> {
        self.compounds
            .choose_multiple(rng, n)
            .map(|(id, _)| id.as_str())
            .collect()
    }

    fn call(&self, rng: &mut StdRng) -> Call {
        let total: u32 = MIX.iter().map(|(_, w)| w).sum();
        let mut pick = rng.random_range(0..total);
        let kind = MIX
            .iter()
            .find(|(_, w)| {
                let hit = pick < *w;
                pick = pick.saturating_sub(*w);
                hit
            })
            .map_or(Kind::Static, |(k, _)| *k);
        let pick = |rng: &mut StdRng, list: &[String]| list.choose(rng).cloned().unwrap();
        let (id, cas) = self.compounds.choose(rng).unwrap();
        let get = |path: String| Call {
            kind,
            path,
            body: None,
        };
        match kind {
            Kind::Static => get(match rng.random_range(0..6) {
                0 => format!("/api/compound/{id}"),
                1 => format!("/api/compound/{id}?context={}", pick(rng, &self.contexts)),
                2 => format!("/api/compound/{id}/raw"),
                3 => format!("/api/compound/cas/{cas}"),
                4 => format!("/api/material/{}", pick(rng, &self.materials)),
                _ => format!("/api/product/{}", pick(rng, &self.products)),
            }),
            Kind::Public => get(format!(
                "/api/compound/{id}?context={}",
                pick(rng, &self.aliases)
            )),
            Kind::BatchGet => {
                let mut ids = self.ids(rng, 9);
                ids.push(cas);
                get(format!("/api/compounds/batch?ids={}", ids.join(",")))
            }
            Kind::BatchPost => Call {
                kind,
                path: "/api/compounds/batch".into(),
                body: Some(
                    serde_json::json!({
                        "compounds": self.ids(rng, 25),
                        "context": pick(rng, &self.contexts),
                    })
                    .to_string(),
                ),
            },
            Kind::Search => {
                let q = pick(rng, &self.queries);
                let q =
                    percent_encoding::utf8_percent_encode(&q, percent_encoding::NON_ALPHANUMERIC);
                get(match rng.random_range(0..4) {
                    0 => format!("/api/search?q={q}&type=compound&limit=50"),
                    1 => format!("/api/search?q={q}&offset=20"),
                    _ => format!("/api/search?q={q}"),
                })
            }
            Kind::Compare => {
                let n = rng.random_range(2..=4);
                get(format!(
                    "/api/compounds/compare?ids={}",
                    self.ids(rng, n).join(",")
                ))
            }
            Kind::Regulatory => {
                let as_of = format!(
                    "{}-{:02}-{:02}",
                    rng.random_range(2015..=2035),
                    rng.random_range(1..=12),
                    rng.random_range(1..=28)
                );
                let jurisdiction = ["US", "EU", "CA_AB899"].choose(rng).unwrap();
                get(match rng.random_range(0..4) {
                    0 => format!(
                        "/api/regulatory-status?analyte={}&as_of={as_of}",
                        pick(rng, &self.analytes)
                    ),
                    1 => format!(
                        "/api/regulatory-status?jurisdiction={jurisdiction}&view=calendar&before={as_of}"
                    ),
                    _ => {
                        format!("/api/regulatory-status?jurisdiction={jurisdiction}&as_of={as_of}")
                    }
                })
            }
        }
    }
}

/// One answered (or failed) request.
struct Sample {
    kind: Kind,
    latency: Duration,
    ok: bool,
}

/// What finished requests left, taken by the reporter: the current interval's samples and
/// every latency so far (a few MB for an hour at 500/s). A mutex: one short push per request.
#[derive(Default)]
struct Record {
    interval: Vec<Sample>,
    all: Vec<Sample>,
    /// The first errors, in full, to say what failed.
    failures: Vec<String>,
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let at = ((sorted.len() as f64 * p) as usize).min(sorted.len() - 1);
    sorted[at].as_secs_f64() * 1000.0
}

fn percentiles(samples: &[Sample]) -> (f64, f64, f64) {
    let mut l: Vec<Duration> = samples.iter().map(|s| s.latency).collect();
    l.sort_unstable();
    (
        percentile(&l, 0.50),
        percentile(&l, 0.99),
        percentile(&l, 0.999),
    )
}

/// The resident memory of a process in MB, from `/proc/<pid>/status`.
fn rss_mb(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb / 1024.0)
}

/// `keys create --tier enterprise` in the embedded store under `state` (before the server
/// opens it): the key is printed last.
fn create_key(server: &Path, state: &Path) -> anyhow::Result<String> {
    let out = Command::new(server)
        .args(["keys", "create", "--tier", "enterprise", "--state"])
        .arg(state)
        .env_remove("SAFEREF_REDIS_URL")
        .output()?;
    anyhow::ensure!(
        out.status.success(),
        "keys create: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout)?;
    Ok(stdout.lines().last().unwrap_or_default().trim().to_string())
}

/// Starts the server on a free loopback port; returns it and its base URL once it listens.
fn start(server: &Path, data: &Path, site: &Path, state: &Path) -> anyhow::Result<(Child, String)> {
    use std::io::{BufRead, BufReader};
    let log = std::fs::File::create(state.join("server.log"))?;
    let mut child = Command::new(server)
        .args(["--listen", "127.0.0.1:0", "--data"])
        .arg(data)
        .arg("--site")
        .arg(site)
        .arg("--state")
        .arg(state)
        .env_remove("SAFEREF_REDIS_URL")
        .stdout(Stdio::piped())
        .stderr(log)
        .spawn()?;
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("piped")).read_line(&mut line)?;
    let Some(base) = line.trim().strip_prefix("listening on ") else {
        let _ = child.kill();
        anyhow::bail!(
            "the server did not start ({line:?}); see {}",
            state.join("server.log").display()
        );
    };
    Ok((child, base.to_string()))
}

#[tokio::main]
async fn main() -> anyhow::Result<std::process::ExitCode> {
    let mut args = Args::parse();
    if args.short {
        (args.rate, args.seconds, args.every) = (100, 30, 5);
    }
    anyhow::ensure!(
        args.rate > 0 && args.seconds > 0 && args.every > 0,
        "rate, seconds and every must be positive"
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let data = root.join("data");
    let server = match args.server.clone() {
        Some(path) => path,
        None => std::env::current_exe()?
            .parent()
            .and_then(Path::parent)
            .map(|dir| dir.join("saferef-serve"))
            .unwrap_or_default(),
    };
    anyhow::ensure!(
        server.is_file(),
        "no server binary at {}: cargo build --release -p saferef-runtime --bin saferef-serve",
        server.display()
    );
    let site = args
        .site
        .clone()
        .unwrap_or_else(|| std::env::temp_dir().join("saferef-soak-site"));
    let (dataset, _) = saferef_generator::load::load(&data)?;
    let corpus = Arc::new(Corpus::read(&dataset));
    drop(dataset);
    let state = tempfile::tempdir()?;
    let key = create_key(&server, state.path())?;
    println!(
        "starting {} (it builds {} first when missing or stale)",
        server.display(),
        site.display()
    );
    let (mut child, base) = start(&server, &data, &site, state.path())?;
    let pid = child.id();
    println!(
        "{base}: {} requests/s for {} s, open loop; mix {}",
        args.rate,
        args.seconds,
        MIX.iter()
            .map(|(k, w)| format!("{k:?} {w}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let outcome = soak(&args, &base, &key, corpus, pid).await;
    // SIGTERM: the server flushes its store and stops; its exit is part of the run.
    let _ = Command::new("kill")
        .arg("-TERM")
        .arg(pid.to_string())
        .status();
    let stopped = tokio::task::spawn_blocking(move || child.wait()).await??;
    println!("server stopped: {stopped}");
    let (errors, growth) = outcome?;
    if errors > 0 || growth > args.max_growth {
        println!(
            "FAIL: {errors} errors, memory growth {growth:.1}% (limit {}%)",
            args.max_growth
        );
        return Ok(std::process::ExitCode::FAILURE);
    }
    println!(
        "PASS: no errors, memory growth {growth:.1}% (limit {}%)",
        args.max_growth
    );
    Ok(std::process::ExitCode::SUCCESS)
}

/// Sends the traffic and reports; returns the error count and the memory growth (percent).
async fn soak(
    args: &Args,
    base: &str,
    key: &str,
    corpus: Arc<Corpus>,
    pid: u32,
) -> anyhow::Result<(usize, f64)> {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(10))
        .build()?;
    let record = Arc::new(Mutex::new(Record::default()));
    let start = Instant::now();
    let duration = Duration::from_secs(args.seconds);
    let total = u64::from(args.rate) * args.seconds;
    let period = Duration::from_secs(1) / args.rate;
    let mut rng = StdRng::seed_from_u64(10);
    let mut memory: Vec<(Duration, f64)> = Vec::new();
    let mut sent = 0u64;
    let mut next_report = Duration::from_secs(args.every);
    let mut next_memory = Duration::ZERO;
    let mut max_lag = Duration::ZERO;
    let in_flight = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    print_header();
    loop {
        let now = start.elapsed();
        if next_memory <= now {
            if let Some(mb) = rss_mb(pid) {
                memory.push((now, mb));
            }
            next_memory += Duration::from_secs(1);
        }
        if next_report <= now {
            report(
                &record,
                next_report,
                args.every,
                memory.last().map_or(0.0, |m| m.1),
                max_lag,
                in_flight.load(std::sync::atomic::Ordering::Relaxed),
            );
            max_lag = Duration::ZERO;
            next_report += Duration::from_secs(args.every);
        }
        if sent >= total && in_flight.load(std::sync::atomic::Ordering::Relaxed) == 0 {
            break;
        }
        // Every request due by now leaves now.
        while sent < total && period * u32::try_from(sent)? <= now {
            max_lag = max_lag.max(now - period * u32::try_from(sent)?);
            sent += 1;
            let call = corpus.call(&mut rng);
            let (client, record, in_flight) = (client.clone(), record.clone(), in_flight.clone());
            let (url, key) = (format!("{base}{}", call.path), key.to_string());
            in_flight.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            tokio::spawn(async move {
                let t = Instant::now();
                let outcome = send(&client, &url, key, call.body.as_deref()).await;
                recorded(&record, call.kind, t.elapsed(), outcome);
                in_flight.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
            });
        }
        let next_send = if sent < total {
            period * u32::try_from(sent)?
        } else {
            duration + Duration::from_secs(3600)
        };
        let wake = next_send.min(next_report).min(next_memory);
        tokio::time::sleep_until((start + wake).into()).await;
    }
    let mut r = record.lock().expect("no panic while held");
    let interval = std::mem::take(&mut r.interval);
    r.all.extend(interval);
    summary(&r, start.elapsed(), &memory, args)
}

/// The column heads of the interval lines `report` prints.
fn print_header() {
    println!(
        "{:>7} {:>9} {:>7} {:>7} {:>8} {:>8} {:>8} {:>9} {:>8} {:>8}",
        "elapsed",
        "requests",
        "req/s",
        "errors",
        "p50 ms",
        "p99 ms",
        "p999 ms",
        "RSS MB",
        "lag ms",
        "flight"
    );
}

/// Prints the interval that ends at `at` and moves its samples to the totals.
fn report(
    record: &Mutex<Record>,
    at: Duration,
    every: u64,
    rss_mb: f64,
    max_lag: Duration,
    in_flight: usize,
) {
    let (interval, errors, done) = {
        let mut r = record.lock().expect("no panic while held");
        let interval = std::mem::take(&mut r.interval);
        let errors = interval.iter().filter(|s| !s.ok).count();
        (interval, errors, r.all.len())
    };
    let (p50, p99, p999) = percentiles(&interval);
    println!(
        "{:>6}s {:>9} {:>7.0} {:>7} {:>8.2} {:>8.2} {:>8.2} {:>9.1} {:>8.1} {:>8}",
        at.as_secs(),
        done,
        interval.len() as f64 / every as f64,
        errors,
        p50,
        p99,
        p999,
        rss_mb,
        max_lag.as_secs_f64() * 1000.0,
        in_flight,
    );
    record
        .lock()
        .expect("no panic while held")
        .all
        .extend(interval);
}

/// Adds a finished request to the interval; keeps the first errors in full.
fn recorded(record: &Mutex<Record>, kind: Kind, latency: Duration, outcome: Result<(), String>) {
    let sample = Sample {
        kind,
        latency,
        ok: outcome.is_ok(),
    };
    let mut r = record.lock().expect("no panic while held");
    r.interval.push(sample);
    if let Err(e) = outcome
        && r.failures.len() < 10
    {
        r.failures.push(e);
    }
}

/// One request, its whole body read: `Err` says what failed (no answer, or a status the
/// request should not get).
async fn send(
    client: &reqwest::Client,
    url: &str,
    key: String,
    body: Option<&str>,
) -> Result<(), String> {
    let req = match body {
        Some(body) => client
            .post(url)
            .header("content-type", "application/json")
            .body(body.to_string()),
        None => client.get(url),
    };
    match req.header("x-api-key", key).send().await {
        Ok(res) => {
            let status = res.status();
            match res.bytes().await {
                Ok(_) if status.is_success() || expected(status, url) => Ok(()),
                Ok(body) => Err(format!(
                    "{status} {url}: {}",
                    String::from_utf8_lossy(&body[..body.len().min(200)])
                )),
                Err(e) => Err(format!("{url}: reading the body: {e}")),
            }
        }
        Err(e) => Err(format!("{url}: {e}")),
    }
}

/// Prints the totals, one line per kind and the memory verdict; returns the error count and
/// the growth.
fn summary(
    r: &Record,
    elapsed: Duration,
    memory: &[(Duration, f64)],
    args: &Args,
) -> anyhow::Result<(usize, f64)> {
    let errors = r.all.iter().filter(|s| !s.ok).count();
    let (p50, p99, p999) = percentiles(&r.all);
    println!(
        "\ntotal: {} requests in {:.0} s ({:.0}/s), {errors} errors, p50 {p50:.2} ms, p99 {p99:.2} ms, p999 {p999:.2} ms",
        r.all.len(),
        elapsed.as_secs_f64(),
        r.all.len() as f64 / elapsed.as_secs_f64()
    );
    println!(
        "{:<12} {:>9} {:>7} {:>8} {:>8} {:>8}",
        "kind", "requests", "errors", "p50 ms", "p99 ms", "p999 ms"
    );
    for (kind, _) in MIX {
        let of: Vec<&Sample> = r.all.iter().filter(|s| s.kind == *kind).collect();
        let mut l: Vec<Duration> = of.iter().map(|s| s.latency).collect();
        l.sort_unstable();
        println!(
            "{:<12} {:>9} {:>7} {:>8.2} {:>8.2} {:>8.2}",
            format!("{kind:?}"),
            of.len(),
            of.iter().filter(|s| !s.ok).count(),
            percentile(&l, 0.5),
            percentile(&l, 0.99),
            percentile(&l, 0.999)
        );
    }
    for f in &r.failures {
        println!("error: {f}");
    }
    // The first and the last minute (a third of a shorter run): the peak of each.
    let end = memory.last().map_or(Duration::ZERO, |m| m.0);
    let window = Duration::from_secs(60).min(end / 3);
    let peak = |from: Duration, to: Duration| {
        memory
            .iter()
            .filter(|(t, _)| *t >= from && *t <= to)
            .map(|(_, mb)| *mb)
            .fold(0.0, f64::max)
    };
    let (first, last) = (peak(Duration::ZERO, window), peak(end - window, end));
    anyhow::ensure!(first > 0.0, "no memory samples of the server");
    let growth = (last / first - 1.0) * 100.0;
    println!(
        "RSS: first {:.0} s peak {first:.1} MB, last {:.0} s peak {last:.1} MB, growth {growth:+.1}% (limit {}%); lowest {:.1} MB, highest {:.1} MB",
        window.as_secs_f64(),
        window.as_secs_f64(),
        args.max_growth,
        memory.iter().map(|m| m.1).fold(f64::MAX, f64::min),
        memory.iter().map(|m| m.1).fold(0.0, f64::max),
    );
    Ok((errors, growth))
}

/// A compound lookup answers 422 for a context the compound has no evidence for: the
/// mix picks compounds and contexts at random, so that answer is expected, not an error.
fn expected(status: reqwest::StatusCode, url: &str) -> bool {
    status == reqwest::StatusCode::UNPROCESSABLE_ENTITY && url.contains("/api/compound/")
}
