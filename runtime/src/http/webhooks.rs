//! The webhook endpoints (Developer+, for the account of the key that calls):
//! `POST /api/webhooks`, `GET /api/webhooks`, `GET /api/webhooks?action=deliveries`,
//! `DELETE /api/webhooks/{id}` and `POST /api/webhooks/test/{id}`.

use std::time::Duration;

use saferef_generator::api::Op;
use saferef_generator::render::error::ApiError;
use saferef_generator::render::paging::Paging;
use saferef_generator::render::runtime_answers::webhooks::{
    Deliveries, Followed, MAX_COMPOUNDS, SECRET_MAX, SECRET_MIN, True, WatchlistWord, WebhookBody,
    WebhookCreated, WebhookDeleted, WebhookList, WebhookTestQueued, WebhookView, Webhooks,
};
use saferef_generator::render::{Cache, Rendered};
use serde_json::json;
use warp::http::Method;

use super::{Params, Request};
use crate::AppState;
use crate::caller::Caller;
use crate::keys::KeyRecord;
use crate::store::StoreError;
use crate::store::keyspace;
use crate::webhooks::payload::{DEFAULT_EVENTS, EVENTS, Event, Format};
use crate::webhooks::registry::{self, Compounds, Webhook};
use crate::webhooks::{crypto, log, queue, ssrf};

/// A webhook as answered (never its secret).
fn view(w: &Webhook) -> WebhookView<'_> {
    WebhookView {
        id: &w.id,
        url: &w.url,
        events: &w.events,
        compounds: match &w.compounds {
            Compounds::Watchlist => Followed::Watchlist(WatchlistWord::Watchlist),
            Compounds::All => Followed::Ids(vec!["*"]),
            Compounds::Ids(ids) => Followed::Ids(ids.iter().map(String::as_str).collect()),
        },
        format: w.format,
        created: chrono::DateTime::from_timestamp(w.created, 0)
            .unwrap_or_default()
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
    }
}

fn account(caller: &Caller) -> Result<&KeyRecord, ApiError> {
    caller.key.as_deref().ok_or_else(|| {
        ApiError::unauthorized(
            "webhooks belong to an API key's account: send the key in X-API-Key or api_key",
        )
    })
}

fn store_error(e: StoreError) -> ApiError {
    tracing::error!("store: {e}");
    ApiError::unavailable("the webhook store is unavailable; retry shortly")
}

/// GET|POST /api/webhooks
pub async fn collection(
    state: &AppState,
    req: &Request,
    q: &Params,
    caller: &Caller,
) -> Result<Rendered, ApiError> {
    let key = account(caller)?;
    if req.method == Method::POST {
        return create(state, req, key).await;
    }
    match q.get("action") {
        None => list(state, key).await,
        Some("deliveries") => deliveries(state, q, key).await,
        Some(other) => Err(ApiError::bad_request(format!(
            "unknown action {other:?}: use action=deliveries&webhook_id=..."
        ))),
    }
}

