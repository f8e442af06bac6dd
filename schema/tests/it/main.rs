//! The integration tests of `avdl2rs-schema`, one module per topic, linked into one test binary
//! (one link for the crate instead of one per file). A new test file goes beside this one, with its
//! `mod` line below; shared helpers are modules of their own here too.

mod deprecated_names;
mod schema_canonical;
mod schema_conformance;
mod schema_errors;
mod schema_model;
