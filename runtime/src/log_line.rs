//! The log's format: tracing-subscriber's default (`Format<Full, SystemTime>`), with the one
//! line written per request formatted by hand. That line is most of what the log holds, and
//! the general formatter (field visitors, level and target through `fmt::write`, a timestamp
//! computed from the calendar every time) cost about 5% of a worker's time under load
//! (BENCHMARKS.md, "Routing index and the request line"). The bytes are the same:
//! `log_line::tests` formats events both ways and compares them.
//!
//! In the server (`main.rs`, plain output) the request line does not go through `tracing` at
//! all: `request` formats it into a buffer and queues it on the log writer (`log_writer.rs`)
//! itself, which saves `tracing`'s dispatch (the filter's and the registry's per-event work,
//! the field visitors), about 3,400 instructions a request (BENCHMARKS.md, "The request line
//! straight into the log queue"). Whether the `RUST_LOG` filter lets the line through is asked
//! once, when that is set up (`write_requests_to`): the filter is read at start and never
//! changes after. The same bytes, the same queue, the same overflow (dropped and counted).

use std::cell::RefCell;
use std::fmt::{self, Write as _};
use std::sync::OnceLock;

use chrono::{Datelike, Timelike};
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::fmt::format::{Format, Full, Writer};
use tracing_subscriber::fmt::time::SystemTime;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;
use warp::http::Method;

use crate::log_writer::NonBlocking;

/// The request line's target (the module that answers requests, `http`).
const REQUEST_TARGET: &str = "saferef_runtime::http";

/// The queue request lines go to without `tracing`, once `write_requests_to` set it.
static STRAIGHT: OnceLock<NonBlocking> = OnceLock::new();

/// From now on, queues request lines on `sink` without `tracing`, if the subscriber in place
/// would log the line (its filter, as `RUST_LOG` set it, read now: it does not change after)
/// and writes it `plain` (no colours: a coloured line keeps the default format). Otherwise
/// request lines keep going through `tracing`.
pub fn write_requests_to(sink: &NonBlocking, plain: bool) {
    if plain && request_line_enabled() {
        // Set once per process (`main.rs`); a second call keeps the first sink.
        let _ = STRAIGHT.set(sink.clone());
    }
}

/// Whether the current subscriber lets the request line through: asked with the line's own
/// target, level and field names, as a filter's directives match them.
fn request_line_enabled() -> bool {
    tracing::enabled!(
        kind: tracing::metadata::Kind::EVENT,
        target: REQUEST_TARGET,
        Level::INFO,
        { message, request_id, method, path, status, latency_us }
    )
}

/// Logs the request's line (RELIABILITY.md, "Logging"): straight into the queue once
/// `write_requests_to` set it up, through `tracing` otherwise.
pub fn request(id: u64, method: &Method, path: &str, status: u16, latency_us: u64) {
    match STRAIGHT.get() {
        Some(sink) => sink.send(line(id, method, path, status, latency_us)),
        None => tracing::info!(
            target: REQUEST_TARGET,
            request_id = id,
            method = %method,
            path = %path,
            status,
            latency_us,
            "request"
        ),
    }
}

/// The longest request line but its path: the timestamp (27), the fixed words (84), a
/// standard method (at most 7), the id and latency of 20 digits each, a status of 3. The
/// buffer is made once and not grown (an extension method may grow it).
const LINE_ROOM: usize = 161;

/// The request line as `Lines` writes the event `request` logs, its timestamp now.
fn line(id: u64, method: &Method, path: &str, status: u16, latency_us: u64) -> Vec<u8> {
    let mut text = String::with_capacity(LINE_ROOM + path.len());
    // Writing to a `String` fails only if `digits` meets a non-digit, which it never makes.
    let _ = write_line(&mut text, id, method, path, status, latency_us);
    text.into_bytes()
}