/// POST /api/webhooks {url, events?, compounds?, format?, signing_secret?}
async fn create(state: &AppState, req: &Request, key: &KeyRecord) -> Result<Rendered, ApiError> {
    let Some(secret_key) = state.service.config.secret_key.as_ref() else {
        return Err(ApiError::unavailable(
            "webhooks are unavailable: this service has no SAFEREF_SECRET_KEY to encrypt signing secrets with (the operator sets it: base64 of 32 random bytes)",
        ));
    };
    let json = req
        .headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .and_then(|t| t.split(';').next())
        .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return Err(ApiError::unsupported_media_type(
            "send the webhook as JSON with Content-Type: application/json",
        ));
    }
    let body: WebhookBody = serde_json::from_slice(&req.body)
        .map_err(|e| ApiError::bad_request(format!("malformed webhook body: {e}")))?;
    let events = events(body.events)?;
    let compounds = compounds(state, body.compounds)?;
    let format = match body.format.as_deref() {
        None => Format::Json,
        Some(f) => Format::parse(f).ok_or_else(|| {
            ApiError::bad_request(format!("format must be json or slack, not {f:?}"))
        })?,
    };
    let secret = match body.signing_secret {
        None => format!("whsec_{}", crate::keys::random_base62(32)),
        Some(s)
            if (SECRET_MIN..=SECRET_MAX).contains(&s.len())
                && s.bytes().all(|b| b.is_ascii_graphic()) =>
        {
            s
        }
        Some(_) => {
            return Err(ApiError::bad_request(format!(
                "signing_secret must be {SECRET_MIN} to {SECRET_MAX} printable ASCII characters without spaces"
            )));
        }
    };
    let url = ssrf::check_url(&body.url, state.service.config.webhook_allow_loopback)
        .await
        .map_err(ApiError::bad_request)?;
    let account = key.account_id();
    let id = registry::new_id();
    let hook = Webhook {
        sealed_secret: crypto::seal(secret_key, &id, &secret),
        id,
        account: account.to_string(),
        url: url.to_string(),
        events,
        compounds,
        format,
        created: chrono::Utc::now().timestamp(),
    };
    let cap = registry::cap(key.tier);
    if !within_cap(state, &hook, cap).await? {
        return Err(ApiError::forbidden(format!(
            "this account has its {cap} webhooks (the {} tier's limit): delete one first",
            key.tier.name()
        )));
    }
    let out = WebhookCreated {
        webhook: view(&hook),
        signing_secret: secret,
        note: "store the signing secret now: it is shown only once. Verify X-Service-Signature: t=<unix seconds>,sha256=HMAC-SHA256(secret, \"<t>.<raw body>\")",
    };
    Ok(Rendered::json(201, &out, Cache::NoStore))
}

