//! Values of Avro logical types that have no good home in another crate (Avro
//! specification, "Logical Types"): [`Decimal`] and [`Duration`].
//!
//! Dates, times and timestamps map to `chrono` (or `time`) types, and UUIDs to `uuid::Uuid`;
//! their codecs live in the hidden `__private` module that generated code calls.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use std::borrow::Cow;

use crate::error::{EncodeError, EncodeErrorKind};

/// A `decimal` (or `big-decimal`): an unscaled integer, stored as big-endian two's-complement
/// bytes exactly as Avro writes it, and a scale: the value is `unscaled × 10^-scale`.
///
/// The bytes are kept in their shortest form, so equality and hashing compare the unscaled
/// integer and the scale (`1.0` with scale 1 and `1` with scale 0 are different values, as
/// they are different encodings). Convert to `rust_decimal::Decimal` or
/// `bigdecimal::BigDecimal` (features `rust_decimal`, `bigdecimal`) for arithmetic.
/// `Display`, `Debug` and [`str::parse`] use plain notation with `scale` fraction digits:
///
/// ```
/// use avdl2rs::logical::Decimal;
///
/// let price: Decimal = "-12.50".parse().unwrap();
/// assert_eq!(price, Decimal::from_i128(-1250, 2));
/// assert_eq!(price.to_string(), "-12.50");
/// assert_eq!(format!("{price:?}"), "Decimal(-12.50)");
/// assert_eq!(price.precision(), 4);
/// // Written to a `decimal(p, 3)` the value is rescaled exactly; to a scale of 1 it would
/// // need rounding, which encoding refuses.
/// assert_eq!(price.rescale(3), Some(Decimal::from_i128(-12500, 3)));
/// assert_eq!(price.rescale(1), Some(Decimal::from_i128(-125, 1)));
/// assert_eq!(Decimal::from_i128(12345, 3).rescale(2), None);
/// ```
///
/// Encoding to a `decimal(precision, scale)` field rescales the value to the schema's scale
/// when that is exact (`12.5` is written as `12.50` at scale 2) and otherwise fails, as it
/// fails when the value has more digits than the precision; decoding checks the precision.
///
/// Serde: a human-readable format (JSON) sees the decimal string (`"12.50"`); a binary one
/// sees its unscaled bytes, which is how `apache_avro::to_value` represents a decimal.
/// Deserializing from bytes gives scale 0 (the schema, not the bytes, knows the scale: use
/// [`Decimal::with_scale`]); generated code does that through the schema.
#[derive(Clone, PartialEq, Eq, Hash)]
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

    /// The number of significant digits of the unscaled value (zero has one), as Avro's
    /// `precision` counts them.
    pub fn precision(&self) -> u32 {
        // Fewer than 2^32 digits: the bytes would not fit in memory otherwise.
        self.digits().1.len() as u32
    }

    /// Whether the unscaled value has at most `precision` digits. Values whose byte length
    /// alone proves it are not divided out.
    pub fn fits_precision(&self, precision: u32) -> bool {
        // A magnitude below 2^bits has fewer than `precision` digits when
        // bits × log10(2) < precision; 0.30103 is log10(2) rounded up.
        let bits = 8 * self.unscaled.len() as u64 - 1;
        bits * 30_103 < u64::from(precision) * 100_000 || self.precision() <= precision
    }

    /// The same number at `scale`, when that is exact: more fraction digits always are, fewer
    /// only when the digits dropped are zeros. `None` when it would need rounding.
    pub fn rescale(&self, scale: u32) -> Option<Decimal> {
        self.rescale_within(scale, u32::MAX)
            .ok()
            .map(Cow::into_owned)
    }

    /// [`Self::rescale`] with at most `precision` digits; on failure, whether the scale
    /// (`Err(true)`, rounding needed) or the precision (`Err(false)`) was the obstacle. The
    /// precision is checked before any zero is appended, so a large scale costs nothing.
    fn rescale_within(&self, scale: u32, precision: u32) -> Result<Cow<'_, Decimal>, bool> {
        if scale == self.scale {
            return if self.fits_precision(precision) {
                Ok(Cow::Borrowed(self))
            } else {
                Err(false)
            };
        }
        let (negative, mut digits) = self.digits();
        if digits == b"0" {
            return Ok(Cow::Owned(Decimal::from_i128(0, scale)));
        }
        if scale > self.scale {
            let added = (scale - self.scale) as usize;
            if digits.len().saturating_add(added) > precision as usize {
                return Err(false);
            }
            digits.resize(digits.len() + added, b'0');
        } else {
            let dropped = (self.scale - scale) as usize;
            let kept = digits.len().checked_sub(dropped).ok_or(true)?;
            if digits[kept..].iter().any(|&d| d != b'0') {
                return Err(true);
            }
            digits.truncate(kept);
            if digits.len() > precision as usize {
                return Err(false);
            }
        }
        Ok(Cow::Owned(Decimal::from_digits(negative, &digits, scale)))
    }

    /// Fits the value to a `decimal(precision, scale)` schema, or says why it does not fit.
    pub(crate) fn to_schema(
        &self,
        precision: u32,
        scale: u32,
    ) -> Result<Cow<'_, Decimal>, EncodeError> {
        self.rescale_within(scale, precision).map_err(|inexact| {
            let value = self.to_string();
            EncodeError::new(if inexact {
                EncodeErrorKind::DecimalScaleTooLarge { value, scale }
            } else {
                EncodeErrorKind::DecimalPrecisionTooLarge { value, precision }
            })
        })
    }

    /// The sign and the base-10 digits of the unscaled value, most significant first.
    fn digits(&self) -> (bool, Vec<u8>) {
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
        (negative, decimal_digits(magnitude))
    }

    /// The decimal with these ASCII base-10 digits (most significant first) and sign.
    fn from_digits(negative: bool, digits: &[u8], scale: u32) -> Decimal {
        // Big-endian base-256 magnitude, with a leading zero byte for the sign bit.
        let mut magnitude = vec![0u8];
        for &digit in digits {
            let mut carry = u16::from(digit - b'0');
            for byte in magnitude.iter_mut().rev() {
                let value = u16::from(*byte) * 10 + carry;
                *byte = value as u8;
                carry = value >> 8;
            }
            if carry > 0 {
                magnitude.insert(0, carry as u8);
            }
        }
        if magnitude[0] & 0x80 != 0 {
            magnitude.insert(0, 0);
        }
        if negative {
            let mut carry = true;
            for byte in magnitude.iter_mut().rev() {
                let (sum, overflow) = (!*byte).overflowing_add(u8::from(carry));
                *byte = sum;
                carry = overflow;
            }
        }
        Decimal::new(magnitude, scale)
    }

    /// The unscaled bytes sign-extended to at least `len` bytes.
    pub(crate) fn unscaled_bytes_padded(&self, len: usize) -> Vec<u8> {
        let fill = if self.is_negative() { 0xff } else { 0x00 };
        let mut out = vec![fill; len.saturating_sub(self.unscaled.len())];
        out.extend_from_slice(&self.unscaled);
        out
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

/// The fewest bytes whose two's-complement range holds every number of `precision` digits,
/// the length apache-avro and the Java reference expect of a `decimal(precision, _)`.
pub(crate) fn bytes_for_precision(precision: u32) -> usize {
    // n bytes hold floor((8n - 1) × log10(2)) digits; 0.30102999 is log10(2) rounded down.
    (1..)
        .find(|&n: &u64| (8 * n - 1) * 30_102_999 / 100_000_000 >= u64::from(precision))
        .unwrap_or(1) as usize
}

/// Why a decimal text could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid decimal {0:?}: expected digits with an optional sign, point and exponent")]
pub struct ParseDecimalError(String);

/// The largest exponent a decimal text may have: enough for any real scale, small enough
/// that `1e999999999` cannot ask for a gigabyte of digits.
const MAX_EXPONENT: i64 = 10_000;

impl std::str::FromStr for Decimal {
    type Err = ParseDecimalError;

    /// Plain or scientific notation: `12`, `-0.050`, `+1.5e3`, `25E-4`. The scale is the
    /// number of fraction digits written, less the exponent (at least 0): `1.50` has scale 2.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let invalid = || ParseDecimalError(text.to_owned());
        let (negative, unsigned) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        let (number, exponent) = match unsigned.find(['e', 'E']) {
            Some(at) => {
                let exponent: i64 = unsigned[at + 1..].parse().map_err(|_| invalid())?;
                (&unsigned[..at], exponent)
            }
            None => (unsigned, 0),
        };
        if exponent.abs() > MAX_EXPONENT {
            return Err(invalid());
        }
        let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
        let all_digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
        if whole.len() + fraction.len() == 0 || !all_digits(whole) || !all_digits(fraction) {
            return Err(invalid());
        }
        let mut digits = [whole.as_bytes(), fraction.as_bytes()].concat();
        let scale = fraction.len() as i64 - exponent;
        if scale < 0 {
            digits.resize(digits.len() + scale.unsigned_abs() as usize, b'0');
        }
        let scale = u32::try_from(scale.max(0)).map_err(|_| invalid())?;
        Ok(Decimal::from_digits(negative, &digits, scale))
    }
}

