//! `saferef-generate`: check, ingest, build and diff the dataset.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "saferef-generate",
    version,
    about = "Build, check and refresh the saferef dataset"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Validate data/: every problem with file and JSON path; exit 1 if any.
    Check {
        #[arg(long, default_value = "data")]
        data: PathBuf,
        /// Also print counts and coverage per field and per source.
        #[arg(long)]
        stats: bool,
        /// Also re-read the source tables under this directory (repeatable) without writing:
        /// fail if a row is unexplained, if data/reconciliation.tsv is not what the tables
        /// give, or if a record is not what the ingest would make of it.
        #[arg(long = "reconcile", value_name = "SOURCES")]
        reconcile: Vec<PathBuf>,
    },
    /// Write every public response into a CDN-ready tree, with _redirects, _headers and a
    /// manifest.
    Build {
        #[arg(long, default_value = "data")]
        data: PathBuf,
        #[arg(long, default_value = "site")]
        out: PathBuf,
        /// Origin of the runtime that answers what the tree does not (e.g. https://api.example).
        #[arg(long, env = "SAFEREF_RUNTIME_ORIGIN")]
        runtime_origin: Option<String>,
        /// The public origin the site is published under (e.g. https://saferef.example): the
        /// canonical links, the sitemap's addresses, robots.txt and the OpenAPI servers name it
        /// (root-relative without it).
        #[arg(long, env = "SAFEREF_SITE_ORIGIN")]
        site_origin: Option<String>,
        /// Compare every file on disk with its new bytes instead of trusting the previous
        /// manifest (after site/ was edited by hand, or files went missing).
        #[arg(long)]
        full: bool,
        /// Benchmarks only: clone every entity N-1 times under new ids (1 to 10).
        #[arg(long, default_value_t = 1, hide = true)]
        scale: usize,
    },
    /// Create or refresh data/compounds/ from public source tables.
    Ingest {
        /// A directory holding tables at the catalogue's paths (data/sources.json); repeat
        /// to search several, in order.
        #[arg(long = "sources", required = true)]
        sources: Vec<PathBuf>,
        #[arg(long, default_value = "data")]
        data: PathBuf,
        /// Date recorded for created or changed records (default: today, UTC).
        #[arg(long)]
        date: Option<String>,
    },
    /// Compare two data directories, append the release's entries to NEW's changelog.jsonl
    /// (entries already there are not written twice) and write the release's notes to
    /// NEW/release-notes/<release>.md.
    Diff {
        /// The previous release's data directory.
        old: PathBuf,
        /// The new release's data directory; its changelog.jsonl receives the entries.
        new: PathBuf,
        /// Release name (default: NEW's data date and the first digits of its fingerprint).
        #[arg(long)]
        release: Option<String>,
        /// The previous release's OpenAPI document (its tree's api/openapi/index.json, read
        /// before building the new one): the notes then list the endpoints, parameters and
        /// answer fields that were added or removed.
        #[arg(long, value_name = "FILE")]
        old_openapi: Option<PathBuf>,
        /// Print the summary without writing the changelog or the notes.
        #[arg(long)]
        dry_run: bool,
    },
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Check {
            data,
            stats,
            reconcile,
        } => {
            let checked = check(&data, stats)?;
            if reconcile.is_empty() || checked != ExitCode::SUCCESS {
                return Ok(checked);
            }
            check_reconciliation(&data, reconcile)
        }
        Command::Build {
            data,
            out,
            runtime_origin,
            site_origin,
            full,
            scale,
        } => build(&data, out, (runtime_origin, site_origin), full, scale),
        Command::Ingest {
            sources,
            data,
            date,
        } => ingest(sources, data, date),
        Command::Diff {
            old,
            new,
            release,
            old_openapi,
            dry_run,
        } => diff(
            &old,
            &new,
            release.as_deref(),
            old_openapi.as_deref(),
            dry_run,
        ),
    }
}

