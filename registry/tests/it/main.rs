//! The integration tests of this crate, one module per topic, linked into one test binary.
//! A new test file goes beside this one, with its `mod` line below.
// First, so that the modules after it can use its macros.
#[macro_use]
mod support;

mod deprecated_names;
mod fake_registry;
mod generic_serdes;
mod metrics;
mod one_of;
mod python_interop;
mod real_registry;
mod rules;
mod serdes;
mod tls;
