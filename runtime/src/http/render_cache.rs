//! The keyed answers the runtime renders (compare, search, regulatory status, lists...) are a
//! pure function of the release, the request's op, path parameters and query, who asks (keyed
//! or not, the batch cap) and the day (`render::dispatch`). A release never changes while it
//! is served, so each such GET answer is kept once made (`RenderCache`): the same request
//! again is answered from memory, without rendering, serialising or hashing it again. A
//! reload brings a new release with an empty cache.
//!
//! Bounded by `MAX_ENTRIES` and `MAX_HELD_BYTES`: past either, the cache starts again empty
//! (a client cycling through distinct queries cannot grow it, and answers of a past day are
//! dropped then). The bytes counted are those an answer holds in memory: its body as
//! allocated (trimmed to its length before it is kept: a serialiser's buffer grows by
//! doubling), its headers and its key, each with the bookkeeping around it. A query carrying
//! `api_key` is never kept, so no key is held here. The answers let go when the cache starts
//! again (up to `MAX_ENTRIES` of them, each several allocations) are freed on a thread of
//! their own, after the lock is released: freeing them took milliseconds, which the request
//! that filled the cache waited, and with it every request on that worker and every reader of
//! the lock.

use std::collections::HashMap;
use std::sync::RwLock;

use bytes::Bytes;
use chrono::NaiveDate;
use saferef_generator::api::Op;
use saferef_generator::render::Rendered;
use warp::http::{HeaderMap, StatusCode};
use warp::reply::Response;

use super::Params;

/// How many answers the cache holds before it starts again empty.
const MAX_ENTRIES: usize = 20_000;
/// How many bytes its answers hold (`Kept::held`) before it starts again empty.
const MAX_HELD_BYTES: usize = 32 << 20;
/// The bookkeeping of one header or one string beside its bytes (the map's entry, the
/// allocation's own header), counted generously so the bound holds.
const PER_PART: usize = 64;

/// What an answer depends on, besides the release.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    pub op: Op,
    pub params: Vec<String>,
    pub query: Params,
    pub keyed: bool,
    pub batch_cap: usize,
    pub today: NaiveDate,
}

/// A `Key` as the request holds it, borrowed: a kept answer is found without copying the
/// request's path parameters and query (the map is searched by `dyn Lookup`, which `Key`
/// and `KeyRef` hash and compare alike); only an answer kept copies them, into a `Key`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyRef<'a> {
    pub op: Op,
    pub params: &'a [String],
    pub query: &'a Params,
    pub keyed: bool,
    pub batch_cap: usize,
    pub today: NaiveDate,
}

/// What the map is searched by: a key owned or borrowed, seen as the same fields.
trait Lookup {
    fn view(&self) -> KeyRef<'_>;
}

impl Lookup for Key {
    fn view(&self) -> KeyRef<'_> {
        KeyRef {
            op: self.op,
            params: &self.params,
            query: &self.query,
            keyed: self.keyed,
            batch_cap: self.batch_cap,
            today: self.today,
        }
    }
}

impl Lookup for KeyRef<'_> {
    fn view(&self) -> KeyRef<'_> {
        *self
    }
}

impl<'a> std::borrow::Borrow<dyn Lookup + 'a> for Key {
    fn borrow(&self) -> &(dyn Lookup + 'a) {
        self
    }
}

impl std::hash::Hash for dyn Lookup + '_ {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.view().hash(state);
    }
}

impl PartialEq for dyn Lookup + '_ {
    fn eq(&self, other: &Self) -> bool {
        self.view() == other.view()
    }
}

impl Eq for dyn Lookup + '_ {}

/// Hashed as its borrowed form, so that either finds the same entry.
impl std::hash::Hash for Key {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.view().hash(state);
    }
}

impl Key {
    /// The bytes the key holds beside itself: its path parameters' and query's strings.
    fn held(&self) -> usize {
        let strings: usize = self.params.iter().map(|p| p.capacity() + PER_PART).sum();
        strings + self.query.held(PER_PART)
    }

    /// The key of a GET, or `None` when its answer must not be kept.
    pub fn of<'a>(
        op: Op,
        params: &'a [String],
        query: &'a Params,
        keyed: bool,
        batch_cap: usize,
        today: NaiveDate,
    ) -> Option<KeyRef<'a>> {
        if query.get("api_key").is_some() {
            return None;
        }
        Some(KeyRef {
            op,
            params,
            query,
            keyed,
            batch_cap,
            today,
        })
    }
}

