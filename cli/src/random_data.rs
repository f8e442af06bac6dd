//! [`RandomData`]: random values of any schema, written straight to Avro binary, from a small
//! seeded generator (`fastrand`'s wyrand), so that the same seed gives the same bytes.
//!
//! Values are valid for the schema and its logical types: dates and timestamps between
//! 1970 and 2100, times within a day, a `uuid` a well-formed version-4 UUID, a `decimal`
//! within its precision (and its fixed size), a `duration` of small parts. Recursive schemas
//! end: past [`SHALLOW`] levels arrays and maps are empty and a union takes its branch that
//! nests least (`null`, else a primitive, ...), so only a schema with no finite value at all
//! (a record that must hold itself) reaches the hard limit, an error.

use avdl2rs::avro_json::MAX_DEPTH;
use avdl2rs::codec;
use avdl2rs::schema::{LogicalType, NamedKind, Schema, SchemaKind, SchemaSet};

/// The nesting level past which values stop growing.
const SHALLOW: usize = 4;

/// The most items of one array or map.
const MOST_ITEMS: usize = 3;

/// The longest string or bytes value.
const LONGEST: usize = 12;

/// Characters of random strings: ASCII, and some of two, three and four UTF-8 bytes.
const CHARS: &[char] = &[
    'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'k', 'm', 'n', 'p', 'r', 's', 't', 'x', 'A', 'B', 'Z',
    '0', '1', '7', '9', ' ', '-', '_', '.', 'é', 'ß', 'ж', '✓', '中', '🙂',
];

/// Days from 1970-01-01 to 2100-01-01.
const DAYS_TO_2100: i64 = 47_482;
const MILLIS_PER_DAY: i64 = 86_400_000;

/// Random values of the schemas of one set.
pub struct RandomData<'s> {
    set: &'s SchemaSet,
    rng: fastrand::Rng,
}

impl<'s> RandomData<'s> {
    /// Values of `set`'s schemas, drawn from `rng`.
    pub fn new(set: &'s SchemaSet, rng: fastrand::Rng) -> Self {
        RandomData { set, rng }
    }

    /// Appends the binary encoding of a random `schema` value to `out`.
    pub fn write(&mut self, schema: &Schema, out: &mut Vec<u8>) -> Result<(), String> {
        self.value(schema, 0, out)
    }

