//! `POST /api/billing/webhook`: the payment provider's notifications, applied to the key's subscription state.
//!
//! Signed like our own webhooks: `X-Provider-Signature: t=<unix s>,v1=<hex>` with hex =
//! HMAC-SHA256(`SAFEREF_PAYMENT_WEBHOOK_SECRET`, "<t>.<raw body>"), at most 5 minutes old.
//! Idempotent by event id: a mark is set before the event is applied and removed again if
//! applying fails, so the provider's retry applies it exactly once.
//!
//! The event shape follows the common provider convention
//! `{id, type, created, data: {object: {...}}}`:
//! - `checkout.session.completed`: object {customer, subscription, customer_email (or
//!   customer_details.email), price (or metadata.price)} -> a key for the price's tier, mailed;
//! - `customer.subscription.updated`: object {id, customer, status, cancel_at_period_end,
//!   items.data[0].price.id} -> tier from the price, payment_status, flags; key stays active;
//! - `invoice.payment_failed`: object {customer, subscription, attempt_count} -> past_due;
//! - `customer.subscription.deleted`: object {id, customer} -> key deactivated.
//!
//! Providers do not deliver events in order: each key keeps the `created` time of the last
//! event applied to it, and an event made before that is acknowledged without a change.

use std::time::Duration;

use chrono::{DateTime, Utc};
use hmac::Mac;
use minijinja::context;
use saferef_generator::render::error::ApiError;
use saferef_generator::render::runtime_answers::billing::{BillingEvent, BillingReceived};
use saferef_generator::render::{Cache, Rendered};
use serde_json::Value;

use super::Request;
use crate::AppState;
use crate::accounts;
use crate::keys::{self, Billing, KeyRecord};
use crate::mail;
use crate::store::StoreError;
use crate::store::keyspace;
use crate::webhooks::signature;

/// Notifications older than this are refused (replay protection).
const TOLERANCE_SECS: i64 = 300;
/// How long a processed event id is remembered (providers retry for about 3 days).
const REMEMBER: Duration = Duration::from_secs(30 * 86_400);

fn store_error(e: StoreError) -> ApiError {
    tracing::error!("store: {e}");
    ApiError::unavailable("the account store is unavailable; retry shortly")
}

/// POST /api/billing/webhook
/// Whether the request carries a valid provider signature over its body: such a notification
/// is the payment provider's, not public traffic, and no public quota counts it.
pub fn signed(state: &AppState, req: &Request) -> bool {
    let header = req
        .headers
        .get("x-provider-signature")
        .and_then(|v| v.to_str().ok());
    state
        .service
        .config
        .payment_webhook_secret
        .as_deref()
        .is_some_and(|secret| verify(secret, header, &req.body, Utc::now().timestamp()).is_ok())
}

pub async fn webhook(state: &AppState, req: &Request) -> Result<Rendered, ApiError> {
    let Some(secret) = &state.service.config.payment_webhook_secret else {
        return Err(ApiError::unauthorized(
            "billing notifications are not accepted: SAFEREF_PAYMENT_WEBHOOK_SECRET is not configured",
        ));
    };
    let header = req
        .headers
        .get("x-provider-signature")
        .and_then(|v| v.to_str().ok());
    verify(secret, header, &req.body, Utc::now().timestamp())
        .map_err(|why| ApiError::unauthorized(format!("X-Provider-Signature: {why}")))?;
    let event: BillingEvent = req.json("notification")?;
    let (id, kind) = (event.id.as_str(), event.kind.as_str());
    let mark = keyspace::billing_event(id);
    let first = state
        .service
        .store
        .put_if_absent(&mark, b"1", Some(REMEMBER))
        .await
        .map_err(store_error)?;
    if !first {
        return Ok(received(kind, "duplicate: already applied".into()));
    }
    let created = event
        .created
        .and_then(|t| DateTime::from_timestamp(t, 0))
        .unwrap_or_else(Utc::now);
    match apply(state, kind, &event.data.object, created).await {
        Ok(result) => Ok(received(kind, result)),
        Err(refusal) => {
            // Not applied: forget the id so the provider's retry is applied.
            if let Err(e) = state.service.store.delete(&mark).await {
                tracing::error!("store: {e}");
            }
            Err(refusal)
        }
    }
}