impl std::fmt::Debug for Decimal {
    /// `Decimal(-1.23)`: the number, not its bytes.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Decimal({self})")
    }
}

impl std::fmt::Display for Decimal {
    /// Plain decimal notation with exactly `scale` digits after the point: `-1.23`,
    /// `0.0050`, `42`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (negative, mut digits) = self.digits();
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
    /// The decimal string for a human-readable format, else the shortest unscaled bytes.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            serializer.collect_str(self)
        } else {
            serializer.serialize_bytes(&self.unscaled)
        }
    }
}

impl<'de> Deserialize<'de> for Decimal {
    /// A decimal string (human-readable formats), or unscaled bytes at scale 0.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match deserialize_form(deserializer)? {
            DecimalForm::Parsed(value) => Ok(value),
            DecimalForm::Unscaled(bytes) => Ok(Self::new(bytes, 0)),
        }
    }
}

/// Reads a serialized decimal: text from a human-readable format, bytes from another.
pub(crate) fn deserialize_form<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<DecimalForm, D::Error> {
    let text = deserializer.is_human_readable();
    if text {
        deserializer.deserialize_any(DecimalVisitor { text })
    } else {
        deserializer.deserialize_bytes(DecimalVisitor { text })
    }
}

/// What a serialized decimal held: its text, or its unscaled bytes (whose scale the schema
/// knows).
pub(crate) enum DecimalForm {
    /// A decimal parsed from its text, with the scale written there.
    Parsed(Decimal),
    /// Unscaled two's-complement bytes.
    Unscaled(Vec<u8>),
}

