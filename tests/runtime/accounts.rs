//! Accounts over real HTTP against both store backends (embedded and a real Redis): trial
//! keys mailed to the outbox, the two-step recovery and erasure codes (answers that never tell
//! whether an address has an account, 5 tries), payment-provider notifications (signatures,
//! idempotency, the state table), the provider's customer deletion called on a local
//! HTTP server that records it, erasure leaving nothing behind, and the watchlist.

use std::path::Path;
use std::sync::{Arc, Mutex};

use reqwest::StatusCode;
use saferef_runtime::Config;
use saferef_runtime::keys;
use saferef_runtime::tier::Tier;
use serde_json::{Value, json};

use crate::support::keyed_get as get;
use crate::support::mail::{code_in, key_in, mails, new_mail, outbox};
use crate::support::{provider_signature, start_with, stores};

const BILLING_SECRET: &str = "whsec_test_billing";

fn config(state: &Path) -> Config {
    Config {
        state_dir: state.to_path_buf(),
        mail_from: "saferef <no-reply@saferef.invalid>".into(),
        payment_webhook_secret: Some(BILLING_SECRET.into()),
        payment_prices: vec![
            ("price_dev".into(), Tier::Developer),
            ("price_pro".into(), Tier::Pro),
        ],
        ..Config::default()
    }
}

