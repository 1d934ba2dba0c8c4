//! Key brute force through timing: does a 401 come back sooner or later when the guessed key
//! is closer to a real one? Keys are looked up by their SHA-256, so a guess that shares 39 of
//! 40 characters with a real key should cost what a random guess costs. Sends `GET
//! /api/keys/status` with each kind of guess in turn (interleaved, so drift hits all kinds
//! alike) to the full request path on loopback, and prints the median, p10 and p90 latency of
//! each kind and its median's ratio to random guesses. Prints figures; asserts nothing.
//!
//! `cargo run --release -p saferef-runtime --example brute_force_timing -- [samples per kind]
//! [redis url]`: the embedded store unless a Redis URL is given.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use saferef_runtime::store::Store;
use saferef_runtime::tier::Tier;
use saferef_runtime::{AppState, Config, Release, Service, keys, serve};

/// The keys in the store.
struct Known {
    real: String,
    revoked: String,
    /// One random well-formed key, sent every time: the control for the guesses that repeat
    /// (the near miss, the revoked key), which a cache may answer sooner for being repeated,
    /// not for being close.
    repeated: String,
}

/// A kind of guess: its name and how to make one.
struct Kind {
    name: &'static str,
    guess: fn(&Known) -> String,
}

/// The real key with its last character replaced by a different one.
fn last_wrong(known: &Known) -> String {
    let (head, last) = known.real.split_at(known.real.len() - 1);
    format!("{head}{}", if last == "a" { "b" } else { "a" })
}

const KINDS: [Kind; 7] = [
    Kind {
        name: "random well-formed key",
        guess: |_| keys::generate(),
    },
    Kind {
        name: "one random key, repeated",
        guess: |k| k.repeated.clone(),
    },
    Kind {
        name: "first 24 characters of the real key",
        guess: |k| format!("{}{}", &k.real[..24], keys::random_base62(16)),
    },
    Kind {
        name: "real key with the last character wrong",
        guess: last_wrong,
    },
    Kind {
        name: "revoked key (exists, inactive)",
        guess: |k| k.revoked.clone(),
    },
    Kind {
        name: "malformed key (no lookup)",
        guess: |k| k.real[..39].to_string(),
    },
    Kind {
        name: "the real key (200, for scale)",
        guess: |k| k.real.clone(),
    },
];

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let samples: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2_000);
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data");
    let (dataset, problems) = saferef_generator::load::load(&data)?;
    anyhow::ensure!(problems.is_empty(), "the dataset has problems: run check");
    let dir = tempfile::tempdir()?;
    let store = match args.get(2) {
        Some(url) => Store::redis(url).await?.namespaced("brute-force-timing:"),
        None => Store::embedded(&dir.path().join("store.redb"))?,
    };
    let (real, _) = keys::create(&store, Tier::Enterprise, None, None).await?;
    let (revoked, record) = keys::create(&store, Tier::Enterprise, None, None).await?;
    keys::revoke(&store, &record.prefix).await?;
    let known = Known {
        real,
        revoked,
        repeated: keys::generate(),
    };
    let backend = store.backend();
    let state = Arc::new(AppState::new(
        Arc::new(Service::new(store.clone(), Config::default())),
        Release::new(dataset, 0, None),
    ));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/api/keys/status", listener.local_addr()?);
    tokio::spawn(serve(listener, state, std::future::pending()));

    let client = reqwest::Client::new();
    let mut times: Vec<Vec<Duration>> = vec![Vec::with_capacity(samples); KINDS.len()];
    let mut order: Vec<usize> = (0..KINDS.len()).collect();
    // Warm-up: connections, caches and the store's pages.
    for _ in 0..200 {
        client
            .get(&url)
            .header("x-api-key", &known.real)
            .send()
            .await?;
    }
    for _ in 0..samples {
        order.shuffle(&mut rand::rng());
        for &k in &order {
            let key = (KINDS[k].guess)(&known);
            let started = Instant::now();
            let res = client.get(&url).header("x-api-key", &key).send().await?;
            let status = res.status();
            res.bytes().await?;
            times[k].push(started.elapsed());
            let expected = if key == known.real { 200 } else { 401 };
            anyhow::ensure!(status == expected, "{}: {status}", KINDS[k].name);
        }
    }

    println!("401 latency, GET /api/keys/status, {backend} store, {samples} samples per kind");
    println!(
        "{:<42} {:>10} {:>10} {:>10} {:>8}",
        "guess", "p10 µs", "median µs", "p90 µs", "ratio"
    );
    let random_median = {
        let mut t = times[0].clone();
        t.sort();
        percentile(&t, 0.5)
    };
    for (kind, mut t) in KINDS.iter().zip(times) {
        t.sort();
        let median = percentile(&t, 0.5);
        println!(
            "{:<42} {:>10} {:>10} {:>10} {:>8.3}",
            kind.name,
            percentile(&t, 0.1).as_micros(),
            median.as_micros(),
            percentile(&t, 0.9).as_micros(),
            median.as_secs_f64() / random_median.as_secs_f64()
        );
    }
    // A shared Redis keeps nothing of the run.
    for key in [&known.real, &known.revoked] {
        if let Some(record) = keys::lookup(&store, key).await? {
            keys::delete(&store, &record).await?;
        }
    }
    Ok(())
}
