//! The integration tests of `avdl2rs-derive`, one module per topic, linked into one test binary
//! (one link for the crate instead of one per file). A new test file goes beside this one, with
//! its `mod` line below; shared helpers are modules of their own here too.
//!
//! The compile tests live here rather than with the cross-crate tests because trybuild builds its
//! cases in a project of its own with every dependency and dev-dependency of the crate under
//! test: this crate's are the few the derive needs.

mod derive_trybuild;