fn write_line(
    w: &mut String,
    id: u64,
    method: &Method,
    path: &str,
    status: u16,
    latency_us: u64,
) -> fmt::Result {
    timestamp(w)?;
    w.push_str("  INFO ");
    w.push_str(REQUEST_TARGET);
    w.push_str(": request request_id=");
    digits(w, id, 1)?;
    w.push_str(" method=");
    w.push_str(method.as_str());
    w.push_str(" path=");
    w.push_str(path);
    w.push_str(" status=");
    digits(w, u64::from(status), 1)?;
    w.push_str(" latency_us=");
    digits(w, latency_us, 1)?;
    w.push('\n');
    Ok(())
}

/// The service's event format (`main.rs`).
#[derive(Debug, Default)]
pub struct Lines {
    full: Format<Full, SystemTime>,
}

impl<S, N> FormatEvent<S, N> for Lines
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        let meta = event.metadata();
        // Only the request line, written plain (no colours) and outside any span: what the
        // default format writes then is the timestamp, the level, the target and the fields.
        let by_hand = !writer.has_ansi_escapes()
            && *meta.level() == Level::INFO
            && meta.target() == REQUEST_TARGET
            && event.is_contextual()
            && ctx.lookup_current().is_none();
        if !by_hand {
            return self.full.format_event(ctx, writer, event);
        }
        timestamp(&mut writer)?;
        // The timestamp's separating space, then the level right-aligned in 5 characters.
        writer.write_str("  INFO ")?;
        writer.write_str(meta.target())?;
        writer.write_str(": ")?;
        let mut fields = Fields {
            writer: &mut writer,
            first: true,
            result: Ok(()),
        };
        event.record(&mut fields);
        fields.result?;
        writer.write_char('\n')
    }
}

