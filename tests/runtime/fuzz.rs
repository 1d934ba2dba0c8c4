//! Property tests of the runtime's parsers over HTTP on loopback (proptest; cargo-fuzz needs a
//! nightly toolchain): the billing `X-Provider-Signature` header and its round trip with the
//! webhooks' `X-Service-Signature`, the batch body, `since` of the changelog, path parameters
//! and raw query strings. The service runs in process over an embedded store, called with an
//! enterprise key so no quota refuses. No answer may be a 5xx or a dropped connection (a
//! panicking handler drops it). An input that once failed stays as a named regression.

use std::sync::OnceLock;

use chrono::{DateTime, NaiveDate, Utc};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use reqwest::blocking::Client;
use reqwest::header::HeaderValue;
use saferef_runtime::store::Store;
use saferef_runtime::tier::Tier;
use saferef_runtime::webhooks::signature;
use saferef_runtime::{Config, keys};
use serde_json::{Value, json};

use crate::fuzzing::config;

const BILLING_SECRET: &str = "whsec_fuzz";
const BILLING: &str = "/api/billing/webhook";

struct Service {
    base: String,
    key: String,
    client: Client,
    /// Runs the server's tasks for the life of the test binary.
    _runtime: tokio::runtime::Runtime,
}

fn service() -> &'static Service {
    static SERVICE: OnceLock<Service> = OnceLock::new();
    SERVICE.get_or_init(|| {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let (base, key) = runtime.block_on(async {
            let dir = tempfile::tempdir().unwrap().keep();
            let store = Store::embedded(&dir.join("store.redb")).unwrap();
            let (key, _) = keys::create(&store, Tier::Enterprise, None, None)
                .await
                .unwrap();
            let config = Config {
                payment_webhook_secret: Some(BILLING_SECRET.into()),
                ..Config::default()
            };
            (crate::support::start_with(store, config).await, key)
        });
        Service {
            base,
            key,
            client: Client::new(),
            _runtime: runtime,
        }
    })
}

/// The answer's status and JSON body (null when it is not JSON); a failed exchange (the
/// connection dropped, as when a handler panics) or a 5xx fails the case.
fn send(req: reqwest::blocking::RequestBuilder) -> Result<(u16, Value), TestCaseError> {
    let res = req
        .header("x-api-key", &service().key)
        .send()
        .map_err(|e| TestCaseError::fail(format!("no answer: {e}")))?;
    let status = res.status().as_u16();
    let text = res.text().unwrap_or_default();
    prop_assert!(status < 500, "status {status}: {text}");
    Ok((status, serde_json::from_str(&text).unwrap_or(Value::Null)))
}

fn get(path_and_query: &str) -> Result<(u16, Value), TestCaseError> {
    let s = service();
    send(s.client.get(format!("{}{path_and_query}", s.base)))
}

fn billing(header: Option<HeaderValue>, body: Vec<u8>) -> Result<(u16, Value), TestCaseError> {
    let s = service();
    let mut req = s
        .client
        .post(format!("{}{BILLING}", s.base))
        .header("content-type", "application/json")
        .body(body);
    if let Some(h) = header {
        req = req.header("x-provider-signature", h);
    }
    send(req)
}

/// Every byte percent-encoded but the unreserved ones, as a client would send any text.
fn encode(s: &str) -> String {
    const SET: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'.')
        .remove(b'_')
        .remove(b'~');
    percent_encoding::utf8_percent_encode(s, SET).to_string()
}

/// Header parts shaped like the provider's: `t=` with any integer (or none), `v1=` with hex
/// of any length, or junk.
fn signature_part() -> impl Strategy<Value = String> {
    prop_oneof![
        prop_oneof![any::<i64>(), Just(i64::MIN), Just(i64::MAX)].prop_map(|t| format!("t={t}")),
        (-400i64..=400).prop_map(|d| format!("t={}", Utc::now().timestamp() + d)),
        "[0-9a-fA-F]{0,70}".prop_map(|h| format!("v1={h}")),
        "[ -~]{0,20}",
        Just("t=".to_string()),
        Just(" v1 = 00 ".to_string()),
    ]
}

