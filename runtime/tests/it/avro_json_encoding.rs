//! The Avro JSON encoding of `avdl2rs::avro_json`, both ways.
//!
//! * Differential: random values of every conformance schema (and of a schema of every shape
//!   and logical type), made here as an apache-avro value together with its JSON encoding
//!   written out by the specification's rules: our JSON → binary equals apache-avro's binary,
//!   apache-avro's binary → our JSON is that JSON, and back to binary gives the same bytes.
//! * JSON written by hand for each shape the specification describes, with the binary worked
//!   out by hand from the binary encoding's rules.
//! * Errors with the JSON pointer and message of the offending value.
//! * Hostile input: deep, long or random JSON and binary give errors, never a panic, a stack
//!   overflow or an allocation beyond the input's budget.

use std::collections::HashMap;

use apache_avro::types::Value as Apache;
use avdl2rs::avro_json::{AvroJson, MAX_DEPTH};
use avdl2rs::codec::Reader;
use avdl2rs::schema::{LogicalType, Name, NamedKind, Schema, SchemaKind, SchemaSet};
use avdl2rs::DecodeErrorKind;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{json, Map, Value};

use crate::codec_support;

/// A schema of every shape: a union of named types of nested namespaces (two records of the
/// same simple name among them), every logical type, maps of unions, recursion through an
/// array and an optional field.
const SHAPES: &str = r#"{"type":"record","name":"Outer","namespace":"a.b","fields":[
  {"name":"id","type":"long"},
  {"name":"choice","type":["null",
     {"type":"record","name":"Inner","namespace":"a.b.c","fields":[{"name":"n","type":"int"}]},
     {"type":"record","name":"x.Inner","fields":[{"name":"s","type":"string"}]},
     {"type":"enum","name":"Kind","symbols":["A","B","C"]},
     {"type":"fixed","name":"Hash","size":4},
     "string","bytes","double","boolean",
     {"type":"array","items":"a.b.c.Inner"},
     {"type":"map","values":["null","float"]}]},
  {"name":"when","type":{"type":"long","logicalType":"timestamp-millis"}},
  {"name":"micros","type":{"type":"long","logicalType":"local-timestamp-micros"}},
  {"name":"nanos","type":{"type":"long","logicalType":"timestamp-nanos"}},
  {"name":"day","type":{"type":"int","logicalType":"date"}},
  {"name":"clock","type":{"type":"int","logicalType":"time-millis"}},
  {"name":"price","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2}},
  {"name":"amount","type":{"type":"fixed","name":"Money","size":8,"logicalType":"decimal","precision":18,"scale":4}},
  {"name":"wait","type":{"type":"fixed","name":"Wait","size":12,"logicalType":"duration"}},
  {"name":"key","type":{"type":"string","logicalType":"uuid"}},
  {"name":"ratio","type":"float"},
  {"name":"tags","type":{"type":"map","values":{"type":"array","items":"boolean"}}},
  {"name":"nothing","type":"null"},
  {"name":"tree","type":{"type":"record","name":"Tree","fields":[
     {"name":"label","type":"string"},
     {"name":"kids","type":{"type":"array","items":"Tree"}},
     {"name":"next","type":["null","Tree"]}]}}]}"#;

/// `record T { array<T> kids; }`: data may nest without end, one record and one array a level.
const TREE: &str = r#"{"type":"record","name":"T","fields":[
  {"name":"kids","type":{"type":"array","items":"T"}}]}"#;

fn avro_json(schema: &str) -> AvroJson {
    AvroJson::new(schema).unwrap_or_else(|e| panic!("{schema}: {e}"))
}

fn encoded(json: &AvroJson, value: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    json.encode(value, &mut out)
        .unwrap_or_else(|e| panic!("{value}: {e}"));
    out
}

/// The differential schemas: the conformance `.avsc` files and [`SHAPES`].
fn differential_schemas() -> Vec<(String, String)> {
    let mut schemas: Vec<(String, String)> = avdl2rs_tests::conformance_files("schemas", &["avsc"])
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            (path.display().to_string(), text)
        })
        .collect();
    assert!(!schemas.is_empty(), "no conformance schemas found");
    schemas.push(("SHAPES".into(), SHAPES.into()));
    schemas
}

// --- Random values, written as apache-avro values and as the specification's JSON ---------

/// SplitMix64: a small reproducible source of random numbers.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// One of `edges` half of the time, else `random`.
    fn pick<T: Copy>(&mut self, edges: &[T], random: T) -> T {
        if self.below(2) == 0 {
            edges[self.below(edges.len())]
        } else {
            random
        }
    }
}

/// How deep the generator nests before it writes only values that end (empty arrays and
/// maps, the first branch of a union that is not recursive).
const GENERATED_DEPTH: usize = 4;

/// Makes random values of the schemas of one set.
struct Generator<'s> {
    set: &'s SchemaSet,
    rng: Rng,
}

