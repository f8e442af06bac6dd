//! The one place this crate reads Avro binary data, through the runtime's bounded
//! [`avdl2rs::codec::Reader`].
//!
//! The records of a block are read with one budget ([`DecodeLimits`]) for the whole block,
//! sized by the block's bytes and handed from record to record: a budget per record, sized by
//! the rest of the block, would let each record take again what the ones before it took, and
//! a small block of `array<null>` records could then describe items quadratic in its size.

use avdl2rs::codec::{self, DecodeLimits};
use avdl2rs::DecodeError;

/// The budget of a block whose records take `len` bytes: the runtime's default for an input
/// of that length, shared by all its records.
pub(crate) fn block_budget(len: usize) -> DecodeLimits {
    DecodeLimits::for_input_len(len)
}

/// Decodes one value from the front of `bytes` with `read`, within `budget`, which it
/// leaves at what is left; returns the value and the bytes it took.
#[inline]
pub(crate) fn decode_front<T>(
    bytes: &[u8],
    budget: &mut DecodeLimits,
    read: impl FnOnce(&mut codec::Reader<'_>) -> Result<T, DecodeError>,
) -> Result<(T, usize), DecodeError> {
    let mut reader = codec::Reader::with_limits(bytes, *budget);
    let value = read(&mut reader)?;
    *budget = reader.limits_left();
    Ok((value, reader.position()))
}

/// The length of the varint `long` at the front of `bytes`.
pub(crate) fn long_len(bytes: &[u8]) -> Result<usize, DecodeError> {
    let mut reader = codec::Reader::new(bytes);
    reader.read_long()?;
    Ok(reader.position())
}
