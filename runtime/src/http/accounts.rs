//! The account endpoints anyone may call (ARCHITECTURE.md, Decisions):
//! `POST /api/keys/trial` {email}, the two-step `POST /api/keys/recover` and
//! `POST /api/keys/erasure` ({email}, then {email, code}), and `POST /api/keys/resend` {email},
//! recovery's first step under the name the original service's published client calls.
//!
//! Keys and codes travel only by mail, and the first step answers the same whether or not
//! the address has an account, so nobody learns that from the API: the answer is given after
//! the same work for every address (the per-client allowances), and what depends on the
//! address (the account lookup, the trial mark, the key, the mail) is done after it, in the
//! service's queue (`accounts/deferred.rs`). A mail that fails is logged, never answered.

use chrono::{Days, Utc};
use minijinja::context;
use saferef_generator::render::error::ApiError;
use saferef_generator::render::runtime_answers::accounts::{
    Accepted, AcceptedStatus, CodeBody, EmailBody, ErasedReply, ErasedStatus, NewKey, Recovered,
    RecoveredStatus, TrialAccepted,
};
use saferef_generator::render::{Cache, Rendered};

use super::Request;
use crate::AppState;
use crate::accounts::codes::{self, Purpose, Verdict};
use crate::accounts::deferred::{self, Job, TRIAL_DAYS, TRIAL_TIER};
use crate::accounts::{self, email_hash, erasure};
use crate::caller::Caller;
use crate::keys::{self, KeyRecord};
use crate::mail;
use crate::store::StoreError;
use crate::store::keyspace;

/// Account mail (trials, codes) one client may trigger per day.
const MAIL_PER_IP_PER_DAY: u64 = 10;
/// Codes one address may be sent per day: 20 codes of 5 tries each are 100 guesses a day at
/// one of a million codes.
const CODES_PER_ADDRESS_PER_DAY: u64 = 20;
/// Codes one client may ask for one address per day, so no single requester spends the
/// address's daily codes (issue 23: five requests did).
const CODES_PER_ADDRESS_PER_CLIENT: u64 = 3;

fn store_error(e: StoreError) -> ApiError {
    tracing::error!("store: {e}");
    ApiError::unavailable("the account store is unavailable; retry shortly")
}

fn accepted(message: impl Into<String>) -> Rendered {
    Rendered::json(
        202,
        &Accepted {
            status: AcceptedStatus::Accepted,
            message: message.into(),
        },
        Cache::NoStore,
    )
}

fn email_of(raw: &str) -> Result<String, ApiError> {
    accounts::normalize_email(raw)
        .ok_or_else(|| ApiError::bad_request("email must be a valid e-mail address"))
}

/// Counts one account mail against the caller's daily allowance; 429 past it.
async fn mail_allowance(state: &AppState, caller: &Caller) -> Result<(), ApiError> {
    let key = keyspace::mail_quota(&caller.bucket, Utc::now().date_naive());
    let day = std::time::Duration::from_secs(86_400);
    let allowance = state
        .service
        .store
        .admit(&key, 1, Some(MAIL_PER_IP_PER_DAY), day)
        .await
        .map_err(store_error)?;
    if allowance.admitted {
        Ok(())
    } else {
        Err(ApiError::too_many_requests(format!(
            "at most {MAIL_PER_IP_PER_DAY} trial, recovery or erasure requests per client per day; retry tomorrow (00:00 UTC)"
        )))
    }
}

/// Whether the caller may still ask for a trial today: a public 429 points to the trial only
/// then (issue 23: it pointed there when the trial itself answered 429).
pub async fn trial_open(state: &AppState, caller: &Caller) -> bool {
    let key = keyspace::mail_quota(&caller.bucket, Utc::now().date_naive());
    let day = std::time::Duration::from_secs(86_400);
    match state.service.store.admit(&key, 0, None, day).await {
        Ok(spent) => spent.count < MAIL_PER_IP_PER_DAY,
        Err(_) => false,
    }
}

/// POST /api/keys/trial {email}
pub async fn trial(state: &AppState, req: &Request, caller: &Caller) -> Result<Rendered, ApiError> {
    let body: EmailBody = req.json("trial request")?;
    let email = email_of(&body.email)?;
    mail_allowance(state, caller).await?;
    let now = Utc::now();
    let expires = now
        .checked_add_days(Days::new(TRIAL_DAYS))
        .ok_or_else(|| ApiError::internal("the trial's expiry is past the calendar"))?;
    let job = Job::Trial {
        email,
        at: now,
        expires,
    };
    deferred::queue(&state.service, &job)
        .await
        .map_err(store_error)?;
    Ok(Rendered::json(
        202,
        &TrialAccepted {
            status: AcceptedStatus::Accepted,
            message: format!(
                "if this address may have a trial, a key for {TRIAL_DAYS} days of the Developer tier is on its way to it (one trial per address)"
            ),
            tier: TRIAL_TIER,
            expires_at: expires.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        },
        Cache::NoStore,
    ))
}