impl Generator<'_> {
    /// A random `schema` value: as apache-avro takes it, and as its JSON encoding.
    fn value(&mut self, schema: &Schema, depth: usize) -> (Apache, Value) {
        match &schema.kind {
            SchemaKind::Null => (Apache::Null, Value::Null),
            SchemaKind::Boolean => {
                let b = self.rng.below(2) == 1;
                (Apache::Boolean(b), json!(b))
            }
            SchemaKind::Int => {
                let random = self.rng.next() as i32;
                let n = self.rng.pick(&[0, -1, 1, i32::MIN, i32::MAX], random);
                (Apache::Int(n), json!(n))
            }
            SchemaKind::Long => {
                let random = self.rng.next() as i64;
                let n = self.rng.pick(&[0, -64, 64, i64::MIN, i64::MAX], random);
                let apache = match schema.logical_type {
                    Some(LogicalType::TimestampNanos) => Apache::TimestampNanos(n),
                    Some(LogicalType::LocalTimestampNanos) => Apache::LocalTimestampNanos(n),
                    _ => Apache::Long(n),
                };
                (apache, json!(n))
            }
            SchemaKind::Float => {
                let random = f32::from_bits(self.rng.next() as u32);
                let edges = [0.0, -0.0, 0.1, f32::MAX, f32::MIN_POSITIVE, f32::INFINITY];
                let x = canonical_nan_f32(self.rng.pick(&edges, random));
                (Apache::Float(x), float_json(x))
            }
            SchemaKind::Double => {
                let random = f64::from_bits(self.rng.next());
                let edges = [0.0, -0.0, 1e-300, f64::MAX, f64::NEG_INFINITY, f64::NAN];
                let x = canonical_nan_f64(self.rng.pick(&edges, random));
                (Apache::Double(x), double_json(x))
            }
            SchemaKind::Bytes
                if matches!(schema.logical_type, Some(LogicalType::Decimal { .. })) =>
            {
                // apache-avro writes a decimal's bytes as its value's, one byte at least.
                let len = 1 + self.rng.below(8);
                let bytes = self.bytes(len);
                (
                    Apache::Decimal(bytes.as_slice().into()),
                    code_points(&bytes),
                )
            }
            SchemaKind::Bytes => {
                let len = self.rng.below(8);
                let bytes = self.bytes(len);
                (Apache::Bytes(bytes.clone()), code_points(&bytes))
            }
            SchemaKind::String if schema.logical_type == Some(LogicalType::Uuid) => {
                let hex: String = (0..32)
                    .map(|_| char::from(b"0123456789abcdef"[self.rng.below(16)]))
                    .collect();
                let text = format!(
                    "{}-{}-{}-{}-{}",
                    &hex[..8],
                    &hex[8..12],
                    &hex[12..16],
                    &hex[16..20],
                    &hex[20..]
                );
                (Apache::String(text.clone()), json!(text))
            }
            SchemaKind::String => {
                let text = self.text();
                (Apache::String(text.clone()), json!(text))
            }
            SchemaKind::Array(items) => {
                let len = if depth < GENERATED_DEPTH {
                    self.rng.below(4)
                } else {
                    0
                };
                let (apache, json): (Vec<_>, Vec<_>) =
                    (0..len).map(|_| self.value(items, depth + 1)).unzip();
                (Apache::Array(apache), Value::Array(json))
            }
            SchemaKind::Map(values) => self.map(values, depth),
            SchemaKind::Union(branches) => self.union(branches, depth),
            SchemaKind::Named(name) => self.named(name, depth),
        }
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.rng.next() as u8).collect()
    }

    /// A string of ASCII, escapes JSON must write, and characters beyond the BMP.
    fn text(&mut self) -> String {
        let chars = [
            'a', 'Z', '"', '\\', '/', '\n', '\u{0}', '\u{7f}', 'é', '\u{2028}', '😀',
        ];
        (0..self.rng.below(6))
            .map(|_| chars[self.rng.below(chars.len())])
            .collect()
    }

    /// A map. apache-avro writes the entries in its `HashMap`'s order, so the JSON object is
    /// filled in that order from the same map, which is then moved into the apache value.
    fn map(&mut self, values: &Schema, depth: usize) -> (Apache, Value) {
        let len = if depth < GENERATED_DEPTH {
            self.rng.below(4)
        } else {
            0
        };
        let mut apache = HashMap::new();
        let mut jsons = HashMap::new();
        for _ in 0..len {
            let key = self.text();
            let (a, j) = self.value(values, depth + 1);
            apache.insert(key.clone(), a);
            jsons.insert(key, j);
        }
        let object: Map<String, Value> = apache
            .keys()
            .map(|key| (key.clone(), jsons[key].clone()))
            .collect();
        (Apache::Map(apache), Value::Object(object))
    }

    /// A union value: `null`, or `{"<branch name>": value}` (Avro specification, "JSON
    /// Encoding"). Deep down, the first branch that is null or not named, so values end.
    fn union(&mut self, branches: &[Schema], depth: usize) -> (Apache, Value) {
        let index = if depth < GENERATED_DEPTH {
            self.rng.below(branches.len())
        } else {
            let ends = |b: &Schema| !matches!(b.kind, SchemaKind::Named(_));
            branches.iter().position(ends).unwrap_or(0)
        };
        let branch = &branches[index];
        let (apache, json) = self.value(branch, depth + 1);
        let json = match &branch.kind {
            SchemaKind::Null => Value::Null,
            kind => {
                let name = match kind {
                    SchemaKind::Named(name) => name.to_string(),
                    SchemaKind::Array(_) => "array".into(),
                    SchemaKind::Map(_) => "map".into(),
                    primitive => primitive.primitive_name().unwrap().into(),
                };
                Value::Object(Map::from_iter([(name, json)]))
            }
        };
        (Apache::Union(index as u32, Box::new(apache)), json)
    }

    fn named(&mut self, name: &Name, depth: usize) -> (Apache, Value) {
        let named = self.set.get(&name.full_name()).unwrap();
        match &named.kind {
            NamedKind::Record { fields, .. } => {
                let mut apache = Vec::new();
                let mut object = Map::new();
                for field in fields {
                    let (a, j) = self.value(&field.schema, depth + 1);
                    apache.push((field.name.clone(), a));
                    object.insert(field.name.clone(), j);
                }
                (Apache::Record(apache), Value::Object(object))
            }
            NamedKind::Enum { symbols, .. } => {
                let index = self.rng.below(symbols.len());
                let symbol = symbols[index].clone();
                (Apache::Enum(index as u32, symbol.clone()), json!(symbol))
            }
            NamedKind::Fixed { size } => {
                let bytes = self.bytes(*size);
                let apache = match named.logical_type {
                    Some(LogicalType::Decimal { .. }) => Apache::Decimal(bytes.as_slice().into()),
                    _ => Apache::Fixed(*size, bytes.clone()),
                };
                (apache, code_points(&bytes))
            }
        }
    }
}

