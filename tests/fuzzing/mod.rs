//! What the proptest targets (fuzz_generator.rs, fuzz_runtime.rs) share.

use proptest::test_runner::Config as ProptestConfig;

/// `cases` per property (`PROPTEST_CASES` overrides it for a longer hunt), and no failure
/// file written beside the tests: an input that failed becomes a named regression instead.
pub fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(cases),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}