    fn value(&mut self, schema: &Schema, depth: usize, out: &mut Vec<u8>) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(format!(
                "the schema has no value that nests fewer than {MAX_DEPTH} levels"
            ));
        }
        match &schema.kind {
            SchemaKind::Array(items) => {
                let count = self.count(depth);
                write_count(out, count);
                for _ in 0..count {
                    self.value(items, depth + 1, out)?;
                }
                out.push(0);
            }
            SchemaKind::Map(values) => {
                let count = self.count(depth);
                write_count(out, count);
                for index in 0..count {
                    // The index keeps the keys apart: a map has each key once.
                    codec::write_string(out, &format!("{}{index}", self.text(4)));
                    self.value(values, depth + 1, out)?;
                }
                out.push(0);
            }
            SchemaKind::Union(branches) => {
                let index = self.branch(branches, depth);
                codec::write_long(out, index as i64);
                self.value(&branches[index], depth + 1, out)?;
            }
            SchemaKind::Named(name) => {
                let Some(named) = self.set.get(&name.full_name()) else {
                    return Err(format!(
                        "the schema refers to {name}, which it does not define"
                    ));
                };
                match &named.kind {
                    NamedKind::Record { fields, .. } => {
                        for field in fields {
                            self.value(&field.schema, depth + 1, out)?;
                        }
                    }
                    NamedKind::Enum { symbols, .. } => {
                        codec::write_long(out, self.rng.usize(..symbols.len()) as i64);
                    }
                    NamedKind::Fixed { size } => self.fixed(*size, named.logical_type, out),
                }
            }
            scalar => self.scalar(scalar, schema.logical_type, out),
        }
        Ok(())
    }

    /// The items of an array or map: none past [`SHALLOW`] levels.
    fn count(&mut self, depth: usize) -> usize {
        if depth >= SHALLOW {
            0
        } else {
            self.rng.usize(..=MOST_ITEMS)
        }
    }

    /// Any branch, or past [`SHALLOW`] levels the first of those that nest least.
    fn branch(&mut self, branches: &[Schema], depth: usize) -> usize {
        if depth < SHALLOW {
            return self.rng.usize(..branches.len());
        }
        (0..branches.len())
            .min_by_key(|&index| self.nesting(&branches[index]))
            .unwrap_or(0)
    }

    /// How much a value of `schema` may nest: 0 for `null`, then scalars, then arrays and
    /// maps (which can be empty), then records.
    fn nesting(&self, schema: &Schema) -> u8 {
        match &schema.kind {
            SchemaKind::Null => 0,
            SchemaKind::Array(_) | SchemaKind::Map(_) => 2,
            SchemaKind::Union(_) => 3,
            SchemaKind::Named(name) => match self.set.get(&name.full_name()).map(|n| &n.kind) {
                Some(NamedKind::Record { .. }) | None => 3,
                Some(_) => 1,
            },
            _ => 1,
        }
    }

    fn scalar(&mut self, kind: &SchemaKind, logical: Option<LogicalType>, out: &mut Vec<u8>) {
        use LogicalType as L;
        match (kind, logical) {
            (SchemaKind::Boolean, _) => codec::write_boolean(out, self.rng.bool()),
            (SchemaKind::Int, Some(L::Date)) => {
                codec::write_int(out, self.rng.i64(0..DAYS_TO_2100) as i32);
            }
            (SchemaKind::Int, Some(L::TimeMillis)) => {
                codec::write_int(out, self.rng.i64(0..MILLIS_PER_DAY) as i32);
            }
            (SchemaKind::Int, _) => codec::write_int(out, self.rng.i32(..)),
            (SchemaKind::Long, logical) => {
                let value = match logical.and_then(per_millisecond) {
                    Some((per_ms, within_day)) => {
                        let span = if within_day { 1 } else { DAYS_TO_2100 };
                        self.rng.i64(0..span * MILLIS_PER_DAY * per_ms)
                    }
                    None => self.rng.i64(..),
                };
                codec::write_long(out, value);
            }
            (SchemaKind::Float, _) => {
                codec::write_float(out, (self.rng.f32() - 0.5) * 2000.0);
            }
            (SchemaKind::Double, _) => {
                codec::write_double(out, (self.rng.f64() - 0.5) * 2e6);
            }
            (SchemaKind::Bytes, Some(L::Decimal { precision, .. })) => {
                codec::write_bytes(out, &self.decimal(precision, None));
            }
            (SchemaKind::Bytes, Some(L::BigDecimal)) => {
                let mut value = Vec::new();
                codec::write_bytes(&mut value, &self.decimal(18, None));
                codec::write_int(&mut value, self.rng.i32(0..=6));
                codec::write_bytes(out, &value);
            }
            (SchemaKind::Bytes, _) => {
                let len = self.rng.usize(..=LONGEST);
                let bytes: Vec<u8> = std::iter::repeat_with(|| self.rng.u8(..))
                    .take(len)
                    .collect();
                codec::write_bytes(out, &bytes);
            }
            (SchemaKind::String, Some(L::Uuid)) => {
                codec::write_string(out, &uuid_text(&self.uuid()))
            }
            (SchemaKind::String, _) => {
                let len = self.rng.usize(..=LONGEST);
                codec::write_string(out, &self.text(len));
            }
            // `null`, which takes no bytes.
            _ => {}
        }
    }

    fn fixed(&mut self, size: usize, logical: Option<LogicalType>, out: &mut Vec<u8>) {
        let bytes = match logical {
            Some(LogicalType::Decimal { precision, .. }) => self.decimal(precision, Some(size)),
            Some(LogicalType::Uuid) => self.uuid().to_vec(),
            Some(LogicalType::Duration) => {
                let months = self.rng.u32(..1200);
                let days = self.rng.u32(..31);
                let millis = self.rng.u32(..MILLIS_PER_DAY as u32);
                [months, days, millis]
                    .iter()
                    .flat_map(|part| part.to_le_bytes())
                    .collect()
            }
            _ => std::iter::repeat_with(|| self.rng.u8(..))
                .take(size)
                .collect(),
        };
        codec::write_fixed(out, &bytes);
    }

    /// The big-endian two's complement of an unscaled value of at most `precision` digits
    /// (and 38, the most an `i128` holds): in its fewest bytes, or sign-extended to `size`.
    fn decimal(&mut self, precision: u32, size: Option<usize>) -> Vec<u8> {
        let digits = self.rng.u32(1..=precision.clamp(1, 38));
        let largest = 10i128.pow(digits) - 1;
        let unscaled = self.rng.i128(-largest..=largest);
        let sign = if unscaled < 0 { 0xff } else { 0x00 };
        let full = unscaled.to_be_bytes();
        match size {
            Some(size) if size >= full.len() => {
                let mut bytes = vec![sign; size - full.len()];
                bytes.extend_from_slice(&full);
                bytes
            }
            // The precision fits the size (the schema model checks it), so the bytes cut
            // off are sign bytes.
            Some(size) => full[full.len() - size..].to_vec(),
            None => {
                let redundant = full
                    .windows(2)
                    .take_while(|pair| pair[0] == sign && (pair[1] & 0x80 == sign & 0x80))
                    .count();
                full[redundant..].to_vec()
            }
        }
    }

    /// The 16 bytes of a random version-4 UUID (RFC 9562).
    fn uuid(&mut self) -> [u8; 16] {
        let mut bytes = self.rng.u128(..).to_be_bytes();
        bytes[6] = (bytes[6] & 0x0f) | 0x40;
        bytes[8] = (bytes[8] & 0x3f) | 0x80;
        bytes
    }

    fn text(&mut self, len: usize) -> String {
        (0..len)
            .map(|_| CHARS[self.rng.usize(..CHARS.len())])
            .collect()
    }
}

