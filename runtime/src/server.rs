//! The HTTP/1.1 server loop, on hyper directly (accept, one task per connection, one service
//! function per connection calling `http::answer_request`, graceful shutdown): no warp filter
//! is composed, boxed or run per request. It holds the limits a public service needs against
//! slow or hostile clients (slowloris): request headers must arrive within
//! `HEADER_TIMEOUT`, and are capped at `MAX_HEADER_BYTES` (431), a target at
//! `MAX_TARGET_BYTES` (414); request bodies are read under `http::BODY_TIMEOUT` (408) and
//! `http::BODY_LIMIT` (413). hyper's own answers to a head it cannot parse get the service's
//! JSON error (`parse_refusals.rs`).

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use saferef_generator::render::error::ApiError;

use crate::Live;
use crate::parse_refusals::Refusals;

/// Time a client has to send a request's headers (also between keep-alive requests).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Most bytes of request line plus headers buffered for one request (hyper answers 431).
pub const MAX_HEADER_BYTES: usize = 64 * 1024;
/// Longest request target (path and query) answered (414 past it): the longest the
/// interface asks for, `GET /api/compounds/batch` with 100 ids, is under 2 KiB.
pub const MAX_TARGET_BYTES: usize = 16 * 1024;

/// The 414 for a target over `MAX_TARGET_BYTES`, and the 400 for a request target that names
/// no path: the authority form (`GET host:port`, `CONNECT host:port`) and the asterisk form
/// (`OPTIONS *`). This service is no proxy and has no server-wide options, and the request
/// path reads every request by its path, so such a request never reaches it.
fn refuse_target<B>(req: &hyper::Request<B>) -> Option<warp::reply::Response> {
    let has_path = req.uri().path_and_query().is_some() && req.uri().path().starts_with('/');
    if has_path && req.method() != hyper::Method::CONNECT {
        if req.uri().path_and_query().map_or(0, |t| t.as_str().len()) > MAX_TARGET_BYTES {
            tracing::info!(method = %req.method(), status = 414, "request target refused");
            return Some(crate::http::reply(ApiError::uri_too_long(format!(
                "the request target is longer than {MAX_TARGET_BYTES} bytes"
            ))));
        }
        return None;
    }
    tracing::info!(method = %req.method(), target = %req.uri(), status = 400, "request target refused");
    Some(crate::http::reply(ApiError::bad_request(
        "the request target must be a path (origin form, /api/...) or an absolute URL; this service is no proxy",
    )))
}

/// Serves the release `live` holds on `listener` until `shutdown` resolves, then lets
/// requests in flight end.
pub async fn run(
    listener: tokio::net::TcpListener,
    live: Arc<Live>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of file descriptors and the like: wait rather than spin.
                    tracing::warn!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let live = live.clone();
        let service = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
            let live = live.clone();
            async move {
                if let Some(refusal) = refuse_target(&req) {
                    return Ok::<_, Infallible>(refusal);
                }
                Ok(crate::http::answer_request(&live, req, remote).await)
            }
        });
        let conn = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(HEADER_TIMEOUT)
            .max_header_size(MAX_HEADER_BYTES)
            .serve_connection(TokioIo::new(Refusals::new(stream)), service);
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            if let Err(e) = conn.await {
                tracing::debug!("connection from {remote}: {e}");
            }
        });
    }
    drop(listener);
    graceful.shutdown().await;
}
