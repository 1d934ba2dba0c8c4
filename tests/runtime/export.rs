//! `GET /api/export` over real HTTP: JSON and CSV of each entity type, the standard index and
//! `detail=full`, the list filters and their 400s, the envelope and sentinel (present
//! in export, absent from every other response of the same record), the key requirement and
//! the quota cost of 10 on both store backends.

use reqwest::StatusCode;
use saferef_generator::render::export::{Export, ExportQuery, SENTINEL};
use saferef_runtime::Config;
use saferef_runtime::keys;
use saferef_runtime::store::Store;
use saferef_runtime::tier::Tier;
use serde_json::Value;

use crate::support::{start_with, state, stores};

async fn key(store: &Store) -> String {
    keys::create(store, Tier::Developer, None, None)
        .await
        .unwrap()
        .0
}

/// A service over an embedded store, and a Developer key for it.
async fn service() -> (String, String) {
    let dir = tempfile::tempdir().unwrap().keep();
    let store = Store::embedded(&dir.join("store.redb")).unwrap();
    let k = key(&store).await;
    (start_with(store, Config::default()).await, k)
}

async fn fetch(url: &str, key: Option<&str>) -> (StatusCode, reqwest::header::HeaderMap, Vec<u8>) {
    let mut req = reqwest::Client::new().get(url);
    if let Some(k) = key {
        req = req.header("x-api-key", k);
    }
    let res = req.send().await.unwrap();
    let (status, headers) = (res.status(), res.headers().clone());
    (status, headers, res.bytes().await.unwrap().to_vec())
}

async fn json(url: &str, key: &str) -> Value {
    let (status, _, body) = fetch(url, Some(key)).await;
    assert_eq!(status, 200, "{url}: {}", String::from_utf8_lossy(&body));
    serde_json::from_slice(&body).unwrap()
}

fn csv_rows(body: &[u8]) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_reader(body);
    let header = r.headers().unwrap().iter().map(str::to_string).collect();
    let rows = r
        .records()
        .map(|rec| rec.unwrap().iter().map(str::to_string).collect())
        .collect();
    (header, rows)
}

/// The disclaimer's envelope notice, as `GET /api/disclaimer?format=json` gives it.
async fn notice(base: &str) -> String {
    let (_, _, body) = fetch(&format!("{base}/api/disclaimer?format=json"), None).await;
    let doc: Value = serde_json::from_slice(&body).unwrap();
    doc["envelope_notice"]
        .as_str()
        .expect("envelope_notice")
        .to_string()
}

/// The id of a compound under data-quality review (data/curated/data-quality.json).
fn flagged() -> String {
    state()
        .release
        .dataset
        .compounds
        .values()
        .find(|r| r.data_quality.is_some())
        .expect("the dataset records data-quality findings")
        .hq_id
        .to_string()
}

#[tokio::test]
async fn export_needs_a_key_and_counts_as_ten_requests() {
    for store in stores("export-cost").await {
        let backend = store.backend();
        let k = key(&store).await;
        let base = start_with(store, Config::default()).await;
        let url = format!("{base}/api/export?type=materials&format=csv");
        let (status, headers, body) = fetch(&url, None).await;
        assert_eq!(status, 401, "{backend}");
        assert_eq!(headers["x-api-tier"], "public");
        let err: Value = serde_json::from_slice(&body).unwrap();
        assert!(
            err["error"].as_str().unwrap().contains("Developer"),
            "{err}"
        );

        let (_, headers, _) = fetch(&format!("{base}/api/contexts"), Some(&k)).await;
        assert_eq!(headers["x-ratelimit-remaining"], "9999", "{backend}");
        let (status, headers, _) = fetch(&url, Some(&k)).await;
        assert_eq!(status, 200, "{backend}");
        assert_eq!(
            headers["x-ratelimit-remaining"], "9989",
            "{backend}: export costs 10"
        );
        assert_eq!(headers["x-api-tier"], "developer");
        // A refused export (400) is still counted: the quota is taken before the handler.
        let (status, headers, _) =
            fetch(&format!("{base}/api/export?type=nothing"), Some(&k)).await;
        assert_eq!(status, 400, "{backend}");
        assert_eq!(headers["x-ratelimit-remaining"], "9979", "{backend}");
    }
}

