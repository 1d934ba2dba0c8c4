//! Serves site/ the way the CDN does (`saferef_generator::build::site::cdn` reads the same
//! `_redirects` and `_headers`), so `saferef-serve` alone answers the whole public API.
//!
//! A release's tree never changes while it is served, so each URL's answer is resolved once and
//! kept in memory (`StaticCache`): the routing verdict, the headers, the ETag and, for files up
//! to `STREAMED_ABOVE`, the body. A request the cache knows touches neither the file system nor
//! the blocking pool; a reload brings a new release with an empty cache. A path no query rule
//! of `_redirects` matches answers every query alike (`StaticSite::reads_query`), so its
//! answer is kept once for the path: a keyed endpoint's URLs (a search, a batch) take one
//! entry, not one per query string, and a new query there is not resolved again.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};

use bytes::Bytes;
use saferef_generator::build::site::cdn::{Resolution, StaticSite};
use warp::http::header::{HeaderName, HeaderValue, LOCATION};
use warp::http::{HeaderMap, StatusCode};
use warp::reply::Response;

use super::{Params, etag, etag_of};
use crate::AppState;

/// How many distinct URLs (path and query) the cache remembers; past that, further URLs are
/// resolved per request as before (a client cycling through query strings cannot grow it).
const MAX_ENTRIES: usize = 200_000;
/// How many bytes of bodies it holds; past that, new files are read from disk per request.
/// The full tree's responses are about 155 MB; a CDN-fronted service sees a small hot set.
const MAX_BODY_BYTES: usize = 128 << 20;

/// The tree's answers, by URL (path, then query), for one release: a request the cache
/// knows is looked up by its own path and query, with nothing built for the lookup.
#[derive(Debug, Default)]
pub struct StaticCache {
    entries: RwLock<Entries>,
    body_bytes: AtomicUsize,
}

#[derive(Debug, Default)]
struct Entries {
    by_path: HashMap<String, Queries>,
    /// Answers held: a path's one answer for every query, or each query's.
    len: usize,
}

/// The answers kept for one path.
#[derive(Debug)]
enum Queries {
    /// The path reads no query (`StaticSite::reads_query`): one answer for all.
    Any(Arc<Answer>),
    Each(HashMap<Params, Arc<Answer>>),
}

impl Queries {
    fn get(&self, query: &Params) -> Option<&Arc<Answer>> {
        match self {
            Queries::Any(answer) => Some(answer),
            Queries::Each(answers) => answers.get(query),
        }
    }
}

/// What the tree answers for one URL.
#[derive(Debug)]
enum Answer {
    /// Not a file of the tree: the runtime answers.
    Runtime,
    Redirect {
        status: StatusCode,
        location: HeaderValue,
    },
    File {
        status: StatusCode,
        headers: HeaderMap,
        body: Body,
    },
}

#[derive(Debug)]
enum Body {
    Held(Bytes),
    /// Past the byte budget: read from disk per request (its ETag is kept).
    Read(PathBuf),
    /// Over `STREAMED_ABOVE`: streamed from disk per request (its ETag is kept).
    Streamed(PathBuf),
}

/// The tree's answer to a GET of `path` (already without `/v1`), or `None` for the runtime.
pub fn serve(state: &AppState, path: &str, query: &Params) -> Option<Response> {
    let site = state.release.site.as_ref()?;
    let answer = state.release.static_cache.answer(site, path, query)?;
    respond(&answer)
}

impl StaticCache {
    /// The tree's answer to `path` and `query`: kept, or resolved and kept.
    fn answer(&self, site: &StaticSite, path: &str, query: &Params) -> Option<Arc<Answer>> {
        let known = self
            .entries
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .by_path
            .get(path)
            .and_then(|queries| queries.get(query))
            .cloned();
        if known.is_some() {
            return known;
        }
        let any = !site.reads_query(path);
        let a = Arc::new(resolve(site, self, path, query)?);
        let mut guard = self.entries.write().unwrap_or_else(|e| e.into_inner());
        let entries = &mut *guard;
        if entries.len < MAX_ENTRIES {
            let added = match entries.by_path.entry(path.to_string()) {
                Entry::Vacant(v) => {
                    v.insert(match any {
                        true => Queries::Any(a.clone()),
                        false => Queries::Each(HashMap::from([(query.clone(), a.clone())])),
                    });
                    true
                }
                Entry::Occupied(mut o) => match o.get_mut() {
                    Queries::Any(_) => false,
                    Queries::Each(answers) => answers.insert(query.clone(), a.clone()).is_none(),
                },
            };
            entries.len += usize::from(added);
        }
        Some(a)
    }
}

