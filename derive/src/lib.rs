//! # avdl2rs-derive
//!
//! The `Avro` derive macro, re-exported by the `avdl2rs` runtime crate. This crate is a shim:
//! the expansion works on `proc_macro2` tokens (`expand`) and is unit-tested as such.
//!
//! A derived type and a generated one with the same schema must agree exactly, so the
//! derive uses the same code as codegen: the codec emitter (`codegen/src/emit.rs`) and the
//! runtime's schema model (`runtime/src/schema`, which writes the JSON and the Parsing
//! Canonical Form). They are compiled here from their source files rather than used as
//! crates because the runtime depends on this crate (its `derive` feature re-exports the
//! macro), and Cargo rejects that cycle even for an optional dependency.
//!
//! See the runtime crate's documentation of `Avro` for the supported shapes and attributes.

use proc_macro::TokenStream;

mod attrs;
mod errors;
mod expand;
mod names;
mod node;
mod types;

/// The codec emitter, shared with `avdl2rs-codegen`.
#[path = "../../codegen/src/emit.rs"]
#[allow(dead_code)]
mod emit;

/// The runtime's schema model: parsing, validation, JSON and Parsing Canonical Form.
#[path = "../../runtime/src/schema/mod.rs"]
#[allow(dead_code, unused_imports)]
mod schema;

/// The CRC-64-AVRO fingerprint, which the schema model uses.
#[path = "../../runtime/src/fingerprint.rs"]
#[allow(dead_code)]
mod fingerprint;

/// Derives `AvroSchema`, `AvroEncode` and `AvroDecode` of the `avdl2rs` runtime.
///
/// * a struct with named fields is a record, a unit-only enum an Avro enum, an enum of
///   one-field tuple variants a union, a tuple struct around `[u8; N]` a fixed;
/// * container attributes `#[avro(name = "..", namespace = "..", doc = "..", aliases = [..],
///   rename_all = "..")]`; field attributes `#[avro(rename = "..", default = <json>,
///   default_json = "..", doc = "..", aliases = [..], order = "..", logical = "..",
///   precision = N, scale = N, fixed = "Name", size = N, null_last)]`; variant attributes
///   `#[avro(rename = "..", default)]`; `#[serde(rename, rename_all)]` are honoured (and accepted without serde's derives).
#[proc_macro_derive(Avro, attributes(avro, serde))]
pub fn derive_avro(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand::derive(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