#[tokio::test]
async fn json_and_csv_of_each_type_carry_the_envelope() {
    let (base, k) = service().await;
    let notice = notice(&base).await;
    let d = &state().release.dataset;
    let compounds_total =
        json(&format!("{base}/api/compounds?limit=1"), &k).await["pagination"]["total"]
            .as_u64()
            .unwrap() as usize;
    for (kind, total, id_key) in [
        ("compounds", compounds_total, "hq_id"),
        ("materials", d.materials.len(), "id"),
        ("products", d.products.len(), "id"),
    ] {
        for detail in ["", "&detail=full"] {
            let url = format!("{base}/api/export?type={kind}{detail}");
            let (status, headers, body) = fetch(&url, Some(&k)).await;
            assert_eq!(status, 200, "{url}");
            assert_eq!(headers["content-type"], "application/json", "{url}");
            assert_eq!(headers["cache-control"], "private, max-age=3600");
            let v: Value = serde_json::from_slice(&body).unwrap();
            assert_eq!(v["_notice"], notice.as_str(), "{url}");
            assert_eq!(v["_disclaimer_url"], "/api/disclaimer");
            assert_eq!(v["type"], kind);
            let rows = v[kind].as_array().unwrap();
            assert_eq!(rows.len(), total, "{url}: every record");
            assert_eq!(v["count"], total);
            assert!(rows.iter().all(|r| r[id_key].is_string()), "{url}");
            // Index rows are the list's summary; full rows are the stored records.
            let full_only = if kind == "compounds" {
                "identity"
            } else {
                "sources"
            };
            assert_eq!(
                rows[0].get(full_only).is_some(),
                !detail.is_empty(),
                "{url}: {}",
                rows[0]
            );

            let (status, headers, body) = fetch(&format!("{url}&format=csv"), Some(&k)).await;
            assert_eq!(status, 200);
            assert_eq!(headers["content-type"], "text/csv; charset=utf-8");
            assert!(
                headers["content-disposition"]
                    .to_str()
                    .unwrap()
                    .contains(&format!("saferef-{kind}")),
            );
            let (header, rows) = csv_rows(&body);
            assert_eq!(header[0], id_key);
            assert_eq!(&header[header.len() - 2..], ["_notice", "_disclaimer_url"]);
            assert_eq!(rows.len(), total, "{url} csv: every record");
            for row in &rows {
                assert_eq!(row.len(), header.len());
                assert_eq!(row[row.len() - 2], notice);
                assert_eq!(row[row.len() - 1], "/api/disclaimer");
            }
        }
    }
    // The compound CSV has a risk column per context, read from the same index as the list.
    let (_, _, body) = fetch(
        &format!("{base}/api/export?type=compounds&format=csv"),
        Some(&k),
    )
    .await;
    let (header, rows) = csv_rows(&body);
    assert_eq!(
        header.iter().filter(|h| h.starts_with("risk_")).count(),
        d.contexts.contexts.len()
    );
    let adult = header.iter().position(|h| h == "risk_human_adult").unwrap();
    let list = json(&format!("{base}/api/compounds?limit=1"), &k).await;
    let first = &list["compounds"][0];
    let row = rows.iter().find(|r| r[0] == first["hq_id"]).unwrap();
    assert_eq!(
        row[adult],
        first["risk_levels"]["human_adult"].as_str().unwrap_or("")
    );
}

