//! # avdl2rs-emit
//!
//! The codec model and its emitters: Avro shape + Rust idents in, `AvroEncode`/`AvroDecode`
//! impls and the schema item (`AvroSchema` and the schema node) out.
//!
//! Generated code and the `Avro` derive both call this crate, so a hand-written struct and a
//! generated one with the same schema get the same codec. The emitter knows nothing about
//! schema files or naming: its caller says, per type, which Rust idents and types stand for
//! which Avro shapes ([`Value`]), and the emitter writes straight-line code — one expression
//! per field, unions as `match`, nested named types through their own trait impls.
//!
//! The crate is the model ([`Value`], [`Shape`], [`TypeCodec`]: `model`), the encode and
//! decode emitters (`encode`, `decode`, joined into one type's impls by `impls`), the texts of
//! schema nodes ([`node`]: a type's own schema, the pieces from which the runtime assembles
//! the standalone schema at compile time) and the item that writes them ([`schema_item`]).
//! Apart from the codecs, [`one_of_impls`] gives an enum of types with schemas the runtime's
//! `OneOf`, for the `AvroOneOf` derive and for the enums the generator writes, and
//! [`RenameRule`] spells serde's `rename_all` conventions for both, so that the Avro names of
//! fields and symbols are the names serde gives them.
//!
//! It depends only on `proc-macro2`, `quote`, `syn`, the schema model and `serde_json`, so the
//! proc-macro crate can call it without pulling the runtime, the IDL parser or the code
//! formatter into its own build (and so into every build of a program using the runtime's
//! default features).
//!
//! The emitted impls are meant to sit inside a `const _: () = { ... };` block (see
//! [`wrap_in_const`]) and use only fully qualified paths; a schema item stands on its own.

#![warn(missing_docs)]

/// The README, this crate's guide: `cargo test --doc` compiles and runs its snippets.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme_doctests {}

mod context;
pub mod decode;
mod encode;
mod impls;
mod model;
pub mod node;
mod one_of;
mod schema_item;
mod serde_case;
#[cfg(test)]
mod tests;
mod time;

/// The schema model's logical types, whose spellings [`TimeKind`] and the derive read.
pub use avdl2rs_schema::LogicalType;

pub use impls::{type_impls, wrap_in_const};
pub use model::{Logical, RecordField, Shape, TypeCodec, UnionVariant, Value};
pub use one_of::{one_of_impls, OneOfEnum, OneOfVariant};
pub use schema_item::{schema_item, ItemKind, Measured};
pub use serde_case::RenameRule;
pub use time::{TimeCrate, TimeKind};

/// Whether rustc refuses `c` in a comment or string literal of generated source: the
/// Unicode controls that change the visible direction of text (U+202A to U+202E, U+2066 to
/// U+2069), denied by the `text_direction_codepoint_in_comment` and `…_in_literal` lints,
/// since they can make code read differently from how it compiles. Schema docs and names
/// are free text, so emitters escape these.
pub fn changes_text_direction(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}