/// The JSON encoding loses a NaN's payload (every NaN is `"NaN"`), so only the NaN that
/// `"NaN"` reads back as is generated.
fn canonical_nan_f32(x: f32) -> f32 {
    if x.is_nan() {
        f32::NAN
    } else {
        x
    }
}

fn canonical_nan_f64(x: f64) -> f64 {
    if x.is_nan() {
        f64::NAN
    } else {
        x
    }
}

/// A non-finite number as the string Java's `JsonEncoder` writes.
fn non_finite(x: f64) -> Value {
    json!(if x.is_nan() {
        "NaN"
    } else if x > 0.0 {
        "Infinity"
    } else {
        "-Infinity"
    })
}

/// A `float` as Java writes it: the shortest decimal that reads back as the same float
/// (`Float.toString`; Rust's `Display` for `f32` writes the same digits).
fn float_json(x: f32) -> Value {
    if !x.is_finite() {
        return non_finite(f64::from(x));
    }
    let decimal: f64 = x.to_string().parse().unwrap();
    json!(decimal)
}

fn double_json(x: f64) -> Value {
    if !x.is_finite() {
        return non_finite(x);
    }
    json!(x)
}

/// `bytes` and `fixed`: one code point per byte.
fn code_points(bytes: &[u8]) -> Value {
    Value::String(bytes.iter().map(|&b| char::from(b)).collect())
}

#[test]
fn random_values_agree_with_apache_avro_both_ways() {
    for (name, text) in differential_schemas() {
        let ours = avro_json(&text);
        let theirs = codec_support::schema(&text);
        let mut set = SchemaSet::new();
        let schema = set.parse_str(&text).unwrap();
        let mut generator = Generator {
            set: &set,
            rng: Rng(0x5eed),
        };
        for case in 0..300 {
            let (apache, json) = generator.value(&schema, 0);
            let bytes = codec_support::their_bytes(&theirs, apache);
            let context = format!("{name}, case {case}: {json}");
            assert_eq!(encoded(&ours, &json), bytes, "JSON to binary: {context}");
            let decoded = ours
                .decode(&bytes)
                .unwrap_or_else(|e| panic!("{context}: {e}"));
            assert_eq!(decoded, json, "binary to JSON: {context}");
            assert_eq!(encoded(&ours, &decoded), bytes, "round trip: {context}");
        }
    }
}

// --- JSON written by hand, binary worked out by hand ----------------------------------------

/// The `choice` union of [`SHAPES`], on its own.
fn shapes_choice() -> AvroJson {
    let mut set = SchemaSet::new();
    let outer = set.parse_str(SHAPES).unwrap();
    let fields = match set.resolve(&outer).map(|named| &named.kind) {
        Some(NamedKind::Record { fields, .. }) => fields.clone(),
        other => panic!("SHAPES is a record, not {other:?}"),
    };
    AvroJson::from_schema(set, fields[1].schema.clone())
}

