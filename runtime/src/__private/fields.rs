//! The per-field steps of generated and derived codecs that would otherwise be written out
//! in every record: owned strings and bytes, `Option` fields, arrays and maps, bad enum and
//! union indexes, and the error path of a failing field. Each is a small `#[inline]`
//! function, so the code a record compiles to is the same as with the steps written out,
//! while the record's source stays one short line per field. Each is always inlined: a record
//! of several fields otherwise keeps some of them as calls (as `codec::write_bytes` found),
//! which the steps written out never were.

use core::any::Any;

use crate::codec::{self, Reader};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::AvroEncode;

use super::DecodeBranch;

/// The error-path methods both error types have, so that one function per record adds the
/// field and record names to encode and decode errors alike.
pub trait ErrorPath {
    /// Adds the record field being read or written.
    #[must_use]
    fn in_field(self, name: &'static str) -> Self;
    /// Names the record being read or written.
    #[must_use]
    fn in_type(self, full_name: &'static str) -> Self;
}

impl ErrorPath for EncodeError {
    fn in_field(self, name: &'static str) -> Self {
        EncodeError::in_field(self, name)
    }
    fn in_type(self, full_name: &'static str) -> Self {
        EncodeError::in_type(self, full_name)
    }
}

impl ErrorPath for DecodeError {
    fn in_field(self, name: &'static str) -> Self {
        DecodeError::in_field(self, name)
    }
    fn in_type(self, full_name: &'static str) -> Self {
        DecodeError::in_type(self, full_name)
    }
}

/// What writing a value gives: `()` where writing it cannot fail, `Result<(), EncodeError>`
/// where it can. The helpers that write an array, a map or an `Option` take a writer of
/// either kind and give the same kind back, so that one helper serves both and writing
/// values that cannot fail compiles to a loop without error checks.
pub trait Outcome: Sized {
    /// The outcome of a write that went well.
    fn ok() -> Self;
    /// The outcome as a result.
    fn into_result(self) -> Result<(), EncodeError>;
    /// The outcome of a write that failed with `error`; only ever given an error by
    /// `Result`, whose `into_result` can return one.
    fn failed(error: EncodeError) -> Self;
}

impl Outcome for () {
    #[inline(always)]
    fn ok() -> Self {}
    #[inline(always)]
    fn into_result(self) -> Result<(), EncodeError> {
        Ok(())
    }
    // Never called: `into_result` has no error to give.
    #[inline(always)]
    fn failed(_: EncodeError) -> Self {}
}

impl Outcome for Result<(), EncodeError> {
    #[inline(always)]
    fn ok() -> Self {
        Ok(())
    }
    #[inline(always)]
    fn into_result(self) -> Result<(), EncodeError> {
        self
    }
    #[inline(always)]
    fn failed(error: EncodeError) -> Self {
        Err(error)
    }
}

/// Reads a `string` into an owned `String`.
#[inline(always)]
pub fn decode_string(reader: &mut Reader<'_>) -> Result<String, DecodeError> {
    reader.read_string().map(String::from)
}

/// Reads `bytes` into an owned `Vec<u8>`.
#[inline(always)]
pub fn decode_bytes(reader: &mut Reader<'_>) -> Result<Vec<u8>, DecodeError> {
    reader.read_bytes().map(<[u8]>::to_vec)
}

/// The index of the `null` branch of a union that holds `null`, named where generated code
/// passes it (`NullBranch(0)` for `["null", "string"]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NullBranch(pub u32);

/// Reads a union of `null` (at `null`, 0 or 1) and one other branch, read by `some`.
#[inline(always)]
pub fn decode_optional<T>(
    reader: &mut Reader<'_>,
    null: NullBranch,
    some: impl FnOnce(&mut Reader<'_>) -> Result<T, DecodeError>,
) -> Result<Option<T>, DecodeError> {
    if reader.read_union_index(2)? == null.0 as usize {
        Ok(None)
    } else {
        some(reader).map(Some)
    }
}

/// Reads a union with `null` at `null` and two or more other branches, which the union
/// enum `T` reads (and whose index it checks).
#[inline(always)]
pub fn decode_optional_union<T: DecodeBranch>(
    reader: &mut Reader<'_>,
    null: NullBranch,
) -> Result<Option<T>, DecodeError> {
    let at = reader.position();
    let index = reader.read_int()?;
    if i64::from(index) == i64::from(null.0) {
        Ok(None)
    } else {
        T::decode_branch(index, at, reader).map(Some)
    }
}

/// The error of an enum index read at byte `at` that is not below `symbols`.
#[cold]
pub fn enum_index_error(index: i32, symbols: usize, at: usize) -> DecodeError {
    DecodeError::new(DecodeErrorKind::EnumIndexOutOfRange { index, symbols }, at)
}

/// The error of a union index read at byte `at` that is not below `branches`.
#[cold]
pub fn union_index_error(index: i32, branches: usize, at: usize) -> DecodeError {
    DecodeError::new(
        DecodeErrorKind::UnionIndexOutOfRange { index, branches },
        at,
    )
}

/// Writes an array as one block with all `items` and the closing 0 (an empty array is a
/// single 0), each item with `item`; item errors get the item's index added to their path.
///
/// Arrays of `f64` and `f32`, whose items are Avro `double`s and `float`s (the one Avro type
/// either stands for), are written in one pass over one stretch of the output instead, which
/// `item` would write one at a time. `items` is a `Vec` because a `Vec`, unlike a slice, can
/// be asked which items it holds.
#[inline(always)]
#[allow(clippy::ptr_arg)]
pub fn write_array<T: 'static, R: Outcome>(
    out: &mut Vec<u8>,
    items: &Vec<T>,
    mut item: impl FnMut(&mut Vec<u8>, &T) -> R,
) -> R {
    let any: &dyn Any = items;
    if let Some(doubles) = any.downcast_ref::<Vec<f64>>() {
        codec::write_doubles(out, doubles);
        return R::ok();
    }
    if let Some(floats) = any.downcast_ref::<Vec<f32>>() {
        codec::write_floats(out, floats);
        return R::ok();
    }
    if !items.is_empty() {
        out.reserve(items.len() + 2);
        codec::write_len(out, items.len());
        for (index, value) in items.iter().enumerate() {
            if let Err(error) = item(out, value).into_result() {
                return R::failed(error.at_index(index));
            }
        }
    }
    out.push(0);
    R::ok()
}

/// Reads an array: all its blocks, each item with `item` (see [`Reader::read_array`]); an
/// array of `f64` or `f32` is read as [`write_array`] writes it, in one pass over each block.
#[inline(always)]
pub fn read_array<'a, T: 'static>(
    reader: &mut Reader<'a>,
    item: impl FnMut(&mut Reader<'a>) -> Result<T, DecodeError>,
) -> Result<Vec<T>, DecodeError> {
    let mut in_bulk: Option<Result<Vec<T>, DecodeError>> = None;
    let slot: &mut dyn Any = &mut in_bulk;
    if let Some(doubles) = slot.downcast_mut::<Option<Result<Vec<f64>, DecodeError>>>() {
        *doubles = Some(reader.read_doubles());
    } else if let Some(floats) = slot.downcast_mut::<Option<Result<Vec<f32>, DecodeError>>>() {
        *floats = Some(reader.read_floats());
    }
    match in_bulk {
        Some(items) => items,
        None => reader.read_array(item),
    }
}

/// Writes a map as one block of its entries and the closing 0 (see [`codec::write_map`]),
/// each value with `value`.
#[inline(always)]
pub fn write_map<'a, T: 'a, R: Outcome>(
    out: &mut Vec<u8>,
    map: impl IntoIterator<Item = (&'a String, &'a T), IntoIter: ExactSizeIterator>,
    mut value: impl FnMut(&mut Vec<u8>, &T) -> R,
) -> Result<(), EncodeError> {
    let entries = map.into_iter();
    codec::write_map(out, entries.len(), entries, |out, entry| {
        value(out, entry).into_result()
    })
}

/// Writes a union of `null` (at `null`, 0 or 1) and one other branch, written by `some`.
#[inline(always)]
pub fn write_optional<T, R: Outcome>(
    out: &mut Vec<u8>,
    value: Option<&T>,
    null: NullBranch,
    some: impl FnOnce(&mut Vec<u8>, &T) -> R,
) -> R {
    let null_index = i64::from(null.0);
    match value {
        None => {
            codec::write_long(out, null_index);
            R::ok()
        }
        Some(value) => {
            codec::write_long(out, 1 - null_index);
            some(out, value)
        }
    }
}

/// Writes a union of `null` at `null` and two or more other branches, held by the union
/// enum `T` (which writes its own branch index).
#[inline(always)]
pub fn encode_optional_union<T: AvroEncode>(
    out: &mut Vec<u8>,
    value: Option<&T>,
    null: NullBranch,
) -> Result<(), EncodeError> {
    match value {
        None => {
            codec::write_long(out, i64::from(null.0));
            Ok(())
        }
        Some(value) => value.encode(out),
    }
}
