//! What generation yields: the source and the types in it.

use std::path::PathBuf;

use crate::DeepNesting;

/// A generated type with an Avro name (record, error, enum or fixed).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct GeneratedType {
    /// The Avro full name, e.g. `com.example.OrderEvent`.
    pub full_name: String,
    /// The Rust path relative to the generated root, e.g. `com::example::OrderEvent`.
    pub rust_path: String,
}

/// The code generated from a builder's inputs, before it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The Rust source, formatted, with an `@generated` header.
    pub source: String,
    /// Every generated named type, with its Rust path relative to the included root.
    pub types: Vec<GeneratedType>,
    /// Every schema file read, inputs and imports, in the order read.
    pub files_read: Vec<PathBuf>,
    /// The type nesting too deeply for rustc's default recursion limit, if one does: the
    /// including crate must raise the limit (see [`crate::Generator::deep_nesting`]).
    pub deep_nesting: Option<DeepNesting>,
}
