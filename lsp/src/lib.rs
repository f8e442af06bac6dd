//! # avdl2rs-lsp
//!
//! A language server for Avro IDL (`.avdl`) and schema (`.avsc`, `.avpr`) files.

#![warn(missing_docs)]

pub mod analysis;
