//! The integrity verdict of a release's static tree (`GET /api/health?check=integrity`):
//! whether every file matches the build's manifest. Hashing the tree reads every file (over
//! 160,000 in a full build, seconds of work), so it never runs on an async worker: a check
//! runs on a thread of its own, one at a time per release, while requests are answered with
//! the last verdict. A release checks its tree once when it is loaded; after that, only a
//! keyed caller or an administrator may start a new check, at most once a minute.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A verdict younger than this is not recomputed.
pub const FRESH: Duration = Duration::from_secs(60);

#[derive(Debug)]
pub struct Integrity {
    root: PathBuf,
    fingerprint: String,
    state: Arc<Mutex<State>>,
}

#[derive(Debug, Default)]
struct State {
    /// The last verdict and when its check ended.
    verdict: Option<(Instant, bool)>,
    running: bool,
}

impl Integrity {
    /// The checker of the tree at `root` against the dataset `fingerprint`; its first check
    /// starts now.
    pub fn start(root: PathBuf, fingerprint: String) -> Integrity {
        let integrity = Integrity {
            root,
            fingerprint,
            state: Arc::new(Mutex::new(State::default())),
        };
        integrity.verdict(true);
        integrity
    }

    /// The last verdict (`None` before the first check ended). When `may_start` and the
    /// verdict is over a minute old and no check runs, a new check starts; this call never
    /// waits for it.
    pub fn verdict(&self, may_start: bool) -> Option<bool> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let fresh = state.verdict.is_some_and(|(at, _)| at.elapsed() < FRESH);
        if may_start && !fresh && !state.running {
            state.running = true;
            let (root, fingerprint, shared) = (
                self.root.clone(),
                self.fingerprint.clone(),
                Arc::clone(&self.state),
            );
            let spawned = std::thread::Builder::new()
                .name("integrity".into())
                .spawn(move || {
                    let ok = saferef_generator::build::site::verify(&root, &fingerprint);
                    let mut state = shared.lock().unwrap_or_else(|e| e.into_inner());
                    state.verdict = Some((Instant::now(), ok));
                    state.running = false;
                });
            if let Err(e) = spawned {
                tracing::warn!("integrity check not started: {e}");
                state.running = false;
            }
        }
        state.verdict.map(|(_, ok)| ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting(root: PathBuf) -> Integrity {
        Integrity {
            root,
            fingerprint: "fp".into(),
            state: Arc::new(Mutex::new(State::default())),
        }
    }

    #[test]
    fn only_a_caller_who_may_start_a_check_starts_one_and_none_waits_for_it() {
        let dir = tempfile::tempdir().unwrap();
        let integrity = waiting(dir.path().to_path_buf());
        // Anonymous callers are told the last verdict (none yet) and start nothing.
        for _ in 0..3 {
            assert_eq!(integrity.verdict(false), None);
            assert!(!integrity.state.lock().unwrap().running);
        }
        // A keyed caller starts one; the tree has no manifest, so the verdict is false.
        integrity.verdict(true);
        let deadline = Instant::now() + Duration::from_secs(10);
        while integrity.verdict(false).is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(integrity.verdict(false), Some(false));
        // A fresh verdict is not recomputed, whoever asks.
        integrity.verdict(true);
        assert!(!integrity.state.lock().unwrap().running);
    }
}
