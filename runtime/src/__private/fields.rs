//! The per-field steps of generated and derived codecs that would otherwise be written out
//! in every record: owned strings and bytes, `Option` fields, arrays of items that cannot
//! fail, and the error path of a failing field. Each is a small `#[inline]` function, so the
//! code a record compiles to is the same as with the steps written out, while the record's
//! source stays one short line per field. Each is always inlined: a record of several
//! fields otherwise keeps some of them as calls (as `codec::write_bytes` found), which the
//! steps written out never were.

use crate::codec::{self, Reader};
use crate::error::{DecodeError, EncodeError};
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

/// Reads a union of `null` (at `null_index`, 0 or 1) and one other branch, read by `some`.
#[inline(always)]
pub fn decode_optional<T>(
    reader: &mut Reader<'_>,
    null_index: usize,
    some: impl FnOnce(&mut Reader<'_>) -> Result<T, DecodeError>,
) -> Result<Option<T>, DecodeError> {
    if reader.read_union_index(2)? == null_index {
        Ok(None)
    } else {
        some(reader).map(Some)
    }
}

/// Reads a union of `branches` branches with `null` at `null_index`, the others into the
/// union enum `T`.
#[inline(always)]
pub fn decode_optional_union<T: DecodeBranch>(
    reader: &mut Reader<'_>,
    branches: usize,
    null_index: usize,
) -> Result<Option<T>, DecodeError> {
    let index = reader.read_union_index(branches)?;
    if index == null_index {
        Ok(None)
    } else {
        T::decode_branch(index, reader).map(Some)
    }
}

/// Writes an array whose items cannot fail to encode, like [`codec::write_array`] without
/// the error path.
#[inline(always)]
pub fn write_items<T>(out: &mut Vec<u8>, items: &[T], mut item: impl FnMut(&mut Vec<u8>, &T)) {
    if !items.is_empty() {
        out.reserve(items.len() + 2);
        codec::write_len(out, items.len());
        for value in items {
            item(out, value);
        }
    }
    out.push(0);
}

/// Writes a union of `null` (at `null_index`, 0 or 1) and one other branch whose value
/// cannot fail to encode, written by `some`.
#[inline(always)]
pub fn write_optional<T>(
    out: &mut Vec<u8>,
    value: Option<&T>,
    null_index: i64,
    some: impl FnOnce(&mut Vec<u8>, &T),
) {
    match value {
        None => codec::write_long(out, null_index),
        Some(value) => {
            codec::write_long(out, 1 - null_index);
            some(out, value);
        }
    }
}

/// [`write_optional`] for a branch whose value can fail to encode.
#[inline(always)]
pub fn try_write_optional<T>(
    out: &mut Vec<u8>,
    value: Option<&T>,
    null_index: i64,
    some: impl FnOnce(&mut Vec<u8>, &T) -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    match value {
        None => {
            codec::write_long(out, null_index);
            Ok(())
        }
        Some(value) => {
            codec::write_long(out, 1 - null_index);
            some(out, value)
        }
    }
}

/// Writes a union of `null` at `null_index` and two or more other branches, held by the
/// union enum `T` (which writes its own branch index).
#[inline(always)]
pub fn encode_optional_union<T: AvroEncode>(
    out: &mut Vec<u8>,
    value: Option<&T>,
    null_index: i64,
) -> Result<(), EncodeError> {
    match value {
        None => {
            codec::write_long(out, null_index);
            Ok(())
        }
        Some(value) => value.encode(out),
    }
}