/// The answer built from the tree (files read and hashed here, once per URL). `None` when a
/// file the routing names cannot be read: the runtime answers, uncached, as before.
fn resolve(site: &StaticSite, cache: &StaticCache, path: &str, query: &Params) -> Option<Answer> {
    Some(match site.resolve(path, &query.pairs()) {
        // The tree of a preview says where only the runtime answers: here, this is it. A
        // rewrite to a file the tree lacks (an id it does not know) is the CDN's bare 404; the
        // runtime, asked itself, answers it as the OpenAPI says (a JSON 404 or 400).
        Resolution::Runtime | Resolution::NeedsRuntime { .. } | Resolution::Missing { .. } => {
            Answer::Runtime
        }
        Resolution::Redirect { status, location } => Answer::Redirect {
            status: StatusCode::from_u16(status).ok()?,
            location: HeaderValue::from_str(&location).ok()?,
        },
        Resolution::File {
            file,
            status,
            headers: lines,
        } => {
            let path = site.root().join(&file);
            let size = std::fs::metadata(&path).ok()?.len();
            let mut headers = HeaderMap::new();
            for (name, value) in lines {
                headers.append(
                    HeaderName::from_bytes(name.as_bytes()).ok()?,
                    HeaderValue::from_str(&value).ok()?,
                );
            }
            let held = size <= STREAMED_ABOVE
                && cache.body_bytes.fetch_add(size as usize, Ordering::Relaxed) + size as usize
                    <= MAX_BODY_BYTES;
            let body = if held {
                let bytes = std::fs::read(&path).ok()?;
                headers.insert("etag", etag(&bytes));
                Body::Held(Bytes::from(bytes))
            } else {
                headers.insert("etag", hash_file(&path)?);
                if size > STREAMED_ABOVE {
                    Body::Streamed(path)
                } else {
                    Body::Read(path)
                }
            };
            Answer::File {
                status: StatusCode::from_u16(status).ok()?,
                headers,
                body,
            }
        }
    })
}

fn respond(answer: &Answer) -> Option<Response> {
    match answer {
        Answer::Runtime => None,
        Answer::Redirect { status, location } => {
            let mut res = Response::new(Vec::new().into());
            *res.status_mut() = *status;
            res.headers_mut().insert(LOCATION, location.clone());
            Some(res)
        }
        Answer::File {
            status,
            headers,
            body,
        } => {
            let mut res = match body {
                Body::Held(bytes) => Response::new(bytes.clone().into()),
                Body::Read(path) => Response::new(std::fs::read(path).ok()?.into()),
                Body::Streamed(path) => streamed(path)?,
            };
            *res.status_mut() = *status;
            *res.headers_mut() = super::copy_kept(headers);
            Some(res)
        }
    }
}

/// Files larger than this are sent in chunks as the connection takes them, never held whole
/// (slow readers of a large file would otherwise each pin a copy).
const STREAMED_ABOVE: u64 = 1 << 20;
/// The size of one chunk of a streamed file.
const CHUNK: usize = 64 * 1024;

/// The strong ETag of a file, hashed chunk by chunk (the same tag as its body read whole).
fn hash_file(path: &std::path::Path) -> Option<HeaderValue> {
    use sha2::Digest;
    use std::io::Read;
    let mut hasher = sha2::Sha256::new();
    let mut file = std::fs::File::open(path).ok()?;
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = file.read(&mut buf).ok()?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Some(etag_of(&hasher.finalize()))
}

/// A large file as a streamed body: each chunk is read when the connection asks for the next
/// (as the export streams), so a slow reader holds one chunk, not the file.
fn streamed(path: &std::path::Path) -> Option<Response> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).ok()?;
    let chunks = std::iter::from_fn(move || {
        let mut chunk = vec![0u8; CHUNK];
        match file.read(&mut chunk) {
            Ok(0) => None,
            Ok(n) => {
                chunk.truncate(n);
                Some(Ok::<_, std::io::Error>(bytes::Bytes::from(chunk)))
            }
            Err(e) => Some(Err(e)),
        }
    });
    Some(warp::reply::Reply::into_response(warp::reply::stream(
        futures_util::stream::iter(chunks),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> (tempfile::TempDir, StaticSite) {
        let dir = tempfile::tempdir().unwrap();
        let redirects =
            "/api/search q=:q /api/search/:q.json 200\n/api/c/:id /api/c/:id.json 200\n";
        std::fs::write(dir.path().join("_redirects"), redirects).unwrap();
        std::fs::write(dir.path().join("_headers"), "").unwrap();
        std::fs::create_dir_all(dir.path().join("api/search")).unwrap();
        std::fs::create_dir_all(dir.path().join("api/c")).unwrap();
        std::fs::write(dir.path().join("api/search/lead.json"), "{}").unwrap();
        std::fs::write(dir.path().join("api/c/k.json"), "{}").unwrap();
        let site = StaticSite::open(dir.path()).unwrap();
        (dir, site)
    }

    fn len(cache: &StaticCache) -> usize {
        cache.entries.read().unwrap().len
    }

    fn is_file(answer: Option<Arc<Answer>>) -> bool {
        matches!(answer.as_deref(), Some(Answer::File { .. }))
    }

    #[test]
    fn a_path_that_reads_no_query_is_kept_once_for_every_query() {
        let (_d, site) = site();
        let cache = StaticCache::default();
        for n in 0..5 {
            let q = Params::parse(&format!("ids=a,b&nonce={n}")).unwrap();
            let answer = cache.answer(&site, "/api/compounds/batch", &q);
            assert!(matches!(answer.as_deref(), Some(Answer::Runtime)));
            assert!(is_file(cache.answer(&site, "/api/c/k", &q)));
        }
        assert_eq!(len(&cache), 2, "one answer per path");
        // A path a query rule matches keeps each query's answer.
        let lead = Params::parse("q=lead").unwrap();
        let tin = Params::parse("q=tin").unwrap();
        assert!(is_file(cache.answer(&site, "/api/search", &lead)));
        assert!(matches!(
            cache.answer(&site, "/api/search", &tin).as_deref(),
            Some(Answer::Runtime)
        ));
        assert!(is_file(cache.answer(&site, "/api/search", &lead)));
        assert_eq!(len(&cache), 4);
    }
}
