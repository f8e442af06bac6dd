//! Values of Avro logical types that have no good home in another crate (Avro
//! specification, "Logical Types"): [`Decimal`] and [`Duration`].
//!
//! Dates, times and timestamps map to `chrono` (or `time`) types, and UUIDs to `uuid::Uuid`;
//! their codecs live in the hidden `__private` module that generated code calls.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A `decimal` (or `big-decimal`): an unscaled integer, stored as big-endian two's-complement
/// bytes exactly as Avro writes it, and a scale: the value is `unscaled × 10^-scale`.
///
/// The bytes are kept in their shortest form, so equality and hashing compare the unscaled
/// integer and the scale (`1.0` with scale 1 and `1` with scale 0 are different values, as
/// they are different encodings). Convert to `rust_decimal::Decimal` or
/// `bigdecimal::BigDecimal` (features `rust_decimal`, `bigdecimal`) for arithmetic; `Display`
/// writes plain notation with `scale` fraction digits (`-1.23`).
///
/// Serde: it serializes as its unscaled bytes, which is how `apache_avro::to_value`
/// represents a decimal; deserializing from bytes gives scale 0 (the schema, not the bytes,
/// knows the scale: use [`Decimal::with_scale`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Decimal {
    unscaled: Vec<u8>,
    scale: u32,
}

/// Drops redundant leading sign bytes from a big-endian two's-complement integer.
fn shortest(mut bytes: Vec<u8>) -> Vec<u8> {
    let redundant = bytes
        .windows(2)
        .take_while(|pair| {
            (pair[0] == 0x00 && pair[1] & 0x80 == 0) || (pair[0] == 0xff && pair[1] & 0x80 != 0)
        })
        .count();
    bytes.drain(..redundant);
    bytes
}

impl Default for Decimal {
    /// Zero, at scale 0.
    fn default() -> Self {
        Self::new(Vec::new(), 0)
    }
}

impl Decimal {
    /// A decimal from the big-endian two's-complement bytes of its unscaled value (empty
    /// bytes mean zero) and its scale.
    pub fn new(unscaled_be: impl Into<Vec<u8>>, scale: u32) -> Self {
        let mut unscaled = shortest(unscaled_be.into());
        if unscaled.is_empty() {
            unscaled.push(0);
        }
        Self { unscaled, scale }
    }

    /// A decimal from its unscaled value and scale.
    pub fn from_i128(unscaled: i128, scale: u32) -> Self {
        Self::new(unscaled.to_be_bytes().to_vec(), scale)
    }

    /// The unscaled value, when it fits `i128`.
    pub fn to_i128(&self) -> Option<i128> {
        if self.unscaled.len() > 16 {
            return None;
        }
        let fill = if self.is_negative() { 0xff } else { 0x00 };
        let mut buf = [fill; 16];
        buf[16 - self.unscaled.len()..].copy_from_slice(&self.unscaled);
        Some(i128::from_be_bytes(buf))
    }

    /// The shortest big-endian two's-complement bytes of the unscaled value (at least one
    /// byte: zero is `[0x00]`, as Java's `BigInteger.toByteArray` writes it).
    pub fn unscaled_bytes(&self) -> &[u8] {
        &self.unscaled
    }

    /// The scale: digits after the decimal point.
    pub fn scale(&self) -> u32 {
        self.scale
    }

    /// The same unscaled value with another scale (for example the schema's, after
    /// deserializing from bytes).
    #[must_use]
    pub fn with_scale(self, scale: u32) -> Self {
        Self { scale, ..self }
    }

    /// Whether the value is below zero.
    pub fn is_negative(&self) -> bool {
        self.unscaled.first().is_some_and(|b| b & 0x80 != 0)
    }
}

/// The base-10 digits of a big-endian unsigned magnitude, most significant first.
fn decimal_digits(mut magnitude: Vec<u8>) -> Vec<u8> {
    let mut digits = Vec::new();
    while magnitude.iter().any(|&b| b != 0) {
        // Long division of the whole magnitude by 10; the remainder is the next digit.
        let mut remainder = 0u16;
        for byte in &mut magnitude {
            let current = remainder << 8 | u16::from(*byte);
            *byte = (current / 10) as u8;
            remainder = current % 10;
        }
        digits.push(b'0' + remainder as u8);
    }
    if digits.is_empty() {
        digits.push(b'0');
    }
    digits.reverse();
    digits
}

