//! The integration tests of this crate, one module per topic, linked into one test binary.
//! They run against a real broker (`.ci/kafka-broker`) and a real registry
//! (`.ci/registry-server`); without them each test prints `skipped: …` and passes, except
//! under CI, where it fails. A new test file goes beside this one, with its `mod` line below.

mod support;

mod cancel;
mod evolution;
mod outage;
mod poison;
mod python_interop;
mod restart;
mod roundtrip;