fn received(kind: &str, result: String) -> Rendered {
    Rendered::json(
        200,
        &BillingReceived {
            received: true,
            kind,
            result,
        },
        Cache::NoStore,
    )
}

/// Checks `t=...,v1=...` against the body; the reason when it does not hold.
pub fn verify(secret: &str, header: Option<&str>, body: &[u8], now: i64) -> Result<(), String> {
    let header = header.ok_or("missing")?;
    let mut t = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", v)) => t = v.parse::<i64>().ok(),
            Some(("v1", v)) => signatures.push(v),
            _ => {}
        }
    }
    let t = t.ok_or("no valid t=<unix seconds>")?;
    // abs_diff: `now - t` overflows for a `t` near the ends of i64.
    if now.abs_diff(t) > TOLERANCE_SECS.unsigned_abs() {
        return Err(format!(
            "timestamp is more than {TOLERANCE_SECS} s away from now"
        ));
    }
    let ok = signatures.iter().any(|hex| {
        let Some(given) = decode_hex(hex) else {
            return false;
        };
        // verify_slice compares in constant time.
        signature::mac(secret, t, body).verify_slice(&given).is_ok()
    });
    if ok {
        Ok(())
    } else {
        Err("no v1 signature matches the body".into())
    }
}

fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

/// Applies one event; the result line, or the refusal (which leaves the event unapplied).
async fn apply(
    state: &AppState,
    kind: &str,
    object: &Value,
    created: DateTime<Utc>,
) -> Result<String, ApiError> {
    let text = |v: &Value| v.as_str().map(str::to_string);
    let customer = text(&object["customer"]);
    match kind {
        "checkout.session.completed" => checkout(state, object, customer, created).await,
        "customer.subscription.updated" => {
            let status = object["status"].as_str().unwrap_or("active");
            let price = object["items"]["data"][0]["price"]["id"].as_str();
            let tier = price.and_then(|p| state.service.config.tier_for_price(p));
            let cancel = object["cancel_at_period_end"].as_bool().unwrap_or(false);
            update(state, text(&object["id"]), customer, created, |r| {
                if let Some(t) = tier {
                    r.tier = t;
                }
                r.payment_status = Some(payment_status(status).into());
                r.billing.provider_status = Some(status.to_string());
                r.billing.cancel_at_period_end = cancel;
            })
            .await
        }
        "invoice.payment_failed" => {
            let attempts = object["attempt_count"]
                .as_u64()
                .and_then(|n| u32::try_from(n).ok());
            update(
                state,
                text(&object["subscription"]),
                customer,
                created,
                |r| {
                    r.payment_status = Some("past_due".into());
                    r.billing.payment_failed_at = Some(created);
                    r.billing.payment_attempts = attempts;
                },
            )
            .await
        }
        "customer.subscription.deleted" => {
            update(state, text(&object["id"]), customer, created, |r| {
                r.active = false;
                r.billing.provider_status = Some("canceled".into());
            })
            .await
        }
        _ => Ok("ignored: not an event this service acts on".into()),
    }
}

