//! Helpers that generated and derived code calls. Not a public API: it changes in lock
//! step with `avdl2rs-codegen` and `avdl2rs-derive`, which pin this crate with `=`.
//!
//! Every logical type has a pair `encode_<name>(&RustType, &mut Vec<u8>) -> Result<(),
//! EncodeError>` / `decode_<name>(&mut Reader) -> Result<RustType, DecodeError>`:
//!
//! * `logical_chrono` (feature `chrono`): `date` (`NaiveDate`), `time_millis`,
//!   `time_micros` (`NaiveTime`), `timestamp_millis`, `timestamp_micros`, `timestamp_nanos`
//!   (`DateTime<Utc>`), `local_timestamp_millis`, `local_timestamp_micros`,
//!   `local_timestamp_nanos` (`NaiveDateTime`);
//! * `logical_time` (feature `time`): the same names for `Date`, `Time`, `OffsetDateTime`
//!   and `PrimitiveDateTime`;
//! * in both, for each of those names, a module `serde_<name>` (and `serde_<name>::option`)
//!   for `#[serde(with = "...")]`: to a human-readable format (JSON) the value as ISO 8601
//!   text (RFC 3339 for timestamps), to others its Avro count, the shape
//!   `apache_avro::to_value`/`from_value` expect;
//! * here (feature `uuid`): `encode_uuid_string`/`decode_uuid_string` (36-character
//!   hyphenated text), `encode_uuid_fixed`/`decode_uuid_fixed` (16 bytes);
//! * here: `encode_decimal_bytes(&Decimal, precision, scale, out)`/
//!   `decode_decimal_bytes(reader, precision, scale)`, `encode_decimal_fixed(&Decimal, size,
//!   precision, scale, out)`/`decode_decimal_fixed(reader, size, precision, scale)`,
//!   `encode_big_decimal`/`decode_big_decimal` (`big-decimal` on bytes),
//!   `encode_duration`/`decode_duration`;
//! * `apache_avro` (feature `apache-avro`): the crate, re-exported for generated
//!   `apache_avro::AvroSchema` impls;
//! * `serde`, re-exported, [`serde_fixed`] for the bytes of a `fixed` and [`serde_decimal`]
//!   for a `decimal` (its decimal text in human-readable formats, else its unscaled bytes),
//!   fitted to the schema's precision and scale, `serde_uuid_string` (feature `uuid`) for a
//!   `uuid` on `string` as its text in every format;
//! * the per-field steps of records (`decode_string`, `decode_optional`, `write_array`,
//!   `write_optional`, the `ErrorPath` of `field_error`...), the schema nodes and the
//!   [`schema!`](schema) macro that writes a type's `AvroSchema` impl, and re-exports of `codec`, the
//!   codec traits and errors, so that generated code needs one alias of this module
//!   (`use ::avdl2rs::__private as __avro;`) and no other runtime path.
//!
//! Encoding a value finer than the schema's unit truncates it towards the past; a value the
//! Avro representation cannot hold (or a decoded number the Rust type cannot hold) is an
//! error, never a panic.

use crate::codec::Reader;
use crate::error::EncodeErrorKind;
use crate::logical::{Decimal, Duration};

#[cfg(feature = "apache-avro")]
pub use apache_avro;

/// `serde`, re-exported so that generated serde derives need no dependency of the user's.
pub use serde;

// Generated and derived codecs reach the runtime through one alias of this module
// (`use ::avdl2rs::__private as __avro;`), so what they name is here too.
pub use crate::codec;
pub use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
pub use crate::{AvroDecode, AvroEncode};

mod fields;
pub use fields::{
    decode_bytes, decode_optional, decode_optional_union, decode_string, encode_optional_union,
    enum_index_error, read_array, union_index_error, write_array, write_map, write_optional,
    ErrorPath, NullBranch, Outcome,
};

mod schema_nodes;
// The schema nodes of generated and derived types, by the short paths their code uses.
pub use crate::__avdl2rs_schema as schema;
pub use schema_nodes::{
    canonical_form, name_in_canonical_form, schema_json, schema_len, str_eq, Form, Node, NodeRef,
    Piece, SchemaNode,
};
pub mod serde_bytes;
pub mod serde_decimal;
pub mod serde_fixed;
#[cfg(feature = "uuid")]
pub mod serde_uuid_string;

#[cfg(any(feature = "chrono", feature = "time"))]
#[macro_use]
mod macros;

#[cfg(feature = "chrono")]
pub mod logical_chrono;
#[cfg(feature = "time")]
pub mod logical_time;
#[cfg(any(feature = "chrono", feature = "time"))]
mod text_form;
#[cfg(any(feature = "chrono", feature = "time"))]
mod units;

