//! Every key the service keeps in the store. Keys are built only here, so the layout of the
//! store reads in one place and two features cannot collide on a prefix. Addresses appear
//! only hashed (`accounts::email_hash`), never in the clear.
//!
//! | key | value | expires |
//! |---|---|---|
//! | `key:<sha256>` | an API key's record | never; revoked keys are deleted |
//! | `quota:<bucket>:<day>` | requests counted that day | after the day |
//! | `mail-quota:<bucket>:<day>` | account mails sent for one client that day | after the day |
//! | `code:<purpose>:<email hash>` | a one-time code's hash | 15 minutes |
//! | `code-tries:<purpose>:<email hash>` | tries at that code | with the code |
//! | `code-quota:<purpose>:<email hash>:<day>` | codes sent to the address that day | after the day |
//! | `trial:<email hash>` | when the address took its trial (written before trial marks; erased with the address) | never |
//! | `trial-mark:<keyed hash>` | a trial was taken by this mailbox (`accounts::trial_mark`) | a year |
//! | `code-client-quota:<purpose>:<bucket>:<email hash>:<day>` | codes one client asked for the address that day | after the day |
//! | `billing:event:<id>` | a payment event already applied | after a while |
//! | `provider-delete:<customer>` | a provider record still to erase | when erased |
//! | `wl:<account>:<compound>` | when the compound was watched | never |
//! | `wh:<account>:<webhook>` | a webhook's registration | never |
//! | `whlog:<account>:<webhook>:<at>:<delivery>:<attempt>` | one delivery attempt | after a while |
//! | `whd:<delivery>` | a queued delivery's body | when delivered |
//! | `whq` | the delivery queue: a sorted set of delivery ids by due time | - |
//! | `whlease:<delivery>` | the instance delivering it | the lease |
//! | `whlock:<account>` | a webhook registration in progress | 10 s |
//! | `release:<release>:emitted` / `:lease` | a release's events sent / being sent | never / the lease |
//! | `release-event:<event>` | an event of a release already queued | never |
//! | `account-job:<id>` | an account request's work still to run (`accounts/deferred.rs`), the address in the clear | when run, or a week |
//! | `account-job-claim:<id>` | an instance is running that work | when run, or 2 minutes |
//! | `account-jobs` | the account work to run: a sorted set of job ids by time queued | - |
//! | `job:<name>:<period>` | the instance that ran a scheduled job in that period | the period |
//! | `freshness:summary:<fingerprint>` | the freshness summary of a dataset | a day |
//! | `health:ping` | nothing: read to see the store answers | - |
//! | `cache:invalidate` | a Pub/Sub channel: a key under a cached prefix changed (`store/cache.rs`) | - |
//! | `cache:ack:<nonce>` | instances that dropped that changed key from memory | 10 s |

use std::fmt::Write as _;

use chrono::{Datelike, NaiveDate};

/// Every API key record (`keys list`).
pub const API_KEYS: &str = "key:";
/// Every webhook registration (the delivery worker's scan).
pub const WEBHOOKS: &str = "wh:";
/// Queued delivery bodies.
pub const DELIVERY_BODIES: &str = "whd:";
/// The delivery queue (a sorted set).
pub const DELIVERY_QUEUE: &str = "whq";
/// Provider records still to erase.
pub const PROVIDER_DELETES: &str = "provider-delete:";
pub const HEALTH_PING: &str = "health:ping";
/// The Pub/Sub channel on which a write to a cached key is announced (`store/cache.rs`).
pub const CACHE_INVALIDATIONS: &str = "cache:invalidate";
/// The prefixes whose values every instance keeps in memory (`store/cache.rs`): the API key
/// records, read on every keyed request and written only by `keys.rs`, always without expiry.
pub const CACHED: &[&str] = &[API_KEYS];
/// The prefixes of the admission counters (`Store::admit`). The embedded store holds every
/// live counter under them in memory from its opening (`store/embedded.rs`), so a counter it
/// does not hold is one that does not exist, and the first request of a bucket never reads
/// the database.
pub const COUNTERS: &[&str] = &[
    QUOTA,
    "mail-quota:",
    "code-quota:",
    "code-tries:",
    "code-client-quota:",
];
const QUOTA: &str = "quota:";