#[tokio::test]
async fn the_streamed_body_is_the_planned_export() {
    let (base, k) = service().await;
    let s = state();
    for (kind, format, detail) in [
        ("compounds", "json", Some("full")),
        ("compounds", "csv", None),
        ("products", "csv", Some("full")),
    ] {
        let plan = Export::plan(
            &s.release.dataset,
            &s.release.risk_index,
            &ExportQuery {
                kind: Some(kind),
                format: Some(format),
                detail,
                ..ExportQuery::default()
            },
        )
        .unwrap();
        let url = format!(
            "{base}/api/export?type={kind}&format={format}&detail={}",
            detail.unwrap_or("index")
        );
        let (_, headers, body) = fetch(&url, Some(&k)).await;
        assert!(plan.len() > 100, "{url}: several pieces");
        // Streamed: sent in chunks as rendered, so no length is known up front.
        assert!(headers.get("content-length").is_none(), "{url}");
        assert_eq!(headers["transfer-encoding"], "chunked", "{url}");
        assert!(
            body == plan.body(&s.release.dataset, &s.release.risk_index),
            "{url}"
        );
    }
}

#[tokio::test]
async fn filters_match_the_lists_and_bad_values_are_400() {
    let (base, k) = service().await;
    for (export, list, key) in [
        (
            "type=compounds&search=benz",
            "compounds?search=benz",
            "compounds",
        ),
        (
            "type=compounds&risk=high&context=dog",
            "compounds?risk=high&context=dog",
            "compounds",
        ),
        (
            "type=compounds&risk=high&context=adult",
            "compounds?risk=high&context=adult",
            "compounds",
        ),
        ("type=products&risk=high", "products?risk=high", "products"),
        (
            "type=products&search=toy",
            "products?search=toy",
            "products",
        ),
        (
            "type=materials&search=poly",
            "materials?search=poly",
            "materials",
        ),
    ] {
        let listed = json(&format!("{base}/api/{list}&limit=100"), &k).await;
        let total = listed["pagination"]["total"].as_u64().unwrap();
        assert!(total > 0, "{list}: the filter keeps something");
        let v = json(&format!("{base}/api/export?{export}"), &k).await;
        assert_eq!(v["count"], total, "{export}");
        let ids = |rows: &Value, id: &str| -> Vec<String> {
            rows.as_array()
                .unwrap()
                .iter()
                .map(|r| r[id].as_str().unwrap().to_string())
                .collect()
        };
        let id = if key == "compounds" { "hq_id" } else { "id" };
        let exported = ids(&v[key], id);
        let first_page = ids(&listed[key], id);
        assert_eq!(
            &exported[..first_page.len()],
            first_page,
            "{export}: same order"
        );
    }
    for bad in [
        "",
        "type=chemicals",
        "type=compounds&format=xml",
        "type=compounds&search=a",
        "type=compounds&risk=extreme",
        "type=compounds&context=Not%20a%20context",
        "type=compounds&context=martian",
        "type=products&risk=critical",
        "type=products&context=dog",
        "type=materials&risk=low",
    ] {
        let (status, headers, body) = fetch(&format!("{base}/api/export?{bad}"), Some(&k)).await;
        assert_eq!(status, 400, "{bad}: {}", String::from_utf8_lossy(&body));
        assert_eq!(headers["content-type"], "application/json");
        let err: Value = serde_json::from_slice(&body).unwrap();
        assert!(err["error"].is_string(), "{bad}: {err}");
    }
}

