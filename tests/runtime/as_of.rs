//! `as_of` and the timeline over the real `saferef-serve` binary, serving its own built tree
//! (local mode): a dated query (a compound, its regulatory record, a comparison, a batch) is
//! never a static file; it reaches the runtime, which answers it for a Developer key and
//! refuses it without one (data/README.md "Dates").

use serde_json::Value;

use crate::support::binary;
use crate::support::data_dir;

#[test]
fn dated_queries_reach_the_runtime_and_stand_on_their_day() {
    let site = tempfile::tempdir().unwrap();
    let state = tempfile::tempdir().unwrap();
    let key = binary::create_key(state.path(), "developer");
    let server = binary::serve(&data_dir(), site.path(), state.path(), &[]);
    let client = reqwest::blocking::Client::new();
    let get = |path: &str, key: Option<&str>| -> (u16, Value) {
        let mut req = client.get(format!("{}{path}", server.base));
        if let Some(k) = key {
            req = req.header("X-API-Key", k);
        }
        let res = req.send().unwrap();
        (res.status().as_u16(), res.json().unwrap())
    };
    let (_, found) = get("/api/compound/cas/335-67-1", None);
    let pfoa = found["hq_id"].as_str().unwrap().to_string();

    // Without a key: today's static answer, and a 401 for a dated one.
    let (status, today) = get(&format!("/api/compound/{pfoa}?all_contexts=true"), None);
    assert_eq!(status, 200);
    assert!(today.get("as_of").is_none());
    let dated = format!("/api/compound/{pfoa}?all_contexts=true&as_of=2022-12-31");
    let (status, body) = get(&dated, None);
    assert_eq!(status, 401, "{body}");
    assert!(body["error"].as_str().unwrap().contains("as_of"));

    // With a key: the answer as it stood.
    let (status, then) = get(&dated, Some(&key));
    assert_eq!(status, 200, "{then}");
    assert_eq!(then["as_of"], "2022-12-31");
    let iarc = |b: &Value| {
        b["contexts"]["human_adult"]["evidence"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["agency"] == "IARC")
            .map(|e| e["finding"].as_str().unwrap().to_string())
            .unwrap()
    };
    assert!(iarc(&then).contains("2B"), "{}", iarc(&then));
    assert!(iarc(&today).contains("Group 1"), "{}", iarc(&today));

    for (day, group) in [("2022-12-31", "2B"), ("2024-01-01", "1")] {
        let (status, body) = get(&format!("/api/regulatory/{pfoa}?as_of={day}"), Some(&key));
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["listings"]["iarc_group"]["group"], group, "{day}");
    }
    for bad in ["2022-13-01", "2022-1-01", "yesterday"] {
        let (status, body) = get(&format!("/api/compound/{pfoa}?as_of={bad}"), Some(&key));
        assert_eq!(status, 400, "{bad}: {body}");
    }

    // Compare and batch (GET and POST) stand on the day too: PFOA's adult tier is high on
    // the 2B call and very high on the Group 1 call.
    let bpa = "80-05-7";
    for (day, tier) in [("2022-12-31", "high"), ("2024-01-01", "very_high")] {
        let compare = format!("/api/compounds/compare?ids={pfoa},{bpa}&as_of={day}");
        let (status, body) = get(&compare, Some(&key));
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["meta"]["as_of"], day);
        let profiles = &body["comparison"]["risk_profiles"]["profiles"];
        assert_eq!(profiles[&pfoa]["risk_level"], tier, "{day}");

        let batch =
            format!("/api/compounds/batch?ids={pfoa},{bpa}&context=human_adult&as_of={day}");
        let (status, by_get) = get(&batch, Some(&key));
        assert_eq!(status, 200, "{by_get}");
        assert_eq!(by_get["meta"]["as_of"], day);
        assert_eq!(by_get["results"][&pfoa]["risk_level"], tier, "{day}");
        let res = client
            .post(format!("{}/api/compounds/batch", server.base))
            .header("X-API-Key", &key)
            .json(&serde_json::json!({
                "compounds": [pfoa, bpa], "context": "human_adult", "as_of": day,
            }))
            .send()
            .unwrap();
        assert_eq!(res.status(), 200);
        let by_post: Value = res.json().unwrap();
        assert_eq!(by_post["results"], by_get["results"], "{day}");
        assert_eq!(by_post["meta"], by_get["meta"], "{day}");
    }
    let batch = format!("/api/compounds/batch?ids={pfoa}&as_of=2022-12-31");
    assert_eq!(get(&batch, None).0, 401);
    assert_eq!(get(&format!("{batch}1"), Some(&key)).0, 400);
    let compare = format!("/api/compounds/compare?ids={pfoa},{bpa}&as_of=2022-12-31");
    assert_eq!(get(&compare, None).0, 403);
    assert_eq!(get(&format!("{compare}1"), Some(&key)).0, 400);

    let timeline = format!("/api/compound/{pfoa}/timeline");
    assert_eq!(get(&timeline, None).0, 401);
    let (status, t) = get(&timeline, Some(&key));
    assert_eq!(status, 200, "{t}");
    let events = t["events"].as_array().unwrap();
    assert_eq!(t["count"], events.len());
    assert!(
        events.iter().any(|e| e["date"] == "2023-11-30"
            && e["change"] == "changed"
            && e["agency"] == "IARC")
    );
    assert!(
        events
            .iter()
            .any(|e| e["date"] == "2022-02-25" && e["subject"] == "classification")
    );

    // The change calendar lists the adopted ATP23 entries before their date of application.
    let (status, calendar) = get(
        "/api/regulatory-status?view=calendar&jurisdiction=EU&as_of=2026-11-26",
        Some(&key),
    );
    assert_eq!(status, 200, "{calendar}");
    let scheduled = calendar["classification_changes"].as_array().unwrap();
    assert!(scheduled.len() >= 9, "{scheduled:?}");
    assert!(
        scheduled
            .iter()
            .all(|c| c["effective_from"] == "2027-02-01")
    );
}
