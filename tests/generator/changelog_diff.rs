//! `saferef-generate diff` on two copies of the committed data/ that differ in known ways: a
//! compound missing from the old copy, a field and a regulatory listing changed, a
//! carcinogen listing that raises risk tiers and a regulatory-status threshold. The entries,
//! the idempotent append, the loader and `check` are asserted on the real files.

use std::path::{Path, PathBuf};
use std::process::Command;

use saferef_generator::build::diff;
use saferef_generator::load;
use saferef_generator::model::Dataset;
use saferef_generator::model::changelog::{EventType, FILE};
use saferef_generator::render::openapi;
use serde_json::{Value, json};

pub(crate) fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data")
}

pub(crate) fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn edit_json(path: &Path, edit: impl FnOnce(&mut Value)) {
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    edit(&mut v);
    std::fs::write(path, serde_json::to_string_pretty(&v).unwrap() + "\n").unwrap();
}

fn loaded(dir: &Path) -> Dataset {
    load::load(dir).unwrap().0
}

/// Two copies of data/ without a changelog, and the ids of the compounds the test edits:
/// (absent from old, edited field and listing, raised to IARC Group 1).
fn fixture() -> (tempfile::TempDir, PathBuf, PathBuf, [String; 3]) {
    let tmp = tempfile::tempdir().unwrap();
    let (old, new) = (tmp.path().join("old"), tmp.path().join("new"));
    copy_dir(&data_dir(), &old);
    copy_dir(&data_dir(), &new);
    for dir in [&old, &new] {
        let _ = std::fs::remove_file(dir.join(FILE));
    }
    let d = loaded(&new);
    let mut ids = d.compounds.keys();
    let added = *ids.next().unwrap();
    // A compound with a Prop 65 listing, so the listing edit is a regulatory change.
    let (edited, _) = d
        .compounds
        .iter()
        .find(|(id, r)| **id != added && !r.regulatory.listings.prop65.is_empty())
        .unwrap();
    // A compound no carcinogen list names and whose adult tier is low.
    let (raised, _) = d
        .compounds
        .iter()
        .find(|(_, r)| {
            r.regulatory.listings.iarc_group.is_none()
                && r.regulatory.listings.ntp_roc.is_none()
                && r.regulatory.listings.prop65.is_empty()
                && r.safety.ghs.is_empty()
                && saferef_generator::aggregate::assess(r)
                    .contexts
                    .iter()
                    .any(|c| c.context == "human_adult" && c.risk_level.as_str() == "low")
        })
        .unwrap();
    std::fs::remove_file(old.join(format!("compounds/{added}.json"))).unwrap();
    edit_json(&new.join(format!("compounds/{edited}.json")), |v| {
        v["identity"]["iupac_name"] = json!("changelog test name");
        v["regulatory"]["listings"]["prop65"][0]["date_listed"] = json!("1999-12-31");
    });
    edit_json(&new.join(format!("compounds/{raised}.json")), |v| {
        let source = v["sources"][0]["id"].clone();
        v["regulatory"]["listings"]["iarc_group"] =
            json!({"group": "1", "volumes": "100F", "year": 2012, "source": source});
    });
    edit_json(&new.join("regulatory-status/us.json"), |v| {
        v["cells"][0]["governance_timeline"][0]["threshold_ppb"] = json!(9);
    });
    (
        tmp,
        old,
        new,
        [added, *edited, *raised].map(|id| id.to_string()),
    )
}

