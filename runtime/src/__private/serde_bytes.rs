//! Serde for `bytes` fields (`Vec<u8>`), used as
//! `#[serde(with = "::avdl2rs::__private::serde_bytes")]`: written as one byte string rather
//! than a sequence of numbers, so that `apache_avro::from_value` (which hands over bytes)
//! reads it back; a sequence of `u8` (JSON) is accepted too.

use serde::{Deserializer, Serializer};

/// Writes the bytes as one byte string.
pub fn serialize<S: Serializer>(bytes: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_bytes(bytes)
}

/// Reads a byte string or a sequence of `u8`.
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<u8>, D::Error> {
    crate::logical::serde_bytes_like(deserializer)
}

/// The same for `Option<Vec<u8>>` (a union of `null` and `bytes`).
pub mod option {
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes `None` as none and bytes as one byte string.
    pub fn serialize<S: Serializer>(
        bytes: &Option<Vec<u8>>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match bytes {
            Some(bytes) => serializer.serialize_some(&Bytes(bytes)),
            None => serializer.serialize_none(),
        }
    }

    /// Reads none, or a byte string or sequence of `u8`.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Vec<u8>>, D::Error> {
        Ok(Option::<ByteBuf>::deserialize(deserializer)?.map(|b| b.0))
    }

    struct Bytes<'a>(&'a [u8]);

    impl serde::Serialize for Bytes<'_> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.serialize_bytes(self.0)
        }
    }

    struct ByteBuf(Vec<u8>);

    impl<'de> Deserialize<'de> for ByteBuf {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            crate::logical::serde_bytes_like(deserializer).map(ByteBuf)
        }
    }
}
