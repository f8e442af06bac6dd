//! Differential round trips of generated code against `apache-avro`, for every named type of
//! every conformance schema and codegen snapshot input (compiled by `build.rs`).
//!
//! Per type: random `apache_avro` values of the type's schema (seeded, many per type) are
//! written by `apache_avro::to_avro_datum`, decoded and re-encoded by the generated code, and
//! must come back as the same bytes; `apache_avro::from_avro_datum` of our bytes must give the
//! value back. The same value written to Avro's JSON encoding by `to_avro_json` and read back by
//! `from_avro_json` must encode to the same bytes again.

#![deny(warnings)]

use std::collections::HashMap;

use apache_avro::reader::datum::GenericDatumReader;
use apache_avro::schema::{InnerDecimalSchema, Name, Schema, UuidSchema};
use apache_avro::types::Value;
use apache_avro::writer::datum::GenericDatumWriter;
use avdl2rs::avro_json::AvroJson;
use avdl2rs::codec::Reader;
use avdl2rs::{AvroDecode, AvroEncode, AvroSchema};

/// One generated named type (also read by `generated_differential.rs`).
pub(crate) struct Case {
    pub(crate) file: &'static str,
    pub(crate) full_name: &'static str,
    pub(crate) schema_json: &'static str,
    pub(crate) canonical_form: &'static str,
    pub(crate) fingerprint: u64,
    round_trip: fn(&[u8]) -> Result<Vec<u8>, String>,
    json_round_trip: fn(&AvroJson, &[u8]) -> Result<Vec<u8>, String>,
}

macro_rules! case {
    ($file:expr, $name:expr, $ty:path) => {
        Case {
            file: $file,
            full_name: $name,
            schema_json: <$ty as AvroSchema>::SCHEMA_JSON,
            canonical_form: <$ty as AvroSchema>::CANONICAL_FORM,
            fingerprint: <$ty as AvroSchema>::FINGERPRINT,
            round_trip: round_trip::<$ty>,
            json_round_trip: json_round_trip::<$ty>,
        }
    };
}

include!(concat!(env!("OUT_DIR"), "/codegen_cases.rs"));

/// The generated types, for the other tests of generated code.
pub(crate) const GENERATED: &[Case] = CASES;

/// Decodes one `T` (all of the input) and encodes it again.
fn round_trip<T: AvroEncode + AvroDecode>(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut reader = Reader::new(bytes);
    let value = T::decode(&mut reader).map_err(|e| format!("decode: {e}"))?;
    if !reader.is_empty() {
        return Err(format!("decode left {} bytes unread", reader.remaining()));
    }
    let mut out = Vec::new();
    value.encode(&mut out).map_err(|e| format!("encode: {e}"))?;
    Ok(out)
}

/// Decodes one `T`, writes it in Avro's JSON encoding (which must be the JSON that
/// `by_schema`, the schema-driven encoding of `T::SCHEMA_JSON`, writes for the same bytes),
/// reads it back from the JSON and encodes it again.
fn json_round_trip<T: avdl2rs::Avro + 'static>(
    by_schema: &AvroJson,
    bytes: &[u8],
) -> Result<Vec<u8>, String> {
    let value = T::from_avro_bytes(bytes).map_err(|e| format!("decode: {e}"))?;
    let json = value
        .to_avro_json()
        .map_err(|e| format!("to_avro_json: {e}"))?;
    let by_schema = by_schema
        .decode(bytes)
        .map_err(|e| format!("schema-driven decode: {e}"))?;
    if json != by_schema {
        return Err(format!("to_avro_json {json} differs from {by_schema}"));
    }
    let back = T::from_avro_json(&json).map_err(|e| format!("from_avro_json: {e}"))?;
    back.to_avro_bytes().map_err(|e| format!("encode: {e}"))
}

const VALUES_PER_TYPE: usize = 200;