impl KeyRef<'_> {
    /// The key, owned, to keep an answer under.
    pub fn owned(&self) -> Key {
        Key {
            op: self.op,
            params: self.params.to_vec(),
            query: self.query.clone(),
            keyed: self.keyed,
            batch_cap: self.batch_cap,
            today: self.today,
        }
    }
}

/// One answer as sent: status, headers (the ETag among them) and body.
#[derive(Debug)]
struct Kept {
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
    /// What the entry holds, key included, as `held` counts it when it is kept.
    held: usize,
}

/// The bytes one entry holds: the body, each header's name and value, the key, and the entry
/// itself in the map.
fn held(key: &Key, headers: &HeaderMap, body: &Bytes) -> usize {
    let headers: usize = headers
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len() + PER_PART)
        .sum();
    body.len() + headers + key.held() + size_of::<Key>() + size_of::<Kept>() + PER_PART
}

/// The rendered answers of one release, by what they depend on.
#[derive(Debug, Default)]
pub struct RenderCache {
    inner: RwLock<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    map: HashMap<Key, Kept>,
    held_bytes: usize,
}

impl RenderCache {
    /// The kept answer for `key`, if any.
    pub fn get(&self, key: &KeyRef<'_>) -> Option<Response> {
        let inner = self.inner.read().unwrap_or_else(|e| e.into_inner());
        let kept = inner.map.get(key as &dyn Lookup)?;
        let mut res = Response::new(kept.body.clone().into());
        *res.status_mut() = kept.status;
        *res.headers_mut() = super::copy_kept(&kept.headers);
        Some(res)
    }

    /// Keeps the answer `rendered` makes under `key` and returns it to be sent.
    pub fn keep(&self, key: KeyRef<'_>, mut rendered: Rendered) -> Response {
        let key = key.owned();
        // The body is kept as allocated: without the serialiser's spare capacity.
        rendered.body.shrink_to_fit();
        let (res, body) = super::reply_kept(rendered);
        if body.len() > MAX_HELD_BYTES / 16 {
            return res;
        }
        let kept = Kept {
            status: res.status(),
            headers: res.headers().clone(),
            held: held(&key, res.headers(), &body),
            body,
        };
        let mut inner = self.inner.write().unwrap_or_else(|e| e.into_inner());
        if let Some(old) = inner.map.remove(&key) {
            inner.held_bytes -= old.held;
        }
        let let_go = (inner.map.len() >= MAX_ENTRIES
            || inner.held_bytes + kept.held > MAX_HELD_BYTES)
            .then(|| {
                inner.held_bytes = 0;
                std::mem::take(&mut inner.map)
            });
        inner.held_bytes += kept.held;
        inner.map.insert(key, kept);
        drop(inner);
        if let Some(answers) = let_go {
            free_elsewhere(answers);
        }
        res
    }
}

/// Frees `answers` on a thread of its own (the module comment). Should no thread start, the
/// closure is dropped here, and the answers with it.
fn free_elsewhere(answers: HashMap<Key, Kept>) {
    let _ = std::thread::Builder::new()
        .name("render-cache-free".into())
        .spawn(move || drop(answers));
}

#[cfg(test)]
mod tests {
    use super::*;
    use saferef_generator::render::Cache;

    impl RenderCache {
        fn held_bytes(&self) -> usize {
            self.inner.read().unwrap().held_bytes
        }
    }

    fn key(q: &str, n: usize) -> Option<Key> {
        let today = NaiveDate::from_ymd_opt(2026, 11, 26).unwrap();
        let params = vec![format!("hq-c-org-{n:06}")];
        let query = Params::parse(q).unwrap();
        Key::of(Op::Compare, &params, &query, true, 100, today).map(|k| k.owned())
    }

    fn rendered(body: &str) -> Rendered {
        Rendered::json(200, &body, Cache::Private)
    }

    #[test]
    fn a_kept_answer_is_sent_again_as_it_was_first_sent() {
        let cache = RenderCache::default();
        let k = key("ids=a,b", 1).unwrap();
        assert!(cache.get(&k.view()).is_none());
        let first = cache.keep(k.view(), rendered("first"));
        let again = cache.get(&k.view()).expect("kept");
        assert_eq!(again.status(), first.status());
        assert_eq!(again.headers(), first.headers());
        assert!(again.headers().contains_key("etag"));
        // Another query, path parameter, caller or day is another answer.
        assert!(cache.get(&key("ids=a,c", 1).unwrap().view()).is_none());
        assert!(cache.get(&key("ids=a,b", 2).unwrap().view()).is_none());
        let other_caller = Key {
            keyed: false,
            ..k.clone()
        };
        assert!(cache.get(&other_caller.view()).is_none());
        let next_day = Key {
            today: k.today.succ_opt().unwrap(),
            ..k
        };
        assert!(cache.get(&next_day.view()).is_none());
    }