#[test]
fn union_branches_are_named_types_by_full_name_others_by_type_name() {
    let union = shapes_choice();
    let choice = |value: Value| {
        let mut out = Vec::new();
        union.encode(&value, &mut out).map(|()| out)
    };
    // Branch index (zig-zag), then the value.
    assert_eq!(choice(json!(null)).unwrap(), [0]);
    assert_eq!(choice(json!({"null": null})).unwrap(), [0]);
    assert_eq!(choice(json!({"a.b.c.Inner": {"n": -2}})).unwrap(), [2, 3]);
    assert_eq!(
        choice(json!({"x.Inner": {"s": "é"}})).unwrap(),
        [4, 4, 0xc3, 0xa9]
    );
    assert_eq!(choice(json!({"a.b.Kind": "C"})).unwrap(), [6, 4]);
    assert_eq!(
        choice(json!({"a.b.Hash": "\u{0}\u{1}\u{fe}\u{ff}"})).unwrap(),
        [8, 0, 1, 0xfe, 0xff]
    );
    assert_eq!(
        choice(json!({"string": "ab"})).unwrap(),
        [10, 4, b'a', b'b']
    );
    assert_eq!(choice(json!({"bytes": "\u{80}"})).unwrap(), [12, 2, 0x80]);
    assert_eq!(choice(json!({"boolean": true})).unwrap(), [16, 1]);
    assert_eq!(
        choice(json!({"array": [{"n": 1}, {"n": 2}]})).unwrap(),
        [18, 4, 2, 4, 0]
    );
    // A map of unions: one block of one entry, the float branch, 0.5 (3f000000 little-endian).
    assert_eq!(
        choice(json!({"map": {"k": {"float": 0.5}}})).unwrap(),
        [20, 2, 2, b'k', 2, 0, 0, 0, 0x3f, 0]
    );
    // A simple name is not a full name, even inside the namespace it would resolve in.
    for wrong in [
        json!({"Inner": {"n": 1}}),
        json!({"Kind": "A"}),
        json!({"int": 1}),
    ] {
        assert!(choice(wrong.clone()).is_err(), "{wrong}");
    }
    // The decode writes the same names.
    assert_eq!(
        union.decode(&[4, 2, b'x']).unwrap(),
        json!({"x.Inner": {"s": "x"}})
    );
    assert_eq!(union.decode(&[6, 2]).unwrap(), json!({"a.b.Kind": "B"}));
    assert_eq!(
        union.decode(&[20, 2, 2, b'k', 0, 0]).unwrap(),
        json!({"map": {"k": null}})
    );
}