/// Whether `key` (un-namespaced) is an admission counter.
pub fn is_counter(key: &str) -> bool {
    COUNTERS.iter().any(|p| key.starts_with(p))
}

/// How many instances confirmed they dropped the key announced with `nonce`.
pub fn cache_ack(nonce: &str) -> String {
    format!("cache:ack:{nonce}")
}

pub fn api_key(hash: &str) -> String {
    format!("{API_KEYS}{hash}")
}

/// Built on every counted request: pushed into one buffer rather than formatted (`push_day`).
pub fn quota(bucket: &str, day: NaiveDate) -> String {
    let mut key = String::with_capacity(QUOTA.len() + bucket.len() + 11);
    key.push_str(QUOTA);
    key.push_str(bucket);
    key.push(':');
    push_day(&mut key, day);
    key
}

/// Appends `day` as its `Display` writes it (`2026-11-27`): the digits of years 0 to 9999
/// pushed one by one, other years (which `Display` signs) through the formatter.
fn push_day(out: &mut String, day: NaiveDate) {
    let year = day.year();
    if !(0..=9999).contains(&year) {
        let _ = write!(out, "{day}");
        return;
    }
    let digit = |n: u32| char::from(b'0' + (n % 10) as u8);
    let year = year as u32;
    for n in [year / 1000, year / 100, year / 10, year] {
        out.push(digit(n));
    }
    out.push('-');
    out.push(digit(day.month() / 10));
    out.push(digit(day.month()));
    out.push('-');
    out.push(digit(day.day() / 10));
    out.push(digit(day.day()));
}

/// Every quota counter of an account (erasure).
pub fn account_quotas(account: &str) -> String {
    format!("{QUOTA}{}:", bucket_account(account))
}

/// The quota bucket of a keyed account (on every keyed request: pushed, not formatted).
pub fn bucket_account(account: &str) -> String {
    prefixed("acct:", account)
}

/// The quota bucket of a public client (on every public request: pushed, not formatted).
pub fn bucket_ip(ip: &str) -> String {
    prefixed("ip:", ip)
}

fn prefixed(prefix: &str, rest: &str) -> String {
    let mut out = String::with_capacity(prefix.len() + rest.len());
    out.push_str(prefix);
    out.push_str(rest);
    out
}

/// The quota bucket of a marketplace subscriber.
pub fn bucket_marketplace(user: &str) -> String {
    format!("mkt:{user}")
}

pub fn mail_quota(bucket: &str, day: NaiveDate) -> String {
    format!("mail-quota:{bucket}:{day}")
}

pub fn code(purpose: &str, email_hash: &str) -> String {
    format!("code:{purpose}:{email_hash}")
}

pub fn code_tries(purpose: &str, email_hash: &str) -> String {
    format!("code-tries:{purpose}:{email_hash}")
}

pub fn code_quota(purpose: &str, email_hash: &str, day: NaiveDate) -> String {
    format!("code-quota:{purpose}:{email_hash}:{day}")
}

pub fn trial(email_hash: &str) -> String {
    format!("trial:{email_hash}")
}

pub fn trial_mark(mark: &str) -> String {
    format!("trial-mark:{mark}")
}

pub fn code_quota_of_client(
    purpose: &str,
    bucket: &str,
    email_hash: &str,
    day: NaiveDate,
) -> String {
    format!("code-client-quota:{purpose}:{bucket}:{email_hash}:{day}")
}

pub fn billing_event(id: &str) -> String {
    format!("billing:event:{id}")
}

pub fn provider_delete(customer: &str) -> String {
    format!("{PROVIDER_DELETES}{customer}")
}