    #[test]
    fn a_query_with_a_key_is_never_kept() {
        assert!(key("ids=a,b&api_key=sr_live_x", 1).is_none());
    }

    #[test]
    fn past_its_bound_the_cache_starts_again_empty() {
        let cache = RenderCache::default();
        for n in 0..MAX_ENTRIES {
            cache.keep(key("ids=a,b", n).unwrap().view(), rendered("x"));
        }
        assert!(cache.get(&key("ids=a,b", 0).unwrap().view()).is_some());
        cache.keep(key("ids=a,b", MAX_ENTRIES).unwrap().view(), rendered("x"));
        assert!(cache.get(&key("ids=a,b", 0).unwrap().view()).is_none());
        assert!(
            cache
                .get(&key("ids=a,b", MAX_ENTRIES).unwrap().view())
                .is_some()
        );
        let inner = cache.inner.read().unwrap();
        assert_eq!(inner.map.len(), 1);
        let only = inner.map.values().next().unwrap();
        assert_eq!(inner.held_bytes, only.held);
        assert!(
            only.held > "\"x\"\n".len(),
            "headers and key are counted too"
        );
    }

    /// A body that says on which thread it is freed.
    struct Reports(std::sync::mpsc::Sender<std::thread::ThreadId>);

    impl AsRef<[u8]> for Reports {
        fn as_ref(&self) -> &[u8] {
            b"x"
        }
    }

    impl Drop for Reports {
        fn drop(&mut self) {
            let _ = self.0.send(std::thread::current().id());
        }
    }

    #[test]
    fn the_answers_let_go_when_the_cache_starts_again_are_freed_on_another_thread() {
        let cache = RenderCache::default();
        let (tx, freed) = std::sync::mpsc::channel();
        {
            let mut inner = cache.inner.write().unwrap();
            let k = key("ids=a,b", 0).unwrap();
            let body = Bytes::from_owner(Reports(tx));
            let kept = Kept {
                status: StatusCode::OK,
                headers: HeaderMap::new(),
                held: held(&k, &HeaderMap::new(), &body),
                body,
            };
            inner.held_bytes = kept.held;
            inner.map.insert(k, kept);
        }
        for n in 1..=MAX_ENTRIES {
            cache.keep(key("ids=a,b", n).unwrap().view(), rendered("x"));
        }
        let thread = freed
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("the first answer is freed once the cache starts again");
        assert_ne!(thread, std::thread::current().id());
        assert!(cache.get(&key("ids=a,b", 0).unwrap().view()).is_none());
        assert!(
            cache
                .get(&key("ids=a,b", MAX_ENTRIES).unwrap().view())
                .is_some()
        );
    }

    #[test]
    fn large_answers_are_bounded_by_the_bytes_they_hold() {
        let cache = RenderCache::default();
        let body = "y".repeat(100 << 10);
        let mut most = 0;
        for n in 0..(4 * MAX_HELD_BYTES / body.len()) {
            cache.keep(key("ids=a,b", n).unwrap().view(), rendered(&body));
            let held = cache.held_bytes();
            assert!(
                held <= MAX_HELD_BYTES,
                "{held} bytes held after {n} answers"
            );
            most = most.max(held);
            let inner = cache.inner.read().unwrap();
            assert_eq!(held, inner.map.values().map(|k| k.held).sum::<usize>());
        }
        // It filled close to its bound before starting again, not far below.
        assert!(most > MAX_HELD_BYTES - 2 * body.len(), "{most}");
        // The same key again replaces its answer rather than counting it twice.
        let before = cache.held_bytes();
        cache.keep(key("ids=a,b", 0).unwrap().view(), rendered(&body));
        cache.keep(key("ids=a,b", 0).unwrap().view(), rendered(&body));
        let one = cache.inner.read().unwrap().map[&key("ids=a,b", 0).unwrap()].held;
        assert!(cache.held_bytes() <= before + one);
    }
}
