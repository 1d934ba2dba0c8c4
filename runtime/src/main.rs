//! `saferef-serve`: builds or loads the static tree and the dataset, then serves the API;
//! `saferef-serve keys ...` manages API keys in the configured store.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use clap::Parser;
use saferef_runtime::settings::{Command, KeysAction, Settings};
use saferef_runtime::store::Store;
use saferef_runtime::tier::Tier;
use saferef_runtime::{AppState, Live, Release, Service, keys, serve_live};

fn main() -> ExitCode {
    let settings = Settings::parse();
    let sink = saferef_runtime::log_writer::start(settings.log_queue, std::io::stderr());
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .with_writer(sink.clone())
        .with_ansi(ansi)
        .event_format(saferef_runtime::log_line::Lines::default())
        .init();
    // The request line skips `tracing` from here on, if the filter just set lets it through.
    saferef_runtime::log_line::write_requests_to(&sink, !ansi);
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async move {
        match settings.command.clone() {
            Some(Command::Keys { action }) => manage_keys(&settings, action).await,
            None => run(settings).await,
        }
    });
    saferef_runtime::log_writer::flush(std::time::Duration::from_secs(2));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// The validated settings, with the state directory's secret key where none is set.
fn config(settings: &Settings) -> anyhow::Result<saferef_runtime::Config> {
    let mut config = settings
        .config()
        .map_err(|problems| anyhow::anyhow!("refusing to start:\n  {}", problems.join("\n  ")))?;
    if config.secret_key.is_none() {
        // Not production (`check` refused that): the key of the state directory.
        let (key, created) = saferef_runtime::local_key::load_or_create(&settings.state)?;
        if created {
            tracing::warn!(
                "SAFEREF_SECRET_KEY is unset: created a secret key in {} (owner-only); it is reused on later starts, and instances sharing a Redis store need one SAFEREF_SECRET_KEY instead",
                settings
                    .state
                    .join(saferef_runtime::local_key::FILE)
                    .display()
            );
        }
        config.secret_key = Some(key);
    }
    Ok(config)
}

async fn run(settings: Settings) -> anyhow::Result<()> {
    let started = Instant::now();
    let config = config(&settings)?;
    let store = Store::open(settings.redis_url.as_deref(), &settings.state).await?;
    store.follow_invalidations();
    let (data, site) = (settings.data.clone(), settings.site.clone());
    let loaded =
        tokio::task::spawn_blocking(move || saferef_runtime::startup::load(&data, &site)).await??;
    tracing::info!(
        compounds = loaded.dataset.compounds.len(),
        problems = loaded.problems,
        fingerprint = %loaded.dataset.fingerprint,
        dataset_version = %loaded.dataset.regulatory_status.dataset_version,
        static_site = loaded.site.is_some(),
        store = store.backend(),
        "ready in {:.2}s",
        started.elapsed().as_secs_f64()
    );
    let service = Arc::new(Service {
        commit: settings.commit.clone(),
        admin_token: settings.admin_token.clone(),
        ..Service::new(store, config)
    });
    let state = AppState::new(
        service,
        Release::new(loaded.dataset, loaded.problems, loaded.site),
    );
    let listener = tokio::net::TcpListener::bind(settings.listen).await?;
    let addr = listener.local_addr()?;
    // Tests and scripts read this line to find the port when --listen ends in :0.
    println!("listening on http://{addr}");
    tracing::info!("listening on http://{addr}");
    let live = Live::new(Arc::new(state));
    let state = live.current();
    spawn_background(&live, &settings);
    serve_live(listener, live, shutdown_signal()).await;
    // Account mail still queued gets a moment; what is left runs at the next start.
    state
        .service
        .deferred
        .drain(saferef_runtime::accounts::deferred::DRAIN)
        .await;
    state.service.store.flush().await?;
    tracing::info!("stopped");
    Ok(())
}

/// The work that runs beside the requests: the daily freshness check, webhook deliveries,
/// the payment provider's hourly retries, the release's events, the account work left by an
/// earlier run, and reloads on SIGHUP.
fn spawn_background(live: &Arc<Live>, settings: &Settings) {
    let state = live.current();
    tokio::spawn(saferef_runtime::freshness::daily(live.clone()));
    tokio::spawn(saferef_runtime::webhooks::worker::run(
        state.service.store.clone(),
        state.service.config.clone(),
    ));
    tokio::spawn(saferef_runtime::accounts::provider::hourly(
        state.service.config.clone(),
        state.service.store.clone(),
    ));
    tokio::spawn(emit_release(state.clone()));
    tokio::spawn(saferef_runtime::accounts::deferred::replay(
        state.service.clone(),
    ));
    #[cfg(unix)]
    tokio::spawn(saferef_runtime::reload::on_hangup(
        live.clone(),
        saferef_runtime::reload::Source {
            data: settings.data.clone(),
            site: settings.site.clone(),
        },
    ));
}

/// Queues the loaded release's events for the webhooks (once across instances).
async fn emit_release(state: Arc<AppState>) {
    match saferef_runtime::releases::emit(&state).await {
        Ok(e) if e.events > 0 => tracing::info!(
            events = e.events,
            deliveries = e.deliveries,
            "release events queued"
        ),
        Ok(_) => {}
        Err(e) => tracing::error!("release events: {e} (retried at the next start)"),
    }
}

/// Ctrl-C or SIGTERM: stop accepting, finish requests in flight, give queued account mail
/// `deferred::DRAIN`, then flush the store.
async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
    tracing::info!("shutting down");
}

async fn manage_keys(settings: &Settings, action: KeysAction) -> anyhow::Result<()> {
    let store = Store::open(settings.redis_url.as_deref(), &settings.state).await?;
    match action {
        KeysAction::Create { tier, email } => {
            let tier = Tier::parse(&tier).ok_or_else(|| anyhow::anyhow!("unknown tier {tier}"))?;
            let (key, record) = keys::create(&store, tier, email, None).await?;
            eprintln!(
                "created a {} key {}… in the {} store; it is shown only now:",
                tier.name(),
                record.prefix,
                store.backend()
            );
            println!("{key}");
        }
        KeysAction::List => {
            for r in keys::list(&store).await? {
                println!(
                    "{}\t{}\t{}\t{}\t{}",
                    r.prefix,
                    r.tier.name(),
                    if r.active { "active" } else { "revoked" },
                    r.created.format("%Y-%m-%d"),
                    r.email.as_deref().unwrap_or("-")
                );
            }
        }
        KeysAction::Revoke { prefix } => {
            let revoked = keys::revoke(&store, &prefix).await?;
            anyhow::ensure!(
                !revoked.is_empty(),
                "no active key has the prefix {prefix:?}"
            );
            for r in revoked {
                println!("revoked {}", r.prefix);
            }
        }
    }
    Ok(())
}
