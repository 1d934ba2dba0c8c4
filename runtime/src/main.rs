//! `saferef-serve`: loads and validates the dataset, then serves the API.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use clap::Parser;
use saferef_runtime::settings::Settings;
use saferef_runtime::{AppState, serve};

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let settings = Settings::parse();
    match run(settings) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(settings: Settings) -> anyhow::Result<()> {
    let started = Instant::now();
    let loaded = saferef_runtime::startup::load(&settings.data, &settings.site)?;
    tracing::info!(
        compounds = loaded.dataset.compounds.len(),
        problems = loaded.problems,
        dataset_version = %loaded.dataset.fingerprint,
        static_site = loaded.site.is_some(),
        "dataset loaded in {:.2}s",
        started.elapsed().as_secs_f64()
    );
    let state = Arc::new(AppState {
        dataset: loaded.dataset,
        dataset_problems: loaded.problems,
        commit: settings.commit.clone(),
        admin_token: settings.admin_token.clone(),
        started,
        site: loaded.site,
    });
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(settings.listen).await?;
        let addr = listener.local_addr()?;
        // Tests and scripts read this line to find the port when --listen ends in :0.
        println!("listening on http://{addr}");
        tracing::info!("listening on http://{addr}");
        serve(listener, state, async {
            let _ = tokio::signal::ctrl_c().await;
            tracing::info!("shutting down");
        })
        .await;
        Ok(())
    })
}
