//! The `avdl2rs` command line.

fn main() {}