impl std::fmt::Display for Decimal {
    /// Plain decimal notation with exactly `scale` digits after the point: `-1.23`,
    /// `0.0050`, `42`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let negative = self.is_negative();
        // The magnitude of a two's-complement number: negate (invert, add one) if negative.
        let mut magnitude = self.unscaled.clone();
        if negative {
            let mut carry = true;
            for byte in magnitude.iter_mut().rev() {
                let (sum, overflow) = (!*byte).overflowing_add(u8::from(carry));
                *byte = sum;
                carry = overflow;
            }
            magnitude.insert(0, 0);
        }
        let mut digits = decimal_digits(magnitude);
        let scale = self.scale as usize;
        if digits.len() <= scale {
            let mut padded = vec![b'0'; scale + 1 - digits.len()];
            padded.append(&mut digits);
            digits = padded;
        }
        let (whole, fraction) = digits.split_at(digits.len() - scale);
        let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        if negative {
            f.write_str("-")?;
        }
        f.write_str(&text(whole))?;
        if scale > 0 {
            write!(f, ".{}", text(fraction))?;
        }
        Ok(())
    }
}

impl Serialize for Decimal {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.unscaled)
    }
}

impl<'de> Deserialize<'de> for Decimal {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let bytes = serde_bytes_like(deserializer)?;
        Ok(Self::new(bytes, 0))
    }
}

/// Deserializes a byte string, accepting bytes or a sequence of `u8` (what self-describing
/// formats such as `apache_avro::from_value` or JSON hand over).
pub(crate) fn serde_bytes_like<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<u8>, D::Error> {
    struct BytesVisitor;
    impl<'de> serde::de::Visitor<'de> for BytesVisitor {
        type Value = Vec<u8>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a byte string")
        }
        fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
            Ok(v.to_vec())
        }
        fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<Vec<u8>, E> {
            Ok(v)
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Vec<u8>, E> {
            Ok(v.as_bytes().to_vec())
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u8>, A::Error> {
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
            while let Some(byte) = seq.next_element::<u8>()? {
                out.push(byte);
            }
            Ok(out)
        }
    }
    deserializer.deserialize_bytes(BytesVisitor)
}

#[cfg(feature = "rust_decimal")]
mod rust_decimal_conversions {
    use super::Decimal;

    impl From<rust_decimal::Decimal> for Decimal {
        fn from(value: rust_decimal::Decimal) -> Self {
            Decimal::from_i128(value.mantissa(), value.scale())
        }
    }

    impl TryFrom<&Decimal> for rust_decimal::Decimal {
        type Error = rust_decimal::Error;

        /// Fails when the unscaled value exceeds 96 bits or the scale exceeds 28.
        fn try_from(value: &Decimal) -> Result<Self, Self::Error> {
            let unscaled = value
                .to_i128()
                .ok_or(rust_decimal::Error::ExceedsMaximumPossibleValue)?;
            rust_decimal::Decimal::try_from_i128_with_scale(unscaled, value.scale())
        }
    }

    impl TryFrom<Decimal> for rust_decimal::Decimal {
        type Error = rust_decimal::Error;

        /// Fails when the unscaled value exceeds 96 bits or the scale exceeds 28.
        fn try_from(value: Decimal) -> Result<Self, Self::Error> {
            rust_decimal::Decimal::try_from(&value)
        }
    }
}

#[cfg(feature = "bigdecimal")]
mod bigdecimal_conversions {
    use super::Decimal;
    use bigdecimal::num_bigint::BigInt;
    use bigdecimal::BigDecimal;

    impl From<&BigDecimal> for Decimal {
        /// A negative exponent (a value like `12e3`) is brought to scale 0.
        fn from(value: &BigDecimal) -> Self {
            let (unscaled, scale) = value.as_bigint_and_exponent();
            match u32::try_from(scale) {
                Ok(scale) => Decimal::new(unscaled.to_signed_bytes_be(), scale),
                Err(_) if scale < 0 => {
                    let (unscaled, _) = value.with_scale(0).into_bigint_and_exponent();
                    Decimal::new(unscaled.to_signed_bytes_be(), 0)
                }
                Err(_) => {
                    let (unscaled, _) = value
                        .with_scale(i64::from(u32::MAX))
                        .into_bigint_and_exponent();
                    Decimal::new(unscaled.to_signed_bytes_be(), u32::MAX)
                }
            }
        }
    }

