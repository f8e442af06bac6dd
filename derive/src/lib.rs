//! # avdl2rs-derive
//!
//! The `Avro` derive macro, re-exported by the `avdl2rs` runtime crate. This crate is a shim:
//! the expansion works on `proc_macro2` tokens (`expand`) and is unit-tested as such.
//!
//! A derived type and a generated one with the same schema must agree exactly, so the
//! derive uses the same code as codegen: the codec emitter and its schema nodes (`avdl2rs-emit`,
//! which writes the JSON and the Parsing Canonical Form through the schema model).
//! Neither depends on the runtime crate, which is what lets the runtime re-export this macro.
//!
//! See the runtime crate's documentation of `Avro` for the supported shapes and attributes.

#![warn(missing_docs)]

use proc_macro::TokenStream;

mod attrs;
mod errors;
mod expand;
mod names;
mod one_of;
mod shapes;
mod types;

/// The codec emitter, shared with `avdl2rs-codegen`.
use avdl2rs_emit as emit;

/// Derives `AvroSchema`, `AvroEncode` and `AvroDecode` of the `avdl2rs` runtime, with the
/// codec generated code has for the same schema.
///
/// ```text
/// #[derive(avdl2rs::Avro)]
/// #[avro(namespace = "com.example")]
/// #[serde(rename_all = "camelCase")]
/// struct Order {
///     order_id: avdl2rs::uuid::Uuid,
///     #[avro(precision = 10, scale = 2)]
///     total: avdl2rs::logical::Decimal,
///     #[avro(default = "EUR")]
///     currency: String,
///     note: Option<String>,            // ["null", "string"], default null
///     next: Option<Box<Order>>,        // recursion: refers to "com.example.Order"
/// }
/// ```
///
/// Shapes: a struct with named fields is a record; a unit-only enum an Avro enum; an enum of
/// one-field tuple variants a union (`Null(())` is the null branch); a tuple struct around
/// `[u8; N]` a fixed. Field types: `()`, `bool`, `i32`, `i64`, `f32`, `f64`, `String`,
/// `Vec<u8>` (bytes), `Vec<T>`, `HashMap<String, T>`/`BTreeMap<String, T>`, `Option<T>`
/// (`["null", T]` with default null, or `[T, "null"]` with `null_last` or a non-null
/// default), `Box<T>` of a derived type, other derived types, `Decimal`, `Duration`,
/// `uuid::Uuid` and the chrono types `NaiveDate`, `NaiveTime`, `DateTime<Utc>`,
/// `NaiveDateTime`.
///
/// Container attributes, `#[avro(...)]`:
/// * `name = ".."`, `namespace = ".."` — the full name (default: the Rust ident, no namespace);
/// * `doc = ".."` — default: the doc comment;
/// * `aliases = ["..", ..]` (or `alias = ".."`, repeatable);
/// * `rename_all = ".."` — serde's rules, for fields or symbols (`#[serde(rename_all)]` too);
/// * `crate = ".."` — the path of the runtime crate (default `::avdl2rs`), for a crate that
///   depends on it under another name or re-exports it.
///
/// A key is written once per item (except `alias`); an unknown or repeated key is an error at
/// its span. The impls are trait impls only: the derive adds no inherent method to the type,
/// so its own methods never clash with the expansion's.
///
/// Field attributes:
/// * `rename = ".."` (or `#[serde(rename = "..")]`), `doc`, `aliases`, `order = "ascending" |
///   "descending" | "ignore"`;
/// * `default = <literal | null | [..]>` or `default_json = "<json>"`, checked against the
///   field's type at compile time (except for types of other derives, known only there);
/// * `logical = ".."` — the date/time logical type of a chrono type (defaults: `date`,
///   `time-micros`, `timestamp-micros`, `local-timestamp-micros`), or a logical type
///   annotation on an `i32`, `i64` or `String`;
/// * `precision = N`, `scale = N` — of a `Decimal` (precision required);
/// * `fixed = "Name"` and `size = N` — put a `Decimal` or `Uuid` on a named fixed, or name the
///   fixed of a `Duration` (default `Duration`);
/// * `null_last` — write an `Option` as `[T, "null"]`; `bytes` — documents `Vec<u8>`.
///
/// Variant attributes of Avro enums: `rename = ".."`, `default` (the enum's default symbol).
/// Attributes on a union variant's field apply to that branch.
///
/// Rejected, each error at its span and all reported at once: generic types, tuple structs
/// other than fixed, unit structs, mixed or empty enums, integer types Avro lacks, map keys
/// other than `String`, `Option<Option<T>>`, `Box` of a non-derived type, union branches of
/// the same Avro type, an `Option` or union enum as a union branch, a union holding itself,
/// invalid names and defaults that do not fit.
#[proc_macro_derive(Avro, attributes(avro, serde))]
pub fn derive_avro(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand::derive(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Derives the runtime's `OneOf` (and `resolve::Resolvable`) for an enum whose variants each
/// hold one generated or derived type: a value of one of several record types, as a topic
/// carrying several types under RecordNameStrategy or TopicRecordNameStrategy holds them.
/// A reader picks the variant by the writer schema's full name (or an alias of a variant's
/// type); each variant is written in its own type's encoding.
///
/// ```text
/// #[derive(avdl2rs::AvroOneOf)]
/// enum OrderEvent {
///     Created(OrderCreated),
///     Paid(OrderPaid),
///     #[avro(other)]
///     Other(avdl2rs::generic::GenericRecord),   // any other writer type
/// }
/// ```
///
/// A variant marked `#[avro(other)]`, holding an `avdl2rs::generic::GenericRecord`, takes the
/// records of writer types no variant is; without one, they are an error. The enum takes
/// `#[avro(crate = "..")]` as `Avro` does. Rejected: variants holding other than one value,
/// two catch-alls, and (when the types' constants are evaluated) two variants whose types
/// have one full name.
#[proc_macro_derive(AvroOneOf, attributes(avro))]
pub fn derive_avro_one_of(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    one_of::derive(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