/// A `long` time type's units per millisecond, and whether it is a time of day.
fn per_millisecond(logical: LogicalType) -> Option<(i64, bool)> {
    use LogicalType as L;
    Some(match logical {
        L::TimeMicros => (1_000, true),
        L::TimestampMillis | L::LocalTimestampMillis => (1, false),
        L::TimestampMicros | L::LocalTimestampMicros => (1_000, false),
        L::TimestampNanos | L::LocalTimestampNanos => (1_000_000, false),
        _ => return None,
    })
}

/// An array or map block's count; none for an empty one, which is the end marker alone.
fn write_count(out: &mut Vec<u8>, count: usize) {
    if count > 0 {
        codec::write_long(out, count as i64);
    }
}

/// A UUID in its text form, `8-4-4-4-12` lowercase hex digits.
fn uuid_text(bytes: &[u8; 16]) -> String {
    let hex: String = bytes.iter().map(|byte| format!("{byte:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(seed: u64) -> (SchemaSet, fastrand::Rng) {
        (SchemaSet::new(), fastrand::Rng::with_seed(seed))
    }

    #[test]
    fn decimals_take_their_fewest_bytes_or_their_size() {
        let (set, rng) = data(1);
        let mut random = RandomData::new(&set, rng);
        for _ in 0..1000 {
            let bytes = random.decimal(5, None);
            let value = bytes
                .iter()
                .fold(if bytes[0] & 0x80 != 0 { -1i128 } else { 0 }, |acc, &b| {
                    (acc << 8) | i128::from(b)
                });
            assert!(value.abs() <= 99_999, "{value}");
            assert!(bytes.len() <= 3, "{bytes:?}");
            let fixed = random.decimal(4, Some(3));
            assert_eq!(fixed.len(), 3);
        }
    }

    #[test]
    fn uuids_are_version_4() {
        let (set, rng) = data(2);
        let text = uuid_text(&RandomData::new(&set, rng).uuid());
        assert_eq!(text.len(), 36);
        assert_eq!(&text[14..15], "4");
        assert!("89ab".contains(&text[19..20]), "{text}");
    }
}
