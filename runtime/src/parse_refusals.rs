//! hyper answers a request head it cannot parse itself, before any service code runs, and
//! offers no hook for that answer: a 400 (an unparsable method, target, version or header
//! line), a 414 (a target over hyper's own limit) or a 431 (a head over
//! `server::MAX_HEADER_BYTES`), each with an empty body, and then closes the connection. The
//! interface answers every error with its JSON body and `code` (`render::error`, the docs
//! page's "Conventions"), so each connection's writes pass through `Refusals`, which writes
//! the service's JSON error in place of exactly those answers.
//!
//! Such an answer is recognised by its bytes: hyper writes it alone (it flushes every answer
//! before reading the next head, and a bodiless answer is one buffer, written plain or
//! vectored), as a status line of one of the three and only `content-length: 0`, `date` and
//! perhaps `connection: close` (when the refused head asked for it). Every answer of the
//! service itself carries a Content-Type, so none is taken for it. An answer with a body is
//! written vectored, head and body as hyper holds them: never read, nor copied into one buffer.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use saferef_generator::render::Rendered;
use saferef_generator::render::error::ApiError;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// A connection's stream, hyper's bodiless refusals replaced on the way out.
#[derive(Debug)]
pub struct Refusals {
    inner: TcpStream,
    /// The JSON answer being written in place of hyper's: its bytes, how many are written,
    /// and the length of hyper's answer it stands for (reported to hyper once all are out).
    replacing: Option<(Vec<u8>, usize, usize)>,
}

impl Refusals {
    pub fn new(inner: TcpStream) -> Refusals {
        Refusals {
            inner,
            replacing: None,
        }
    }
}

/// The status and `date` value of hyper's own refusal, when `written` is one.
fn hyper_refusal(written: &[u8]) -> Option<(u16, &str)> {
    // Most writes end otherwise (a body): settled before any byte is read as text.
    let head = std::str::from_utf8(written.strip_suffix(b"\r\n\r\n")?).ok()?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next()?;
    let rest = status_line
        .strip_prefix("HTTP/1.1 ")
        .or_else(|| status_line.strip_prefix("HTTP/1.0 "))?;
    let status: u16 = rest.get(..3)?.parse().ok()?;
    if !matches!(status, 400 | 414 | 431) {
        return None;
    }
    let mut date = None;
    let mut empty = false;
    for line in lines {
        match line.split_once(": ") {
            Some(("content-length", "0")) => empty = true,
            Some(("connection", "close")) => {}
            Some(("date", value)) => date = Some(value),
            _ => return None,
        }
    }
    Some((status, date?)).filter(|_| empty)
}

/// The service's JSON error for hyper's `status`, as raw HTTP/1.1 bytes; the connection then
/// closes, as hyper closes it.
fn json_answer(status: u16, date: &str) -> Vec<u8> {
    let error = match status {
        414 => ApiError::uri_too_long(format!(
            "the request target is longer than {} bytes",
            crate::server::MAX_TARGET_BYTES
        )),
        431 => ApiError::headers_too_large(format!(
            "the request line and headers are larger than {} KiB",
            crate::server::MAX_HEADER_BYTES / 1024
        )),
        _ => ApiError::bad_request(
            "the request head could not be parsed: its method, target, HTTP version or a header line is not HTTP/1.1 (RFC 9112)",
        ),
    };
    tracing::info!(status, "request head refused");
    let res = crate::http::reply(error.clone());
    let body = Rendered::from(error).body;
    let reason = res.status().canonical_reason().unwrap_or_default();
    let mut out = format!("HTTP/1.1 {status} {reason}\r\n").into_bytes();
    for (name, value) in res.headers() {
        out.extend_from_slice(name.as_str().as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    let tail = format!(
        "content-length: {}\r\nconnection: close\r\ndate: {date}\r\n\r\n",
        body.len()
    );
    out.extend_from_slice(tail.as_bytes());
    out.extend_from_slice(&body);
    out
}

impl AsyncRead for Refusals {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for Refusals {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.replacing.is_none()
            && let Some((status, date)) = hyper_refusal(buf)
        {
            this.replacing = Some((json_answer(status, date), 0, buf.len()));
        }
        let Some((bytes, written, stands_for)) = &mut this.replacing else {
            return Pin::new(&mut this.inner).poll_write(cx, buf);
        };
        while *written < bytes.len() {
            let n = ready!(Pin::new(&mut this.inner).poll_write(cx, &bytes[*written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *written += n;
        }
        let done = *stands_for;
        this.replacing = None;
        Poll::Ready(Ok(done))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        // Two buffers or more are an answer with its body, never hyper's bodiless refusal;
        // one buffer is read by `poll_write`.
        let this = self.get_mut();
        let mut filled = bufs.iter().filter(|b| !b.is_empty());
        match (filled.next(), filled.next()) {
            (Some(_), Some(_)) if this.replacing.is_none() => {
                Pin::new(&mut this.inner).poll_write_vectored(cx, bufs)
            }
            (Some(one), _) => Pin::new(this).poll_write(cx, one),
            (None, _) => Poll::Ready(Ok(0)),
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DATE: &str = "Thu, 26 Nov 2026 19:00:00 GMT";

    #[test]
    fn only_hyper_s_bodiless_refusals_are_recognised() {
        for (status, reason) in [
            (400, "Bad Request"),
            (414, "URI Too Long"),
            (431, "Request Header Fields Too Large"),
        ] {
            let hyper =
                format!("HTTP/1.1 {status} {reason}\r\ncontent-length: 0\r\ndate: {DATE}\r\n\r\n");
            assert_eq!(hyper_refusal(hyper.as_bytes()), Some((status, DATE)));
            let closing = hyper.replacen("\r\n", "\r\nconnection: close\r\n", 1);
            assert_eq!(hyper_refusal(closing.as_bytes()), Some((status, DATE)));
        }
        for other in [
            format!("HTTP/1.1 200 OK\r\ncontent-length: 0\r\ndate: {DATE}\r\n\r\n"),
            format!(
                "HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 0\r\ndate: {DATE}\r\n\r\n"
            ),
            format!("HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\ndate: {DATE}\r\n\r\n{{}}"),
            format!("HTTP/1.1 431 Request Header Fields Too Large\r\ndate: {DATE}\r\n\r\n"),
            "{\"error\": \"x\"}".to_string(),
        ] {
            assert_eq!(hyper_refusal(other.as_bytes()), None, "{other}");
        }
    }

    #[test]
    fn the_answer_is_the_interface_s_json_error_and_closes() {
        let answer = String::from_utf8(json_answer(431, DATE)).unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        assert!(
            head.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"),
            "{head}"
        );
        assert!(head.contains("content-type: application/json"), "{head}");
        assert!(head.contains("connection: close"), "{head}");
        assert!(
            head.contains(&format!("content-length: {}", body.len())),
            "{head}"
        );
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(json["code"], "headers_too_large");
        assert!(json["error"].as_str().unwrap().contains("64 KiB"));
    }
}
