//! Serde for a `decimal` field whose scale is the schema's: a `Decimal` serializes as its
//! unscaled bytes (what `apache_avro::to_value` gives a decimal), and bytes carry no scale,
//! so generated code deserializes with the schema's scale as a const parameter:
//!
//! ```ignore
//! #[serde(
//!     serialize_with = "::avdl2rs::__private::serde_decimal::serialize",
//!     deserialize_with = "::avdl2rs::__private::serde_decimal::deserialize::<_, 2>"
//! )]
//! price: ::avdl2rs::logical::Decimal,
//! ```
//!
//! and `serde_decimal::option::{serialize, deserialize::<_, SCALE>}` for an
//! `Option<Decimal>`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::logical::Decimal;

/// Serializes the unscaled bytes.
pub fn serialize<S: Serializer>(value: &Decimal, serializer: S) -> Result<S::Ok, S::Error> {
    value.serialize(serializer)
}

/// Deserializes unscaled bytes at scale `SCALE`.
pub fn deserialize<'de, D: Deserializer<'de>, const SCALE: u32>(
    deserializer: D,
) -> Result<Decimal, D::Error> {
    Decimal::deserialize(deserializer).map(|value| value.with_scale(SCALE))
}

/// The same for an `Option<Decimal>` (a union with `null`).
pub mod option {
    use super::*;

    /// Serializes `None` as none and a value as its unscaled bytes.
    pub fn serialize<S: Serializer>(
        value: &Option<Decimal>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        value.serialize(serializer)
    }

    /// Deserializes none as `None` and unscaled bytes at scale `SCALE`.
    pub fn deserialize<'de, D: Deserializer<'de>, const SCALE: u32>(
        deserializer: D,
    ) -> Result<Option<Decimal>, D::Error> {
        Option::<Decimal>::deserialize(deserializer)
            .map(|value| value.map(|value| value.with_scale(SCALE)))
    }
}