#[test]
fn bytes_are_code_points_0_to_255() {
    let json = avro_json(r#""bytes""#);
    let text: String = (0u8..=255).map(char::from).collect();
    let mut expected = vec![0x80, 0x04]; // 256, zig-zag 512, as a varint
    expected.extend(0u8..=255);
    assert_eq!(encoded(&json, &json!(text)), expected);
    assert_eq!(json.decode(&expected).unwrap(), json!(text));
    let fixed = avro_json(r#"{"type":"fixed","name":"F","size":3}"#);
    assert_eq!(
        encoded(&fixed, &json!("\u{0}\u{7f}\u{ff}")),
        [0, 0x7f, 0xff]
    );
    assert_eq!(
        fixed.decode(&[0xff, 0, 0x41]).unwrap(),
        json!("\u{ff}\u{0}A")
    );
}

#[test]
fn non_finite_floats_are_the_strings_java_writes() {
    let float = avro_json(r#""float""#);
    let double = avro_json(r#""double""#);
    assert_eq!(encoded(&float, &json!("Infinity")), [0, 0, 0x80, 0x7f]);
    assert_eq!(encoded(&float, &json!("-Infinity")), [0, 0, 0x80, 0xff]);
    assert_eq!(
        encoded(&double, &json!("-Infinity")),
        [0, 0, 0, 0, 0, 0, 0xf0, 0xff]
    );
    let nan = encoded(&double, &json!("NaN"));
    assert!(f64::from_le_bytes(nan.try_into().unwrap()).is_nan());
    assert_eq!(float.decode(&[0, 0, 0xc0, 0x7f]).unwrap(), json!("NaN"));
    assert_eq!(
        float.decode(&[0, 0, 0x80, 0xff]).unwrap(),
        json!("-Infinity")
    );
    assert_eq!(
        double.decode(&[0, 0, 0, 0, 0, 0, 0xf0, 0x7f]).unwrap(),
        json!("Infinity")
    );
    // Any JSON number is a float or double, an integer too; floats show their own digits.
    assert_eq!(encoded(&double, &json!(3)), 3.0f64.to_le_bytes());
    assert_eq!(encoded(&float, &json!(-2)), (-2.0f32).to_le_bytes());
    assert_eq!(
        float.decode(&0.1f32.to_le_bytes()).unwrap().to_string(),
        "0.1"
    );
}

#[test]
fn numbers_for_int_and_long_must_be_whole_and_in_range() {
    let int = avro_json(r#""int""#);
    let long = avro_json(r#""long""#);
    assert_eq!(encoded(&int, &json!(-1)), [1]);
    assert_eq!(encoded(&int, &json!(2.0)), [4]);
    assert_eq!(encoded(&long, &json!(1e3)), [0xd0, 0x0f]);
    assert_eq!(
        encoded(&long, &json!(i64::MIN)),
        [0xff; 9].into_iter().chain([1]).collect::<Vec<_>>()
    );
    let mut out = Vec::new();
    for (schema, value, message) in [
        (
            &int,
            json!(2147483648i64),
            "2147483648 is out of the range of int",
        ),
        (
            &int,
            json!(-2147483649i64),
            "-2147483649 is out of the range of int",
        ),
        (
            &long,
            json!(9223372036854775808u64),
            "9223372036854775808 is out of the range of long",
        ),
        (&int, json!(0.5), "expected int, found 0.5"),
        (&long, json!("7"), r#"expected long, found "7""#),
        (&long, json!(true), "expected long, found true"),
    ] {
        let error = schema.encode(&value, &mut out).unwrap_err();
        assert_eq!((error.path(), error.message()), (String::new(), message));
        assert!(out.is_empty());
    }
}

#[test]
fn enums_maps_arrays_and_records_as_the_specification_writes_them() {
    let json = avro_json(
        r#"{"type":"record","name":"R","fields":[
        {"name":"e","type":{"type":"enum","name":"E","symbols":["X","Y","Z"]}},
        {"name":"m","type":{"type":"map","values":"int"}},
        {"name":"a","type":{"type":"array","items":"string"}},
        {"name":"n","type":"null"},
        {"name":"b","type":"boolean"}]}"#,
    );
    let value = json!({"e": "Z", "m": {"a": 1, "b": 2}, "a": ["x", ""], "n": null, "b": false});
    let bytes = [4, 4, 2, b'a', 2, 2, b'b', 4, 0, 4, 2, b'x', 0, 0, 0];
    assert_eq!(encoded(&json, &value), bytes);
    assert_eq!(json.decode(&bytes).unwrap(), value);
    // Fields in any order; output in schema order.
    let shuffled = json!({"b": false, "n": null, "a": ["x", ""], "m": {"a": 1, "b": 2}, "e": "Z"});
    assert_eq!(encoded(&json, &shuffled), bytes);
    let written = serde_json::to_string(&json.decode(&bytes).unwrap()).unwrap();
    assert_eq!(
        written,
        r#"{"e":"Z","m":{"a":1,"b":2},"a":["x",""],"n":null,"b":false}"#
    );
    // Empty containers are a lone end marker.
    let empty = json!({"e": "X", "m": {}, "a": [], "n": null, "b": true});
    assert_eq!(encoded(&json, &empty), [0, 0, 0, 1]);
    // A binary array or map may come in several blocks, also of the negative-count form.
    let blocks = [0, 2, 2, b'a', 2, 2, 2, b'b', 4, 0, 0, 0];
    assert_eq!(json.decode(&blocks).unwrap()["m"], json!({"a": 1, "b": 2}));
    // Count -2 (zig-zag 3), then the block's size in bytes, 6 (zig-zag 12).
    let sized = [0, 3, 12, 2, b'a', 2, 2, b'b', 4, 0, 0, 0];
    assert_eq!(json.decode(&sized).unwrap()["m"], json!({"a": 1, "b": 2}));
}

#[test]
fn missing_fields_take_their_defaults_in_the_default_form() {
    let json = avro_json(
        r#"{"type":"record","name":"D","namespace":"d","fields":[
        {"name":"i","type":"int","default":-3},
        {"name":"opt","type":["null","string"],"default":null},
        {"name":"first","type":["string","null"],"default":"hi"},
        {"name":"raw","type":"bytes","default":"\u00ff\u0000"},
        {"name":"fix","type":{"type":"fixed","name":"F","size":2},"default":"ab"},
        {"name":"kind","type":{"type":"enum","name":"K","symbols":["P","Q"]},"default":"Q"},
        {"name":"list","type":{"type":"array","items":"long"},"default":[1,2]},
        {"name":"map","type":{"type":"map","values":"double"},"default":{"k":1.5}},
        {"name":"nan","type":"float","default":"NaN"},
        {"name":"sub","type":{"type":"record","name":"S","fields":[
            {"name":"a","type":"int"},
            {"name":"b","type":["long","null"],"default":7}]},"default":{"a":1}},
        {"name":"must","type":"string"}]}"#,
    );
    let mut expected = vec![
        5, // i: -3
        0, // opt: branch 0, null
        0, 4, b'h', b'i', // first: branch 0, "hi"
        4, 0xff, 0, // raw
        b'a', b'b', // fix
        2,    // kind: Q
        4, 2, 4, 0, // list
        2, 2, b'k', // map: one entry "k"
    ];
    expected.extend(1.5f64.to_le_bytes());
    expected.push(0);
    expected.extend(f32::NAN.to_le_bytes()); // nan
    expected.extend([2, 0, 14]); // sub: a 1, b branch 0, 7
    expected.extend([2, b'm']); // must
    assert_eq!(encoded(&json, &json!({"must": "m"})), expected);
    // A field that is there is the datum's own, in the datum's form.
    let given = json!({"must": "m", "opt": {"string": "o"}, "sub": {"a": 1, "b": null}});
    let bytes = encoded(&json, &given);
    let decoded = json.decode(&bytes).unwrap();
    assert_eq!(decoded["opt"], json!({"string": "o"}));
    assert_eq!(decoded["first"], json!({"string": "hi"}));
    assert_eq!(decoded["sub"], json!({"a": 1, "b": null}));
    assert_eq!(decoded["nan"], json!("NaN"));
}

#[test]
fn decode_takes_one_whole_value_and_decode_from_one_of_many() {
    let json = avro_json(r#""long""#);
    let error = json.decode(&[2, 4]).unwrap_err();
    assert_eq!(error.kind(), &DecodeErrorKind::TrailingBytes(1));
    let mut reader = Reader::new(&[2, 4, 6]);
    let values: Vec<Value> = (0..3)
        .map(|_| json.decode_from(&mut reader).unwrap())
        .collect();
    assert_eq!(values, [json!(1), json!(2), json!(3)]);
    assert!(reader.is_empty());
}

// --- Located errors ---------------------------------------------------------------------------

const ORDER: &str = r#"{"type":"record","name":"Order","namespace":"shop","fields":[
  {"name":"lines","type":{"type":"array","items":{"type":"record","name":"Line","fields":[
     {"name":"sku","type":"string"},{"name":"qty","type":"int"}]}}},
  {"name":"note","type":["null","string"],"default":null},
  {"name":"raw","type":"bytes","default":""},
  {"name":"hash","type":{"type":"fixed","name":"H","size":2},"default":"\u0000\u0000"},
  {"name":"kind","type":{"type":"enum","name":"Kind","symbols":["A","B","C"]},"default":"A"},
  {"name":"prices","type":{"type":"map","values":"double"},"default":{}}]}"#;

/// The error of an order whose lines are all good, with the value at the JSON pointer `at`
/// set to `value`: its path and its text.
fn order_error(at: &str, value: Value) -> (String, String) {
    let mut order = json!({"lines": [
        {"sku": "a", "qty": 1}, {"sku": "b", "qty": 2}, {"sku": "c", "qty": 3}, {"sku": "d", "qty": 4}],
        "note": null});
    match order.pointer_mut(at) {
        Some(slot) => *slot = value,
        None => panic!("{at} is not in the order"),
    }
    let mut out = vec![0xaa];
    let error = avro_json(ORDER).encode(&order, &mut out).unwrap_err();
    assert_eq!(out, [0xaa], "the output is left as it was");
    (error.path(), error.to_string())
}

#[test]
fn errors_name_the_json_pointer_and_what_is_wrong() {
    let union = "expected a union value, null or an object of one key naming the branch";
    let cases = [
        (
            "/lines/3/qty",
            json!("3"),
            "/lines/3/qty",
            r#"expected int, found "3""#.to_owned(),
        ),
        (
            "/lines/1",
            json!({"sku": "b"}),
            "/lines/1",
            r#"missing field "qty", which has no default"#.to_owned(),
        ),
        (
            "/note",
            json!({"long": 3}),
            "/note",
            r#""long" is not a branch of the union [null, string]"#.to_owned(),
        ),
        (
            "/note",
            json!({"string": 3}),
            "/note/string",
            "expected string, found 3".to_owned(),
        ),
        (
            "/note",
            json!("plain"),
            "/note",
            format!(r#"{union}, found "plain""#),
        ),
        (
            "/note",
            json!({"null": null, "string": "x"}),
            "/note",
            format!("{union}, found an object of 2 keys"),
        ),
        (
            "/note",
            json!({}),
            "/note",
            format!("{union}, found an object of 0 keys"),
        ),
        (
            "/lines",
            json!({}),
            "/lines",
            "expected array, found an object".to_owned(),
        ),
        (
            "/lines/0",
            json!([1]),
            "/lines/0",
            "expected record shop.Line, found an array".to_owned(),
        ),
        (
            "/lines/2",
            json!({"sku": "c", "qty": 3, "price": 1}),
            "/lines/2",
            r#"record shop.Line has no field "price""#.to_owned(),
        ),
        (
            "",
            json!([]),
            "",
            "expected record shop.Order, found an array".to_owned(),
        ),
    ];
    for (at, value, path, message) in cases {
        let expected = match path {
            "" => message,
            path => format!("at {path}: {message}"),
        };
        assert_eq!(order_error(at, value), (path.to_owned(), expected));
    }
}

#[test]
fn errors_of_fields_with_defaults_once_given() {
    let cases = [
        (
            "raw",
            json!("a\u{100}"),
            "/raw",
            "character 1 is U+0100, above U+00FF: not a byte",
        ),
        (
            "hash",
            json!("\u{263a}\u{0}"),
            "/hash",
            "character 0 is U+263A, above U+00FF: not a byte",
        ),
        (
            "hash",
            json!("abc"),
            "/hash",
            "fixed shop.H takes 2 bytes, found 3",
        ),
        (
            "kind",
            json!("D"),
            "/kind",
            r#""D" is not a symbol of enum shop.Kind"#,
        ),
        (
            "kind",
            json!(1),
            "/kind",
            "expected enum shop.Kind, found 1",
        ),
        (
            "prices",
            json!({"a/b~": "x"}),
            "/prices/a~1b~0",
            r#"expected double, found "x""#,
        ),
    ];
    for (field, value, path, message) in cases {
        let mut order = json!({"lines": []});
        order[field] = value;
        let error = avro_json(ORDER)
            .encode(&order, &mut Vec::new())
            .unwrap_err();
        assert_eq!(error.path(), path);
        assert_eq!(error.to_string(), format!("at {path}: {message}"));
    }
}

#[test]
fn binary_errors_name_the_datum_path() {
    let json = avro_json(ORDER);
    // lines: one block of two, "a" qty 1, then "b" whose qty is cut off.
    let error = json.decode(&[4, 2, b'a', 2, 2, b'b']).unwrap_err();
    assert_eq!(error.path(), "lines[1].qty");
    assert!(matches!(
        error.kind(),
        DecodeErrorKind::UnexpectedEof { .. }
    ));
    // prices: a map entry whose double is cut off.
    let error = json.decode(&[0, 0, 0, 0, 0, 2, 2, 2, b'k', 1]).unwrap_err();
    assert_eq!(error.path(), r#"prices["k"]"#);
    let error = json.decode(&[0, 4]).unwrap_err();
    assert_eq!(error.path(), "note");
    assert_eq!(
        error.kind(),
        &DecodeErrorKind::UnionIndexOutOfRange {
            index: 2,
            branches: 2
        }
    );
}

// --- Hostile input ----------------------------------------------------------------------------

/// Runs `test` on a thread with a 2 MiB stack, the smallest a caller is expected to have.
fn on_small_stack(test: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(test)
        .unwrap()
        .join()
        .unwrap();
}

/// `{"kids": [ ... ]}` around `inner`, `levels` times. (Not with `json!`, which would copy
/// the inner value, recursively, at every level.)
fn nested_tree(levels: usize, inner: Value) -> Value {
    let mut value = inner;
    for _ in 0..levels {
        let kids = Value::Array(vec![value]);
        value = Value::Object(Map::from_iter([("kids".to_owned(), kids)]));
    }
    value
}

/// Drops a value of any depth without recursion (serde_json's drop recurses).
fn dismantle(value: Value) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(members) => stack.extend(members.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

#[test]
fn json_nested_to_the_limit_encodes_and_one_level_more_is_refused() {
    on_small_stack(|| {
        let json = avro_json(TREE);
        // Each `T` is a record and an array, two levels: 256 of them reach the limit.
        assert_eq!(MAX_DEPTH, 512);
        let deepest = nested_tree(255, json!({"kids": []}));
        let bytes = encoded(&json, &deepest);
        assert_eq!(bytes.len(), 255 * 2 + 1);
        let decoded = json.decode(&bytes).unwrap();
        assert_eq!(decoded, deepest);
        let too_deep = nested_tree(1, deepest);
        let error = json.encode(&too_deep, &mut Vec::new()).unwrap_err();
        assert_eq!(
            error.message(),
            "values nested deeper than the limit of 512 levels"
        );
        assert_eq!(error.path(), "/kids/0".repeat(256));
        // The binary of that value fails the decode's limit at the same level.
        let mut bytes = vec![2; 256];
        bytes.extend([0; 257]);
        let error = json.decode(&bytes).unwrap_err();
        assert_eq!(error.kind(), &DecodeErrorKind::TooDeep { limit: 512 });
    });
}

#[test]
fn a_hundred_megabytes_of_nesting_is_an_error_not_a_stack_overflow() {
    on_small_stack(|| {
        let json = avro_json(TREE);
        // JSON: a tree 400,000 levels deep (about 100 MB of values).
        let deep = nested_tree(400_000, json!({"kids": []}));
        let error = json.encode(&deep, &mut Vec::new()).unwrap_err();
        assert_eq!(
            error.message(),
            "values nested deeper than the limit of 512 levels"
        );
        dismantle(deep);
        // JSON arrays inside arrays, where the recursive schema wants a record.
        let mut arrays = json!([]);
        for _ in 0..1_000_000 {
            arrays = Value::Array(vec![arrays]);
        }
        let error = json.encode(&arrays, &mut Vec::new()).unwrap_err();
        assert_eq!(error.to_string(), "expected record T, found an array");
        dismantle(arrays);
        // Binary: 100 MB of one-item array blocks, each opening the next level.
        let bytes = vec![2u8; 100 << 20];
        let error = json.decode(&bytes).unwrap_err();
        assert_eq!(error.kind(), &DecodeErrorKind::TooDeep { limit: 512 });
        // The same through a union, one level for the union and one for the record.
        let list = avro_json(
            r#"{"type":"record","name":"L","fields":[{"name":"next","type":["null","L"]}]}"#,
        );
        let error = list.decode(&bytes).unwrap_err();
        assert_eq!(error.kind(), &DecodeErrorKind::TooDeep { limit: 512 });
    });
}

#[test]
fn binary_lengths_and_counts_are_checked_against_the_input_before_allocating() {
    let bytes = avro_json(r#""bytes""#);
    // A length of 2^40 with three bytes left.
    let error = bytes
        .decode(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x40, 1, 2, 3])
        .unwrap_err();
    assert!(
        matches!(error.kind(), DecodeErrorKind::LengthTooLarge { .. }),
        "{error}"
    );
    let nulls = avro_json(r#"{"type":"array","items":"null"}"#);
    // A block of 2^40 nulls: beyond the item budget.
    let error = nulls
        .decode(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x40, 0])
        .unwrap_err();
    assert!(
        matches!(error.kind(), DecodeErrorKind::TooManyItems { .. }),
        "{error}"
    );
    // 65,536 nulls in three bytes: within the item budget of a short input, so they are
    // read (their values take at most 72 bytes an item, bounded by the item budget); one
    // more is past it.
    let value = nulls.decode(&[0x80, 0x80, 0x08, 0]).unwrap();
    assert_eq!(value.as_array().unwrap().len(), 65_536);
    let error = nulls.decode(&[0x82, 0x80, 0x08, 0]).unwrap_err();
    assert!(
        matches!(error.kind(), DecodeErrorKind::TooManyItems { .. }),
        "{error}"
    );
    // Items of one byte are never refused for the memory their values take, though a
    // `Value` is larger than the slot memory a byte of input allows (what `encode` writes
    // for 20,000 zeros must read back).
    let ints = avro_json(r#"{"type":"array","items":"int"}"#);
    let zeros = Value::Array(vec![Value::from(0); 20_000]);
    let mut body = Vec::new();
    ints.encode(&zeros, &mut body).unwrap();
    assert_eq!(ints.decode(&body).unwrap(), zeros);
    let strings = avro_json(r#"{"type":"map","values":"string"}"#);
    let error = strings.decode(&[2, 2, b'k', 2, 0xff, 0]).unwrap_err();
    assert_eq!(error.kind(), &DecodeErrorKind::InvalidUtf8);
    assert_eq!(error.path(), r#"["k"]"#);
}

/// Any JSON value: scalars of every kind, arrays and objects nested a few levels.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        prop::sample::select(vec![
            "NaN",
            "Infinity",
            "a.b.c.Inner",
            "A",
            "\u{ff}\u{100}",
            ""
        ])
        .prop_map(Value::from),
        "\\PC{0,6}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(("[a-z.]{0,8}", inner), 0..4)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

/// Replaces the node at `at` (in pre-order, wrapping around) of `value` with `with`.
fn replace_node(value: &mut Value, at: usize, with: Value) {
    fn count(value: &Value) -> usize {
        1 + match value {
            Value::Array(items) => items.iter().map(count).sum(),
            Value::Object(members) => members.values().map(count).sum(),
            _ => 0,
        }
    }
    fn walk(value: &mut Value, at: &mut usize, with: &mut Option<Value>) {
        if *at == 0 {
            if let Some(with) = with.take() {
                *value = with;
            }
            return;
        }
        *at -= 1;
        let children: Vec<&mut Value> = match value {
            Value::Array(items) => items.iter_mut().collect(),
            Value::Object(members) => members.values_mut().collect(),
            _ => Vec::new(),
        };
        for child in children {
            walk(child, at, with);
        }
    }
    let mut at = at % count(value);
    walk(value, &mut at, &mut Some(with));
}

#[test]
fn random_and_damaged_input_gives_errors_not_panics() {
    on_small_stack(|| {
        let schemas = [avro_json(SHAPES), avro_json(TREE), avro_json(ORDER)];
        let mut set = SchemaSet::new();
        let shapes = set.parse_str(SHAPES).unwrap();
        let mut runner = TestRunner::new(Config::with_cases(2000));
        let inputs = (
            prop::collection::vec(any::<u8>(), 0..256),
            any_json(),
            any::<u64>(),
            any::<usize>(),
        );
        runner
            .run(&inputs, |(bytes, random, seed, at)| {
                for json in &schemas {
                    let _ = json.decode(&bytes);
                    let _ = json.encode(&random, &mut Vec::new());
                }
                // A valid value with one node replaced: errors deep inside the schema.
                let mut generator = Generator {
                    set: &set,
                    rng: Rng(seed),
                };
                let (_, mut value) = generator.value(&shapes, 0);
                replace_node(&mut value, at, random);
                let mut out = Vec::new();
                if schemas[0].encode(&value, &mut out).is_ok() {
                    // What is accepted is a value: it decodes and encodes back the same.
                    let decoded = schemas[0].decode(&out).unwrap();
                    prop_assert_eq!(encoded(&schemas[0], &decoded), out);
                }
                Ok(())
            })
            .unwrap();
    });
}