/// Accepts a decimal string (when `text`) or a byte string in any of the forms
/// [`serde_bytes_like`] takes.
struct DecimalVisitor {
    /// Whether a string is decimal text (human-readable formats) rather than bytes.
    text: bool,
}

impl<'de> serde::de::Visitor<'de> for DecimalVisitor {
    type Value = DecimalForm;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a decimal string or the unscaled bytes of a decimal")
    }
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<DecimalForm, E> {
        if self.text {
            v.parse().map(DecimalForm::Parsed).map_err(E::custom)
        } else {
            serde::de::Visitor::visit_str(BytesVisitor, v).map(DecimalForm::Unscaled)
        }
    }
    fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<DecimalForm, E> {
        Ok(DecimalForm::Unscaled(v.to_vec()))
    }
    fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<DecimalForm, E> {
        Ok(DecimalForm::Unscaled(v))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<DecimalForm, A::Error> {
        serde::de::Visitor::visit_seq(BytesVisitor, seq).map(DecimalForm::Unscaled)
    }
}

/// Deserializes a byte string, accepting bytes or a sequence of `u8` (what self-describing
/// formats such as `apache_avro::from_value` or JSON hand over).
pub(crate) fn serde_bytes_like<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<u8>, D::Error> {
    deserializer.deserialize_bytes(BytesVisitor)
}

/// Accepts bytes, a string's UTF-8 bytes or a sequence of `u8`.
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
