//! The ingest end to end on a small copy of the real source tables (a few real rows each,
//! in tests/fixtures/sources): records are created, pass `check`, are stable on a rerun,
//! change only where a table changed, and never overwrite curated values.

use std::path::{Path, PathBuf};

use saferef_generator::ingest::{IngestOptions, IngestReport, run};
use saferef_generator::load::load;
use saferef_generator::model::vocab::IarcGroup;
use saferef_generator::validate::validate;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A fresh data directory with the real catalogue and agencies, and a tiny selection.
fn data_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for f in ["sources.json", "agencies.json", "contexts.json"] {
        std::fs::copy(repo().join("data").join(f), dir.path().join(f)).unwrap();
    }
    std::fs::create_dir_all(dir.path().join("compounds")).unwrap();
    std::fs::create_dir_all(dir.path().join("curated")).unwrap();
    for folder in ["documents", "release-notes"] {
        copy_tree(&repo().join("data").join(folder), &dir.path().join(folder));
    }
    std::fs::write(
        dir.path().join("curated/selection.tsv"),
        "cas\tname\tgroup\tnote\n7732-18-5\tWater\teveryday_substance\t\n64-17-5\tEthanol\tsolvent\t\n",
    )
    .unwrap();
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn ingest(data: &Path, sources: &Path, date: &str) -> IngestReport {
    run(&IngestOptions {
        data_dir: data.to_path_buf(),
        source_roots: vec![sources.to_path_buf()],
        date: date.into(),
        dry_run: false,
    })
    .unwrap()
}

fn read(data: &Path, id: &str) -> String {
    std::fs::read_to_string(data.join("compounds").join(format!("{id}.json"))).unwrap()
}

#[test]
fn fixture_ingest_end_to_end() {
    let data = data_dir();
    let sources = tempfile::tempdir().unwrap();
    copy_tree(&repo().join("tests/fixtures/sources"), sources.path());

    let first = ingest(data.path(), sources.path(), "2026-01-01");
    assert_eq!(first.tables_read.len(), 8, "{:?}", first.tables_read);
    assert_eq!(
        first.selected, 5,
        "formaldehyde, benzene, BPA from lists; water, ethanol curated"
    );
    assert_eq!((first.created, first.updated, first.unchanged), (5, 0, 0));

    let (dataset, problems) = load(data.path()).unwrap();
    let problems = [problems, validate(&dataset)].concat();
    assert!(problems.is_empty(), "{problems:#?}");
    let benzene = dataset.by_cas("71-43-2").unwrap();
    assert_eq!(benzene.name, "Benzene");
    assert_eq!(
        benzene.identity.inchi_key.as_deref(),
        Some("UHOVQNZJYSORNB-UHFFFAOYSA-N")
    );
    assert_eq!(
        benzene.regulatory.listings.prop65.len(),
        3,
        "cancer, developmental, male"
    );
    assert_eq!(
        benzene.safety.ghs.len(),
        1,
        "HCIS is dropped where CLP has an entry"
    );
    assert_eq!(benzene.safety.ghs[0].jurisdiction, "EU");
    let bpa = dataset.by_cas("80-05-7").unwrap();
    assert_eq!(
        bpa.safety.ghs[0].jurisdiction, "AU",
        "HCIS stands in where CLP has none"
    );
    assert!(!bpa.safety.endocrine_disruption.is_empty());
    let water = dataset.by_cas("7732-18-5").unwrap();
    assert!(
        water.hq_id.to_string().starts_with("hq-c-ino-"),
        "{}",
        water.hq_id
    );
    assert_eq!(water.kind.as_deref(), Some("everyday_substance"));
    assert!(
        water
            .data_gaps
            .iter()
            .any(|g| g.field == "properties.physical_properties.melting_point")
    );
    let formaldehyde_id = dataset.by_cas("50-00-0").unwrap().hq_id.to_string();
    let before = read(data.path(), &formaldehyde_id);

    // A rerun on the same tables changes nothing, byte for byte.
    let again = ingest(data.path(), sources.path(), "2026-02-01");
    assert_eq!((again.created, again.updated, again.unchanged), (0, 0, 5));
    assert_eq!(read(data.path(), &formaldehyde_id), before);

    // A newer IARC edition: only IARC values of the changed compound move.
    let iarc = sources
        .path()
        .join("chemicals-1.5.2/Safety/IARC Carcinogen Database.tsv");
    let text = std::fs::read_to_string(&iarc).unwrap();
    std::fs::write(
        &iarc,
        text.replace("50-00-0\tFormaldehyde\t1\t", "50-00-0\tFormaldehyde\t11\t"),
    )
    .unwrap();
    let newer = ingest(data.path(), sources.path(), "2026-03-01");
    assert_eq!((newer.updated, newer.unchanged), (1, 4));
    let (dataset, _) = load(data.path()).unwrap();
    let formaldehyde = dataset.by_cas("50-00-0").unwrap();
    assert_eq!(
        formaldehyde
            .regulatory
            .listings
            .iarc_group
            .as_ref()
            .unwrap()
            .group,
        IarcGroup::G2A
    );
    assert_eq!(formaldehyde.meta.version, 2);
    assert_eq!(formaldehyde.meta.last_reviewed, "2026-03-01");
    assert!(
        formaldehyde.regulatory.listings.ntp_roc.is_some(),
        "other sources kept"
    );

    // A table that goes missing leaves its values as they were.
    std::fs::remove_file(sources.path().join("us-ntp-roc15/NTP_ROC15.csv")).unwrap();
    let partial = ingest(data.path(), sources.path(), "2026-04-01");
    assert!(partial.tables_missing.contains(&"ntp-roc15".to_string()));
    assert_eq!(partial.updated, 0);
}