/// Saves `hook` unless the account already has `cap` webhooks. A short per-account lock
/// makes count-then-save atomic across runtimes sharing the store.
async fn within_cap(state: &AppState, hook: &Webhook, cap: usize) -> Result<bool, ApiError> {
    let store = &state.service.store;
    let lock = keyspace::webhook_registration_lock(&hook.account);
    let mut held = false;
    for _ in 0..40 {
        if store
            .put_if_absent(&lock, b"1", Some(Duration::from_secs(10)))
            .await
            .map_err(store_error)?
        {
            held = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    if !held {
        return Err(ApiError::unavailable(
            "another registration for this account is in progress; retry shortly",
        ));
    }
    let result = async {
        let count = registry::of_account(store, &hook.account).await?.len();
        if count >= cap {
            return Ok(false);
        }
        registry::save(store, hook).await?;
        Ok(true)
    }
    .await;
    let released = store.delete(&lock).await;
    let saved = result.map_err(store_error)?;
    released.map_err(store_error)?;
    Ok(saved)
}

fn events(given: Option<Vec<String>>) -> Result<Vec<String>, ApiError> {
    let Some(given) = given else {
        return Ok(DEFAULT_EVENTS.iter().map(|e| e.to_string()).collect());
    };
    if given.is_empty() {
        return Err(ApiError::bad_request(
            "events must not be empty: leave it out for every data change",
        ));
    }
    let mut out: Vec<String> = Vec::new();
    for e in given {
        if !EVENTS.contains(&e.as_str()) {
            return Err(ApiError::bad_request(format!(
                "unknown event {e:?}: use {}",
                EVENTS.join(", ")
            )));
        }
        if !out.contains(&e) {
            out.push(e);
        }
    }
    Ok(out)
}

fn compounds(state: &AppState, given: Option<Vec<String>>) -> Result<Compounds, ApiError> {
    let Some(given) = given else {
        return Ok(Compounds::Watchlist);
    };
    if given.len() == 1 && given[0] == "*" {
        return Ok(Compounds::All);
    }
    if given.is_empty() || given.len() > MAX_COMPOUNDS {
        return Err(ApiError::bad_request(format!(
            "compounds must list 1 to {MAX_COMPOUNDS} compound ids, or be [\"*\"] for all; leave it out for the watchlist"
        )));
    }
    let mut ids: Vec<String> = Vec::new();
    for id in given {
        if state.release.dataset.compound(&id).is_none() {
            let shown: String = id.chars().take(60).collect();
            return Err(ApiError::bad_request(format!(
                "unknown compound id {shown:?} in compounds (ids look like hq-c-org-000001; \"*\" only alone)"
            )));
        }
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    Ok(Compounds::Ids(ids))
}

/// GET /api/webhooks
async fn list(state: &AppState, key: &KeyRecord) -> Result<Rendered, ApiError> {
    let hooks = registry::of_account(&state.service.store, key.account_id())
        .await
        .map_err(store_error)?;
    let views: Vec<WebhookView> = hooks.iter().map(view).collect();
    Ok(Rendered::json(
        200,
        &Webhooks::List(WebhookList {
            count: views.len(),
            webhooks: views,
            limit: registry::cap(key.tier),
        }),
        Cache::NoStore,
    ))
}

/// GET /api/webhooks?action=deliveries&webhook_id=&offset=&limit= (bounds in the catalogue)
async fn deliveries(state: &AppState, q: &Params, key: &KeyRecord) -> Result<Rendered, ApiError> {
    let Some(id) = q.get("webhook_id") else {
        return Err(ApiError::bad_request(
            "webhook_id is required with action=deliveries",
        ));
    };
    let paging = Paging::parse(Op::Webhooks, q)?;
    let Paging { limit, offset } = paging;
    let account = key.account_id();
    registry::get(&state.service.store, account, id)
        .await
        .map_err(store_error)?
        .ok_or_else(|| not_found(id))?;
    let (total, page) = log::page(&state.service.store, account, id, offset, limit)
        .await
        .map_err(store_error)?;
    Ok(Rendered::json(
        200,
        &Webhooks::Deliveries(Deliveries {
            webhook_id: id,
            total,
            offset,
            limit,
            deliveries: page,
            pagination: paging.pagination(total),
        }),
        Cache::NoStore,
    ))
}

fn not_found(id: &str) -> ApiError {
    let shown: String = id.chars().take(60).collect();
    ApiError::not_found(format!("no webhook {shown:?} on this account"))
}

/// DELETE /api/webhooks/{id}
pub async fn delete(state: &AppState, caller: &Caller, id: &str) -> Result<Rendered, ApiError> {
    let key = account(caller)?;
    let deleted = crate::webhooks::delete(&state.service.store, key.account_id(), id)
        .await
        .map_err(store_error)?;
    if !deleted {
        return Err(not_found(id));
    }
    Ok(Rendered::json(
        200,
        &WebhookDeleted { id, deleted: True },
        Cache::NoStore,
    ))
}

/// POST /api/webhooks/test/{id}: queues a `webhook.test` event for this webhook alone.
pub async fn test(state: &AppState, caller: &Caller, id: &str) -> Result<Rendered, ApiError> {
    let key = account(caller)?;
    let hook = registry::get(&state.service.store, key.account_id(), id)
        .await
        .map_err(store_error)?
        .ok_or_else(|| not_found(id))?;
    let event = Event::new(
        "webhook.test",
        json!({"webhook_id": hook.id, "message": "a test event from saferef"}),
    );
    let now = chrono::Utc::now().timestamp_millis();
    let d = queue::enqueue(&state.service.store, &hook, &event, now)
        .await
        .map_err(store_error)?;
    Ok(Rendered::json(
        202,
        &WebhookTestQueued {
            queued: true,
            webhook_id: &hook.id,
            event_id: &event.id,
            delivery_id: &d.id,
        },
        Cache::NoStore,
    ))
}