/// POST /api/keys/recover: {email} mails a code; {email, code} replaces the address's
/// active keys and returns the new ones (once).
pub async fn recover(
    state: &AppState,
    req: &Request,
    caller: &Caller,
) -> Result<Rendered, ApiError> {
    let (email, code) = code_request(req)?;
    let Some(code) = code else {
        return send_code(state, caller, &email, Purpose::Recover).await;
    };
    check_code(state, &email, Purpose::Recover, &code).await?;
    let records = accounts::keys_of(&state.service.store, &email)
        .await
        .map_err(store_error)?;
    let mut fresh = Vec::new();
    for old in records.iter().filter(|r| r.usable(Utc::now())) {
        // None: replaced meanwhile by a concurrent rotation or recovery; nothing to hand out.
        if let Some((key, r)) = keys::replace(&state.service.store, old)
            .await
            .map_err(store_error)?
        {
            fresh.push(new_key(key, &r));
        }
    }
    Ok(Rendered::json(
        200,
        &Recovered {
            status: RecoveredStatus::Recovered,
            keys: fresh,
            note: "store these keys now: they are shown only once; the keys they replace no longer work",
        },
        Cache::NoStore,
    ))
}

/// POST /api/keys/resend {email}: a key is kept only as its hash, so it cannot be mailed
/// again; this is recovery's first step (a code to replace the address's keys, answered the
/// same whether or not the address has an account).
pub async fn resend(
    state: &AppState,
    req: &Request,
    caller: &Caller,
) -> Result<Rendered, ApiError> {
    let body: EmailBody = req.json("resend request")?;
    let email = email_of(&body.email)?;
    send_code(state, caller, &email, Purpose::Recover).await
}

fn new_key(key: String, r: &KeyRecord) -> NewKey {
    NewKey {
        key,
        prefix: r.prefix.clone(),
        tier: r.tier,
        expires_at: r.expires_at.map(|e| e.to_rfc3339()),
    }
}

/// POST /api/keys/erasure: {email} mails a code; {email, code} erases the address's data.
pub async fn erasure(
    state: &AppState,
    req: &Request,
    caller: &Caller,
) -> Result<Rendered, ApiError> {
    let (email, code) = code_request(req)?;
    let Some(code) = code else {
        return send_code(state, caller, &email, Purpose::Erasure).await;
    };
    check_code(state, &email, Purpose::Erasure, &code).await?;
    let removed = erasure::erase(state, &email).await.map_err(store_error)?;
    let ctx = context! {
        keys => removed.keys,
        provider => !removed.payment_customers.is_empty(),
    };
    // The data is gone either way; a lost confirmation is logged, not an error.
    if let Err(e) = mail::send(&state.service.config, "erased", &email, ctx).await {
        tracing::warn!("erasure confirmation: {e}");
    }
    Ok(Rendered::json(
        200,
        &ErasedReply {
            status: ErasedStatus::Erased,
            removed,
        },
        Cache::NoStore,
    ))
}

fn code_request(req: &Request) -> Result<(String, Option<String>), ApiError> {
    let body: CodeBody = req.json("request")?;
    Ok((
        email_of(&body.email)?,
        body.code.map(|c| c.trim().to_string()),
    ))
}

/// Step one: a code to the address if it has an account; the same answer either way, after
/// the same work: the client's allowances are counted here, the rest is done after.
async fn send_code(
    state: &AppState,
    caller: &Caller,
    email: &str,
    purpose: Purpose,
) -> Result<Rendered, ApiError> {
    mail_allowance(state, caller).await?;
    let store = &state.service.store;
    let day = std::time::Duration::from_secs(86_400);
    let today = Utc::now().date_naive();
    let hash = email_hash(email);
    let by_client = keyspace::code_quota_of_client(purpose.name(), &caller.bucket, &hash, today);
    let mut allowed = store
        .admit(&by_client, 1, Some(CODES_PER_ADDRESS_PER_CLIENT), day)
        .await
        .map_err(store_error)?
        .admitted;
    // Only a client within its own share counts against the address's.
    if allowed {
        let per_address = keyspace::code_quota(purpose.name(), &hash, today);
        allowed = store
            .admit(&per_address, 1, Some(CODES_PER_ADDRESS_PER_DAY), day)
            .await
            .map_err(store_error)?
            .admitted;
    }
    if allowed {
        let job = Job::Code {
            email: email.to_string(),
            purpose,
        };
        deferred::queue(&state.service, &job)
            .await
            .map_err(store_error)?;
    }
    Ok(accepted(format!(
        "if an account uses this address, a 6-digit code is on its way to it; send it as {{\"email\", \"code\"}} to POST /api/keys/{} within {} minutes",
        purpose.name(),
        codes::VALIDITY.as_secs() / 60
    )))
}

/// Step two: the code must be valid; 400 when it is not, 429 after the fifth wrong try.
async fn check_code(
    state: &AppState,
    email: &str,
    purpose: Purpose,
    code: &str,
) -> Result<(), ApiError> {
    match codes::verify(&state.service.store, purpose, email, code)
        .await
        .map_err(store_error)?
    {
        Verdict::Valid => Ok(()),
        Verdict::Invalid => Err(ApiError::bad_request(
            "the code is wrong or expired; ask for a new one with {\"email\"} alone",
        )),
        Verdict::Exhausted => Err(ApiError::too_many_requests(format!(
            "{} wrong codes: this code no longer works; ask for a new one with {{\"email\"}} alone",
            codes::TRIES
        ))),
    }
}