#[test]
fn curated_values_are_never_overwritten() {
    let data = data_dir();
    let sources = repo().join("tests/fixtures/sources");
    ingest(data.path(), &sources, "2026-01-01");
    let curated = r#"{
  "title": "Test curation",
  "sources": [{"id": "iarc-vol-999", "title": "A later monograph", "publisher": "IARC", "edition": "2030", "url": "https://example.org/v999"}],
  "entries": [{"cas": "71-43-2", "name": "Benzene", "set": {
    "regulatory": {"listings": {"iarc_group": {"group": "2A", "volumes": "999", "year": 2030, "source": "iarc-vol-999"}}},
    "properties": {"physical_properties": {"melting_point": {"value": 5.5, "unit": "°C", "source": "iarc-vol-999"}}}
  }}]
}
"#;
    let curated_path = data.path().join("curated/test.json");
    std::fs::write(&curated_path, curated).unwrap();

    // Re-ingesting the IARC table neither touches the curation file nor wins over it.
    let report = ingest(data.path(), &sources, "2026-02-01");
    assert_eq!(report.updated, 0);
    assert_eq!(std::fs::read_to_string(&curated_path).unwrap(), curated);
    let (dataset, problems) = load(data.path()).unwrap();
    let problems = [problems, validate(&dataset)].concat();
    assert!(problems.is_empty(), "{problems:#?}");
    let benzene = dataset.by_cas("71-43-2").unwrap();
    let listing = benzene.regulatory.listings.iarc_group.as_ref().unwrap();
    assert_eq!(
        (listing.group, listing.source.as_str()),
        (IarcGroup::G2A, "iarc-vol-999")
    );
    assert!(benzene.sources.iter().any(|s| s.id == "iarc-vol-999"));
    // The curated value fills the gap the ingest recorded.
    assert!(
        !benzene
            .data_gaps
            .iter()
            .any(|g| g.field == "properties.physical_properties.melting_point")
    );
    assert!(!read(data.path(), &benzene.hq_id.to_string()).contains("iarc-vol-999"));
}

#[test]
fn every_row_read_is_reconciled_and_a_group_row_needs_a_placement() {
    let data = data_dir();
    let sources = tempfile::tempdir().unwrap();
    copy_tree(&repo().join("tests/fixtures/sources"), sources.path());
    let first = ingest(data.path(), sources.path(), "2026-01-01");
    assert!(first.reconciliation.unexplained().is_empty());
    let report = std::fs::read_to_string(data.path().join("reconciliation.tsv")).unwrap();
    assert!(
        report.contains("oehha-prop65-2023\t3\t3\t0\t0\t0\t-\n"),
        "three Prop 65 rows, all matched:\n{report}"
    );

    // A row naming a group with no CAS: unexplained until group-rows.tsv places it.
    let p65 = sources.path().join("ca-prop65/OEHHA_P65.csv");
    let mut table = std::fs::read(&p65).unwrap();
    table.extend_from_slice(b"Lead and lead compounds,cancer,AB,---,1-Oct-92,\n");
    std::fs::write(&p65, table).unwrap();
    let second = ingest(data.path(), sources.path(), "2026-01-02");
    assert_eq!(
        second.reconciliation.unexplained(),
        [
            "oehha-prop65-2023: \"Lead and lead compounds\": names no CAS number and curated/group-rows.tsv does not place it"
        ]
    );
    std::fs::write(
        data.path().join("curated/group-rows.tsv"),
        "table\trow_name\trow_key\tdisposition\trule\tmembers\tqualifier\treason\n\
         prop65\tLead and lead compounds\tcancer|1-Oct-92\tunmatched\t-\t-\t-\tno lead compound in this corpus\n",
    )
    .unwrap();
    let third = ingest(data.path(), sources.path(), "2026-01-03");
    assert!(third.reconciliation.unexplained().is_empty());
    let report = std::fs::read_to_string(data.path().join("reconciliation.tsv")).unwrap();
    assert!(report.contains("oehha-prop65-2023\t\t\t\t1\t\tno lead compound in this corpus\n"));
    assert_eq!(third.updated, 0, "a group row changes no record by itself");
}
