//! The one place this crate reads Avro binary data, through the runtime's bounded
//! [`avdl2rs::codec::Reader`].

use avdl2rs::codec;
use avdl2rs::{AvroDecode, DecodeError};

/// A bounded reader over the records of one block.
pub(crate) fn cursor(bytes: &[u8]) -> codec::Reader<'_> {
    codec::Reader::new(bytes)
}

/// Decodes one `T` from the front of `bytes`, returning it and the bytes it took.
#[inline]
pub(crate) fn decode_front<T: AvroDecode>(bytes: &[u8]) -> Result<(T, usize), DecodeError> {
    let mut reader = cursor(bytes);
    let value = T::decode(&mut reader)?;
    Ok((value, reader.position()))
}

/// The length of the varint `long` at the front of `bytes`.
pub(crate) fn long_len(bytes: &[u8]) -> Result<usize, DecodeError> {
    let mut reader = cursor(bytes);
    reader.read_long()?;
    Ok(reader.position())
}