#[test]
fn diff_finds_each_kind_of_change_and_appends_once() {
    let (_tmp, old, new, [added, edited, raised]) = fixture();
    let d = diff::diff(&loaded(&old), &loaded(&new), Some("test-release"));
    assert_eq!(d.release, "test-release");
    let of = |kind: EventType, id: &str| {
        d.entries
            .iter()
            .find(|e| e.kind == kind && e.compound_id.as_deref() == Some(id))
    };

    let a = of(EventType::CompoundAdded, &added).expect("the compound missing from old is added");
    assert!(a.summary.starts_with("added "), "{}", a.summary);
    assert!(
        a.text_diff.contains(&format!("+hq_id: {added}")),
        "{}",
        a.text_diff
    );

    let u = of(EventType::CompoundUpdated, &edited).expect("the edited compound is updated");
    assert_eq!(u.changes.len(), 1, "{:?}", u.changes);
    assert_eq!(u.changes[0].path, "identity.iupac_name");
    assert_eq!(u.changes[0].new, json!("changelog test name"));
    assert!(
        u.text_diff
            .contains("+    \"iupac_name\": \"changelog test name\""),
        "{}",
        u.text_diff
    );

    let r = of(EventType::RegulatoryUpdated, &edited).expect("the listing edit is regulatory");
    assert_eq!(r.changes.len(), 1);
    assert_eq!(
        r.changes[0].path,
        "regulatory.listings.prop65[0].date_listed"
    );
    assert_eq!(r.changes[0].new, json!("1999-12-31"));
    assert_ne!(r.changes[0].old, r.changes[0].new);
    // The listing's `effective_from` follows its new listing date: given beside the change, not
    // listed as a second one (data/README.md "Dates").
    assert_eq!(r.changes[0].effective.as_deref(), Some("1999-12-31"));

    let risk = of(EventType::CompoundRiskChanged, &raised).expect("Group 1 raises tiers");
    let adult = risk
        .changes
        .iter()
        .find(|c| c.path == "risk_levels.human_adult")
        .expect("the adult tier changed");
    assert_eq!(adult.old, json!("low"));
    assert_ne!(adult.new, json!("low"));
    assert!(
        risk.text_diff.contains("-human_adult: low"),
        "{}",
        risk.text_diff
    );

    let cell = d
        .entries
        .iter()
        .find(|e| e.kind == EventType::RegulatoryUpdated && e.name.ends_with("/ US"))
        .expect("the threshold edit is a regulatory-status change");
    assert_eq!(cell.changes[0].path, "governance_timeline[0].threshold_ppb");
    assert_eq!(cell.changes[0].new, json!(9.0));
    // The listing that raised the tiers is itself a regulatory change of that compound.
    let listing = of(EventType::RegulatoryUpdated, &raised).expect("the new IARC listing");
    assert_eq!(listing.changes[0].path, "regulatory.listings.iarc_group");
    assert_eq!(
        listing.changes[0].effective.as_deref(),
        Some("2012"),
        "the call's year, as the listing gives no day"
    );
    assert_eq!(
        d.entries.len(),
        6,
        "nothing else changed: {:#?}",
        d.counts()
    );

    // Append is idempotent per release: ids derive from release, type, compound and name.
    let path = new.join(FILE);
    assert_eq!(diff::append(&path, &d.entries).unwrap(), 6);
    assert_eq!(diff::append(&path, &d.entries).unwrap(), 0);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 6);

    // The loader reads it back and `check` accepts it.
    let (dataset, problems) = load::load(&new).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(dataset.changelog, d.entries);
    let check: Vec<_> = saferef_generator::validate::validate(&dataset)
        .into_iter()
        .filter(|p| p.file.ends_with(FILE))
        .collect();
    assert!(check.is_empty(), "{check:?}");
}

