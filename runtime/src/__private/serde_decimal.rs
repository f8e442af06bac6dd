//! Serde for a `decimal` field whose scale is the schema's. In human-readable formats (JSON)
//! a `Decimal` is its plain decimal text (`"-12.50"`), read back at the schema's scale;
//! elsewhere it is its unscaled bytes (what `apache_avro::to_value` gives a decimal), and
//! bytes carry no scale, so generated code deserializes with the schema's scale as a const
//! parameter:
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

use std::borrow::Cow;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::logical::Decimal;

/// Serializes the decimal text or the unscaled bytes.
pub fn serialize<S: Serializer>(value: &Decimal, serializer: S) -> Result<S::Ok, S::Error> {
    if serializer.is_human_readable() {
        return serializer.collect_str(value);
    }
    value.serialize(serializer)
}

/// Deserializes decimal text or unscaled bytes at scale `SCALE`.
pub fn deserialize<'de, D: Deserializer<'de>, const SCALE: u32>(
    deserializer: D,
) -> Result<Decimal, D::Error> {
    if deserializer.is_human_readable() {
        let text = <Cow<'de, str>>::deserialize(deserializer)?;
        return parse(&text, SCALE).map_err(D::Error::custom);
    }
    Decimal::deserialize(deserializer).map(|value| value.with_scale(SCALE))
}

/// The decimal written as `text` (`-12.5`, `3`, `0.125`) at `scale`; more fractional
/// digits than the scale holds would be lost, so they are an error.
fn parse(text: &str, scale: u32) -> Result<Decimal, String> {
    let invalid = || format!("{text:?} is not a decimal of scale {scale}");
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let scale_digits = usize::try_from(scale).map_err(|_| invalid())?;
    let digits = whole.bytes().chain(fraction.bytes());
    if whole.is_empty()
        || fraction.len() > scale_digits
        || !digits.clone().all(|b| b.is_ascii_digit())
    {
        return Err(invalid());
    }
    let padding = std::iter::repeat_n(b'0', scale_digits - fraction.len());
    // The unscaled magnitude as big-endian bytes with a zero sign byte in front.
    let mut magnitude = vec![0u8];
    for digit in digits.chain(padding) {
        let mut carry = u16::from(digit - b'0');
        for byte in magnitude.iter_mut().rev() {
            let product = u16::from(*byte) * 10 + carry;
            *byte = (product & 0xff) as u8;
            carry = product >> 8;
        }
        if carry > 0 || magnitude[0] & 0x80 != 0 {
            magnitude.insert(0, carry as u8);
            if magnitude[0] & 0x80 != 0 {
                magnitude.insert(0, 0);
            }
        }
    }
    if negative {
        let mut carry = true;
        for byte in magnitude.iter_mut().rev() {
            let (sum, overflow) = (!*byte).overflowing_add(u8::from(carry));
            *byte = sum;
            carry = overflow;
        }
    }
    Ok(Decimal::new(magnitude, scale))
}

/// The same for an `Option<Decimal>` (a union with `null`).
pub mod option {
    use super::*;

    /// A decimal in the form of the enclosing module.
    struct Field<T>(T);

    impl Serialize for Field<&Decimal> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            super::serialize(self.0, serializer)
        }
    }

    /// A decimal read at scale `SCALE`.
    struct Scaled<const SCALE: u32>(Decimal);

    impl<'de, const SCALE: u32> Deserialize<'de> for Scaled<SCALE> {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            super::deserialize::<D, SCALE>(deserializer).map(Scaled)
        }
    }

    /// Serializes `None` as none and a value as its text or unscaled bytes.
    pub fn serialize<S: Serializer>(
        value: &Option<Decimal>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        value.as_ref().map(Field).serialize(serializer)
    }

    /// Deserializes none as `None` and text or unscaled bytes at scale `SCALE`.
    pub fn deserialize<'de, D: Deserializer<'de>, const SCALE: u32>(
        deserializer: D,
    ) -> Result<Option<Decimal>, D::Error> {
        Ok(Option::<Scaled<SCALE>>::deserialize(deserializer)?.map(|scaled| scaled.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_text_reads_back_as_the_unscaled_value_at_the_scale() {
        for (text, scale, unscaled) in [
            ("12.5", 2, 1250),
            ("-12.50", 2, -1250),
            ("0", 3, 0),
            ("-0.001", 3, -1),
            ("127", 0, 127),
            ("128", 0, 128),
            ("-128", 0, -128),
            ("-129", 0, -129),
            ("170141183460469231731687303715884105727", 0, i128::MAX),
            ("-170141183460469231731687303715884105728", 0, i128::MIN),
        ] {
            let value = parse(text, scale).unwrap();
            assert_eq!(value, Decimal::from_i128(unscaled, scale), "{text}");
            assert_eq!(parse(&value.to_string(), scale).unwrap(), value);
        }
    }

    #[test]
    fn text_that_would_lose_digits_or_is_not_a_number_is_refused() {
        for text in ["1.234", "", "-", ".5", "1.2.3", "1e5", "+1", "١"] {
            assert!(parse(text, 2).is_err(), "{text}");
        }
    }
}
