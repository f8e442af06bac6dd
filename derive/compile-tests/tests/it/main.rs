//! The compile tests of `#[derive(Avro)]` that run under the test harness, one module per topic,
//! linked into one test binary (one link for the package instead of one per file). A new test
//! file goes beside this one, with its `mod` line below.
//!
//! The compile tests live in this package rather than with the cross-crate tests because
//! trybuild builds its cases in a project of its own with every dependency and dev-dependency
//! of the package under test: this package's are the runtime alone.

mod derive_trybuild;