fn diff(
    old: &std::path::Path,
    new: &std::path::Path,
    release: Option<&str>,
    old_openapi: Option<&std::path::Path>,
    dry_run: bool,
) -> anyhow::Result<ExitCode> {
    use saferef_generator::build::{diff, release_notes};
    use saferef_generator::model::changelog::{EventType, FILE};
    use saferef_generator::render::openapi;
    let previous: Option<serde_json::Value> = old_openapi
        .map(|path| -> anyhow::Result<_> {
            let text = std::fs::read_to_string(path)
                .map_err(|e| anyhow::anyhow!("--old-openapi {}: {e}", path.display()))?;
            serde_json::from_str(&text)
                .map_err(|e| anyhow::anyhow!("--old-openapi {}: {e}", path.display()))
        })
        .transpose()?;
    // Problems are `check`'s to report; an older release may predate today's rules.
    let (before, _) = saferef_generator::load::load(old)?;
    let (after, _) = saferef_generator::load::load(new)?;
    let d = diff::diff(&before, &after, release);
    println!(
        "release {} ({}): {} entries",
        d.release,
        d.date,
        d.entries.len()
    );
    for (kind, n) in d.counts() {
        println!("  {:<22} {n}", kind.as_str());
    }
    for e in d
        .entries
        .iter()
        .filter(|e| e.kind != EventType::CompoundAdded)
    {
        println!("  - {}", e.summary);
    }
    if !dry_run {
        let path = new.join(FILE);
        let written = diff::append(&path, &d.entries)?;
        eprintln!(
            "diff: {written} new entries appended to {} ({} already there)",
            path.display(),
            d.entries.len() - written
        );
        let current: serde_json::Value =
            serde_json::from_slice(&openapi::openapi(&after, openapi::Format::OpenApi).body)?;
        let notes = release_notes::notes(
            &before,
            &after,
            &d,
            previous.as_ref().map(|p| (p, &current)),
        );
        let path = new.join(release_notes::file_name(&d.release));
        std::fs::create_dir_all(path.parent().expect("a file below release-notes/"))?;
        std::fs::write(&path, notes)?;
        eprintln!("diff: release notes written to {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn check(data: &std::path::Path, stats: bool) -> anyhow::Result<ExitCode> {
    let started = std::time::Instant::now();
    let (dataset, problems) = saferef_generator::load::load(data)?;
    let problems = [problems, saferef_generator::validate::validate(&dataset)].concat();
    if stats {
        print!(
            "{}",
            saferef_generator::validate::stats::Stats::of(&dataset)
        );
        print!(
            "{}",
            saferef_generator::aggregate::coverage::Coverage::of(&dataset)
        );
    }
    for p in &problems {
        println!("{p}");
    }
    eprintln!(
        "checked {} compounds in {:.2}s: {} problem{}",
        dataset.compounds.len(),
        started.elapsed().as_secs_f64(),
        problems.len(),
        if problems.len() == 1 { "" } else { "s" }
    );
    Ok(if problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn build(
    data: &std::path::Path,
    out: PathBuf,
    (runtime_origin, site_origin): (Option<String>, Option<String>),
    full: bool,
    scale: usize,
) -> anyhow::Result<ExitCode> {
    let site_origin = site_origin
        .map(|o| saferef_generator::render::pages::site::origin(&o))
        .transpose()
        .map_err(|e| anyhow::anyhow!("--site-origin: {e}"))?;
    use saferef_generator::build::site::LastBuild;
    use saferef_generator::load::RecordCache;
    let started = std::time::Instant::now();
    // The previous build's parsed records are reused for unchanged files; `--full` trusts
    // nothing of it.
    let last = LastBuild::read(&out);
    let cache = (!full).then_some(&last as &dyn RecordCache);
    let (dataset, mut problems) = saferef_generator::load::load_with(data, cache)?;
    let loaded = started.elapsed().as_secs_f64();
    let (reused, clean) = if full {
        Default::default()
    } else {
        (last.reused(&dataset).len(), last.checked(&dataset))
    };
    problems.extend(saferef_generator::validate::validate_except(
        &dataset, &clean,
    ));
    if !problems.is_empty() {
        for p in &problems {
            eprintln!("{p}");
        }
        anyhow::bail!(
            "{} problems in {}: run check and fix them before building",
            problems.len(),
            data.display()
        );
    }
    eprintln!(
        "build: loaded {} compounds in {loaded:.2}s ({} parsed), checked {} in {:.2}s",
        dataset.compounds.len(),
        dataset.compounds.len() - reused,
        dataset.compounds.len() - clean.len(),
        started.elapsed().as_secs_f64() - loaded
    );
    let mut dataset = saferef_generator::build::site::scale::scaled(dataset, scale)?;
    dataset.site_origin = site_origin;
    saferef_generator::build::site::build_after(
        &dataset,
        &saferef_generator::build::site::BuildOptions {
            out,
            runtime_origin,
            full,
            built_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        },
        &last,
    )?;
    // The process ends here: freeing the dataset and the previous build piece by piece would
    // only cost time.
    std::mem::forget(dataset);
    std::mem::forget(last);
    Ok(ExitCode::SUCCESS)
}

/// Runs the ingest without writing and compares what it would write with data/.
fn check_reconciliation(data: &std::path::Path, sources: Vec<PathBuf>) -> anyhow::Result<ExitCode> {
    use saferef_generator::ingest::reconcile::REPORT;
    // The records' meta dates are kept unless a value changed, so any date does.
    let report = saferef_generator::ingest::run(&saferef_generator::ingest::IngestOptions {
        data_dir: data.to_path_buf(),
        source_roots: sources,
        date: "2000-01-01".into(),
        dry_run: true,
    })?;
    let mut failed = false;
    for id in &report.tables_missing {
        println!("reconcile: table {id} not found under any --reconcile directory");
        failed = true;
    }
    for line in report.reconciliation.unexplained() {
        println!("reconcile: unexplained row: {line}");
        failed = true;
    }
    let committed = std::fs::read_to_string(data.join(REPORT)).unwrap_or_default();
    if committed != report.reconciliation.to_tsv() {
        println!(
            "reconcile: {} is not what the tables give; run saferef-generate ingest and commit it",
            data.join(REPORT).display()
        );
        failed = true;
    }
    for id in &report.stale {
        println!("reconcile: {id} is not what the ingest makes of the tables");
        failed = true;
    }
    eprintln!(
        "reconciled {} tables: {} unexplained rows, {} stale records",
        report.tables_read.len(),
        report.reconciliation.unexplained().len(),
        report.stale.len()
    );
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn ingest(sources: Vec<PathBuf>, data: PathBuf, date: Option<String>) -> anyhow::Result<ExitCode> {
    let date = match date {
        Some(d) => {
            chrono::NaiveDate::parse_from_str(&d, "%Y-%m-%d")
                .map_err(|e| anyhow::anyhow!("--date {d:?}: {e} (expected YYYY-MM-DD)"))?;
            d
        }
        None => chrono::Utc::now().date_naive().to_string(),
    };
    let started = std::time::Instant::now();
    let report = saferef_generator::ingest::run(&saferef_generator::ingest::IngestOptions {
        data_dir: data,
        source_roots: sources,
        date,
        dry_run: false,
    })?;
    for (id, n) in &report.tables_read {
        eprintln!("read {id}: {n} rows");
    }
    for line in report.reconciliation.unexplained() {
        eprintln!("warning: unexplained row: {line}");
    }
    for id in &report.tables_missing {
        eprintln!(
            "warning: table {id} not found under any --sources directory; its values were left as they were"
        );
    }
    for (id, cid) in &report.unmatched_cids {
        eprintln!("warning: {id}: PubChem CID {cid} matches no identifier table row; row skipped");
    }
    if !report.no_longer_selected.is_empty() {
        eprintln!(
            "note: {} compounds are no longer selected by any rule and were kept: {}",
            report.no_longer_selected.len(),
            report.no_longer_selected.join(", ")
        );
    }
    eprintln!(
        "ingest: {} compounds selected ({} new ids): {} created, {} updated, {} unchanged in {:.1}s",
        report.selected,
        report.new_ids,
        report.created,
        report.updated,
        report.unchanged,
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
