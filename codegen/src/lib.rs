//! # avdl2rs-codegen
//!
//! Turns Avro schemas (IDL, `.avsc`, `.avpr`) into Rust source.