#[test]
fn generated_codecs_round_trip_random_values_like_apache_avro() {
    avdl2rs_tests::on_big_stack(round_trip_every_case);
}

fn round_trip_every_case() {
    assert!(!CASES.is_empty(), "build.rs registered no generated type");
    let mut failures = Vec::new();
    for case in CASES {
        let schema = crate::generated_differential::apache(case.schema_json).unwrap_or_else(|e| {
            panic!("{}: the SCHEMA_JSON of {}: {e}", case.file, case.full_name)
        });
        // Made once per type and used for each of its values: building them is most of the
        // work of one value otherwise (a schema parse, apache-avro's name resolution).
        let codecs = match Codecs::new(case, &schema) {
            Ok(codecs) => codecs,
            Err(e) => {
                failures.push(format!("{} {}: {e}", case.file, case.full_name));
                continue;
            }
        };
        let mut values = ValueGen::new(&schema, fnv(case.full_name));
        for n in 0..VALUES_PER_TYPE {
            let value = values.value(&schema, 0);
            if let Err(e) = check(case, &codecs, &value) {
                failures.push(format!(
                    "{} {} value #{n} {value:?}: {e}",
                    case.file, case.full_name
                ));
                break;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failing types:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The codecs of one type's schema that its values are checked with, besides its generated
/// code: apache-avro's writer and reader and the schema-driven Avro JSON encoding.
struct Codecs<'s> {
    writer: GenericDatumWriter<'s>,
    reader: GenericDatumReader<'s>,
    by_schema: AvroJson,
}

impl<'s> Codecs<'s> {
    fn new(case: &Case, schema: &'s Schema) -> Result<Self, String> {
        let writer = GenericDatumWriter::builder(schema)
            .build()
            .map_err(|e| format!("apache-avro cannot write it: {e}"))?;
        let reader = GenericDatumReader::builder(schema)
            .build()
            .map_err(|e| format!("apache-avro cannot read it: {e}"))?;
        let by_schema = AvroJson::new(case.schema_json).map_err(|e| format!("schema: {e}"))?;
        Ok(Codecs {
            writer,
            reader,
            by_schema,
        })
    }
}

fn check(case: &Case, codecs: &Codecs<'_>, value: &Value) -> Result<(), String> {
    let theirs = codecs
        .writer
        .write_value_to_vec(value.clone())
        .map_err(|e| format!("apache-avro cannot write it: {e}"))?;
    let ours = (case.round_trip)(&theirs)?;
    let through_json = (case.json_round_trip)(&codecs.by_schema, &theirs)?;
    if through_json != ours && !has_reordered_map(value) {
        return Err(format!(
            "through Avro JSON the bytes change:\n  direct {ours:?}\n  JSON   {through_json:?}"
        ));
    }
    // Map entries are written in iteration order, which hash maps do not keep; with two or
    // more entries only the values can be compared.
    if ours != theirs && !has_reordered_map(value) {
        return Err(format!(
            "re-encoded bytes differ:\n  apache-avro {theirs:?}\n  ours        {ours:?}"
        ));
    }
    let mut input = ours.as_slice();
    let back = codecs
        .reader
        .read_value(&mut input)
        .map_err(|e| format!("apache-avro cannot read ours: {e}"))?;
    if &back != value {
        return Err(format!("apache-avro reads our bytes as {back:?}"));
    }
    Ok(())
}

/// Whether `value` holds a map with more than one entry.
pub(crate) fn has_reordered_map(value: &Value) -> bool {
    match value {
        Value::Map(entries) => entries.len() > 1 || entries.values().any(has_reordered_map),
        Value::Array(items) => items.iter().any(has_reordered_map),
        Value::Record(fields) => fields.iter().any(|(_, v)| has_reordered_map(v)),
        Value::Union(_, v) => has_reordered_map(v),
        _ => false,
    }
}

/// A stable seed per type name, so failures reproduce.
pub(crate) fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Random values of a schema, from a seeded SplitMix64 generator (also used by
/// `generic_records.rs`).
pub(crate) struct ValueGen {
    state: u64,
    named: HashMap<Name, Schema>,
}

/// Beyond this depth, containers are empty and unions take a branch that ends recursion.
const MAX_DEPTH: usize = 4;

impl ValueGen {
    pub(crate) fn new(schema: &Schema, seed: u64) -> Self {
        let mut named = HashMap::new();
        collect_named(schema, &mut named);
        ValueGen { state: seed, named }
    }

    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// A number that is often small and sometimes at the edges of the range.
    fn long(&mut self) -> i64 {
        match self.below(4) {
            0 => self.below(200) as i64 - 100,
            1 => [i64::MIN, i64::MAX, 0, -1, 1 << 40][self.below(5) as usize],
            _ => self.next() as i64 >> self.below(64),
        }
    }

    fn int(&mut self) -> i32 {
        (self.long() >> 32) as i32 ^ self.long() as i32
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }

    fn len(&mut self, depth: usize) -> usize {
        if depth >= MAX_DEPTH {
            0
        } else {
            self.below(4) as usize
        }
    }

    fn string(&mut self) -> String {
        let len = self.below(8);
        (0..len)
            .map(|_| ['a', 'Z', '0', ' ', 'é', '€', '😀', '"'][self.below(8) as usize])
            .collect()
    }

    pub(crate) fn value(&mut self, schema: &Schema, depth: usize) -> Value {
        match schema {
            Schema::Null => Value::Null,
            Schema::Boolean => Value::Boolean(self.below(2) == 1),
            Schema::Int => Value::Int(self.int()),
            Schema::Long => Value::Long(self.long()),
            Schema::Float => Value::Float(self.int() as f32 / 7.0),
            Schema::Double => Value::Double(self.long() as f64 / 3.0),
            Schema::Bytes => {
                let len = self.below(10) as usize;
                Value::Bytes(self.bytes(len))
            }
            Schema::String => Value::String(self.string()),
            Schema::Array(array) => {
                // The reader bounds an array's item count by the bytes left, which items of
                // `null` do not take (a documented limit of the runtime).
                let len = if *array.items == Schema::Null {
                    0
                } else {
                    self.len(depth)
                };
                Value::Array(
                    (0..len)
                        .map(|_| self.value(&array.items, depth + 1))
                        .collect(),
                )
            }
            Schema::Map(map) => {
                let len = self.len(depth);
                Value::Map(
                    (0..len)
                        .map(|i| {
                            (
                                format!("{i}{}", self.string()),
                                self.value(&map.types, depth + 1),
                            )
                        })
                        .collect(),
                )
            }
            Schema::Union(union) => {
                let variants = union.variants();
                let index = if depth >= MAX_DEPTH {
                    variants
                        .iter()
                        .position(|v| self.terminates(v))
                        .unwrap_or(0)
                } else {
                    self.below(variants.len() as u64) as usize
                };
                Value::Union(
                    index as u32,
                    Box::new(self.value(&variants[index], depth + 1)),
                )
            }
            Schema::Record(record) => Value::Record(
                record
                    .fields
                    .iter()
                    .map(|f| (f.name.clone(), self.value(&f.schema, depth + 1)))
                    .collect(),
            ),
            Schema::Enum(e) => {
                let index = self.below(e.symbols.len() as u64) as usize;
                Value::Enum(index as u32, e.symbols[index].clone())
            }
            Schema::Fixed(fixed) => Value::Fixed(fixed.size, self.bytes(fixed.size)),
            Schema::Decimal(decimal) => {
                // Within the precision: more digits are refused by both sides.
                let bound = 10i64
                    .checked_pow(decimal.precision as u32)
                    .unwrap_or(i64::MAX);
                let unscaled = (self.long() >> self.below(64)) % bound;
                let bytes = match &decimal.inner {
                    InnerDecimalSchema::Fixed(fixed) => sign_extended(unscaled, fixed.size),
                    InnerDecimalSchema::Bytes => minimal_twos_complement(unscaled),
                };
                Value::Decimal(apache_avro::Decimal::from(bytes))
            }
            Schema::Uuid(UuidSchema::String | UuidSchema::Fixed(_) | UuidSchema::Bytes) => {
                Value::Uuid(apache_avro::Uuid::from_u64_pair(self.next(), self.next()))
            }
            Schema::Date => Value::Date(self.int() % 3_000_000),
            Schema::TimeMillis => Value::TimeMillis(self.below(86_400_000) as i32),
            Schema::TimeMicros => Value::TimeMicros(self.below(86_400_000_000) as i64),
            Schema::TimestampMillis => Value::TimestampMillis(self.long() % 8_000_000_000_000_000),
            Schema::TimestampMicros => Value::TimestampMicros(self.long() % 8_000_000_000_000_000),
            Schema::TimestampNanos => Value::TimestampNanos(self.long() / 2),
            Schema::LocalTimestampMillis => {
                Value::LocalTimestampMillis(self.long() % 8_000_000_000_000_000)
            }
            Schema::LocalTimestampMicros => {
                Value::LocalTimestampMicros(self.long() % 8_000_000_000_000_000)
            }
            Schema::LocalTimestampNanos => Value::LocalTimestampNanos(self.long() / 2),
            Schema::Duration(_) => Value::Duration(apache_avro::Duration::new(
                apache_avro::Months::new(self.next() as u32),
                apache_avro::Days::new(self.next() as u32),
                apache_avro::Millis::new(self.next() as u32),
            )),
            Schema::BigDecimal => panic!("big-decimal is not generated as a logical type"),
            Schema::Ref { name } => {
                let schema = self
                    .named
                    .get(name)
                    .unwrap_or_else(|| panic!("unknown reference {name:?}"))
                    .clone();
                self.value(&schema, depth + 1)
            }
        }
    }

    /// Whether a value of `schema` can be written without going deeper into named types.
    fn terminates(&self, schema: &Schema) -> bool {
        !matches!(schema, Schema::Record(_) | Schema::Ref { .. })
    }
}

fn collect_named(schema: &Schema, named: &mut HashMap<Name, Schema>) {
    match schema {
        Schema::Record(record) if named.insert(record.name.clone(), schema.clone()).is_none() => {
            record
                .fields
                .iter()
                .for_each(|f| collect_named(&f.schema, named));
        }
        Schema::Enum(e) => {
            named.insert(e.name.clone(), schema.clone());
        }
        Schema::Fixed(f) => {
            named.insert(f.name.clone(), schema.clone());
        }
        Schema::Array(a) => collect_named(&a.items, named),
        Schema::Map(m) => collect_named(&m.types, named),
        Schema::Union(u) => u.variants().iter().for_each(|v| collect_named(v, named)),
        _ => {}
    }
}

/// The shortest big-endian two's-complement bytes of `n`, as Avro writes a bytes decimal.
fn minimal_twos_complement(n: i64) -> Vec<u8> {
    let bytes = n.to_be_bytes();
    let mut start = 0;
    while start < 7 {
        let (b, next) = (bytes[start], bytes[start + 1]);
        if (b == 0 && next & 0x80 == 0) || (b == 0xff && next & 0x80 != 0) {
            start += 1;
        } else {
            break;
        }
    }
    bytes[start..].to_vec()
}

/// `n` as `size` big-endian two's-complement bytes (truncated to fit when `size` < 8).
fn sign_extended(n: i64, size: usize) -> Vec<u8> {
    let n = if size < 8 {
        (n << (64 - 8 * size)) >> (64 - 8 * size)
    } else {
        n
    };
    let fill = if n < 0 { 0xff } else { 0 };
    let mut out = vec![fill; size.saturating_sub(8)];
    out.extend_from_slice(&n.to_be_bytes()[8usize.saturating_sub(size)..]);
    out
}
