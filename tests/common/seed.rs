//! One seed for the property tests, so that a CI run and a run on a laptop generate the same
//! cases and a failure is reproduced by running the test again.
//!
//! `PROPTEST_RNG_SEED=<u64>` generates other cases (proptest reads it, as it reads
//! `PROPTEST_CASES`); a failure it finds is saved to the test's `.proptest-regressions` file
//! and replayed first from then on.

use proptest::test_runner::{Config, RngSeed};

/// The seed used when `PROPTEST_RNG_SEED` is not set.
pub const SEED: u64 = 20_261_206;

/// proptest's configuration with `cases` cases (unless `PROPTEST_CASES` says otherwise) and a
/// fixed seed (unless `PROPTEST_RNG_SEED` says otherwise).
pub fn config(cases: u32, source_file: &'static str) -> Config {
    let mut c = Config {
        cases,
        source_file: Some(source_file),
        ..Config::default()
    };
    // Config::default() has read the PROPTEST_* variables; keep the ones set.
    if let Some(n) = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        c.cases = n;
    }
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        c.rng_seed = RngSeed::Fixed(SEED);
    }
    c
}