async fn post(url: &str, key: Option<&str>, body: &Value) -> (StatusCode, Value) {
    let mut req = reqwest::Client::new().post(url).json(body);
    if let Some(k) = key {
        req = req.header("x-api-key", k);
    }
    let res = req.send().await.unwrap();
    let status = res.status();
    (status, res.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_trial_key_is_mailed_once_per_address_and_opens_developer_for_seven_days() {
    for store in stores("trial").await {
        let backend = store.backend();
        let state = tempfile::tempdir().unwrap();
        let base = start_with(store.clone(), config(state.path())).await;
        let url = format!("{base}/api/keys/trial");

        let res = reqwest::Client::new()
            .post(&url)
            .body(r#"{"email":"ada@example.org"}"#)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 415, "{backend}: JSON only");
        for bad in [
            json!({}),
            json!({"email": "not-an-address"}),
            json!({"email": 7}),
        ] {
            let (status, body) = post(&url, None, &bad).await;
            assert_eq!(status, 400, "{backend} {bad}: {body}");
            assert!(body["error"].is_string());
        }
        assert!(outbox(state.path()).is_empty());

        let (status, first) = post(&url, None, &json!({"email": "Ada@Example.org"})).await;
        assert_eq!(status, 202, "{backend}: {first}");
        let sent = mails(state.path(), 1).await;
        assert_eq!(sent.len(), 1, "{backend}");
        assert!(sent[0].contains("To: ada@example.org"), "{}", sent[0]);
        let key = key_in(&sent[0]);
        let (status, body) = get(&format!("{base}/api/keys/status"), Some(&key)).await;
        assert_eq!(status, 200, "{backend}: {body}");
        assert_eq!(body["tier"], "developer");
        assert_eq!(body["trial"], true);
        let expires =
            chrono::DateTime::parse_from_rfc3339(body["expires_at"].as_str().unwrap()).unwrap();
        let days = (expires.with_timezone(&chrono::Utc) - chrono::Utc::now()).num_hours();
        assert!(
            (167..=168).contains(&days),
            "{backend}: about 7 days, got {days} h"
        );
        let (status, _) = get(&format!("{base}/api/search?q=benzene"), Some(&key)).await;
        assert_eq!(
            status, 200,
            "{backend}: the trial opens Developer endpoints"
        );

        let (status, mut again) = post(&url, None, &json!({"email": "ada@example.org "})).await;
        assert_eq!(status, 202);
        answer_alike(
            &mut again,
            &mut first.clone(),
            &format!("{backend}: a second request"),
        );
        let sent = mails(state.path(), 2).await;
        assert_eq!(sent.len(), 2);
        assert!(!sent[1].contains("sr_live_"), "{backend}: no second key");
        assert_eq!(keys::list(&store).await.unwrap().len(), 1, "{backend}");
    }
}

#[tokio::test]
async fn trial_issuance_is_limited_per_client_and_expired_trials_stop() {
    let store = stores("trial-limit").await.remove(1);
    let state = tempfile::tempdir().unwrap();
    let past = chrono::Utc::now() - chrono::Duration::minutes(1);
    let (expired, _) = keys::create(&store, Tier::Developer, None, Some(past))
        .await
        .unwrap();
    let base = start_with(store, config(state.path())).await;
    let (status, _) = get(&format!("{base}/api/keys/status"), Some(&expired)).await;
    assert_eq!(status, 401, "a trial ends at its stated time");
    let url = format!("{base}/api/keys/trial");
    for i in 0..10 {
        let (status, body) = post(&url, None, &json!({"email": format!("u{i}@example.org")})).await;
        assert_eq!(status, 202, "{i}: {body}");
    }
    let (status, body) = post(&url, None, &json!({"email": "u10@example.org"})).await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(mails(state.path(), 10).await.len(), 10);
}

#[tokio::test]
async fn recovery_codes_replace_the_key_and_never_reveal_an_account() {
    for store in stores("recover").await {
        let backend = store.backend();
        let state = tempfile::tempdir().unwrap();
        let (old, _) = keys::create(&store, Tier::Pro, Some("grace@example.org".into()), None)
            .await
            .unwrap();
        let base = start_with(store.clone(), config(state.path())).await;
        let url = format!("{base}/api/keys/recover");

        // The address without an account first: its work is done (the queue runs in order)
        // once the other's code has arrived.
        let (s2, unknown) = post(&url, None, &json!({"email": "nobody@example.org"})).await;
        let (s1, known) = post(&url, None, &json!({"email": "grace@example.org"})).await;
        assert_eq!(
            (s1, s2),
            (StatusCode::ACCEPTED, StatusCode::ACCEPTED),
            "{backend}"
        );
        assert_eq!(
            known, unknown,
            "{backend}: the same answer with and without an account"
        );
        let sent = mails(state.path(), 1).await;
        assert_eq!(sent.len(), 1, "{backend}: a code only to the real account");
        let code = code_in(&sent[0]);
        assert_eq!(code.len(), 6, "{code}");

        let wrong = if code == "000000" { "111111" } else { "000000" };
        let (status, body) = post(
            &url,
            None,
            &json!({"email": "grace@example.org", "code": wrong}),
        )
        .await;
        assert_eq!(status, 400, "{backend}: {body}");
        let (status, body) = post(
            &url,
            None,
            &json!({"email": "grace@example.org", "code": code}),
        )
        .await;
        assert_eq!(status, 200, "{backend}: {body}");
        let fresh = body["keys"][0]["key"].as_str().unwrap().to_string();
        assert_eq!(body["keys"][0]["tier"], "pro");
        let (status, _) = get(&format!("{base}/api/keys/status"), Some(&old)).await;
        assert_eq!(status, 401, "{backend}: the replaced key stops");
        let (status, _) = get(&format!("{base}/api/keys/status"), Some(&fresh)).await;
        assert_eq!(status, 200, "{backend}");
        let (status, _) = post(
            &url,
            None,
            &json!({"email": "grace@example.org", "code": code}),
        )
        .await;
        assert_eq!(status, 400, "{backend}: a code works once");

        // Five wrong tries use a code up, for addresses with and without an account alike.
        for email in ["grace@example.org", "nobody@example.org"] {
            let before = outbox(state.path()).len();
            post(&url, None, &json!({"email": email})).await;
            if email.starts_with("grace") {
                new_mail(state.path(), before).await;
            }
            for _ in 0..5 {
                let (status, _) =
                    post(&url, None, &json!({"email": email, "code": "999999x"})).await;
                assert_eq!(status, 400, "{backend} {email}");
            }
            let code = code_in(outbox(state.path()).last().unwrap());
            let (status, body) = post(&url, None, &json!({"email": email, "code": code})).await;
            assert_eq!(status, 429, "{backend} {email}: {body}");
        }
    }
}

/// A local stand-in for the payment provider's API that records each request line.
async fn provider(status: Arc<Mutex<u16>>) -> (String, Arc<Mutex<Vec<String>>>) {
    use warp::Filter;
    let calls = Arc::new(Mutex::new(Vec::new()));
    let seen = calls.clone();
    let route = warp::method()
        .and(warp::path::full())
        .and(warp::header::optional::<String>("authorization"))
        .map(
            move |m: warp::http::Method, p: warp::path::FullPath, auth: Option<String>| {
                seen.lock().unwrap().push(format!(
                    "{m} {} {}",
                    p.as_str(),
                    auth.unwrap_or_default()
                ));
                let code = *status.lock().unwrap();
                warp::reply::with_status("{}", warp::http::StatusCode::from_u16(code).unwrap())
            },
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(warp::serve(route).incoming(listener).run());
    (format!("http://{addr}"), calls)
}

#[tokio::test]
async fn erasure_removes_everything_of_the_address_and_the_provider_record() {
    for store in stores("erasure").await {
        let backend = store.backend();
        let state = tempfile::tempdir().unwrap();
        let failing = Arc::new(Mutex::new(500));
        let (provider_url, calls) = provider(failing.clone()).await;
        let (key, mut record) = keys::create(
            &store,
            Tier::Developer,
            Some("alan@example.org".into()),
            None,
        )
        .await
        .unwrap();
        record.billing.customer_id = Some("cus_ALAN".into());
        keys::save(&store, &record).await.unwrap();
        let (other, _) = keys::create(
            &store,
            Tier::Developer,
            Some("kept@example.org".into()),
            None,
        )
        .await
        .unwrap();
        let mut cfg = config(state.path());
        cfg.payment_api_url = Some(provider_url);
        cfg.payment_api_key = Some("sk_test_provider".into());
        let base = start_with(store.clone(), cfg.clone()).await;
        let (status, body) = post(
            &format!("{base}/api/watchlist"),
            Some(&key),
            &json!({"compounds": ["71-43-2", "hq-c-org-000001"]}),
        )
        .await;
        assert_eq!(status, 200, "{backend}: {body}");
        post(
            &format!("{base}/api/watchlist"),
            Some(&other),
            &json!({"compounds": ["71-43-2"]}),
        )
        .await;

        let url = format!("{base}/api/keys/erasure");
        let (status, _) = post(&url, None, &json!({"email": "alan@example.org"})).await;
        assert_eq!(status, 202);
        let code = code_in(&new_mail(state.path(), 0).await);
        let (status, body) = post(
            &url,
            None,
            &json!({"email": "alan@example.org", "code": code}),
        )
        .await;
        assert_eq!(status, 200, "{backend}: {body}");
        assert_eq!(body["removed"]["keys"], 1);
        assert_eq!(body["removed"]["watchlist_entries"], 2);
        assert!(
            body["removed"]["usage_days"].as_u64().unwrap() >= 1,
            "{body}"
        );
        assert_eq!(
            body["removed"]["payment_customers"],
            json!(["pending"]),
            "{backend}"
        );
        assert!(outbox(state.path()).last().unwrap().contains("erased"));

        let (status, _) = get(&format!("{base}/api/keys/status"), Some(&key)).await;
        assert_eq!(status, 401, "{backend}");
        let account = record.account_id().to_string();
        for (k, v) in store.scan("").await.unwrap() {
            let text = String::from_utf8_lossy(&v);
            assert!(
                !k.contains(&account),
                "{backend}: {k} is left of the account"
            );
            assert!(
                !text.contains("alan@example.org"),
                "{backend}: {k} holds the address"
            );
        }
        let (status, body) = get(&format!("{base}/api/watchlist"), Some(&other)).await;
        assert_eq!(
            (status, body["pagination"]["total"].clone()),
            (StatusCode::OK, json!(1))
        );

        // The provider failed: the deletion is pending until a retry succeeds.
        *failing.lock().unwrap() = 200;
        let left = saferef_runtime::accounts::provider::retry_pending(&cfg, &store)
            .await
            .unwrap();
        assert_eq!(left, 0, "{backend}");
        let calls = calls.lock().unwrap().clone();
        assert_eq!(calls.len(), 2, "{backend}: {calls:?}");
        assert!(
            calls
                .iter()
                .all(|c| c == "DELETE /v1/customers/cus_ALAN Bearer sk_test_provider"),
            "{calls:?}"
        );
        assert!(store.scan("provider-delete:").await.unwrap().is_empty());
    }
}

async fn notify(base: &str, event: &Value, signature: Option<String>) -> (StatusCode, Value) {
    let body = event.to_string();
    let mut req = reqwest::Client::new()
        .post(format!("{base}/api/billing/webhook"))
        .header("content-type", "application/json")
        .body(body.clone());
    if let Some(s) = signature {
        req = req.header("x-provider-signature", s);
    }
    let res = req.send().await.unwrap();
    let status = res.status();
    (status, res.json().await.unwrap_or(Value::Null))
}

async fn notify_signed(base: &str, event: &Value) -> (StatusCode, Value) {
    let now = chrono::Utc::now().timestamp();
    notify(
        base,
        event,
        Some(provider_signature(&event.to_string(), now, BILLING_SECRET)),
    )
    .await
}

#[tokio::test]
async fn payment_notifications_follow_the_subscription_table_once_each() {
    for store in stores("billing").await {
        let backend = store.backend();
        let state = tempfile::tempdir().unwrap();
        let base = start_with(store.clone(), config(state.path())).await;
        let checkout = json!({
            "id": "evt_checkout_1", "type": "checkout.session.completed", "created": 1_790_000_000,
            "data": {"object": {"customer": "cus_1", "subscription": "sub_1",
                                 "customer_email": "hopper@example.org", "price": "price_pro"}}
        });
        let now = chrono::Utc::now().timestamp();
        let body = checkout.to_string();
        for bad in [
            None,
            Some(provider_signature(&body, now, "wrong secret")),
            Some(provider_signature(&body, now - 600, BILLING_SECRET)),
            Some("t=abc,v1=00".to_string()),
        ] {
            let (status, answer) = notify(&base, &checkout, bad.clone()).await;
            assert_eq!(status, 401, "{backend} {bad:?}: {answer}");
        }
        assert!(keys::list(&store).await.unwrap().is_empty());

        let (status, answer) = notify_signed(&base, &checkout).await;
        assert_eq!(status, 200, "{backend}: {answer}");
        let key = key_in(outbox(state.path()).last().unwrap());
        let (status, answer) = notify_signed(&base, &checkout).await;
        assert_eq!(status, 200);
        assert!(
            answer["result"].as_str().unwrap().starts_with("duplicate"),
            "{answer}"
        );
        assert_eq!(
            keys::list(&store).await.unwrap().len(),
            1,
            "{backend}: idempotent"
        );
        let status_of = |key: String| {
            let base = base.clone();
            async move { get(&format!("{base}/api/keys/status"), Some(&key)).await }
        };
        let (status, s) = status_of(key.clone()).await;
        assert_eq!(status, 200, "{backend}: {s}");
        assert_eq!(
            (s["tier"].clone(), s["payment_status"].clone()),
            (json!("pro"), json!("active"))
        );

        let updated = json!({
            "id": "evt_sub_2", "type": "customer.subscription.updated", "created": 1_790_000_100,
            "data": {"object": {"id": "sub_1", "customer": "cus_1", "status": "past_due",
                     "cancel_at_period_end": true,
                     "items": {"data": [{"price": {"id": "price_dev"}}]}}}
        });
        assert_eq!(notify_signed(&base, &updated).await.0, 200);
        let (_, s) = status_of(key.clone()).await;
        assert_eq!(
            s["tier"], "developer",
            "{backend}: tier re-derived from the price"
        );
        assert_eq!(s["payment_status"], "past_due");
        assert_eq!(s["cancel_at_period_end"], true);
        assert_eq!(s["provider_status"], "past_due");
        assert_eq!(s["active"], true, "{backend}: the key stays active");

        let failed = json!({
            "id": "evt_inv_3", "type": "invoice.payment_failed", "created": 1_790_000_200,
            "data": {"object": {"customer": "cus_1", "subscription": "sub_1", "attempt_count": 2}}
        });
        assert_eq!(notify_signed(&base, &failed).await.0, 200);
        let (status, s) = status_of(key.clone()).await;
        assert_eq!(
            status, 200,
            "{backend}: not deactivated by a failed payment"
        );
        assert_eq!(s["payment_status"], "past_due");
        assert_eq!(s["payment_attempts"], 2);
        assert!(
            s["payment_failed_at"]
                .as_str()
                .unwrap()
                .starts_with("2026-09-21"),
            "{s}"
        );

        let unknown_price = json!({
            "id": "evt_checkout_4", "type": "checkout.session.completed",
            "data": {"object": {"customer": "cus_2", "customer_email": "x@example.org",
                                 "price": "price_gold"}}
        });
        for _ in 0..2 {
            let (status, answer) = notify_signed(&base, &unknown_price).await;
            assert_eq!(
                status, 400,
                "{backend}: refused, and not remembered as done: {answer}"
            );
        }
        let ignored = json!({"id": "evt_5", "type": "charge.refunded", "data": {"object": {}}});
        let (status, answer) = notify_signed(&base, &ignored).await;
        assert_eq!(status, 200);
        assert!(answer["result"].as_str().unwrap().starts_with("ignored"));

        let deleted = json!({
            "id": "evt_sub_6", "type": "customer.subscription.deleted",
            "data": {"object": {"id": "sub_1", "customer": "cus_1"}}
        });
        assert_eq!(notify_signed(&base, &deleted).await.0, 200);
        let (status, _) = status_of(key).await;
        assert_eq!(
            status, 401,
            "{backend}: a deleted subscription deactivates the key"
        );
    }
}

#[tokio::test]
async fn the_watchlist_adds_checks_lists_and_removes_within_the_tier_cap() {
    for store in stores("watchlist").await {
        let backend = store.backend();
        let state = tempfile::tempdir().unwrap();
        let (key, _) = keys::create(&store, Tier::Developer, None, None)
            .await
            .unwrap();
        let base = start_with(store, config(state.path())).await;
        let url = format!("{base}/api/watchlist");
        let (status, _) = get(&url, None).await;
        assert_eq!(status, 401, "{backend}");
        let (status, body) = post(
            &url,
            Some(&key),
            &json!({"compounds": ["71-43-2", "hq-c-org-000001", "71-43-2"]}),
        )
        .await;
        assert_eq!(status, 200, "{backend}: {body}");
        assert_eq!(body["added"], 2);
        for bad in [
            json!({"compounds": []}),
            json!({"compounds": ["hq-c-org-999999"]}),
            json!({"compounds": ["50-00-1", "71-43-3"]}),
            json!({"ids": ["71-43-2"]}),
        ] {
            let (status, body) = post(&url, Some(&key), &bad).await;
            assert_eq!(status, 400, "{backend} {bad}: {body}");
        }
        let (status, body) = get(&format!("{url}?limit=1&offset=1"), Some(&key)).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["pagination"]["total"], 2);
        assert_eq!(body["pagination"]["cap"], 100);
        let entry = &body["watchlist"][0];
        assert!(
            entry["name"].is_string() && entry["cas"].is_string() && entry["added"].is_string(),
            "{entry}"
        );
        assert!(
            entry["risk_levels"]
                .as_object()
                .is_some_and(|m| !m.is_empty()),
            "{entry}"
        );
        let (status, _) = get(&format!("{url}?limit=0"), Some(&key)).await;
        assert_eq!(status, 400);
        // A compound the latest release added carries that change.
        post(&url, Some(&key), &json!({"compounds": ["hq-c-org-001550"]})).await;
        let (_, body) = get(&format!("{url}?offset=2"), Some(&key)).await;
        assert_eq!(body["watchlist"][0]["id"], "hq-c-org-001550", "{body}");
        assert_eq!(
            body["watchlist"][0]["last_change"]["type"], "compound.added",
            "{body}"
        );
        let del_added = reqwest::Client::new()
            .delete(format!("{url}/hq-c-org-001550"))
            .header("x-api-key", &key)
            .send()
            .await
            .unwrap();
        assert_eq!(del_added.status(), 200);

        let (status, body) = post(
            &format!("{url}/check"),
            Some(&key),
            &json!({"compounds": ["71-43-2", "hq-c-org-000002", "nope"]}),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["results"][0]["on_watchlist"], true);
        assert_eq!(body["results"][1]["on_watchlist"], false);
        assert!(body["results"][2]["error"].is_string());

        let benzene = body["results"][0]["id"].as_str().unwrap().to_string();
        let del = |path: String| {
            let key = key.clone();
            async move {
                let res = reqwest::Client::new()
                    .delete(path)
                    .header("x-api-key", key)
                    .send()
                    .await
                    .unwrap();
                res.status()
            }
        };
        assert_eq!(del(format!("{url}/{benzene}")).await, 200, "{backend}");
        assert_eq!(del(format!("{url}/{benzene}")).await, 404, "{backend}");
        let (status, _) = get(&format!("{url}/check"), Some(&key)).await;
        assert_eq!(status, 405);

        // The developer cap is 100 compounds: one is watched, 100 others would make 101.
        let (_, page) = get(
            &format!("{base}/api/compounds?limit=100&page=2"),
            Some(&key),
        )
        .await;
        let ids: Vec<&str> = page["compounds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["hq_id"].as_str().unwrap())
            .filter(|id| *id != "hq-c-org-000001")
            .collect();
        assert_eq!(ids.len(), 100, "{page}");
        let (status, body) = post(&url, Some(&key), &json!({"compounds": ids})).await;
        assert_eq!(status, 400, "{backend}: 101 would be watched: {body}");
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .contains("too many compounds"),
            "{body}"
        );
    }
}

#[test]
fn production_refuses_to_start_without_the_secret_key() {
    let state = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_saferef-serve"))
        .args(["--listen", "127.0.0.1:0", "--state"])
        .arg(state.path())
        .env("SAFEREF_ENV", "production")
        .env_remove("SAFEREF_SECRET_KEY")
        .env("SAFEREF_WEBHOOK_ALLOW_LOOPBACK", "true")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("SAFEREF_SECRET_KEY is required in production"),
        "{stderr}"
    );
    assert!(
        stderr.contains("SAFEREF_WEBHOOK_ALLOW_LOOPBACK"),
        "{stderr}"
    );
}

/// Spends this client's whole public daily quota on `/api/health`, each request admitted.
async fn spend_public_quota(client: &reqwest::Client, base: &str) {
    for _ in 0..Tier::Public.daily_limit().unwrap() {
        let res = client
            .get(format!("{base}/api/health"))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
    }
}

/// A signed provider notification from an address whose public quota is spent (the CDN or a
/// balancer in front of the service) is still applied; an unsigned one counts as public
/// traffic and is refused with the rest (issue 23: 500 requests blocked billing for a day).
#[tokio::test]
async fn signed_notifications_are_not_metered_by_the_public_quota() {
    let dir = tempfile::tempdir().unwrap();
    let store = saferef_runtime::store::Store::embedded(&dir.path().join("store.redb")).unwrap();
    let base = start_with(store, config(dir.path())).await;
    let client = reqwest::Client::new();
    spend_public_quota(&client, &base).await;
    let (status, _) = get(&format!("{base}/api/health"), None).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    let event = json!({"id": "evt_busy_1", "type": "customer.created", "data": {"object": {}}});
    let (status, body) = notify_signed(&base, &event).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _) = notify(&base, &event, None).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
}

/// A service that believes clients' addresses from `X-Forwarded-For`, so one test can be
/// many clients.
fn proxied(state: &Path) -> Config {
    Config {
        trusted_proxy_header: Some("x-forwarded-for".into()),
        ..config(state)
    }
}

async fn post_from(url: &str, client: &str, body: &Value) -> (StatusCode, Value) {
    let res = reqwest::Client::new()
        .post(url)
        .header("x-forwarded-for", client)
        .json(body)
        .send()
        .await
        .unwrap();
    let status = res.status();
    (status, res.json().await.unwrap_or(Value::Null))
}

/// Recovery and erasure step 1 and trials answer 202 with the same body whatever the address
/// and whether or not the mail goes out: the mail server here refuses every connection.
/// Before (issue 23), an address with an account got 503 and one without 202, and a first
/// trial 503.
#[tokio::test]
async fn step_one_and_trials_answer_alike_even_when_mail_fails() {
    let dir = tempfile::tempdir().unwrap();
    let store = saferef_runtime::store::Store::embedded(&dir.path().join("store.redb")).unwrap();
    keys::create(&store, Tier::Pro, Some("grace@example.org".into()), None)
        .await
        .unwrap();
    // Nothing listens on port 9 of loopback (discard): every delivery fails at connect.
    let cfg = Config {
        smtp_url: Some("smtp://127.0.0.1:9".into()),
        ..proxied(dir.path())
    };
    let base = start_with(store.clone(), cfg).await;
    for path in ["recover", "erasure", "resend"] {
        let url = format!("{base}/api/keys/{path}");
        let (s1, known) = post_from(&url, "10.0.1.1", &json!({"email": "grace@example.org"})).await;
        let (s2, unknown) =
            post_from(&url, "10.0.1.2", &json!({"email": "nobody@example.org"})).await;
        assert_eq!(
            (s1, s2),
            (StatusCode::ACCEPTED, StatusCode::ACCEPTED),
            "{path}: {known}"
        );
        assert_eq!(known, unknown, "{path}");
    }
    let url = format!("{base}/api/keys/trial");
    let (s1, mut first) = post_from(&url, "10.0.1.3", &json!({"email": "new@example.org"})).await;
    let (s2, mut again) = post_from(&url, "10.0.1.4", &json!({"email": "grace@example.org"})).await;
    assert_eq!(
        (s1, s2),
        (StatusCode::ACCEPTED, StatusCode::ACCEPTED),
        "{first}"
    );
    answer_alike(&mut again, &mut first, "a known and an unknown address");
}

/// Trial answers must not tell two requests apart. Each states its own
/// request time plus seven days, so two may straddle a second; the rest must
/// be the same text.
fn answer_alike(later: &mut Value, earlier: &mut Value, what: &str) {
    let stated = |answer: &mut Value| {
        let at = answer["expires_at"].take();
        chrono::DateTime::parse_from_rfc3339(at.as_str().unwrap()).unwrap()
    };
    let apart = stated(later) - stated(earlier);
    assert!(
        (0..=2).contains(&apart.num_seconds()),
        "{what}: each expiry is counted from its own request, {apart}"
    );
    assert_eq!(
        later, earlier,
        "{what}: the answer tells the requests apart"
    );
}

/// Step-1 requests are limited per client and address too: one client asking five times for
/// a victim's address gets three codes sent, and the victim, from elsewhere, still gets one.
/// Before (issue 23), five requests spent the address's codes for the day.
#[tokio::test]
async fn one_client_cannot_spend_an_address_s_daily_codes() {
    let dir = tempfile::tempdir().unwrap();
    let store = saferef_runtime::store::Store::embedded(&dir.path().join("store.redb")).unwrap();
    keys::create(&store, Tier::Pro, Some("victim@example.org".into()), None)
        .await
        .unwrap();
    let base = start_with(store, proxied(dir.path())).await;
    let url = format!("{base}/api/keys/recover");
    for _ in 0..5 {
        let (status, body) = post_from(
            &url,
            "203.0.113.66",
            &json!({"email": "victim@example.org"}),
        )
        .await;
        assert_eq!(status, 202, "{body}");
    }
    let (status, _) = post_from(
        &url,
        "198.51.100.7",
        &json!({"email": "victim@example.org"}),
    )
    .await;
    assert_eq!(status, 202);
    // The queue runs in order: the victim's code is the fourth mail, and no other follows.
    let sent = mails(dir.path(), 4).await;
    assert_eq!(
        sent.len(),
        4,
        "three for the one client, one for the victim"
    );
    let (status, body) = post_from(
        &url,
        "198.51.100.7",
        &json!({"email": "victim@example.org", "code": code_in(&sent[3])}),
    )
    .await;
    assert_eq!(status, 200, "the victim's code works: {body}");
}

/// One trial per mailbox: a plus tag does not make another mailbox, and erasing the address
/// does not open a second trial, while the store still holds nothing of the address (the
/// trial mark is a keyed hash of it).
#[tokio::test]
async fn a_mailbox_takes_one_trial_through_plus_tags_and_erasure() {
    let dir = tempfile::tempdir().unwrap();
    let store = saferef_runtime::store::Store::embedded(&dir.path().join("store.redb")).unwrap();
    let base = start_with(store.clone(), proxied(dir.path())).await;
    let trial = format!("{base}/api/keys/trial");
    let (status, _) = post_from(&trial, "10.0.2.1", &json!({"email": "ada@example.org"})).await;
    assert_eq!(status, 202);
    let key = key_in(&new_mail(dir.path(), 0).await);
    let (status, _) = post_from(
        &trial,
        "10.0.2.2",
        &json!({"email": "Ada+again@example.org"}),
    )
    .await;
    assert_eq!(status, 202);
    let again = new_mail(dir.path(), 1).await;
    assert!(
        !again.contains("sr_live_"),
        "no second key by a plus tag: {again}"
    );
    assert!(again.contains("To: ada+again@example.org"), "{again}");

    let erasure = format!("{base}/api/keys/erasure");
    post_from(&erasure, "10.0.2.1", &json!({"email": "ada@example.org"})).await;
    let code = code_in(&new_mail(dir.path(), 2).await);
    let (status, body) = post_from(
        &erasure,
        "10.0.2.1",
        &json!({"email": "ada@example.org", "code": code}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (status, _) = get(&format!("{base}/api/keys/status"), Some(&key)).await;
    assert_eq!(status, 401, "erased");
    let hash = saferef_runtime::accounts::email_hash("ada@example.org");
    // Account work holds its address until it has run (`accounts/deferred.rs`).
    let jobs = saferef_runtime::store::keyspace::ACCOUNT_JOBS;
    for _ in 0..200 {
        if store
            .ranked_upto(jobs, i64::MAX, 1)
            .await
            .unwrap()
            .is_empty()
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    let stored = store.scan("").await.unwrap();
    for (k, v) in &stored {
        assert!(
            !String::from_utf8_lossy(v).contains("ada@"),
            "{k} holds the address"
        );
        assert!(!k.starts_with("trial:"), "{k}: a plain-hash trial record");
    }
    let marks = store.scan("trial-mark:").await.unwrap();
    assert_eq!(marks.len(), 1, "{stored:?}");
    assert!(
        !marks[0].0.contains(&hash),
        "the mark is not the plain hash"
    );
    let before = outbox(dir.path()).len();
    let (status, _) = post_from(&trial, "10.0.2.3", &json!({"email": "ada@example.org"})).await;
    assert_eq!(status, 202);
    let after = new_mail(dir.path(), before).await;
    assert!(
        !after.contains("sr_live_"),
        "no second trial after erasure: {after}"
    );
    assert!(keys::list(&store).await.unwrap().is_empty());
}

/// Providers deliver events out of order: an event made before the state a key holds is
/// acknowledged and leaves the key as it is (issue 23: it overwrote the newer state).
#[tokio::test]
async fn an_older_subscription_event_does_not_overwrite_a_newer_state() {
    let dir = tempfile::tempdir().unwrap();
    let store = saferef_runtime::store::Store::embedded(&dir.path().join("store.redb")).unwrap();
    let base = start_with(store, config(dir.path())).await;
    let checkout = json!({
        "id": "evt_co", "type": "checkout.session.completed", "created": 1_790_000_000,
        "data": {"object": {"customer": "cus_9", "subscription": "sub_9",
                             "customer_email": "turing@example.org", "price": "price_pro"}}
    });
    assert_eq!(notify_signed(&base, &checkout).await.0, 200);
    let key = key_in(outbox(dir.path()).last().unwrap());
    let updated = |id: &str, created: i64, status: &str, price: &str| {
        json!({
            "id": id, "type": "customer.subscription.updated", "created": created,
            "data": {"object": {"id": "sub_9", "customer": "cus_9", "status": status,
                     "items": {"data": [{"price": {"id": price}}]}}}
        })
    };
    let newer = updated("evt_new", 1_790_000_200, "past_due", "price_dev");
    let older = updated("evt_old", 1_790_000_100, "active", "price_pro");
    assert_eq!(notify_signed(&base, &newer).await.0, 200);
    let (status, answer) = notify_signed(&base, &older).await;
    assert_eq!(status, 200, "acknowledged: {answer}");
    assert!(
        answer["result"].as_str().unwrap().contains("later event"),
        "{answer}"
    );
    let (_, s) = get(&format!("{base}/api/keys/status"), Some(&key)).await;
    assert_eq!(
        (s["tier"].clone(), s["payment_status"].clone()),
        (json!("developer"), json!("past_due")),
        "{s}"
    );
    let failed_late = json!({
        "id": "evt_inv_old", "type": "invoice.payment_failed", "created": 1_790_000_050,
        "data": {"object": {"customer": "cus_9", "subscription": "sub_9", "attempt_count": 1}}
    });
    assert_eq!(notify_signed(&base, &failed_late).await.0, 200);
    let (_, s) = get(&format!("{base}/api/keys/status"), Some(&key)).await;
    assert!(s["payment_attempts"].is_null(), "{s}");
    let deleted = json!({
        "id": "evt_del", "type": "customer.subscription.deleted", "created": 1_790_000_300,
        "data": {"object": {"id": "sub_9", "customer": "cus_9"}}
    });
    assert_eq!(notify_signed(&base, &deleted).await.0, 200);
    let (status, _) = get(&format!("{base}/api/keys/status"), Some(&key)).await;
    assert_eq!(status, 401, "a newer event applies");
}

/// A public 429 points to the trial while the trial still answers: the trial request is
/// not counted by the public quota (issue 23: it answered 429 too), and once the client's
/// trial allowance is spent the 429 points to the tiers instead.
#[tokio::test]
async fn a_public_429_points_to_the_trial_only_while_the_trial_answers() {
    let dir = tempfile::tempdir().unwrap();
    let store = saferef_runtime::store::Store::embedded(&dir.path().join("store.redb")).unwrap();
    let base = start_with(store, config(dir.path())).await;
    let client = reqwest::Client::new();
    spend_public_quota(&client, &base).await;
    let refused = client
        .get(format!("{base}/api/health"))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refused.headers()["x-upgrade-url"], "/api/docs#keys");
    let url = format!("{base}/api/keys/trial");
    for i in 0..10 {
        let (status, body) = post(&url, None, &json!({"email": format!("t{i}@example.org")})).await;
        assert_eq!(
            status,
            StatusCode::ACCEPTED,
            "trial {i} past the public quota: {body}"
        );
    }
    let (status, _) = post(&url, None, &json!({"email": "t10@example.org"})).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    let refused = client
        .get(format!("{base}/api/health"))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refused.headers()["x-upgrade-url"], "/api/docs#limits");
}

/// The public quota counts an IPv6 client by its /64: two addresses of one network share it,
/// another network has its own (issue 23: each full address had 500 requests).
#[tokio::test]
async fn the_public_quota_counts_an_ipv6_client_by_its_64() {
    let dir = tempfile::tempdir().unwrap();
    let store = saferef_runtime::store::Store::embedded(&dir.path().join("store.redb")).unwrap();
    let base = start_with(store, proxied(dir.path())).await;
    let remaining = |from: &'static str| {
        let url = format!("{base}/api/health");
        async move {
            let res = reqwest::Client::new()
                .get(url)
                .header("x-forwarded-for", from)
                .send()
                .await
                .unwrap();
            res.headers()["x-ratelimit-remaining"]
                .to_str()
                .unwrap()
                .parse::<u64>()
                .unwrap()
        }
    };
    let limit = Tier::Public.daily_limit().unwrap();
    assert_eq!(remaining("2001:db8:1:2::1").await, limit - 1);
    assert_eq!(
        remaining("2001:db8:1:2:ffff:ffff:ffff:fffe").await,
        limit - 2
    );
    assert_eq!(remaining("2001:db8:1:3::1").await, limit - 1);
    assert_eq!(remaining("192.0.2.1").await, limit - 1);
    assert_eq!(remaining("192.0.2.2").await, limit - 1);
}

/// A mail server that accepts connections and never greets: a delivery waits on it, so the
/// account jobs after the first stay queued. Counts the connections.
fn stalled_smtp() -> (String, Arc<std::sync::atomic::AtomicUsize>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("smtp://{}", listener.local_addr().unwrap());
    let accepted = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = accepted.clone();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().flatten() {
            counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            held.push(stream);
        }
    });
    (url, accepted)
}