/// A completed checkout: a key of the price's tier for the customer's address, mailed; taken
/// back when the mail fails, so that the provider's retry issues it again.
async fn checkout(
    state: &AppState,
    object: &Value,
    customer: Option<String>,
    created: DateTime<Utc>,
) -> Result<String, ApiError> {
    let text = |v: &Value| v.as_str().map(str::to_string);
    let email = object["customer_email"]
        .as_str()
        .or_else(|| object["customer_details"]["email"].as_str())
        .and_then(accounts::normalize_email)
        .ok_or_else(|| ApiError::bad_request("checkout: no valid customer e-mail"))?;
    let price = object["price"]
        .as_str()
        .or_else(|| object["metadata"]["price"].as_str())
        .ok_or_else(|| ApiError::bad_request("checkout: no price"))?;
    let tier = state.service.config.tier_for_price(price).ok_or_else(|| {
        ApiError::bad_request(format!(
            "checkout: price {price:?} is not configured in SAFEREF_PAYMENT_PRICES"
        ))
    })?;
    let (key, mut record) = keys::create(&state.service.store, tier, Some(email.clone()), None)
        .await
        .map_err(store_error)?;
    record.payment_status = Some("active".into());
    record.billing = Billing {
        customer_id: customer,
        subscription_id: text(&object["subscription"]),
        provider_status: Some("active".into()),
        provider_event_at: Some(created),
        ..Billing::default()
    };
    keys::save(&state.service.store, &record)
        .await
        .map_err(store_error)?;
    let ctx = context! { key => key, tier => tier.name() };
    if let Err(e) = mail::send(&state.service.config, "key_issued", &email, ctx).await {
        // The key is useless unmailed: take it back and let the provider retry.
        let _ = keys::delete(&state.service.store, &record).await;
        tracing::error!("{e}");
        return Err(ApiError::unavailable("the key could not be mailed; retry"));
    }
    Ok(format!("issued a {} key {}", tier.name(), record.prefix))
}

/// payment_status is one of active, past_due, unpaid.
fn payment_status(provider: &str) -> &'static str {
    match provider {
        "active" | "trialing" => "active",
        "past_due" => "past_due",
        _ => "unpaid",
    }
}

/// Applies `change`, made at `created`, to the keys of a subscription (or, without one, of a
/// customer) whose state is not newer.
async fn update(
    state: &AppState,
    subscription: Option<String>,
    customer: Option<String>,
    created: DateTime<Utc>,
    change: impl Fn(&mut KeyRecord),
) -> Result<String, ApiError> {
    let records = accounts::keys_of_customer(
        &state.service.store,
        subscription.as_deref(),
        if subscription.is_some() {
            None
        } else {
            customer.as_deref()
        },
    )
    .await
    .map_err(store_error)?;
    let mut updated = 0;
    let mut older = 0;
    for mut r in records.iter().cloned() {
        if r.billing.provider_event_at.is_some_and(|at| at > created) {
            older += 1;
            continue;
        }
        change(&mut r);
        r.billing.provider_event_at = Some(created);
        keys::save(&state.service.store, &r)
            .await
            .map_err(store_error)?;
        updated += 1;
    }
    Ok(match older {
        0 => format!("updated {updated} key(s)"),
        _ => format!(
            "updated {updated} key(s); {older} left as they are: their state comes from a later event"
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sign(secret: &str, t: i64, body: &[u8]) -> String {
        let header = signature::header(secret, t, body);
        header.replace("sha256=", "v1=")
    }

    #[test]
    fn signatures_are_checked_for_body_secret_and_age() {
        let body = br#"{"id":"evt_1"}"#;
        let header = sign("whsec", 1_000, body);
        assert!(verify("whsec", Some(&header), body, 1_100).is_ok());
        assert!(verify("other", Some(&header), body, 1_100).is_err());
        assert!(verify("whsec", Some(&header), b"{}", 1_100).is_err());
        assert!(
            verify("whsec", Some(&header), body, 1_400)
                .unwrap_err()
                .contains("300")
        );
        assert!(verify("whsec", None, body, 1_000).is_err());
        for bad in ["", "t=x,v1=00", "v1=zz", "t=1000,v1=abc", "t=1000"] {
            assert!(verify("whsec", Some(bad), body, 1_000).is_err(), "{bad}");
        }
    }

    #[test]
    fn provider_statuses_map_to_the_three_payment_states() {
        assert_eq!(payment_status("trialing"), "active");
        assert_eq!(payment_status("past_due"), "past_due");
        assert_eq!(payment_status("incomplete_expired"), "unpaid");
    }
}
