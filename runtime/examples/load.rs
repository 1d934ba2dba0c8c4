//! Load benchmark: throughput and p50/p99 latency of keyed endpoints (batch, search, compare)
//! against two baselines in the same process and on the same loopback: a bare warp handler,
//! and the runtime's trivial `/api/health` through the full request path (key lookup, quota
//! counter, headers). Prints figures; asserts nothing.
//!
//! `cargo run --release -p saferef-runtime --example load -- [seconds per scenario]
//! [connections] [filter] [rounds]`: with a filter, only the scenarios whose name contains it
//! run (beside the two baselines), e.g. to profile one endpoint. With several rounds, every
//! scenario runs once per round in turn and the medians close the report: other work on the
//! machine then weighs on every scenario alike.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use saferef_runtime::store::Store;
use saferef_runtime::tier::Tier;
use saferef_runtime::{AppState, Config, Release, Service, keys, serve};
use warp::Filter;

struct Scenario {
    name: &'static str,
    url: String,
    key: bool,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let seconds: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    let connections: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(16);
    let filter = args.get(3).cloned().unwrap_or_default();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data");
    let (dataset, problems) = saferef_generator::load::load(&data)?;
    anyhow::ensure!(problems.is_empty(), "the dataset has problems: run check");
    let dir = tempfile::tempdir()?;
    let store = Store::embedded(&dir.path().join("store.redb"))?;
    let (key, _) = keys::create(&store, Tier::Enterprise, None, None).await?;
    let state = Arc::new(AppState::new(
        Arc::new(Service::new(store, Config::default())),
        Release::new(dataset, 0, None),
    ));
    let memory = rss();

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let runtime = format!("http://{}", listener.local_addr()?);
    tokio::spawn(serve(listener, state, std::future::pending()));
    let bare_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let bare = format!("http://{}", bare_listener.local_addr()?);
    let hello = warp::path!("hello").map(|| "{\"status\":\"ok\"}");
    tokio::spawn(warp::serve(hello).incoming(bare_listener).run());

    let scenarios = scenarios(&bare, &runtime);
    let rounds: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1).max(1);
    println!(
        "{seconds} s per scenario, {connections} connections, {rounds} round(s); client and server share this machine's cores"
    );
    println!("{memory} after loading the dataset and building the indexes");
    // The first two are the baselines.
    let chosen: Vec<&Scenario> = scenarios
        .iter()
        .enumerate()
        .filter(|(i, s)| *i < 2 || s.name.contains(filter.as_str()))
        .map(|(_, s)| s)
        .collect();
    // Per scenario, one (req/s, p50, p99, vs bare, vs health) per round.
    let mut figures: Vec<Vec<[f64; 5]>> = vec![Vec::new(); chosen.len()];
    for round in 1..=rounds {
        if rounds > 1 {
            println!("round {round}");
        }
        print_header();
        let (mut bare_rps, mut health_rps) = (0.0, 0.0);
        for (i, s) in chosen.iter().enumerate() {
            let (rps, p50, p99) = run(s, &key, seconds, connections).await?;
            match i {
                0 => bare_rps = rps,
                1 => health_rps = rps,
                _ => {}
            }
            let row = [rps, p50, p99, rps / bare_rps, rps / health_rps];
            print_row(s.name, &row, i);
            figures[i].push(row);
        }
    }
    if rounds > 1 {
        println!("median of {rounds} rounds");
        print_header();
        for (i, s) in chosen.iter().enumerate() {
            let median = std::array::from_fn(|k| {
                let mut v: Vec<f64> = figures[i].iter().map(|r| r[k]).collect();
                v.sort_by(f64::total_cmp);
                v[v.len() / 2]
            });
            print_row(s.name, &median, i);
        }
    }
    Ok(())
}

/// The scenarios, the two baselines first: the bare handler at `bare`, then the runtime at
/// `runtime`.
fn scenarios(bare: &str, runtime: &str) -> [Scenario; 6] {
    let ids = "hq-c-org-000218,hq-c-org-000221,hq-c-org-000145,hq-c-org-000001,hq-c-org-000002,hq-c-org-000003,hq-c-org-000004,hq-c-org-000005,hq-c-org-000006,hq-c-org-000007";
    [
        Scenario {
            name: "bare warp handler",
            url: format!("{bare}/hello"),
            key: false,
        },
        Scenario {
            name: "GET /api/health",
            url: format!("{runtime}/api/health"),
            key: true,
        },
        Scenario {
            name: "GET /api/compounds/batch (10 ids)",
            url: format!("{runtime}/api/compounds/batch?ids={ids}"),
            key: true,
        },
        Scenario {
            name: "GET /api/search?q=benzene",
            url: format!("{runtime}/api/search?q=benzene"),
            key: true,
        },
        Scenario {
            name: "GET /api/search?q=formaldehide (typo)",
            url: format!("{runtime}/api/search?q=formaldehide"),
            key: true,
        },
        Scenario {
            name: "GET /api/compounds/compare (3 ids)",
            url: format!(
                "{runtime}/api/compounds/compare?ids=hq-c-org-000218,hq-c-org-000221,hq-c-org-000145"
            ),
            key: true,
        },
    ]
}

/// This process's resident memory, as /proc/self/status states it (empty where there is none).
fn rss() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .map(str::to_string)
        })
        .unwrap_or_default()
}

fn print_header() {
    println!(
        "{:<42} {:>9} {:>9} {:>9} {:>8} {:>10}",
        "scenario", "req/s", "p50 ms", "p99 ms", "vs bare", "vs health"
    );
}

/// One line of the table; the bare handler has no ratio to health.
fn print_row(name: &str, [rps, p50, p99, vs_bare, vs_health]: &[f64; 5], i: usize) {
    println!(
        "{:<42} {:>9.0} {:>9.2} {:>9.2} {:>8.2} {:>10}",
        name,
        rps,
        p50,
        p99,
        vs_bare,
        if i == 0 {
            String::new()
        } else {
            format!("{vs_health:.2}")
        }
    );
}

async fn run(
    s: &Scenario,
    key: &str,
    seconds: u64,
    connections: usize,
) -> anyhow::Result<(f64, f64, f64)> {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(connections)
        .build()?;
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let workers: Vec<_> = (0..connections)
        .map(|_| {
            let (client, url, key) = (
                client.clone(),
                s.url.clone(),
                s.key.then(|| key.to_string()),
            );
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                while Instant::now() < deadline {
                    let t = Instant::now();
                    let mut req = client.get(&url);
                    if let Some(k) = &key {
                        req = req.header("x-api-key", k);
                    }
                    let res = req.send().await?;
                    anyhow::ensure!(res.status().is_success(), "{url}: {}", res.status());
                    res.bytes().await?;
                    latencies.push(t.elapsed());
                }
                Ok::<_, anyhow::Error>(latencies)
            })
        })
        .collect();
    let mut all = Vec::new();
    for w in workers {
        all.extend(w.await??);
    }
    let elapsed = started.elapsed().as_secs_f64();
    all.sort();
    let pct =
        |p: f64| all[((all.len() as f64 * p) as usize).min(all.len() - 1)].as_secs_f64() * 1000.0;
    Ok((all.len() as f64 / elapsed, pct(0.50), pct(0.99)))
}