    impl From<BigDecimal> for Decimal {
        fn from(value: BigDecimal) -> Self {
            Decimal::from(&value)
        }
    }

    impl From<&Decimal> for BigDecimal {
        fn from(value: &Decimal) -> Self {
            let unscaled = BigInt::from_signed_bytes_be(value.unscaled_bytes());
            BigDecimal::new(unscaled, i64::from(value.scale()))
        }
    }

    impl From<Decimal> for BigDecimal {
        fn from(value: Decimal) -> Self {
            BigDecimal::from(&value)
        }
    }
}

/// A `duration`: months, days and milliseconds, each a little-endian `u32` in a `fixed(12)`.
///
/// The three parts are independent (a month is not a number of days), so there is no
/// conversion to `std::time::Duration`.
///
/// Serde: it serializes as its 12 bytes, which is how `apache_avro::to_value` represents a
/// duration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Duration {
    /// Months.
    pub months: u32,
    /// Days.
    pub days: u32,
    /// Milliseconds.
    pub millis: u32,
}

impl Duration {
    /// The 12 bytes of the encoding.
    pub fn to_bytes(self) -> [u8; 12] {
        let mut out = [0u8; 12];
        out[..4].copy_from_slice(&self.months.to_le_bytes());
        out[4..8].copy_from_slice(&self.days.to_le_bytes());
        out[8..].copy_from_slice(&self.millis.to_le_bytes());
        out
    }

    /// The duration encoded by 12 bytes.
    pub fn from_bytes(bytes: [u8; 12]) -> Self {
        let part =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        Self {
            months: part(0),
            days: part(4),
            millis: part(8),
        }
    }
}

impl Serialize for Duration {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.to_bytes())
    }
}

impl<'de> Deserialize<'de> for Duration {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let bytes = serde_bytes_like(deserializer)?;
        let bytes: [u8; 12] = bytes.try_into().map_err(|bytes: Vec<u8>| {
            serde::de::Error::invalid_length(bytes.len(), &"12 bytes of a duration")
        })?;
        Ok(Self::from_bytes(bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_keep_their_shortest_bytes() {
        assert_eq!(
            Decimal::new(vec![0x00, 0x00, 0x7f], 2).unscaled_bytes(),
            [0x7f]
        );
        assert_eq!(
            Decimal::new(vec![0x00, 0x80], 2).unscaled_bytes(),
            [0x00, 0x80]
        );
        assert_eq!(
            Decimal::new(vec![0xff, 0xff, 0x80], 2).unscaled_bytes(),
            [0x80]
        );
        assert_eq!(Decimal::from_i128(-1, 0).unscaled_bytes(), [0xff]);
        assert_eq!(Decimal::from_i128(0, 0).unscaled_bytes(), [0x00]);
        assert_eq!(Decimal::new(Vec::new(), 1), Decimal::from_i128(0, 1));
        assert_eq!(Decimal::default(), Decimal::from_i128(0, 0));
        assert_eq!(Decimal::from_i128(-129, 3).to_i128(), Some(-129));
    }

    #[test]
    fn decimals_display_in_plain_notation() {
        let shown = |unscaled: i128, scale| Decimal::from_i128(unscaled, scale).to_string();
        assert_eq!(shown(-123, 2), "-1.23");
        assert_eq!(shown(50, 4), "0.0050");
        assert_eq!(shown(-5, 3), "-0.005");
        assert_eq!(shown(42, 0), "42");
        assert_eq!(shown(0, 2), "0.00");
        assert_eq!(shown(-128, 0), "-128");
        assert_eq!(shown(i128::MIN, 0), i128::MIN.to_string());
        // Wider than i128: 2^128 is 0x01 followed by 16 zero bytes.
        let mut wide = vec![0x01];
        wide.extend([0; 16]);
        assert_eq!(
            Decimal::new(wide, 5).to_string(),
            "3402823669209384634633746074317682.11456"
        );
    }

    #[test]
    fn duration_layout_is_three_little_endian_u32() {
        let d = Duration {
            months: 1,
            days: 2,
            millis: 0x0403_0201,
        };
        assert_eq!(d.to_bytes(), [1, 0, 0, 0, 2, 0, 0, 0, 1, 2, 3, 4]);
        assert_eq!(Duration::from_bytes(d.to_bytes()), d);
    }
}
