//! `saferef-generate check` run as a program on a deliberately broken dataset: every kind of
//! problem is reported with its file and JSON path, and the exit status is 1.

use std::path::PathBuf;
use std::process::Command;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(name)
}

#[test]
fn broken_dataset_reports_every_problem_and_fails() {
    let dir = fixture("data-broken");
    let out = Command::new(env!("CARGO_BIN_EXE_saferef-generate"))
        .args(["check", "--data"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let compound = |id: &str| {
        dir.join("compounds")
            .join(format!("{id}.json"))
            .display()
            .to_string()
    };
    let curated = dir.join("curated/overlay.json").display().to_string();
    let material = dir
        .join("materials/hq-m-ply-000001.json")
        .display()
        .to_string();
    let product = dir
        .join("products/hq-p-hom-000001.json")
        .display()
        .to_string();
    let dir = dir.display().to_string();
    let expected = [
        // malformed id: the machine-written record is unreadable, on its line
        format!(
            "{}:2: hq_id: malformed compound id \"hq-c-xyz-1\"",
            compound("hq-c-xyz-1")
        ),
        // CAS with a wrong check digit: the machine-written record is unreadable, on its line
        format!(
            "{}:5: cas: `71-43-3` has check digit 3, but its digits give 2",
            compound("hq-c-org-000004")
        ),
        // duplicate CAS
        format!(
            "{}: cas: duplicate CAS 50-00-0: also hq-c-org-000001",
            compound("hq-c-org-000003")
        ),
        // dangling references
        format!(
            "{}: hierarchy.parent: dangling reference: no compound hq-c-org-999999",
            compound("hq-c-org-000003")
        ),
        format!(
            "{curated}: entries[0].cas: dangling reference: CAS 7440-43-9 is not in the corpus"
        ),
        format!(
            "{}: regulatory.classifications[1].agency: unknown agency \"Ministry of Magic\"",
            compound("hq-c-org-000001")
        ),
        format!(
            "{material}: composition.additives[0].cas: dangling reference: CAS 117-81-7 (DEHP) is not in the compound corpus"
        ),
        format!(
            "{product}: materials.common[0].slug: dangling reference: no material with slug \"pvc-rigid\""
        ),
        format!("{product}: tier: tier \"CHD\" differs from the id's \"hom\""),
        format!("{product}: brand_examples_disclaimer: required when brand_examples is not empty"),
        format!(
            "{product}: brand_examples[0].source: source \"nowhere\" is not defined in sources[]"
        ),
        format!("{product}: exposure.routes[0]: unknown route \"skin\""),
        format!(
            "{product}: sources[1].url: Wikipedia or a copy of it is no citation: cite the document it rests on"
        ),
        format!("{product}: exposure.also[0].users[0]: \"pets\" is not in exposure.users"),
        // compositions, shares, citations, the material index and the gap list
        format!("{product}: composition: empty composition: list the cited components"),
        format!(
            "{material}: composition.additives[0].share_kind: a share needs its kind: one of typical, specification, legal_limit, advisory_limit"
        ),
        format!(
            "{material}: composition.contaminants[0].role: repeating_unit belongs in a material's composition.base"
        ),
        format!("{material}: sources[u]: whole-work citation: cite one article by its DOI"),
        format!(
            "{dir}/materials/index.tsv: hq-m-ply-000002: hq-m-ply-000002 is registered but has no file materials/hq-m-ply-000002.json"
        ),
        format!(
            "{dir}/materials/index.tsv:4: hq-m-ply-000001: hq-m-ply-000001 is registered twice (first on line 2): an id is registered once"
        ),
        format!(
            "{dir}/materials/index.tsv:5: hq-m-ply-000003: slug \"pvc-rigid\" is registered for hq-m-ply-000002 already: a slug names one material"
        ),
        format!(
            "{dir}/entity-gaps.tsv: hq-p-hom-000009: listed gap empty_composition is not found (closed or mistyped): remove the row"
        ),
        // retired ids: one still has its file (the id is never issued again), a replacement
        // without a file or itself retired, a material without its index row, a malformed
        // line and an id retired twice, each on its line
        format!(
            "{product}: id: hq-p-hom-000001 is retired (retired.tsv line 2, replaced by hq-p-hom-000002): a retired id is never issued again"
        ),
        format!("{dir}/retired.tsv:2: hq-p-hom-000001: replaced_by hq-p-hom-000002 does not exist"),
        format!("{dir}/retired.tsv:3: retired \"2026-13-01\" is not a date (YYYY-MM-DD)"),
        format!(
            "{dir}/retired.tsv:4: hq-p-hom-000001 is retired twice (first on line 2): an id is retired once"
        ),
        format!(
            "{dir}/retired.tsv:5: hq-p-hom-000004: replaced_by hq-p-hom-000001 is itself retired"
        ),
        format!(
            "{dir}/retired.tsv:6: hq-m-ply-000009: hq-m-ply-000009 is not registered in materials/index.tsv"
        ),
        // unknown vocabulary values
        format!(
            "{}: use_classes[0].class: unknown use class \"candy\"",
            compound("hq-c-org-000003")
        ),
        format!(
            "{}: use_classes[0].source: use class candy comes from tbl, a table that does not state what a substance is for (only tables with \"states_purpose\" in sources.json may give one)",
            compound("hq-c-org-000003")
        ),
        // a cosmetics prohibition listed from an entry for a use only
        format!(
            "{}: regulatory.listings.eu_cosmetics_prohibited: Annex II entry 7 is listed as prohibiting the substance, but no unqualified classification of tbl gives that entry",
            compound("hq-c-org-000003")
        ),
        format!(
            "{}: safety.ghs[0].pictograms[0]: unknown pictogram \"GHS10\"",
            compound("hq-c-org-000003")
        ),
        format!(
            "{}: safety.ghs[0].h_codes[0]: \"H999x9\" is not a hazard statement code",
            compound("hq-c-org-000003")
        ),
        // the line of the field, and no dangling ids.tsv row for the compound it leaves out
        format!(
            "{}:28: watch_class: unknown variant `dangerous`",
            compound("hq-c-ino-000009")
        ),
        format!(
            "{}: regulatory.classifications[0].attribution: \"IARC Monographs\" is not an attribution string of IARC",
            compound("hq-c-org-000001")
        ),
        // one live call per question: a pending call whose date has come, two current EFSA
        // values of one question and year
        format!(
            "{}: safety.ghs[0]: pending until 2026-01-01, but the data is of 2026-11-21: the call applies now; drop its status in the curated file",
            compound("hq-c-org-000002")
        ),
        format!(
            "{}: dose_response[1]: two current EFSA values of the chronic intake for consumers (dose_response[0] and [1]): set one aside in curated/efsa-set-aside.tsv, citing which is live",
            compound("hq-c-org-000002")
        ),
        // values without a source reference
        format!(
            "{}: identity.source: identity values without a source reference",
            compound("hq-c-org-000001")
        ),
        format!(
            "{}: regulatory.classifications[1].source: source \"nowhere\" is not defined in sources[]",
            compound("hq-c-org-000001")
        ),
        // documents and release notes
        format!(
            "{dir}/documents/disclaimer.md: envelope_notice: front matter has no `envelope_notice`"
        ),
        format!("{dir}/documents/terms.md: updated: not a YYYY-MM-DD date"),
        format!("{dir}/documents/privacy.md: does not start with a `---` front-matter block"),
        format!("{dir}/documents/privacy.md: missing: GET /api/privacy serves it"),
        format!("{dir}/release-notes/2026-11-21.md: version: front matter has no `version`"),
    ];
    assert_problems(&stdout, &expected, 46);
}

/// A one-word typo in a curated file and another in a compound file, on a copy of the
/// committed data: each is reported once, against the file and line the person edited, and
/// nothing that names the two compounds (ids.tsv, the curated files, materials, products) is
/// reported with them.
#[test]
fn a_typo_is_reported_once_against_the_file_and_line_edited() {
    use super::changelog_diff::{copy_dir, data_dir};
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    copy_dir(&data_dir(), &dir);
    let typo = |file: &str, from: &str, to: &str| {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let edited = text.replacen(from, to, 1);
        assert_ne!(edited, text, "{from} in {file}");
        std::fs::write(&path, &edited).unwrap();
        let line = edited[..edited.find(to).unwrap()].lines().count();
        (path.display().to_string(), line)
    };
    // The first entry of the file: Vol. 131's cobalt(II) sulfate heptahydrate.
    let (curated, curated_line) = typo(
        "curated/iarc-after-2020.json",
        "\"iarc_group\": \"2A\"",
        "\"iarc_grop\": \"2A\"",
    );
    // Benzene, which ids.tsv, curated files, materials and products name.
    let (benzene, benzene_line) = typo(
        "compounds/hq-c-org-000145.json",
        "\"category\": \"industrial\"",
        "\"categroy\": \"industrial\"",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_saferef-generate"))
        .args(["check", "--data"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let expected = [
        format!(
            "{curated}:{curated_line}: entries[0].set.safety.carcinogenicity.iarc_grop: unknown field `iarc_grop`"
        ),
        format!("{benzene}:{benzene_line}: categroy: unknown field `categroy`"),
    ];
    assert_problems(&stdout, &expected, 2);
}

/// `check`'s output holds a line starting with each expected problem, and no others.
fn assert_problems(stdout: &str, expected: &[String], count: usize) {
    for line in expected {
        assert!(
            stdout.lines().any(|l| l.starts_with(line.as_str())),
            "missing problem:\n  {line}\nin output:\n{stdout}"
        );
    }
    assert_eq!(stdout.lines().count(), count, "{stdout}");
}

#[test]
fn missing_data_directory_is_a_clear_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_saferef-generate"))
        .args(["check", "--data", "/nonexistent/saferef-data"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("has no compounds/ folder"), "{stderr}");
}
