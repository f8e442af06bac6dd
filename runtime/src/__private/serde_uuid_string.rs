//! `#[serde(with = "...")]` for a `uuid` field on `string`: the hyphenated text, which
//! `apache_avro::to_value` resolves to a UUID. (The uuid crate's own impls write 16 bytes
//! to a serializer that is not human-readable, as apache-avro's is by default, and those do
//! not resolve against a `string` schema.) `option` is the same for an `Option<Uuid>`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use uuid::Uuid;

/// Serializes the 36-character hyphenated text.
pub fn serialize<S: Serializer>(value: &Uuid, serializer: S) -> Result<S::Ok, S::Error> {
    value
        .hyphenated()
        .encode_lower(&mut [0u8; uuid::fmt::Hyphenated::LENGTH])
        .serialize(serializer)
}

/// Deserializes a UUID from its text.
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Uuid, D::Error> {
    let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
    Uuid::try_parse(&text).map_err(serde::de::Error::custom)
}

/// The same for an `Option<Uuid>` (a union with `null`).
pub mod option {
    use super::*;

    /// Serializes `None` as none and a UUID as its text.
    pub fn serialize<S: Serializer>(
        value: &Option<Uuid>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let text = value.map(|uuid| uuid.hyphenated().to_string());
        text.serialize(serializer)
    }

    /// Deserializes none as `None` and text as its UUID.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Uuid>, D::Error> {
        match <Option<std::borrow::Cow<'de, str>>>::deserialize(deserializer)? {
            None => Ok(None),
            Some(text) => Uuid::try_parse(&text)
                .map(Some)
                .map_err(serde::de::Error::custom),
        }
    }
}