proptest! {
    #![proptest_config(config(300))]

    /// The `X-Provider-Signature` parser: no header made of provider-shaped parts, printable
    /// junk or raw bytes is accepted without the secret, and none gives a 5xx.
    #[test]
    fn billing_signatures_without_the_secret_are_refused(
        header in prop_oneof![
            prop::collection::vec(signature_part(), 0..5).prop_map(|p| p.join(",").into_bytes()),
            "[ -~]{0,120}".prop_map(String::into_bytes),
            // obs-text: bytes a header may carry that are not UTF-8.
            prop::collection::vec(
                any::<u8>().prop_filter("header bytes", |b| *b == b'\t' || *b >= 0x20 && *b != 0x7f),
                0..80,
            ),
        ],
        body in prop::collection::vec(any::<u8>(), 0..200),
    ) {
        let value = HeaderValue::from_bytes(&header).ok();
        let (status, json) = billing(value, body)?;
        prop_assert_eq!(status, 401, "{}", json);
        prop_assert!(json["error"].as_str().unwrap_or("").starts_with("X-Provider-Signature"));
    }

    /// The webhooks' `X-Service-Signature` header (`t=<t>,sha256=<hex>`) for any body and
    /// time is what the billing parser verifies once labelled `v1`: accepted within 300 s
    /// of now, refused for another body, another secret or an older time.
    #[test]
    fn our_signature_header_round_trips_through_the_billing_parser(
        body in prop::collection::vec(any::<u8>(), 0..200),
        skew in -290i64..=290,
        late in 310i64..=100_000,
        flip in any::<prop::sample::Index>(),
    ) {
        let now = Utc::now().timestamp();
        let header = signature::header(BILLING_SECRET, now + skew, &body);
        let (t, hex) = header.split_once(",sha256=").unwrap();
        prop_assert_eq!(t, format!("t={}", now + skew));
        prop_assert!(hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
        let provider = |h: String| HeaderValue::from_str(&h.replace("sha256=", "v1=")).ok();

        let (status, _) = billing(provider(header.clone()), body.clone())?;
        prop_assert_ne!(status, 401);
        let mut other = body.clone();
        if other.is_empty() {
            other.push(b' ');
        } else {
            let i = flip.index(other.len());
            other[i] ^= 1;
        }
        prop_assert_eq!(billing(provider(header), other)?.0, 401);
        let foreign = signature::header("whsec_other", now + skew, &body);
        prop_assert_eq!(billing(provider(foreign), body.clone())?.0, 401);
        let stale = signature::header(BILLING_SECRET, now - late, &body);
        prop_assert_eq!(billing(provider(stale), body)?.0, 401);
    }

    /// `POST /api/compounds/batch` with any JSON or bytes: a 200, 400 or 415; a 200 answers
    /// each distinct input once, within the enterprise cap of 100.
    #[test]
    fn the_batch_body_takes_anything(
        compounds in prop::collection::vec(
            prop_oneof![
                any::<String>().prop_map(Value::from),
                "hq-c-(org|ino|mix)-0000[0-9]{2}".prop_map(Value::from),
                Just(json!("80-05-7")),
                any::<i64>().prop_map(Value::from),
                Just(Value::Null),
            ],
            0..12,
        ),
        context in proptest::option::of(prop_oneof![
            "[a-z_]{0,16}".prop_map(Value::from),
            Just(json!("human_adult")),
            Just(json!(7)),
        ]),
        synthesize in proptest::option::of(prop_oneof![
            any::<bool>().prop_map(Value::from),
            Just(json!("true")),
        ]),
        detail in proptest::option::of(prop_oneof![
            Just(json!("full")),
            Just(json!("summary")),
            "[a-z]{0,8}".prop_map(Value::from),
        ]),
        extra in proptest::option::of("[a-z]{1,8}"),
        raw in proptest::option::of(prop::collection::vec(any::<u8>(), 0..300)),
        json_type in any::<bool>(),
    ) {
        let mut object = serde_json::Map::new();
        object.insert("compounds".into(), Value::from(compounds.clone()));
        for (name, value) in [("context", context), ("synthesize", synthesize), ("detail", detail)] {
            if let Some(v) = value {
                object.insert(name.into(), v);
            }
        }
        if let Some(name) = extra {
            object.insert(name, json!(1));
        }
        let body = raw.unwrap_or_else(|| serde_json::to_vec(&Value::Object(object)).unwrap());
        let s = service();
        let mut req = s.client.post(format!("{}/api/compounds/batch", s.base)).body(body);
        if json_type {
            req = req.header("content-type", "application/json");
        }
        let (status, json) = send(req)?;
        prop_assert!([200, 400, 415].contains(&status), "status {status}: {json}");
        if status == 200 {
            let results = json["results"].as_object().unwrap();
            prop_assert!(results.len() <= 100);
            prop_assert_eq!(json["meta"]["requested"].as_u64(), Some(results.len() as u64));
        }
    }

    /// `since` of the changelog: any text is a 200 or a 400; a date or date-time (any
    /// offset) is a 200 listing only entries of that day or later.
    #[test]
    fn changelog_since_takes_any_text_and_filters_by_it(
        junk in prop_oneof![any::<String>(), "[0-9T:+Z.-]{0,30}"],
        day in 0i64..200_000,
        seconds in 0u32..86_400,
        offset_minutes in -1439i32..=1439,
        as_date in any::<bool>(),
    ) {
        let (status, _) = get(&format!("/api/changelog?limit=1&since={}", encode(&junk)))?;
        prop_assert!(status == 200 || status == 400, "since={junk:?}: {status}");

        let date = NaiveDate::from_ymd_opt(1500, 1, 1).unwrap() + chrono::Days::new(day as u64);
        let offset = chrono::FixedOffset::east_opt(offset_minutes * 60).unwrap();
        let since = if as_date {
            date.format("%Y-%m-%d").to_string()
        } else {
            date.and_time(chrono::NaiveTime::from_num_seconds_from_midnight_opt(seconds, 0).unwrap())
                .and_local_timezone(offset)
                .unwrap()
                .to_rfc3339()
        };
        let (status, json) = get(&format!("/api/changelog?limit=100&summary=true&since={}", encode(&since)))?;
        prop_assert_eq!(status, 200, "since={} {}", since, json);
        let since = DateTime::parse_from_rfc3339(&since)
            .map(|t| t.with_timezone(&Utc))
            .unwrap_or_else(|_| date.and_time(Default::default()).and_utc());
        for entry in json["entries"].as_array().unwrap() {
            let day = NaiveDate::parse_from_str(entry["date"].as_str().unwrap(), "%Y-%m-%d").unwrap();
            prop_assert!(day.and_time(Default::default()).and_utc() >= since);
        }
    }

    /// Any text as the path parameter of the endpoints that take one: never a 5xx.
    #[test]
    fn path_parameters_take_any_text(
        id in prop_oneof![
            any::<String>(),
            "hq-(c|m|p)-[a-z]{3}-0000[0-9]{2}",
            "[0-9]{2,7}-[0-9]{2}-[0-9]",
            Just("..".to_string()),
            Just("%2e%2e".to_string()),
        ],
        template in prop::sample::select(&[
            "/api/compound/{}",
            "/api/compound/{}/raw",
            "/api/compound/{}/alternatives",
            "/api/compound/cas/{}",
            "/api/material/{}",
            "/api/product/{}",
            "/api/product/{}/raw",
            "/api/badge/{}",
            "/api/relationships/{}",
            "/api/relationships/{}/graph",
            "/api/regulatory/{}",
            "/api/regulatory/by-agency/{}",
            "/api/found-in/{}",
            "/api/found-in/by-category/{}",
            "/api/watchlist/{}",
            "/api/v1/compound/{}",
        ][..]),
    ) {
        get(&template.replace("{}", &encode(&id)))?;
    }

    /// Raw query strings (repeated names, broken percent escapes, bytes that decode to
    /// invalid UTF-8) on the endpoints that read parameters: never a 5xx.
    #[test]
    fn raw_query_strings_never_fail_the_server(
        pairs in prop::collection::vec(
            (
                prop_oneof![
                    prop::sample::select(&[
                        "q", "limit", "offset", "type", "page", "search", "risk", "context",
                        "hazard", "cas", "ids", "contexts", "as_of", "before", "view",
                        "since", "year", "year_min", "year_max", "detail", "synthesize",
                        "all_contexts", "redirect", "depth", "rel_type", "format",
                    ][..]).prop_map(str::to_string),
                    "[a-z_%]{0,8}",
                ],
                prop_oneof![
                    "[ -~]{0,24}",
                    "(%[0-9a-fA-F]{2}|%[g-z]|[a-z0-9])*",
                    Just("%ff%fe".to_string()),
                    (0u64..u64::MAX).prop_map(|n| n.to_string()),
                ],
            ),
            0..5,
        ),
        path in prop::sample::select(&[
            "/api/search", "/api/compounds", "/api/filter", "/api/materials", "/api/products",
            "/api/regulatory-status", "/api/changelog", "/api/compounds/compare",
            "/api/compounds/batch", "/api/contexts", "/api/keys/usage", "/api/fragrance",
            "/api/fragrance/search", "/api/compound/hq-c-org-000218",
            "/api/compound/cas/80-05-7", "/api/badge/hq-c-org-000218",
            "/api/relationships/hq-c-org-000218/graph", "/api/watchlist", "/api/openapi",
        ][..]),
    ) {
        let query: Vec<String> = pairs
            .iter()
            .map(|(k, v)| format!("{k}={}", v.replace(['#', ' '], "+")))
            .collect();
        get(&format!("{path}?{}", query.join("&")))?;
    }
}

/// Found by the signature property: a `t` this far from now overflowed `now - t` (a panic
/// with overflow checks, which drops the connection).
#[test]
fn a_timestamp_at_the_ends_of_i64_is_refused() {
    for t in [i64::MIN, i64::MIN + 1, i64::MAX] {
        let header = HeaderValue::from_str(&format!("t={t},v1=00")).unwrap();
        let (status, json) = billing(Some(header), b"{}".to_vec()).unwrap();
        assert_eq!(status, 401, "t={t}: {json}");
    }
}
