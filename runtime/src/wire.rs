//! Message framings around the Avro binary body.
//!
//! * The Confluent Schema Registry wire format: byte `0x00`, the schema id as a big-endian
//!   `i32`, then the body.
//! * Avro single-object encoding (Avro specification, "Single-object encoding"): the marker
//!   `C3 01`, the CRC-64-AVRO fingerprint of the writer schema as 8 little-endian bytes, then
//!   the body.
//!
//! Each malformed frame has its own [`WireError`] variant, so a consumer can tell a message
//! that is not Avro at all from one whose body is damaged.
//!
//! A Confluent frame names its writer schema only by a registry id, so no function here can
//! know that the body was written with the reader's schema: read frames with
//! [`crate::resolve::Consumer`], which looks the id up, or with
//! [`decode_confluent_expecting`] when the one id your schema is registered under is known.
//! [`decode_confluent_assume_schema`] skips that check, as its name says.

use crate::codec::Reader;
use crate::error::DecodeError;
use crate::{AvroDecode, AvroSchema};

/// The first byte of a Confluent-framed message.
pub const CONFLUENT_MAGIC: u8 = 0x00;

/// The length of the Confluent header: the magic byte and the 4-byte schema id.
pub const CONFLUENT_HEADER_LEN: usize = 5;

/// The two-byte marker of single-object encoding, version 1.
pub const SINGLE_OBJECT_MARKER: [u8; 2] = [0xc3, 0x01];

/// The length of the single-object header: the marker and the 8-byte fingerprint.
pub const SINGLE_OBJECT_HEADER_LEN: usize = 10;

/// A framed message could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WireError {
    /// The message has no bytes at all.
    #[error("empty message")]
    Empty,
    /// The first byte is not the Confluent magic byte `0x00`.
    #[error("not a Confluent-framed message: magic byte is {found:#04x}, expected 0x00")]
    BadMagic {
        /// The byte found.
        found: u8,
    },
    /// The message ends inside the 4-byte schema id.
    #[error("message ends inside the schema id: {len} bytes, a header needs 5")]
    TruncatedSchemaId {
        /// The message length.
        len: usize,
    },
    /// The message does not start with the single-object marker `C3 01`.
    #[error("not a single-object message: it does not start with C3 01")]
    BadMarker,
    /// The message ends inside the 8-byte fingerprint.
    #[error("message ends inside the schema fingerprint: {len} bytes, a header needs 10")]
    TruncatedFingerprint {
        /// The message length.
        len: usize,
    },
    /// The message was written with another schema than the reader's.
    #[error("schema fingerprint {found:#018x} is not the reader's {expected:#018x}")]
    FingerprintMismatch {
        /// The reader schema's fingerprint.
        expected: u64,
        /// The fingerprint in the message.
        found: u64,
    },
    /// A Confluent frame carries another schema id than the one expected.
    #[error("schema id {found} is not the expected {expected}: read it with a Consumer, which resolves other schema versions")]
    UnexpectedSchemaId {
        /// The schema id the reader's schema is registered under.
        expected: i32,
        /// The schema id in the message.
        found: i32,
    },
    /// The Avro body after the header could not be decoded (offsets count from the body's
    /// first byte).
    #[error("bad message body: {0}")]
    Body(#[from] DecodeError),
}

/// Appends the Confluent header for `schema_id`.
#[inline]
pub fn write_confluent_header(out: &mut Vec<u8>, schema_id: i32) {
    out.push(CONFLUENT_MAGIC);
    out.extend_from_slice(&schema_id.to_be_bytes());
}

/// Splits a Confluent-framed message into the schema id and the Avro body, for consumers
/// that look the writer schema up by id.
pub fn split_confluent(message: &[u8]) -> Result<(i32, &[u8]), WireError> {
    match message {
        [] => Err(WireError::Empty),
        [magic, ..] if *magic != CONFLUENT_MAGIC => Err(WireError::BadMagic { found: *magic }),
        [_, id @ ..] => match id.split_first_chunk::<4>() {
            Some((id, body)) => Ok((i32::from_be_bytes(*id), body)),
            None => Err(WireError::TruncatedSchemaId { len: message.len() }),
        },
    }
}

/// Appends the single-object header for a schema `fingerprint`.
#[inline]
pub fn write_single_object_header(out: &mut Vec<u8>, fingerprint: u64) {
    out.extend_from_slice(&SINGLE_OBJECT_MARKER);
    out.extend_from_slice(&fingerprint.to_le_bytes());
}

/// Splits a single-object message into the writer schema's fingerprint and the Avro body.
pub fn split_single_object(message: &[u8]) -> Result<(u64, &[u8]), WireError> {
    if message.is_empty() {
        return Err(WireError::Empty);
    }
    let Some(rest) = message.strip_prefix(&SINGLE_OBJECT_MARKER) else {
        return Err(WireError::BadMarker);
    };
    match rest.split_first_chunk::<8>() {
        Some((fingerprint, body)) => Ok((u64::from_le_bytes(*fingerprint), body)),
        None => Err(WireError::TruncatedFingerprint { len: message.len() }),
    }
}

/// Decodes a whole Avro body as one `T`; bytes left after it are an error.
#[inline]
pub fn decode_body<T: AvroDecode>(body: &[u8]) -> Result<T, DecodeError> {
    let mut reader = Reader::new(body);
    let value = T::decode(&mut reader)?;
    reader.finish()?;
    Ok(value)
}

/// Decodes a Confluent-framed message as a `T` when its schema id is `expected`, the id
/// `T`'s schema is registered under; any other id is [`WireError::UnexpectedSchemaId`].
pub fn decode_confluent_expecting<T: AvroDecode>(
    message: &[u8],
    expected: i32,
) -> Result<T, WireError> {
    let (found, body) = split_confluent(message)?;
    if found != expected {
        return Err(WireError::UnexpectedSchemaId { expected, found });
    }
    Ok(decode_body(body)?)
}

/// Decodes a Confluent-framed message *assuming* it was written with `T`'s own schema,
/// whatever its schema id says, and returns the id.
///
/// Only for topics where every producer uses exactly this schema: a message written with
/// another version (fields reordered, a field added) decodes into wrong values or fails.
/// [`crate::resolve::Consumer`] reads every version correctly.
pub fn decode_confluent_assume_schema<T: AvroDecode>(
    message: &[u8],
) -> Result<(i32, T), WireError> {
    let (schema_id, body) = split_confluent(message)?;
    Ok((schema_id, decode_body(body)?))
}

/// Decodes a single-object message whose body is a `T`, after checking that it was written
/// with `T`'s schema (same fingerprint).
pub fn decode_single_object<T: AvroDecode + AvroSchema>(message: &[u8]) -> Result<T, WireError> {
    let (found, body) = split_single_object(message)?;
    if found != T::FINGERPRINT {
        return Err(WireError::FingerprintMismatch {
            expected: T::FINGERPRINT,
            found,
        });
    }
    Ok(decode_body(body)?)
}
