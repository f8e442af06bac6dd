//! The integration tests of this crate, one module per topic, linked into one test binary.
//! They run against a real broker (`.ci/kafka-broker`) and a real registry
//! (`.ci/registry-server`), so each is `#[ignore]`d with that reason: a plain `cargo test` lists
//! them as ignored, and `.ci/run` runs them (`--include-ignored`) with both started. A new test
//! file goes beside this one, with its `mod` line below.

mod support;

mod cancel;
mod evolution;
mod generic;
mod one_of;
mod outage;
mod poison;
mod python_interop;
mod restart;
mod roundtrip;
mod rules;
