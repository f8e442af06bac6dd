//! The integration tests of this crate, one module per topic, linked into one test binary.
//! A new test file goes beside this one, with its `mod` line below.
mod block_budget;
mod block_copy;
mod damage;
mod files;
