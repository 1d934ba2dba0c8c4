//! Start-up: the static tree and the dataset the runtime serves. site/ is (re)built from
//! data/ when it is missing or older than data/, templates/ or this binary; the dataset then
//! comes from the build's snapshot, so the runtime does not re-parse data/ when the tree is
//! current.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use saferef_generator::build::site::cdn::StaticSite;
use saferef_generator::build::site::{BuildOptions, MANIFEST};
use saferef_generator::load::snapshot;
use saferef_generator::model::Dataset;

/// What start-up produced.
#[derive(Debug)]
pub struct Loaded {
    pub dataset: Dataset,
    /// Problems `check` finds in data/ (0 when the dataset came from a current snapshot,
    /// which only a clean build writes).
    pub problems: usize,
    pub site: Option<StaticSite>,
}

/// Loads the dataset and the tree, building the tree first when it is stale.
pub fn load(data: &Path, site: &Path) -> anyhow::Result<Loaded> {
    let snapshot_path = site.join(snapshot::PATH);
    if !stale(data, site) {
        let dataset = snapshot::read(&snapshot_path)?;
        tracing::info!(
            "site {} is current; dataset from its snapshot",
            site.display()
        );
        return Ok(Loaded {
            dataset,
            problems: 0,
            site: Some(StaticSite::open(site)?),
        });
    }
    if !data.join("compounds").is_dir() && snapshot_path.is_file() {
        tracing::warn!(
            "no dataset at {}: serving the snapshot of {}",
            data.display(),
            site.display()
        );
        return Ok(Loaded {
            dataset: snapshot::read(&snapshot_path)?,
            problems: 0,
            site: Some(StaticSite::open(site)?),
        });
    }
    let (dataset, mut problems) = saferef_generator::load::load(data)?;
    problems.extend(saferef_generator::validate::validate(&dataset));
    if !problems.is_empty() {
        for p in problems.iter().take(20) {
            tracing::warn!("dataset problem: {p}");
        }
        tracing::warn!(
            "{} dataset problems (run saferef-generate check): the static tree is not built; every response is rendered on demand",
            problems.len()
        );
        return Ok(Loaded {
            dataset,
            problems: problems.len(),
            site: None,
        });
    }
    tracing::info!("building {} from {}", site.display(), data.display());
    saferef_generator::build::site::build(
        &dataset,
        &BuildOptions {
            out: site.to_path_buf(),
            runtime_origin: None,
            built_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            full: false,
        },
    )?;
    Ok(Loaded {
        dataset,
        problems: 0,
        site: Some(StaticSite::open(site)?),
    })
}

/// Whether site/ must be rebuilt: no manifest or snapshot, or something it is built from
/// (data/, templates/ beside it, the binary) is newer than its manifest.
fn stale(data: &Path, site: &Path) -> bool {
    let Some(built) = modified(&site.join(MANIFEST)) else {
        return true;
    };
    if !site.join(snapshot::PATH).is_file() {
        return true;
    }
    let mut inputs: Vec<PathBuf> = vec![data.to_path_buf()];
    if let Some(parent) = data.parent() {
        inputs.push(parent.join("templates"));
    }
    let newer_input = inputs.iter().any(|dir| {
        walkdir::WalkDir::new(dir)
            .into_iter()
            .filter_map(Result::ok)
            .any(|e| e.metadata().ok().and_then(|m| m.modified().ok()) > Some(built))
    });
    let newer_binary = std::env::current_exe()
        .ok()
        .and_then(|exe| modified(&exe))
        .is_some_and(|t| t > built);
    newer_input || newer_binary
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}
