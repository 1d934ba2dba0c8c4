//! One request, read whole before routing: method, the path under `/api` (the `/v1` alias
//! removed), the query parameters, headers, peer address and a size-limited body, taken from
//! hyper's request as it is (its head moved, not copied).

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};

use bytes::{Bytes, BytesMut};
use http_body_util::BodyExt;
use hyper::body::Incoming;
use saferef_generator::render::error::ApiError;
use warp::http::header::{CONTENT_LENGTH, TRANSFER_ENCODING};
use warp::http::{HeaderMap, Method};

use super::{BODY_LIMIT, BODY_TIMEOUT};

#[derive(Debug)]
pub struct Request {
    pub method: Method,
    /// The path as the tree and the route table know it: `/api/...`, never `/api/v1/...`.
    pub path: String,
    /// Percent-decoded segments after `/api`.
    pub segments: Vec<String>,
    /// The query, or the 400 it deserves (a repeated or undecodable parameter).
    pub query: Result<Params, ApiError>,
    pub headers: HeaderMap,
    pub remote: Option<SocketAddr>,
    pub body: Bytes,
}

impl Request {
    /// Reads a request as hyper hands it over: the head is moved in, not copied; the body is
    /// read only when the head announces one. Errors (413 for a body over the limit, 408 for
    /// one that does not arrive in time) come back as the `Err` reply.
    pub async fn read(
        head: warp::http::request::Parts,
        body: Incoming,
        remote: SocketAddr,
    ) -> Result<Request, ApiError> {
        let body = if announces_body(&head.headers) {
            tokio::time::timeout(BODY_TIMEOUT, read_body(body))
                .await
                .map_err(|_| {
                    ApiError::request_timeout(format!(
                        "the request body did not arrive within {} s",
                        BODY_TIMEOUT.as_secs()
                    ))
                })??
        } else {
            Bytes::new()
        };
        let path = normalize(head.uri.path());
        let segments = path
            .strip_prefix("/api")
            .unwrap_or("")
            .split('/')
            .filter(|s| !s.is_empty())
            .map(|s| {
                percent_encoding::percent_decode_str(s)
                    .decode_utf8_lossy()
                    .into_owned()
            })
            .collect();
        Ok(Request {
            method: head.method,
            query: Params::parse(head.uri.query().unwrap_or_default()),
            segments,
            path,
            headers: head.headers,
            remote: Some(remote),
            body,
        })
    }
    /// `api_key` from the query, when the query parsed.
    pub fn api_key(&self) -> Option<&str> {
        self.query.as_ref().ok().and_then(|q| q.get("api_key"))
    }

    /// The body as JSON of type `T`: 415 unless sent as `application/json`, 400 when it does
    /// not parse (the message names the field serde stopped at). `what` names the body.
    pub fn json<T: serde::de::DeserializeOwned>(&self, what: &str) -> Result<T, ApiError> {
        let json = self
            .headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| {
                t.split(';')
                    .next()
                    .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
            });
        if !json {
            return Err(ApiError::unsupported_media_type(format!(
                "send the {what} as JSON with Content-Type: application/json"
            )));
        }
        serde_json::from_slice(&self.body)
            .map_err(|e| ApiError::bad_request(format!("malformed {what}: {e}")))
    }
}

/// Query parameters by name; a repeated parameter is a 400 rather than a silent pick.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Params(BTreeMap<String, String>);

impl Params {
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// The bytes its names and values hold, with `per_string` of bookkeeping for each string
    /// and each pair (a cache counting what it keeps, `render_cache.rs`).
    pub fn held(&self, per_string: usize) -> usize {
        self.0
            .iter()
            .map(|(k, v)| k.capacity() + v.capacity() + 3 * per_string)
            .sum()
    }

    /// Every parameter, by name.
    pub fn each(&self) -> Vec<(&str, &str)> {
        self.0
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect()
    }

    pub fn pairs(&self) -> Vec<(String, String)> {
        self.0.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
    }

    pub fn parse(raw: &str) -> Result<Params, ApiError> {
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw)
            .map_err(|e| ApiError::bad_request(format!("invalid query string: {e}")))?;
        let mut map = BTreeMap::new();
        for (k, v) in pairs {
            if map.contains_key(&k) {
                return Err(ApiError::bad_request(format!(
                    "invalid query: parameter {k:?} is given more than once"
                )));
            }
            map.insert(k, v);
        }
        Ok(Params(map))
    }
}

/// A sequence number for log lines (never the key, never a body).
pub fn next_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Whether the request has a body to read. HTTP/1.1 frames a request body only by
/// `Content-Length` or `Transfer-Encoding` (RFC 9112, section 6.3): without either, or with a
/// length of 0, there is none, and most requests (every GET) skip the read and its timer.
fn announces_body(headers: &HeaderMap) -> bool {
    headers.contains_key(TRANSFER_ENCODING)
        || headers
            .get(CONTENT_LENGTH)
            .is_some_and(|v| v.as_bytes() != b"0")
}

/// `/api/v1/x` -> `/api/x`; other paths unchanged.
fn normalize(path: &str) -> String {
    match path.strip_prefix("/api/v1") {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => format!("/api{rest}"),
        _ => path.to_string(),
    }
}

async fn read_body(mut body: Incoming) -> Result<Bytes, ApiError> {
    let mut out = BytesMut::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| ApiError::bad_request(format!("unreadable body: {e}")))?;
        // Trailers carry no bytes of the body.
        let Ok(chunk) = frame.into_data() else {
            continue;
        };
        if out.len() + chunk.len() > BODY_LIMIT {
            return Err(ApiError::payload_too_large(format!(
                "request body over the limit of {BODY_LIMIT} bytes"
            )));
        }
        out.extend_from_slice(&chunk);
    }
    Ok(out.freeze())
}