#[test]
fn check_rejects_edited_and_dangling_entries() {
    let (_tmp, old, new, _) = fixture();
    let d = diff::diff(&loaded(&old), &loaded(&new), Some("r1"));
    let mut entries = d.entries.clone();
    entries[0].name.push_str(" (edited)");
    entries[1].compound_id = Some("hq-c-org-999999".into());
    entries[2].date = "21 Nov 2026".into();
    let path = new.join(FILE);
    diff::append(&path, &entries).unwrap();
    std::fs::write(
        &path,
        std::fs::read_to_string(&path).unwrap() + "{\"id\": \"not an entry\"}\n",
    )
    .unwrap();
    let (dataset, problems) = load::load(&new).unwrap();
    assert!(
        problems.iter().any(|p| p.path.starts_with("line 7")),
        "the unparsable line is reported with its number: {problems:?}"
    );
    let check = saferef_generator::validate::validate(&dataset);
    let messages: Vec<String> = check
        .iter()
        .filter(|p| p.file.ends_with(FILE))
        .map(ToString::to_string)
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("entries[0].id") && m.contains("derive")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("entries[1].compound_id") && m.contains("dangling")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("entries[2].date")),
        "{messages:?}"
    );
}

#[test]
fn the_command_prints_a_summary_and_writes_new_changelog() {
    let (tmp, old, new, [added, ..]) = fixture();
    // The previous release's document, as if it had no timeline endpoint and no `hq_id` in
    // its root answer.
    let mut previous: Value =
        serde_json::from_slice(&openapi::openapi(&loaded(&new), openapi::Format::OpenApi).body)
            .unwrap();
    previous["paths"]
        .as_object_mut()
        .unwrap()
        .remove("/api/compound/{id}/timeline")
        .unwrap();
    previous["components"]["schemas"]["Root"]["properties"]
        .as_object_mut()
        .unwrap()
        .remove("tagline")
        .unwrap();
    let previous_file = tmp.path().join("openapi-before.json");
    std::fs::write(&previous_file, previous.to_string()).unwrap();
    let bin = env!("CARGO_BIN_EXE_saferef-generate");
    let run = || {
        Command::new(bin)
            .args(["diff", old.to_str().unwrap(), new.to_str().unwrap()])
            .arg("--old-openapi")
            .arg(&previous_file)
            .output()
            .unwrap()
    };
    let first = run();
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let out = String::from_utf8_lossy(&first.stdout);
    assert!(out.contains("6 entries"), "{out}");
    assert!(out.contains("compound.risk_changed"), "{out}");
    assert!(String::from_utf8_lossy(&first.stderr).contains("6 new entries"));
    let again = run();
    assert!(String::from_utf8_lossy(&again.stderr).contains("0 new entries"));
    let lines = std::fs::read_to_string(new.join(FILE)).unwrap();
    assert_eq!(lines.lines().count(), 6);
    // The notes: written once under the release's name (the rerun named the same release),
    // from the two documents and the two datasets' totals.
    let after = loaded(&new);
    let release = &after.changelog[0].release;
    let notes = &after.release_notes[0];
    assert_eq!(notes.front.get("version"), Some(release));
    assert_eq!(
        after.release_notes.len(),
        loaded(&old).release_notes.len() + 1
    );
    let text = std::fs::read_to_string(new.join(format!("release-notes/{release}.md"))).unwrap();
    let compounds = after.compounds.len();
    for line in [
        "- `GET /api/compound/{id}/timeline`".to_string(),
        "- `Root.tagline`".to_string(),
        format!(
            "| Compounds | {} | {} |",
            thousands(compounds - 1),
            thousands(compounds)
        ),
        "- `compound.added`: 1".to_string(),
        "### `compound.risk_changed`".to_string(),
    ] {
        assert!(text.contains(&line), "{line} in\n{text}");
    }
    assert!(
        !text.contains(&added),
        "additions are counted, not listed: {text}"
    );
    let (_, load_problems) = load::load(&new).unwrap();
    let problems: Vec<_> = load_problems
        .into_iter()
        .chain(saferef_generator::validate::validate(&after))
        .filter(|p| p.file.contains("release-notes"))
        .collect();
    assert!(problems.is_empty(), "{problems:?}");
}

fn thousands(n: usize) -> String {
    let s = n.to_string();
    let (head, tail) = s.split_at(s.len() - 3);
    format!("{head},{tail}")
}
