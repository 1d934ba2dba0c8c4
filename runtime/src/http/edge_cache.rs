//! What Netlify's CDN may keep of the runtime's answers (ARCHITECTURE.md, Decisions, "Edge
//! cache"). The CDN serves most public answers from files and proxies the other forms of the
//! same endpoints here (the contexts `_redirects` does not rewrite to files, badges in another
//! context, aliases); it keeps nothing it proxies unless told to. Such an answer to a public
//! caller, like the docs page, is a pure function of the release and the day, the same for
//! every public caller: it tells the CDN to keep it until the next 00:00 UTC, keyed on the
//! whole query and on the headers that make a caller keyed, tagged with its release so that
//! release's answers can be purged. Like a file, it is not counted and carries no quota header
//! (the CDN would repeat one caller's to the others; the docs page, "Limits"). Every other
//! answer tells the CDN `no-store`: keyed answers, errors, quota refusals and everything the
//! store or the moment decides. The browser's `Cache-Control` is the answer's own, the one
//! `_headers` gives the file form of the same URL.

use chrono::{DateTime, Timelike, Utc};
use saferef_generator::api::Op;
use warp::http::header::{CACHE_CONTROL, HeaderName, HeaderValue};
use warp::http::{Method, StatusCode};
use warp::reply::Response;

use super::Request;
use super::table::Endpoint;
use crate::caller::Caller;
use crate::tier::Tier;

/// Netlify's own cache policy: its CDN obeys it over `Cache-Control` and removes it before
/// the answer leaves.
pub const CDN_CACHE_CONTROL: &str = "netlify-cdn-cache-control";
/// The tags a purge names (Netlify's purge API); removed before the answer leaves the CDN.
pub const CACHE_TAG: &str = "netlify-cache-tag";
/// What the CDN's key holds besides the path.
pub const VARY: &str = "netlify-vary";
/// The whole query (a proxied answer's key leaves it out otherwise, so `?context=dog` would
/// answer `?context=cat`), and the headers that make a caller keyed, so that a keyed request
/// never meets a kept public answer (an answer is kept only when neither header named one).
pub const VARY_ON: &str = "query,header=X-API-Key|X-Marketplace-Proxy-Secret";
/// What every answer the CDN must not keep says.
pub const NO_STORE: &str = "no-store";
/// The release tag's prefix; the rest is the dataset's fingerprint.
pub const RELEASE_TAG: &str = "saferef-release-";

/// Whether the answer to `req` from `endpoint` (`None`: a file of the static tree) for
/// `caller` may be one the CDN keeps: a public caller's GET of a file, of an endpoint the tree
/// answers some form of from files, or of the docs page (rendered once per release), each a
/// function of the release and the request alone.
pub fn candidate(req: &Request, caller: &Caller, endpoint: Option<&Endpoint>) -> bool {
    matches!(req.method, Method::GET | Method::HEAD)
        && caller.tier == Tier::Public
        && caller.key.is_none()
        && caller.plan.is_none()
        && endpoint.is_none_or(|e| e.precomputed || e.op == Op::Docs)
}

/// Whether the CDN may keep `res`, a `candidate`'s answer: a 200, public by its own
/// `Cache-Control`.
pub fn keepable(res: &Response) -> bool {
    res.status() == StatusCode::OK
        && res
            .headers()
            .get(CACHE_CONTROL)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("public"))
}

/// Tells the CDN to keep `res` until the next 00:00 UTC (an answer may change with the day:
/// what is in force, what is scheduled), never stale, tagged with the release `fingerprint`
/// besides the purge key the answer already names.
pub fn keep(res: &mut Response, fingerprint: &str, now: DateTime<Utc>) {
    let h = res.headers_mut();
    let policy = format!(
        "public, max-age={}, must-revalidate",
        seconds_to_midnight(now)
    );
    let release = format!("{RELEASE_TAG}{fingerprint}");
    let tags = match h.get(CACHE_TAG).and_then(|v| v.to_str().ok()) {
        Some(key) => format!("{key},{release}"),
        None => release,
    };
    for (name, value) in [(CDN_CACHE_CONTROL, policy), (CACHE_TAG, tags)] {
        if let Ok(v) = HeaderValue::from_str(&value) {
            h.insert(name, v);
        }
    }
    h.insert(VARY, HeaderValue::from_static(VARY_ON));
}

/// Tells the CDN not to keep `res`, unless `keep` said otherwise.
pub fn or_no_store(res: &mut Response) {
    // Every answer passes here: the name is made once, not parsed per answer.
    const NAME: HeaderName = HeaderName::from_static(CDN_CACHE_CONTROL);
    res.headers_mut()
        .entry(NAME)
        .or_insert(HeaderValue::from_static(NO_STORE));
}

/// Seconds from `now` to the next 00:00 UTC (86,400 at midnight itself).
fn seconds_to_midnight(now: DateTime<Utc>) -> u32 {
    86_400 - now.num_seconds_from_midnight()
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn a_kept_answer_lives_until_the_next_midnight_utc() {
        let at = |h, m, s| Utc.with_ymd_and_hms(2026, 11, 26, h, m, s).unwrap();
        assert_eq!(seconds_to_midnight(at(0, 0, 0)), 86_400);
        assert_eq!(seconds_to_midnight(at(23, 59, 59)), 1);
        assert_eq!(seconds_to_midnight(at(12, 0, 0)), 43_200);
    }

    #[test]
    fn keep_adds_the_release_to_the_answer_s_own_purge_key() {
        let mut res = Response::new(Vec::new().into());
        res.headers_mut()
            .insert(CACHE_TAG, HeaderValue::from_static("hq-c-org-000001"));
        let now = Utc.with_ymd_and_hms(2026, 11, 26, 23, 0, 0).unwrap();
        keep(&mut res, "0123456789ab", now);
        let h = res.headers();
        assert_eq!(h[CACHE_TAG], "hq-c-org-000001,saferef-release-0123456789ab");
        assert_eq!(
            h[CDN_CACHE_CONTROL],
            "public, max-age=3600, must-revalidate"
        );
        assert_eq!(h[VARY], VARY_ON);
        or_no_store(&mut res);
        assert_eq!(
            res.headers()[CDN_CACHE_CONTROL],
            "public, max-age=3600, must-revalidate"
        );
    }
}
