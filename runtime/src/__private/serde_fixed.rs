//! Serde for the `[u8; N]` inside a generated `fixed` type, used as
//! `#[serde(with = "::avdl2rs::__private::serde_fixed")]`: written as a byte string (what
//! `apache_avro::to_value` maps to bytes/fixed), read from bytes or a sequence of `u8`, for
//! any `N` (serde's own array impls stop at 32).

use serde::{Deserializer, Serializer};

/// Writes the bytes as one byte string.
pub fn serialize<S: Serializer, const N: usize>(
    bytes: &[u8; N],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_bytes(bytes)
}

/// Reads exactly `N` bytes.
pub fn deserialize<'de, D: Deserializer<'de>, const N: usize>(
    deserializer: D,
) -> Result<[u8; N], D::Error> {
    let bytes = crate::logical::serde_bytes_like(deserializer)?;
    let len = bytes.len();
    bytes
        .try_into()
        .map_err(|_| serde::de::Error::invalid_length(len, &"as many bytes as the fixed size"))
}