/// The current time as `SystemTime` writes it (`2026-11-27T05:05:32.655168Z`): the calendar
/// part is worked out once a second per thread, the microseconds every time.
fn timestamp(w: &mut impl fmt::Write) -> fmt::Result {
    thread_local! {
        static SECOND: RefCell<(i64, String)> = const { RefCell::new((i64::MIN, String::new())) };
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let secs = i64::try_from(now.as_secs()).unwrap_or(i64::MAX);
    SECOND.with(|second| {
        let mut second = second.borrow_mut();
        if second.0 != secs {
            let at = chrono::DateTime::from_timestamp(secs, 0).unwrap_or_default();
            second.1.clear();
            write!(
                second.1,
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.",
                at.year(),
                at.month(),
                at.day(),
                at.hour(),
                at.minute(),
                at.second()
            )?;
            second.0 = secs;
        }
        w.write_str(&second.1)
    })?;
    digits(w, u64::from(now.subsec_micros()), 6)?;
    w.write_char('Z')
}

/// `value` in decimal, zero-padded to `width` digits: as `{:0width$}` writes it.
fn digits(w: &mut impl fmt::Write, mut value: u64, width: usize) -> fmt::Result {
    let mut buf = [b'0'; 20];
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    let at = at.min(buf.len() - width.min(buf.len()));
    w.write_str(std::str::from_utf8(&buf[at..]).map_err(|_| fmt::Error)?)
}

/// The fields as `DefaultFields` writes them: the message bare, then `name=value` with each
/// value's `Debug`, separated by spaces; whole numbers straight into the line.
struct Fields<'w, 'a> {
    writer: &'w mut Writer<'a>,
    first: bool,
    result: fmt::Result,
}

impl Fields<'_, '_> {
    fn name(&mut self, field: &Field) -> fmt::Result {
        if !std::mem::take(&mut self.first) {
            self.writer.write_char(' ')?;
        }
        if field.name() != "message" {
            self.writer
                .write_str(field.name().strip_prefix("r#").unwrap_or(field.name()))?;
            self.writer.write_char('=')?;
        }
        Ok(())
    }
}

impl Visit for Fields<'_, '_> {
    fn record_u64(&mut self, field: &Field, value: u64) {
        if self.result.is_ok() {
            self.result = self
                .name(field)
                .and_then(|()| digits(self.writer, value, 1));
        }
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        match field.name() {
            "message" => self.record_debug(field, &format_args!("{value}")),
            _ => self.record_debug(field, &value),
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        if self.result.is_ok() {
            self.result = self
                .name(field)
                .and_then(|()| write!(self.writer, "{value:?}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    use tracing_subscriber::fmt::MakeWriter;

    use super::*;

    /// Lines written to memory.
    #[derive(Clone, Default)]
    struct Memory(Arc<Mutex<Vec<u8>>>);

    impl Write for Memory {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl<'a> MakeWriter<'a> for Memory {
        type Writer = Memory;

        fn make_writer(&'a self) -> Memory {
            self.clone()
        }
    }

    /// The request line and its neighbours, logged by a subscriber of `format`.
    fn logged(
        format: impl FormatEvent<
            tracing_subscriber::Registry,
            tracing_subscriber::fmt::format::DefaultFields,
        > + Send
        + Sync
        + 'static,
    ) -> String {
        let memory = Memory::default();
        let subscriber = tracing_subscriber::fmt()
            .with_ansi(false)
            .with_writer(memory.clone())
            .event_format(format)
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            // `request` through `tracing`: no straight queue is set up in this test.
            request(7, &Method::GET, "/api/search", 200, 431);
            request(
                u64::MAX,
                &Method::DELETE,
                "/api/watchlist/x y\u{1b}",
                404,
                0,
            );
            tracing::info!(target: REQUEST_TARGET, count = -3, ok = true, "other");
            tracing::warn!("elsewhere {}", 1);
            tracing::info_span!("a span").in_scope(|| {
                request(8, &Method::GET, "/api/health", 200, 5);
            });
        });
        String::from_utf8(memory.0.lock().unwrap().clone()).unwrap()
    }

    /// The line with its timestamp set aside (the two formatters run at other instants).
    fn untimed(text: &str) -> Vec<String> {
        text.lines()
            .map(|l| {
                let (time, rest) = l.split_once(' ').unwrap();
                // `2026-11-27T05:05:32.655168Z`: the same width and shape either way.
                assert_eq!(time.len(), 27, "{l}");
                assert!(time.ends_with('Z') && time.as_bytes()[10] == b'T', "{l}");
                rest.to_string()
            })
            .collect()
    }

    #[test]
    fn the_request_line_is_written_as_the_default_format_writes_it() {
        let by_hand = logged(Lines::default());
        let default = logged(Format::<Full, SystemTime>::default());
        assert_eq!(untimed(&by_hand), untimed(&default));
        assert_eq!(by_hand.lines().count(), 5, "{by_hand}");
        assert!(
            by_hand.contains(
                " INFO saferef_runtime::http: request request_id=7 method=GET path=/api/search status=200 latency_us=431\n"
            ),
            "{by_hand}"
        );
    }

    #[test]
    fn the_longest_request_line_fits_the_room_it_is_given() {
        let path = "/api/compound/x";
        for method in [Method::OPTIONS, Method::CONNECT, Method::GET] {
            let longest = line(u64::MAX, &method, path, 599, u64::MAX);
            assert!(longest.len() <= LINE_ROOM + path.len(), "{}", longest.len());
            assert_eq!(longest.capacity(), LINE_ROOM + path.len(), "never grown");
        }
    }

    #[test]
    fn numbers_are_written_as_debug_writes_them() {
        for (value, width) in [
            (0, 1),
            (7, 1),
            (431, 1),
            (u64::MAX, 1),
            (0, 6),
            (42, 6),
            (999_999, 6),
        ] {
            let mut mine = String::new();
            digits(&mut mine, value, width).unwrap();
            assert_eq!(mine, format!("{value:0width$}"));
        }
    }

    #[test]
    fn timestamps_are_the_default_formats() {
        for _ in 0..3 {
            let mut mine = String::new();
            timestamp(&mut Writer::new(&mut mine)).unwrap();
            let mut theirs = String::new();
            tracing_subscriber::fmt::time::FormatTime::format_time(
                &SystemTime,
                &mut Writer::new(&mut theirs),
            )
            .unwrap();
            // Taken at two instants: the same second (or the next), the same shape.
            assert_eq!(mine.len(), theirs.len(), "{mine} {theirs}");
            assert!(mine[..19] <= theirs[..19], "{mine} {theirs}");
            assert_eq!(&mine[19..20], ".");
        }
    }

    /// Requests of every kind the line must carry unchanged: methods (an extension one too),
    /// paths with spaces, quotes, escapes, non-ASCII and control characters, numbers at their
    /// ends.
    fn requests() -> Vec<(u64, Method, String, u16, u64)> {
        let methods = [
            Method::GET,
            Method::HEAD,
            Method::POST,
            Method::OPTIONS,
            Method::from_bytes(b"PURGE").unwrap(),
        ];
        let paths = [
            "/",
            "/api/health",
            "/api/compound/hq-c-org-000145",
            "/api/watchlist/x y\u{1b}[31m",
            "/api/search/\"quoted\"\\back",
            "/api/lookup/ß-naphthol/é",
            "/a\tb",
        ];
        (0..1000u64)
            .map(|i| {
                let method = methods[i as usize % methods.len()].clone();
                let path = format!(
                    "{}{}",
                    paths[i as usize % paths.len()],
                    "x".repeat(i as usize % 3)
                );
                let id = [0, 1, i, u64::MAX][i as usize % 4];
                let latency = [0, 9, 10, 999_999, u64::MAX][i as usize % 5];
                (
                    id,
                    method,
                    path,
                    [200, 204, 404, 429, 503][i as usize % 5],
                    latency,
                )
            })
            .collect()
    }

    #[test]
    fn request_lines_queued_straight_are_every_one_the_default_formats() {
        let memory = Memory::default();
        let sink = crate::log_writer::start(4096, memory.clone());
        for (id, method, path, status, latency) in requests() {
            sink.send(line(id, &method, &path, status, latency));
        }
        sink.flush(std::time::Duration::from_secs(30));
        let straight = String::from_utf8(memory.0.lock().unwrap().clone()).unwrap();
        // The same requests as `tracing` events in the default format.
        let theirs = Memory::default();
        let subscriber = tracing_subscriber::fmt()
            .with_ansi(false)
            .with_writer(theirs.clone())
            .event_format(Format::<Full, SystemTime>::default())
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            for (id, method, path, status, latency) in requests() {
                request(id, &method, &path, status, latency);
            }
        });
        let default = String::from_utf8(theirs.0.lock().unwrap().clone()).unwrap();
        assert_eq!(straight.lines().count(), 1000, "a line lost");
        assert_eq!(untimed(&straight), untimed(&default));
    }

    #[test]
    fn the_filter_lets_the_straight_line_through_as_it_lets_the_event() {
        for (filter, expected) in [
            ("info", true),
            ("warn", false),
            ("saferef_runtime::http=warn", false),
            ("saferef_runtime=off", false),
            ("warn,saferef_runtime::http=info", true),
            ("warn,saferef_runtime=info", true),
            ("info,saferef_runtime::http[{latency_us}]=off", false),
            ("info,saferef_runtime::http[{no_such_field}]=off", true),
            ("off", false),
        ] {
            let memory = Memory::default();
            let subscriber = tracing_subscriber::fmt()
                .with_ansi(false)
                .with_writer(memory.clone())
                .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
                .finish();
            let enabled = tracing::subscriber::with_default(subscriber, || {
                request(1, &Method::GET, "/api/health", 200, 5);
                request_line_enabled()
            });
            let logged = !memory.0.lock().unwrap().is_empty();
            assert_eq!((enabled, logged), (expected, expected), "{filter}");
        }
    }
}