#[tokio::test]
async fn the_sentinel_is_in_export_only() {
    let (base, k) = service().await;
    let id = flagged();
    let dataset = &state().release.dataset;
    let record = dataset.compound(&id).unwrap();
    let smiles = record
        .identity
        .smiles
        .clone()
        .expect("the flagged record has a SMILES");
    let six = [
        "smiles",
        "inchi",
        "inchi_key",
        "exact_mass",
        "molecular_weight",
        "molecular_formula",
    ];

    let index = json(&format!("{base}/api/export?type=compounds"), &k).await;
    let rows = index["compounds"].as_array().unwrap();
    let row = rows.iter().find(|r| r["hq_id"] == id.as_str()).unwrap();
    for f in six {
        assert_eq!(row[f], SENTINEL, "index {f}");
    }
    assert_eq!(row["cas"], record.cas.as_str(), "CAS stays valid");
    let dq = &row["data_quality"][0];
    assert_eq!(dq["status"], "under_review");
    assert_eq!(dq["finding"], "SCI-DAT-01");
    assert!(
        dq["reference"]
            .as_str()
            .unwrap()
            .contains("efsa-openfoodtox")
    );
    let clean = rows
        .iter()
        .find(|r| r["hq_id"] != id.as_str() && r["smiles"].is_string())
        .unwrap();
    assert!(
        clean.get("data_quality").is_none(),
        "clean records carry no data_quality key"
    );
    assert_ne!(clean["smiles"], SENTINEL);

    let full = json(&format!("{base}/api/export?type=compounds&detail=full"), &k).await;
    let row = full["compounds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["hq_id"] == id.as_str())
        .unwrap();
    for (section, f) in [
        ("identity", "smiles"),
        ("identity", "inchi"),
        ("identity", "inchi_key"),
        ("identity", "exact_mass"),
        ("crossrefs", "inchi"),
    ] {
        assert_eq!(row[section][f], SENTINEL, "full {section}.{f}");
    }
    for f in ["molecular_formula", "molecular_weight", "exact_mass"] {
        assert_eq!(
            row["properties"]["chemical_properties"][f], SENTINEL,
            "full {f}"
        );
    }
    assert_eq!(
        row["identity"]["iupac_name"],
        record.identity.iupac_name.as_deref().unwrap()
    );
    assert_eq!(row["data_quality"][0]["finding"], "SCI-DAT-01");

    for detail in ["index", "full"] {
        let url = format!("{base}/api/export?type=compounds&format=csv&detail={detail}");
        let (_, _, body) = fetch(&url, Some(&k)).await;
        let (header, rows) = csv_rows(&body);
        let row = rows.iter().find(|r| r[0] == id).unwrap();
        for f in six {
            let i = header.iter().position(|h| h == f).unwrap();
            assert_eq!(row[i], SENTINEL, "csv {detail} {f}");
        }
        let dq = header.iter().position(|h| h == "data_quality").unwrap();
        assert!(row[dq].contains("SCI-DAT-01"), "csv {detail}");
    }

    // Everywhere else the record answers with its stored values and no sentinel.
    let other = state()
        .release
        .dataset
        .compounds
        .keys()
        .map(ToString::to_string)
        .find(|k| *k != id)
        .unwrap();
    for path in [
        format!("/api/compound/{id}"),
        format!("/api/compound/{id}/raw"),
        format!("/api/compound/{id}?all_contexts=true"),
        format!("/api/compounds/compare?ids={id},{other}"),
        format!("/api/compounds/batch?ids={id}"),
        format!("/api/compounds/batch?ids={},{other}", record.cas),
        format!("/api/found-in/{id}"),
        format!("/api/regulatory/{id}"),
        format!("/api/search?q={}", record.cas),
        format!("/api/compounds?cas={}", record.cas),
    ] {
        let (status, _, body) = fetch(&format!("{base}{path}"), Some(&k)).await;
        let text = String::from_utf8_lossy(&body);
        assert!(status.as_u16() < 500, "{path}: {status}");
        assert!(!text.contains("under-review"), "{path}: {text}");
    }
    let (_, _, body) = fetch(&format!("{base}/api/compound/{id}/raw"), None).await;
    let raw: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(
        raw["identity"]["smiles"],
        smiles.as_str(),
        "the stored value"
    );
    let (_, _, body) = fetch(
        &format!("{base}/api/compounds/batch?ids={id}&detail=full"),
        Some(&k),
    )
    .await;
    assert!(!String::from_utf8_lossy(&body).contains(SENTINEL));
}
