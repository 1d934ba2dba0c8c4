//! The log sink: every line (a request line included) is handed to one writer thread through a
//! bounded queue, so no request ever waits on stderr. When the queue is full (stderr stalled or
//! slower than the request rate) the line is dropped, never waited for; drops are counted
//! (`dropped`, reported by `GET /api/health?check=monitor` as `log_lines_dropped`) and the
//! writer says how many were lost in the next line it writes (RELIABILITY.md, "Logging").

use std::io::Write;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};

use tracing_subscriber::fmt::MakeWriter;

/// Lines the queue holds before it drops: about a second of request lines at full rate.
pub const DEFAULT_CAPACITY: usize = 65_536;

/// How long the writer rests after writing a burst. Lines wait at most this much longer to be
/// written; the queue holds far more than this many milliseconds of lines at full rate.
const BATCH_PAUSE: std::time::Duration = std::time::Duration::from_millis(2);

static DROPPED: AtomicU64 = AtomicU64::new(0);
/// The queue's sender, kept to flush at shutdown.
static SINK: OnceLock<NonBlocking> = OnceLock::new();

#[derive(Debug)]
enum Message {
    Line(Vec<u8>),
    /// Answered once every line queued before it is written.
    Flush(SyncSender<()>),
}

/// Log lines dropped since the process started because the queue was full.
pub fn dropped() -> u64 {
    DROPPED.load(Ordering::Relaxed)
}

/// The writer half the subscriber formats into: one buffer per event, queued whole.
#[derive(Debug, Clone)]
pub struct NonBlocking {
    tx: SyncSender<Message>,
}

/// Starts the writer thread over `out` with a queue of `capacity` lines.
pub fn start(capacity: usize, out: impl Write + Send + 'static) -> NonBlocking {
    let (tx, rx) = sync_channel(capacity.max(1));
    std::thread::Builder::new()
        .name("log-writer".into())
        .spawn(move || write_lines(rx, out))
        .expect("the log writer thread starts");
    let sink = NonBlocking { tx };
    // The first sink is the process's; `flush` waits on it.
    let _ = SINK.set(sink.clone());
    sink
}

/// Waits (at most `timeout`) until every line the process queued so far is written: at
/// shutdown.
pub fn flush(timeout: std::time::Duration) {
    if let Some(sink) = SINK.get() {
        sink.flush(timeout);
    }
}

impl NonBlocking {
    /// Queues one whole line, as a line the subscriber formats is queued: dropped and counted
    /// when the queue is full (the request line, formatted without `tracing`: `log_line.rs`).
    pub fn send(&self, line: Vec<u8>) {
        queue(&self.tx, line);
    }

    /// Waits (at most `timeout`) until every line queued on this sink so far is written.
    pub fn flush(&self, timeout: std::time::Duration) {
        let (ack, done) = sync_channel(1);
        if self.tx.send(Message::Flush(ack)).is_ok() {
            let _ = done.recv_timeout(timeout);
        }
    }
}

fn write_lines(rx: Receiver<Message>, out: impl Write) {
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, out);
    let mut reported = 0;
    while let Ok(first) = rx.recv() {
        let mut next = Some(first);
        // Everything already queued is written in one go, then flushed: one write call per
        // burst rather than per line.
        while let Some(message) = next {
            match message {
                Message::Line(line) => {
                    let lost = dropped();
                    if lost > reported {
                        let _ = writeln!(
                            out,
                            "log: {} line(s) dropped because the log queue was full ({lost} since start)",
                            lost - reported
                        );
                        reported = lost;
                    }
                    let _ = out.write_all(&line);
                }
                Message::Flush(ack) => {
                    let _ = out.flush();
                    let _ = ack.send(());
                }
            }
            next = rx.try_recv().ok();
        }
        let _ = out.flush();
        // Not waiting on the queue for a while: the lines of that while are written in the
        // next burst, and a request queueing one finds no waiting writer to wake (a futex
        // call and a context switch per line otherwise, under load).
        std::thread::sleep(BATCH_PAUSE);
    }
}

/// One event's bytes, queued when the subscriber is done with it.
#[derive(Debug)]
pub struct Line<'a> {
    buf: Vec<u8>,
    tx: &'a SyncSender<Message>,
}

impl Write for Line<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for Line<'_> {
    fn drop(&mut self) {
        if self.buf.is_empty() {
            return;
        }
        queue(self.tx, std::mem::take(&mut self.buf));
    }
}

/// Queues `line` unless the queue is full (or its writer gone): then it is dropped and counted.
fn queue(tx: &SyncSender<Message>, line: Vec<u8>) {
    match tx.try_send(Message::Line(line)) {
        Ok(()) => {}
        Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => {
            DROPPED.fetch_add(1, Ordering::Relaxed);
        }
    }
}

impl<'a> MakeWriter<'a> for NonBlocking {
    type Writer = Line<'a>;

    fn make_writer(&'a self) -> Line<'a> {
        Line {
            buf: Vec::with_capacity(256),
            tx: &self.tx,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::Sender;
    use std::sync::{Arc, Condvar, Mutex};

    /// A sink that says when it is first written to, blocks until the test opens it, then
    /// keeps what it is given.
    struct Gate {
        open: Arc<(Mutex<bool>, Condvar)>,
        entered: Sender<()>,
        seen: Arc<Mutex<Vec<u8>>>,
    }

    impl Write for Gate {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            let _ = self.entered.send(());
            let (open, cv) = &*self.open;
            let mut o = open.lock().unwrap();
            while !*o {
                o = cv.wait(o).unwrap();
            }
            self.seen.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_stalled_sink_drops_and_counts_lines_and_says_so_when_it_resumes() {
        let open = Arc::new((Mutex::new(false), Condvar::new()));
        let (entered, stalled) = std::sync::mpsc::channel();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = start(
            4,
            Gate {
                open: open.clone(),
                entered,
                seen: seen.clone(),
            },
        );
        let write = |text: &str| {
            let mut line = sink.make_writer();
            writeln!(line, "{text}").unwrap();
        };
        write("first");
        stalled.recv().unwrap();
        // The writer is stuck in the sink: 4 lines fit in the queue, the other 46 are dropped
        // and counted, and none of these writes waits for the sink.
        let before = dropped();
        for i in 0..50 {
            write(&format!("line {i}"));
        }
        assert_eq!(dropped() - before, 46);
        *open.0.lock().unwrap() = true;
        open.1.notify_all();
        // Once the queue is written out, lines are kept again.
        sink.flush(std::time::Duration::from_secs(30));
        write("after");
        sink.flush(std::time::Duration::from_secs(30));
        let text = String::from_utf8(seen.lock().unwrap().clone()).unwrap();
        assert_eq!(
            text,
            "first\nlog: 46 line(s) dropped because the log queue was full (46 since start)\n\
             line 0\nline 1\nline 2\nline 3\nafter\n"
        );
    }
}
