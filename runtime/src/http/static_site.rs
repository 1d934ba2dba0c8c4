//! Serves site/ the way the CDN does (`saferef_generator::build::site::cdn` reads the same
//! `_redirects` and `_headers`), so `saferef-serve` alone answers the whole public API.

use saferef_generator::build::site::cdn::Resolution;
use warp::http::StatusCode;
use warp::http::header::{HeaderName, HeaderValue, LOCATION};
use warp::reply::Response;

use super::{Params, etag, etag_of};
use crate::AppState;

/// The tree's answer to a GET of `path` (already without `/v1`), or `None` for the runtime.
pub fn serve(state: &AppState, path: &str, query: &Params) -> Option<Response> {
    let site = state.release.site.as_ref()?;
    match site.resolve(path, &query.pairs()) {
        // The tree of a preview says where only the runtime answers: here, this is it.
        Resolution::Runtime | Resolution::NeedsRuntime { .. } => None,
        Resolution::Redirect { status, location } => {
            let mut res = Response::new(Vec::new().into());
            *res.status_mut() = StatusCode::from_u16(status).ok()?;
            res.headers_mut()
                .insert(LOCATION, HeaderValue::from_str(&location).ok()?);
            Some(res)
        }
        Resolution::File {
            file,
            status,
            headers,
        } => {
            let path = site.root().join(&file);
            let size = std::fs::metadata(&path).ok()?.len();
            let (mut res, tag) = if size > STREAMED_ABOVE {
                streamed(&path)?
            } else {
                let bytes = std::fs::read(&path).ok()?;
                let tag = etag(&bytes);
                (Response::new(bytes.into()), tag)
            };
            *res.status_mut() = StatusCode::from_u16(status).ok()?;
            let h = res.headers_mut();
            for (name, value) in headers {
                h.append(
                    HeaderName::from_bytes(name.as_bytes()).ok()?,
                    HeaderValue::from_str(&value).ok()?,
                );
            }
            h.insert("etag", tag);
            Some(res)
        }
    }
}

/// Files larger than this are sent in chunks as the connection takes them, never held whole
/// (slow readers of a large file would otherwise each pin a copy).
const STREAMED_ABOVE: u64 = 1 << 20;
/// The size of one chunk of a streamed file.
const CHUNK: usize = 64 * 1024;

/// A large file as a streamed body, with the same strong ETag a body read whole would get: the
/// file is hashed chunk by chunk first, then read again as the client takes it.
fn streamed(path: &std::path::Path) -> Option<(Response, HeaderValue)> {
    use sha2::Digest;
    use std::io::Read;
    let mut hasher = sha2::Sha256::new();
    let mut hashed = std::fs::File::open(path).ok()?;
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = hashed.read(&mut buf).ok()?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    let tag = etag_of(&hasher.finalize());
    // Each chunk is read when the connection asks for the next (as the export streams), so a
    // slow reader holds one chunk, not the file.
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
    let res =
        warp::reply::Reply::into_response(warp::reply::stream(futures_util::stream::iter(chunks)));
    Some((res, tag))
}
