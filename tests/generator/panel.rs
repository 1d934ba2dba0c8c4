//! The expert panel (`tests/panel/expectations.tsv`): public facts about corpus compounds, each
//! with its authority, checked against the loaded dataset (curated overlays applied). A row
//! marked `holds` must hold; a row marked `defect: ...` is a known gap and must still fail, so
//! fixing one makes this test ask for the row to be marked `holds`. The file says what the
//! service gets right and wrong, and a reviewer sees both change in `git diff`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use saferef_generator::aggregate;
use saferef_generator::load::load;
use saferef_generator::model::Dataset;
use saferef_generator::model::contexts::Context;
use saferef_generator::model::record::CompoundRecord;
use saferef_generator::model::vocab::RiskLevel;
use serde_json::Value;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// One expectation: `id cas name kind expected authority state`.
#[derive(Debug)]
struct Expectation {
    id: String,
    cas: String,
    name: String,
    kind: String,
    expected: String,
    authority: String,
    state: String,
}

fn expectations() -> Vec<Expectation> {
    let text = std::fs::read_to_string(repo().join("tests/panel/expectations.tsv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("id\tcas\tname\tkind\texpected\tauthority\tstate")
    );
    lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 7, "{l}");
            Expectation {
                id: f[0].into(),
                cas: f[1].into(),
                name: f[2].into(),
                kind: f[3].into(),
                expected: f[4].into(),
                authority: f[5].into(),
                state: f[6].into(),
            }
        })
        .collect()
}

fn at<'v>(v: &'v Value, path: &[&str]) -> &'v Value {
    path.iter().fold(v, |v, k| &v[*k])
}

/// Element counts of a formula, so that notation (Hill order, hydrate dots) is no difference.
fn elements(formula: &str) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    let b = formula.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_uppercase() {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_lowercase() {
                j += 1;
            }
            let mut k = j;
            while k < b.len() && b[k].is_ascii_digit() {
                k += 1;
            }
            let n = formula[j..k].parse().unwrap_or(1);
            *out.entry(formula[i..j].to_string()).or_default() += n;
            i = k;
        } else {
            i += 1;
        }
    }
    out
}

fn eu_h_codes(r: &Value) -> Vec<String> {
    r["safety"]["ghs"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|g| g["jurisdiction"] == "EU" && g["status"].is_null())
        .flat_map(|g| g["h_codes"].as_array().into_iter().flatten())
        .filter_map(|h| Some(h.as_str()?.split(' ').next()?.to_string()))
        .collect()
}

/// `KIND=value unit@year` of an EFSA value.
fn efsa(expected: &str) -> (String, f64, String, i64) {
    let (head, year) = expected.rsplit_once('@').unwrap();
    let (kind, rest) = head.split_once('=').unwrap();
    let (value, unit) = rest.split_once(' ').unwrap();
    (
        kind.to_lowercase(),
        value.parse().unwrap(),
        unit.replace('μ', "µ").to_lowercase(),
        year.parse().unwrap(),
    )
}

/// EFSA's values and those of its predecessor, the Scientific Committee on Food (OpenFoodTox
/// names it "European Commission"), whose ULs the NDA Panel revises.
fn efsa_values(r: &Value) -> Vec<(String, f64, String, i64, bool)> {
    r["dose_response"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["agency"] == "EFSA" || d["agency"] == "European Commission")
        .map(|d| {
            (
                d["kind"].as_str().unwrap_or_default().to_lowercase(),
                d["value"].as_f64().unwrap_or(f64::NAN),
                d["unit"]
                    .as_str()
                    .unwrap_or_default()
                    .replace('μ', "µ")
                    .to_lowercase(),
                d["year"].as_i64().unwrap_or_default(),
                d["status"].as_str().is_none_or(|s| s == "current"),
            )
        })
        .collect()
}

/// Whether a served qualifier names the circumstance the panel states: each of its words of
/// five letters or more (but "only") is in the panel's wording or the compound's name
/// ("only as the etoposide + cisplatin + bleomycin combination" for cisplatin "in
/// combination with etoposide and bleomycin").
fn same_circumstance(served: &str, said: &str) -> bool {
    let said = said.to_lowercase();
    served
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() >= 5 && *w != "only")
        .all(|w| said.contains(w))
}

