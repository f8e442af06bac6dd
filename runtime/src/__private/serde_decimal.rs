//! Serde for a `decimal(PRECISION, SCALE)` field. The value is fitted to the schema as
//! encoding fits it (rescaled exactly, or an error), then a human-readable format sees its
//! decimal string and a binary one its unscaled bytes, sign-extended to the length the
//! precision needs: `apache_avro::to_value` followed by `Value::resolve` checks that length
//! against the precision. Bytes carry no scale, so the schema's is applied when reading
//! them; text is rescaled to it exactly.
//!
//! ```ignore
//! #[serde(
//!     serialize_with = "::avdl2rs::__private::serde_decimal::serialize::<_, 12, 2>",
//!     deserialize_with = "::avdl2rs::__private::serde_decimal::deserialize::<_, 12, 2>"
//! )]
//! price: ::avdl2rs::logical::Decimal,
//! ```
//!
//! and `serde_decimal::option::{serialize, deserialize}` the same way for an
//! `Option<Decimal>`.

use serde::de::Error as _;
use serde::ser::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::logical::{bytes_for_precision, deserialize_form, Decimal, DecimalForm};

/// Serializes the value fitted to `decimal(PRECISION, SCALE)`.
pub fn serialize<S: Serializer, const PRECISION: u32, const SCALE: u32>(
    value: &Decimal,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let value = value
        .to_schema(PRECISION, SCALE)
        .map_err(|e| S::Error::custom(e.kind()))?;
    if serializer.is_human_readable() {
        serializer.collect_str(&*value)
    } else {
        serializer.serialize_bytes(&value.unscaled_bytes_padded(bytes_for_precision(PRECISION)))
    }
}

/// Deserializes decimal text (rescaled exactly to `SCALE`) or unscaled bytes (at `SCALE`),
/// refusing more than `PRECISION` digits.
pub fn deserialize<'de, D: Deserializer<'de>, const PRECISION: u32, const SCALE: u32>(
    deserializer: D,
) -> Result<Decimal, D::Error> {
    let value = match deserialize_form(deserializer)? {
        DecimalForm::Parsed(value) => value,
        DecimalForm::Unscaled(bytes) => Decimal::new(bytes, SCALE),
    };
    value
        .to_schema(PRECISION, SCALE)
        .map(std::borrow::Cow::into_owned)
        .map_err(|e| D::Error::custom(e.kind()))
}

/// A decimal serialized for `decimal(PRECISION, SCALE)`.
struct Fitted<'a, const PRECISION: u32, const SCALE: u32>(&'a Decimal);

impl<const PRECISION: u32, const SCALE: u32> Serialize for Fitted<'_, PRECISION, SCALE> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize::<S, PRECISION, SCALE>(self.0, serializer)
    }
}

/// A decimal deserialized for `decimal(PRECISION, SCALE)`.
struct AtSchema<const PRECISION: u32, const SCALE: u32>(Decimal);

impl<'de, const PRECISION: u32, const SCALE: u32> Deserialize<'de> for AtSchema<PRECISION, SCALE> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize::<D, PRECISION, SCALE>(deserializer).map(AtSchema)
    }
}

/// The same for an `Option<Decimal>` (a union with `null`).
pub mod option {
    use super::*;

    /// Serializes `None` as none and a value as [`serialize`](super::serialize) does.
    pub fn serialize<S: Serializer, const PRECISION: u32, const SCALE: u32>(
        value: &Option<Decimal>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            None => serializer.serialize_none(),
            Some(value) => serializer.serialize_some(&Fitted::<PRECISION, SCALE>(value)),
        }
    }

    /// Deserializes none as `None` and a value as [`deserialize`](super::deserialize) does.
    pub fn deserialize<'de, D: Deserializer<'de>, const PRECISION: u32, const SCALE: u32>(
        deserializer: D,
    ) -> Result<Option<Decimal>, D::Error> {
        Option::<AtSchema<PRECISION, SCALE>>::deserialize(deserializer)
            .map(|value| value.map(|value| value.0))
    }
}