/// Reads a union enum's value once the branch index is read: how an `Option` of it (the
/// union with a `null` branch, whose index the `Option` reads) reads the other branches. A
/// trait rather than an inherent method, so that it never clashes with a method the type's
/// author defines.
pub trait DecodeBranch: Sized {
    /// Reads the value of branch `index`, whose index was read at byte `at`; an index of no
    /// branch but `null` is an error ([`union_index_error`]).
    fn decode_branch(index: i32, at: usize, reader: &mut Reader<'_>) -> Result<Self, DecodeError>;
}

/// Writes a `decimal(precision, scale)` on `bytes`: the value rescaled to the schema's
/// `scale` (an error if that would round it or if it has more than `precision` digits), as
/// the shortest two's-complement bytes of the unscaled value.
#[inline]
pub fn encode_decimal_bytes(
    value: &Decimal,
    precision: u32,
    scale: u32,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    codec::write_bytes(out, value.to_schema(precision, scale)?.unscaled_bytes());
    Ok(())
}

/// Reads a `decimal(precision, scale)` on `bytes`; more than `precision` digits is an error.
#[inline]
pub fn decode_decimal_bytes(
    reader: &mut Reader<'_>,
    precision: u32,
    scale: u32,
) -> Result<Decimal, DecodeError> {
    let start = reader.position();
    let bytes = reader.read_bytes()?;
    checked_precision(Decimal::new(bytes, scale), precision, start)
}

/// Writes a `decimal(precision, scale)` on a `fixed` of `size` bytes: rescaled and checked as
/// for [`encode_decimal_bytes`], then sign-extended to `size`.
#[inline]
pub fn encode_decimal_fixed(
    value: &Decimal,
    size: usize,
    precision: u32,
    scale: u32,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    let value = value.to_schema(precision, scale)?;
    let needed = value.unscaled_bytes().len();
    if needed > size {
        return Err(EncodeError::new(EncodeErrorKind::DecimalTooWide {
            size,
            needed,
        }));
    }
    let fill = if value.is_negative() { 0xff } else { 0x00 };
    out.resize(out.len() + size - needed, fill);
    codec::write_fixed(out, value.unscaled_bytes());
    Ok(())
}

/// Reads a `decimal(precision, scale)` on a `fixed` of `size` bytes; more than `precision`
/// digits is an error.
#[inline]
pub fn decode_decimal_fixed(
    reader: &mut Reader<'_>,
    size: usize,
    precision: u32,
    scale: u32,
) -> Result<Decimal, DecodeError> {
    let start = reader.position();
    let bytes = reader.read_fixed_slice(size)?;
    checked_precision(Decimal::new(bytes, scale), precision, start)
}

/// `value` if it has at most `precision` digits, else the error for a decimal read at byte
/// `offset`.
fn checked_precision(
    value: Decimal,
    precision: u32,
    offset: usize,
) -> Result<Decimal, DecodeError> {
    if value.fits_precision(precision) {
        return Ok(value);
    }
    let detail = format!("{value} has more than the {precision} digits of the schema's precision");
    Err(DecodeError::invalid_logical("decimal", detail, offset))
}

/// Writes a `big-decimal`: `bytes` holding the unscaled bytes (as `bytes`) and the scale (as
/// an `int`).
pub fn encode_big_decimal(value: &Decimal, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    let scale = i32::try_from(value.scale())
        .map_err(|_| EncodeError::out_of_range("big-decimal", "scale beyond i32"))?;
    let mut inner = Vec::with_capacity(value.unscaled_bytes().len() + 8);
    codec::write_bytes(&mut inner, value.unscaled_bytes());
    codec::write_int(&mut inner, scale);
    codec::write_bytes(out, &inner);
    Ok(())
}

/// Reads a `big-decimal` (see [`encode_big_decimal`]).
pub fn decode_big_decimal(reader: &mut Reader<'_>) -> Result<Decimal, DecodeError> {
    let start = reader.position();
    let mut inner = Reader::new(reader.read_bytes()?);
    let shift = |e: DecodeError| DecodeError::invalid_logical("big-decimal", e.to_string(), start);
    let unscaled = inner.read_bytes().map_err(shift)?;
    let scale = inner.read_int().map_err(shift)?;
    inner.finish().map_err(shift)?;
    let scale = u32::try_from(scale).map_err(|_| {
        DecodeError::invalid_logical("big-decimal", format!("negative scale {scale}"), start)
    })?;
    Ok(Decimal::new(unscaled, scale))
}

/// Writes a `duration` as its `fixed(12)`.
#[inline]
pub fn encode_duration(value: &Duration, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    codec::write_fixed(out, &value.to_bytes());
    Ok(())
}

/// Reads a `duration` from its `fixed(12)`.
#[inline]
pub fn decode_duration(reader: &mut Reader<'_>) -> Result<Duration, DecodeError> {
    reader.read_fixed::<12>().map(Duration::from_bytes)
}

/// Writes a `uuid` on `string`: the 36-character lower-case hyphenated form.
#[cfg(feature = "uuid")]
#[inline]
pub fn encode_uuid_string(value: &uuid::Uuid, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    let mut buf = [0u8; uuid::fmt::Hyphenated::LENGTH];
    codec::write_string(out, value.hyphenated().encode_lower(&mut buf));
    Ok(())
}

/// Reads a `uuid` on `string`; only the 36-character hyphenated form (either case) is
/// accepted.
#[cfg(feature = "uuid")]
#[inline]
pub fn decode_uuid_string(reader: &mut Reader<'_>) -> Result<uuid::Uuid, DecodeError> {
    let start = reader.position();
    let text = reader.read_string()?;
    let invalid = || {
        DecodeError::invalid_logical("uuid", format!("{text:?} is not a hyphenated UUID"), start)
    };
    if text.len() != uuid::fmt::Hyphenated::LENGTH {
        return Err(invalid());
    }
    uuid::Uuid::try_parse(text).map_err(|_| invalid())
}

/// Writes a `uuid` on `fixed(16)`: its 16 bytes in RFC 4122 order.
#[cfg(feature = "uuid")]
#[inline]
pub fn encode_uuid_fixed(value: &uuid::Uuid, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    codec::write_fixed(out, value.as_bytes());
    Ok(())
}

/// Reads a `uuid` on `fixed(16)`.
#[cfg(feature = "uuid")]
#[inline]
pub fn decode_uuid_fixed(reader: &mut Reader<'_>) -> Result<uuid::Uuid, DecodeError> {
    reader.read_fixed::<16>().map(uuid::Uuid::from_bytes)
}