/// Every watched compound of an account.
pub fn watchlist(account: &str) -> String {
    format!("wl:{account}:")
}

pub fn watched(account: &str, compound: &str) -> String {
    format!("{}{compound}", watchlist(account))
}

/// Every webhook of an account.
pub fn webhooks_of(account: &str) -> String {
    format!("{WEBHOOKS}{account}:")
}

pub fn webhook(account: &str, id: &str) -> String {
    format!("{}{id}", webhooks_of(account))
}

/// Every delivery log entry of an account.
pub fn delivery_logs_of(account: &str) -> String {
    format!("whlog:{account}:")
}

/// Every delivery log entry of one webhook.
pub fn delivery_log(account: &str, webhook: &str) -> String {
    format!("{}{webhook}:", delivery_logs_of(account))
}

pub fn delivery_attempt(
    account: &str,
    webhook: &str,
    at_ms: i64,
    delivery: &str,
    attempt: u32,
) -> String {
    format!(
        "{}{:016}:{delivery}:{attempt:02}",
        delivery_log(account, webhook),
        at_ms.max(0)
    )
}

pub fn delivery_body(id: &str) -> String {
    format!("{DELIVERY_BODIES}{id}")
}

pub fn delivery_lease(id: &str) -> String {
    format!("whlease:{id}")
}

pub fn webhook_registration_lock(account: &str) -> String {
    format!("whlock:{account}")
}

pub fn release_emitted(release: &str) -> String {
    format!("release:{release}:emitted")
}

pub fn release_lease(release: &str) -> String {
    format!("release:{release}:lease")
}

pub fn release_event(event: &str) -> String {
    format!("release-event:{event}")
}

/// The account work still to run, by time queued (`accounts/deferred.rs`).
pub const ACCOUNT_JOBS: &str = "account-jobs";

pub fn account_job(id: &str) -> String {
    format!("account-job:{id}")
}

pub fn account_job_claim(id: &str) -> String {
    format!("account-job-claim:{id}")
}

pub fn job(name: &str, period: &str) -> String {
    format!("job:{name}:{period}")
}

pub fn freshness(fingerprint: &str) -> String {
    format!("freshness:summary:{fingerprint}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quota_key_names_its_day_as_a_formatted_date_does() {
        let days = [
            NaiveDate::from_ymd_opt(2026, 11, 27),
            NaiveDate::from_ymd_opt(2026, 1, 5),
            NaiveDate::from_ymd_opt(999, 12, 31),
            NaiveDate::from_ymd_opt(0, 1, 1),
            NaiveDate::from_ymd_opt(9999, 12, 31),
            NaiveDate::from_ymd_opt(10_000, 1, 1),
            NaiveDate::from_ymd_opt(-1, 6, 30),
        ];
        for day in days.into_iter().map(Option::unwrap) {
            assert_eq!(quota("acct:acc_x", day), format!("quota:acct:acc_x:{day}"));
        }
        assert_eq!(bucket_account("acc_x"), "acct:acc_x");
        assert_eq!(bucket_ip("192.0.2.7"), "ip:192.0.2.7");
        let mut day = NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
        while day.year() < 2026 {
            assert_eq!(quota("ip:1", day), format!("quota:ip:1:{day}"));
            day = day.succ_opt().unwrap();
        }
    }

    #[test]
    fn every_counter_is_under_a_counter_prefix() {
        let day = NaiveDate::from_ymd_opt(2026, 11, 27).unwrap();
        for key in [
            quota("ip:1", day),
            mail_quota("ip:1", day),
            code_quota("recover", "h", day),
            code_tries("recover", "h"),
            code_quota_of_client("recover", "ip:1", "h", day),
        ] {
            assert!(is_counter(&key), "{key}");
        }
        assert!(!is_counter(&api_key("h")));
        assert!(!is_counter(&trial("h")));
    }
}