/// Whether the record shows the expectation.
fn holds(r: &Value, e: &Expectation) -> bool {
    let listings = at(r, &["regulatory", "listings"]);
    let iarc = listings["iarc_group"]["group"].as_str();
    let expected = e.expected.as_str();
    match e.kind.as_str() {
        "iarc_group" => iarc == expected.split(' ').next(),
        "iarc_qualified" => {
            let (group, qualifier) = expected.split_once(' ').unwrap();
            let said = format!("{qualifier} {}", e.name);
            let listed = iarc == Some(group)
                && listings["iarc_group"]["qualifier"]
                    .as_str()
                    .is_some_and(|q| same_circumstance(q, &said));
            // A qualified call beside the substance's own call (a drug combination).
            let classified = r["regulatory"]["classifications"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|c| c["agency"] == "IARC" && c["status"].is_null())
                .filter(|c| {
                    c["classification"]
                        .as_str()
                        .is_some_and(|t| t.starts_with(&format!("Group {group}:")))
                })
                .any(|c| {
                    c["qualifier"]
                        .as_str()
                        .is_some_and(|q| same_circumstance(q, &said))
                });
            listed || classified
        }
        "iarc_superseded" => iarc != Some(expected),
        "prop65" => {
            let (toxicity, date) = expected.split_once('@').unwrap();
            listings["prop65"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|p| p["toxicity"] == toxicity && p["date_listed"] == date)
        }
        // "toxicity@date=level": the listing with the NSRL or MADL OEHHA states for the CAS.
        "prop65_level" => {
            let (listing, level) = expected.split_once('=').unwrap();
            let (toxicity, date) = listing.split_once('@').unwrap();
            listings["prop65"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|p| {
                    p["toxicity"] == toxicity
                        && p["date_listed"] == date
                        && p["safe_harbor_level"] == level
                })
        }
        "clp_h" => eu_h_codes(r).iter().any(|h| h == expected),
        "clp_not" => !eu_h_codes(r).iter().any(|h| h == expected),
        "clp_via" => {
            let (h, group) = expected.split_once(" via ").unwrap();
            r["safety"]["ghs"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|g| g["jurisdiction"] == "EU" && g["status"].is_null())
                .filter(|g| g["via"].as_str().is_some_and(|v| v.starts_with(group)))
                .any(|g| {
                    g["h_codes"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .any(|c| c == h)
                })
        }
        "clp_pending" => {
            let (h, date) = expected.split_once('@').unwrap();
            r["safety"]["ghs"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|g| g["status"] == "pending" && g["applies_from"] == date)
                .any(|g| {
                    g["h_codes"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .any(|c| c == h)
                })
        }
        "svhc" => {
            let date = expected.trim_start_matches("listed@");
            listings["eu_svhc"]["date_of_inclusion"] == date
        }
        "ntp_roc" => listings["ntp_roc"]["listing"] == expected,
        "efsa" => {
            let want = efsa(expected);
            efsa_values(r).iter().any(|(k, v, u, y, live)| {
                (k, *v, u, *y) == (&want.0, want.1, &want.2, want.3) && *live
            })
        }
        "efsa_superseded" => {
            let want = efsa(expected);
            !efsa_values(r)
                .iter()
                .any(|(k, v, _, y, live)| (k, *v, *y) == (&want.0, want.1, want.3) && *live)
        }
        "formula" => r["properties"]["chemical_properties"]["molecular_formula"]
            .as_str()
            .is_some_and(|f| elements(f) == elements(expected)),
        "formula_not" => r["properties"]["chemical_properties"]["molecular_formula"]
            .as_str()
            .is_none_or(|f| elements(f) != elements(expected)),
        "efsa_absent" => {
            let want = efsa(expected);
            !efsa_values(r)
                .iter()
                .any(|(k, v, u, y, _)| (k, *v, u, *y) == (&want.0, want.1, &want.2, want.3))
        }
        // A list the record must not be on: CosIng's nanomaterial entries prohibit the form,
        // not the substance under its CAS.
        "listing_not" => listings[expected].is_null(),
        "use_not" => !r["use_classes"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|u| u["class"] == expected),
        "use" => r["use_classes"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|u| u["class"] == expected),
        // A string that names another substance (another CAS number) is no synonym.
        "synonym_not" => !r["identity"]["synonyms"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|s| s == expected),
        "ec_number" => r["crossrefs"]["ec_number"]["value"] == expected,
        // A structure field the record leaves absent: its source describes another substance.
        "identity_absent" => r["identity"][expected].is_null(),
        "parent" => r["hierarchy"]["parent"] == expected,
        "name" => r["name"]
            .as_str()
            .is_some_and(|n| n.eq_ignore_ascii_case(expected)),
        // "AGENCY: words": a current call of the agency whose text contains the words (an
        // opinion that set no value, such as EFSA's safe levels of intake).
        "classification" => {
            let (agency, words) = expected.split_once(": ").unwrap();
            r["regulatory"]["classifications"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|c| c["agency"] == agency && c["status"].is_null())
                .any(|c| {
                    c["classification"]
                        .as_str()
                        .is_some_and(|t| t.contains(words))
                })
        }
        "prop65_qualified" => {
            let (toxicity, qualifier) = expected.split_once(' ').unwrap();
            listings["prop65"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|p| p["toxicity"] == toxicity && p["qualifier"] == qualifier)
        }
        // No listing of the toxicity: OEHHA removed the endpoint (the row's note says when).
        "prop65_not" => !listings["prop65"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|p| p["toxicity"] == expected),
        // One listing of the toxicity: a group row does not repeat what the compound's own
        // row already lists.
        "prop65_once" => {
            listings["prop65"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|p| p["toxicity"] == expected)
                .count()
                == 1
        }
        // "toxicity@date" listed on the compound's own row, through no group.
        "prop65_own" => {
            let (toxicity, date) = expected.split_once('@').unwrap();
            listings["prop65"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|p| {
                    p["toxicity"] == toxicity && p["date_listed"] == date && p["via"].is_null()
                })
        }
        // "H372 inhalation": a current GHS entry states the route beside the code.
        "ghs_route" => {
            let (code, route) = expected.split_once(' ').unwrap();
            r["safety"]["ghs"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|g| g["status"].is_null())
                .flat_map(|g| g["routes"].as_array().into_iter().flatten())
                .any(|s| {
                    s["code"] == code
                        && s["routes"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .any(|x| x == route)
                })
        }
        other => panic!("{}: unknown kind {other}", e.id),
    }
}

/// `context tier`: the tier the risk engine gives the context (`-` where it is not answered).
fn tier_holds(record: &CompoundRecord, e: &Expectation) -> bool {
    let (context, want) = e.expected.split_once(' ').unwrap();
    let assessment = aggregate::assess(record);
    let got = assessment
        .get(context)
        .map_or("-", |c| c.risk_level.as_str());
    assert!(
        Context::ALL.iter().any(|c| c.name() == context),
        "{}: unknown context {context}",
        e.id
    );
    assert!(
        want == "-" || RiskLevel::ALL.iter().any(|t| t.as_str() == want),
        "{}: unknown tier {want}",
        e.id
    );
    got == want
}

fn dataset() -> Dataset {
    let (d, problems) = load(&repo().join("data")).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    d
}

/// The panel file with each row's state as the dataset shows it: a defect keeps its reason
/// while it is one; a row that stops holding is marked as a defect to be explained.
fn restated(rows: &[Expectation], now: &[bool]) -> String {
    let mut out = String::from("id\tcas\tname\tkind\texpected\tauthority\tstate\n");
    for (e, holds) in rows.iter().zip(now) {
        let state = match (*holds, e.state.starts_with("defect: ")) {
            (true, _) => "holds".to_string(),
            (false, true) => e.state.clone(),
            (false, false) => "defect: not shown (explain)".to_string(),
        };
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            e.id, e.cas, e.name, e.kind, e.expected, e.authority, state
        ));
    }
    out
}

#[test]
fn every_expectation_is_as_the_panel_file_says() {
    let d = dataset();
    let rows = expectations();
    assert!(
        rows.len() >= 150,
        "the panel holds {} expectations",
        rows.len()
    );
    let mut wrong = Vec::new();
    let mut now_holds = Vec::new();
    for e in &rows {
        assert!(!e.authority.is_empty(), "{} names no authority", e.id);
        let record = d
            .by_cas(&e.cas)
            .unwrap_or_else(|| panic!("{}: {} is not in the corpus", e.id, e.cas));
        let now = if e.kind == "tier" {
            tier_holds(record, e)
        } else {
            holds(&serde_json::to_value(record).unwrap(), e)
        };
        now_holds.push(now);
        let said = e.state == "holds";
        assert!(
            said || e.state.starts_with("defect: "),
            "{}: state {:?}",
            e.id,
            e.state
        );
        if now != said {
            wrong.push(format!(
                "{} {} {} {}: the file says {:?}, the dataset {}",
                e.id,
                e.cas,
                e.kind,
                e.expected,
                e.state,
                if now {
                    "now shows it"
                } else {
                    "does not show it"
                }
            ));
        }
    }
    // `SAFEREF_PANEL_RESTATE=1` rewrites the state column from the dataset, for review in
    // `git diff` after a data change.
    if std::env::var_os("SAFEREF_PANEL_RESTATE").is_some() {
        let path = repo().join("tests/panel/expectations.tsv");
        std::fs::write(path, restated(&rows, &now_holds)).unwrap();
        return;
    }
    let held = now_holds.iter().filter(|h| **h).count();
    eprintln!("panel: {held} of {} expectations hold", rows.len());
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