/// Account mail still queued when the binary stops is sent after it starts again on the
/// same store: stopped gracefully (SIGTERM) while the mail server stalls, then killed
/// (SIGKILL) mid-queue, then started with a working outbox, every trial asked for is mailed,
/// once. Before (issue 23), the queue lived in memory and a stop lost it.
#[tokio::test]
async fn account_mail_queued_at_a_stop_or_a_crash_is_sent_after_the_restart() {
    use crate::support::binary;
    use std::sync::atomic::Ordering;
    let tree = tempfile::tempdir().unwrap();
    crate::support::write_tree(tree.path(), &crate::support::dataset());
    let state = tempfile::tempdir().unwrap();
    let log = tree.path().join("serve.log");
    let start = |env: &[(&str, &str)]| {
        binary::serve_logged(
            &tree.path().join("data"),
            &tree.path().join("site"),
            state.path(),
            env,
            Some(&log),
        )
    };
    let trial = |base: &str, email: &str| {
        let url = format!("{base}/api/keys/trial");
        let body = json!({ "email": email });
        async move {
            let (status, answer) = post(&url, None, &body).await;
            assert_eq!(status, StatusCode::ACCEPTED, "{answer}");
        }
    };
    let wait_for = |accepted: &Arc<std::sync::atomic::AtomicUsize>, n: usize| {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while accepted.load(Ordering::SeqCst) < n {
            assert!(std::time::Instant::now() < deadline, "no delivery began");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    };

    // A graceful stop while the first delivery stalls: the stop waits its bound, then exits.
    let (smtp, accepted) = stalled_smtp();
    let mut server = start(&[("SAFEREF_SMTP_URL", smtp.as_str())]);
    trial(&server.base, "ada@example.org").await;
    trial(&server.base, "grace@example.org").await;
    wait_for(&accepted, 1);
    let pid = server.child.id().to_string();
    let term = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap();
    assert!(term.success());
    let exit = server.child.wait().unwrap();
    assert!(exit.success(), "{exit:?}");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("still queued at the stop"), "{text}");
    drop(server);
    assert!(outbox(state.path()).is_empty());

    // Started again, still stalled: the two are queued again; a third joins, then a crash.
    let (smtp, accepted) = stalled_smtp();
    let server = start(&[("SAFEREF_SMTP_URL", smtp.as_str())]);
    trial(&server.base, "linus@example.org").await;
    wait_for(&accepted, 1);
    drop(server);
    assert!(outbox(state.path()).is_empty());

    // Started with the outbox: all three trials are mailed, each once, with a key.
    let server = start(&[]);
    let mail = mails(state.path(), 3).await;
    for email in ["ada@example.org", "grace@example.org", "linus@example.org"] {
        let to: Vec<&String> = mail
            .iter()
            .filter(|m| m.contains(&format!("To: {email}")))
            .collect();
        assert_eq!(to.len(), 1, "{email}: {mail:?}");
        assert!(to[0].contains("sr_live_"), "{email}: {}", to[0]);
    }
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(outbox(state.path()).len(), 3);
    drop(server);
}
