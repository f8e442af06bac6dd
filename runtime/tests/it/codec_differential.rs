//! Differential tests of the codec primitives against `apache-avro`: every value is encoded
//! by us and decoded by apache-avro, and encoded by apache-avro and decoded by us. Arrays
//! and maps are also written by hand in several blocks, in both block forms of the
//! specification, and must read the same in both implementations.

use std::collections::HashMap;
use std::fmt::Debug;

use apache_avro::types::Value;
use apache_avro::Schema;
use avdl2rs::codec::{self, DecodeLimits, Reader};
use avdl2rs::DecodeError;
use codec_support::{schema as parse, their_bytes, their_value};
use proptest::prelude::*;

use crate::codec_support;

/// Checks one value both ways: our bytes equal apache-avro's, apache-avro reads ours as
/// `expected`, and we read apache-avro's back as `value`.
fn check_both_ways<T: PartialEq + Debug>(
    schema: &str,
    value: &T,
    expected: Value,
    write: impl Fn(&mut Vec<u8>, &T),
    read: impl Fn(&mut Reader<'_>) -> Result<T, DecodeError>,
) {
    let schema = parse(schema);
    let mut ours = Vec::new();
    write(&mut ours, value);
    let theirs = their_bytes(&schema, expected.clone());
    assert_eq!(ours, theirs, "encodings differ for {value:?}");

    let decoded = their_value(&schema, &ours);
    assert_eq!(decoded, expected);

    let mut reader = Reader::new(&theirs);
    assert_eq!(&read(&mut reader).unwrap(), value);
    assert!(reader.is_empty(), "{} bytes left", reader.remaining());
}

/// Floats compared by bits, so that NaN payloads and negative zero count.
#[derive(Debug, Clone, Copy)]
struct Bits<F>(F);

impl PartialEq for Bits<f32> {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl PartialEq for Bits<f64> {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

/// Writes `items` as an array in the blocks given by `splits` (block sizes, cycled), each
/// block in the negative-count form (count, byte size, items) when its flag says so.
fn write_blocks<T>(
    out: &mut Vec<u8>,
    items: &[T],
    splits: &[(usize, bool)],
    write_item: impl Fn(&mut Vec<u8>, &T),
) {
    let mut rest = items;
    let mut plan = splits.iter().cycle();
    while !rest.is_empty() {
        let (size, negative) = *plan.next().unwrap();
        let (block, tail) = rest.split_at(size.clamp(1, rest.len()));
        rest = tail;
        let mut body = Vec::new();
        for item in block {
            write_item(&mut body, item);
        }
        if negative {
            codec::write_long(out, -(block.len() as i64));
            codec::write_long(out, body.len() as i64);
        } else {
            codec::write_long(out, block.len() as i64);
        }
        out.extend_from_slice(&body);
    }
    out.push(0);
}

fn splits() -> impl Strategy<Value = Vec<(usize, bool)>> {
    prop::collection::vec((1usize..5, any::<bool>()), 1..4)
}

proptest! {
    #[test]
    fn booleans(value in any::<bool>()) {
        check_both_ways("\"boolean\"", &value, Value::Boolean(value), |o, v| codec::write_boolean(o, *v), |r| r.read_boolean());
    }

    #[test]
    fn ints(value in any::<i32>()) {
        check_both_ways("\"int\"", &value, Value::Int(value), |o, v| codec::write_int(o, *v), |r| r.read_int());
    }

    #[test]
    fn longs(value in any::<i64>()) {
        check_both_ways("\"long\"", &value, Value::Long(value), |o, v| codec::write_long(o, *v), |r| r.read_long());
    }

    #[test]
    fn longs_of_one_to_three_bytes(value in -10_000i64..10_000) {
        check_both_ways("\"long\"", &value, Value::Long(value), |o, v| codec::write_long(o, *v), |r| r.read_long());
    }

    #[test]
    fn floats(value in any::<f32>().prop_filter("NaN is not equal to itself in Value", |f| !f.is_nan())) {
        check_both_ways("\"float\"", &Bits(value), Value::Float(value), |o, v| codec::write_float(o, v.0), |r| r.read_float().map(Bits));
    }

    #[test]
    fn doubles(value in any::<f64>().prop_filter("NaN is not equal to itself in Value", |f| !f.is_nan())) {
        check_both_ways("\"double\"", &Bits(value), Value::Double(value), |o, v| codec::write_double(o, v.0), |r| r.read_double().map(Bits));
    }

    #[test]
    fn bytes(value in prop::collection::vec(any::<u8>(), 0..300)) {
        check_both_ways("\"bytes\"", &value, Value::Bytes(value.clone()), |o, v| codec::write_bytes(o, v), |r| r.read_bytes().map(<[u8]>::to_vec));
    }

    #[test]
    fn strings(value in ".{0,200}") {
        check_both_ways("\"string\"", &value, Value::String(value.clone()), |o, v| codec::write_string(o, v), |r| r.read_string().map(str::to_owned));
    }

    #[test]
    fn fixed(value in any::<[u8; 16]>()) {
        check_both_ways(
            r#"{"type": "fixed", "name": "F", "size": 16}"#,
            &value,
            Value::Fixed(16, value.to_vec()),
            |o, v| codec::write_fixed(o, v),
            |r| r.read_fixed::<16>(),
        );
    }

    #[test]
    fn enums(index in 0usize..4) {
        let symbols = ["A", "B", "C", "D"];
        check_both_ways(
            r#"{"type": "enum", "name": "E", "symbols": ["A", "B", "C", "D"]}"#,
            &index,
            Value::Enum(index as u32, symbols[index].to_owned()),
            |o, v| codec::write_int(o, *v as i32),
            |r| r.read_enum_index(4),
        );
    }

    #[test]
    fn unions(value in proptest::option::of(".{0,20}")) {
        let expected = match &value {
            None => Value::Union(0, Box::new(Value::Null)),
            Some(s) => Value::Union(1, Box::new(Value::String(s.clone()))),
        };
        check_both_ways(
            r#"["null", "string"]"#,
            &value,
            expected,
            |o, v| match v {
                None => codec::write_int(o, 0),
                Some(s) => {
                    codec::write_int(o, 1);
                    codec::write_string(o, s);
                }
            },
            |r| match r.read_union_index(2)? {
                0 => Ok(None),
                _ => r.read_string().map(|s| Some(s.to_owned())),
            },
        );
    }

    #[test]
    fn arrays_of_longs(items in prop::collection::vec(any::<i64>(), 0..50)) {
        check_both_ways(
            r#"{"type": "array", "items": "long"}"#,
            &items,
            Value::Array(items.iter().copied().map(Value::Long).collect()),
            |o, v| codec::write_array(o, v, |o, x| { codec::write_long(o, *x); Ok(()) }).unwrap(),
            |r| r.read_array(|r| r.read_long()),
        );
    }

    #[test]
    fn arrays_of_strings(items in prop::collection::vec(".{0,10}", 0..20)) {
        check_both_ways(
            r#"{"type": "array", "items": "string"}"#,
            &items,
            Value::Array(items.iter().cloned().map(Value::String).collect()),
            |o, v| codec::write_array(o, v, |o, x| { codec::write_string(o, x); Ok(()) }).unwrap(),
            |r| r.read_array(|r| r.read_string().map(str::to_owned)),
        );
    }

    #[test]
    fn arrays_of_doubles_in_bulk(items in prop::collection::vec(any::<f64>().prop_filter("NaN is not equal to itself", |x| !x.is_nan()), 0..70)) {
        check_both_ways(
            r#"{"type": "array", "items": "double"}"#,
            &items,
            Value::Array(items.iter().copied().map(Value::Double).collect()),
            |o, v| codec::write_doubles(o, v),
            |r| r.read_doubles(),
        );
    }

    #[test]
    fn arrays_of_floats_in_bulk(items in prop::collection::vec(any::<f32>().prop_filter("NaN is not equal to itself", |x| !x.is_nan()), 0..70)) {
        check_both_ways(
            r#"{"type": "array", "items": "float"}"#,
            &items,
            Value::Array(items.iter().copied().map(Value::Float).collect()),
            |o, v| codec::write_floats(o, v),
            |r| r.read_floats(),
        );
    }

    /// The bulk reader of `array<double>` reads what the item-by-item reader reads, in any
    /// blocks, and fails where and as it fails: on every truncation and under any budget.
    #[test]
    fn bulk_doubles_read_like_items(
        items in prop::collection::vec(any::<u64>().prop_map(f64::from_bits), 1..30),
        plan in splits(),
        max_items in 0usize..40,
        max_memory in 0usize..300,
    ) {
        let mut bytes = Vec::new();
        write_blocks(&mut bytes, &items, &plan, |o, x| codec::write_double(o, *x));
        let bits = |items: Vec<f64>| items.into_iter().map(f64::to_bits).collect::<Vec<_>>();
        let mut reader = Reader::new(&bytes);
        prop_assert_eq!(bits(reader.read_doubles().unwrap()), bits(items.clone()));
        prop_assert!(reader.is_empty());

        let outcome = |reader: &mut Reader<'_>, bulk: bool| {
            let read = if bulk { reader.read_doubles() } else { reader.read_array(|r| r.read_double()) };
            (format!("{:?}", read.map(bits)), reader.position())
        };
        for len in 0..bytes.len() {
            let prefix = &bytes[..len];
            prop_assert_eq!(outcome(&mut Reader::new(prefix), true), outcome(&mut Reader::new(prefix), false));
        }
        let limits = DecodeLimits { max_items, max_memory, ..DecodeLimits::for_input_len(bytes.len()) };
        prop_assert_eq!(
            outcome(&mut Reader::with_limits(&bytes, limits), true),
            outcome(&mut Reader::with_limits(&bytes, limits), false)
        );
    }

    #[test]
    fn maps_of_ints(map in prop::collection::hash_map(".{0,8}", any::<i32>(), 0..20)) {
        let schema = parse(r#"{"type": "map", "values": "int"}"#);
        let expected = Value::Map(map.iter().map(|(k, v)| (k.clone(), Value::Int(*v))).collect());

        let mut ours = Vec::new();
        codec::write_map(&mut ours, map.len(), &map, |o, v| { codec::write_int(o, *v); Ok(()) }).unwrap();
        prop_assert_eq!(their_value(&schema, &ours), expected.clone());

        let theirs = their_bytes(&schema, expected);
        let mut reader = Reader::new(&theirs);
        let back: HashMap<String, i32> = reader.read_map(|r| r.read_int()).unwrap();
        prop_assert_eq!(back, map);
        prop_assert!(reader.is_empty());
    }

    #[test]
    fn multi_block_arrays_read_alike(items in prop::collection::vec(".{0,6}", 1..30), plan in splits()) {
        let schema = parse(r#"{"type": "array", "items": "string"}"#);
        let mut bytes = Vec::new();
        write_blocks(&mut bytes, &items, &plan, |o, s: &String| codec::write_string(o, s));

        let expected = Value::Array(items.iter().cloned().map(Value::String).collect());
        prop_assert_eq!(their_value(&schema, &bytes), expected);
        let mut reader = Reader::new(&bytes);
        prop_assert_eq!(reader.read_array(|r| r.read_string().map(str::to_owned)).unwrap(), items);
        prop_assert!(reader.is_empty());

        // Skipping jumps over negative-count blocks and lands just past the array.
        let mut skipper = Reader::new(&bytes);
        skipper.skip_blocks(|r| r.skip_bytes()).unwrap();
        prop_assert!(skipper.is_empty());
    }

    #[test]
    fn multi_block_maps_read_alike(
        map in prop::collection::btree_map("[a-z]{0,6}", any::<i64>(), 1..30),
        plan in splits(),
    ) {
        let schema = parse(r#"{"type": "map", "values": "long"}"#);
        let entries: Vec<(String, i64)> = map.clone().into_iter().collect();
        let mut bytes = Vec::new();
        write_blocks(&mut bytes, &entries, &plan, |o, (k, v)| {
            codec::write_string(o, k);
            codec::write_long(o, *v);
        });

        let expected = Value::Map(map.iter().map(|(k, v)| (k.clone(), Value::Long(*v))).collect());
        prop_assert_eq!(their_value(&schema, &bytes), expected);
        let mut reader = Reader::new(&bytes);
        let back: std::collections::BTreeMap<String, i64> = reader.read_map(|r| r.read_long()).unwrap();
        prop_assert_eq!(&back, &map);
        prop_assert!(reader.is_empty());

        // Into a `HashMap` (which reserves room per block) alike, and every truncation fails
        // as reading entry by entry fails, naming the same entry.
        let hashed: HashMap<String, i64> = Reader::new(&bytes).read_map(|r| r.read_long()).unwrap();
        prop_assert_eq!(hashed.into_iter().collect::<std::collections::BTreeMap<_, _>>(), map);
        for len in 0..bytes.len() {
            let prefix = &bytes[..len];
            let mut reader = Reader::new(prefix);
            let read: Result<HashMap<String, i64>, _> = reader.read_map(|r| r.read_long());
            let mut by_entry = Reader::new(prefix);
            let reference = by_entry.read_blocks(|r, index| {
                let key = r.read_string().map_err(|e| e.at_index(index))?;
                r.read_long().map_err(|e| e.at_key(key)).map(drop)
            });
            prop_assert_eq!(format!("{:?}", read.map(drop)), format!("{:?}", reference.map(drop)));
            prop_assert_eq!(reader.position(), by_entry.position());
        }
    }
}

#[test]
fn nan_and_negative_zero_keep_their_bits() {
    for value in [f64::NAN, -0.0, f64::from_bits(0x7ff0_0000_0000_0001)] {
        let mut ours = Vec::new();
        codec::write_double(&mut ours, value);
        let theirs = their_bytes(&Schema::Double, Value::Double(value));
        assert_eq!(ours, theirs);
        let back = Reader::new(&theirs).read_double().unwrap();
        assert_eq!(back.to_bits(), value.to_bits());
    }
}

#[test]
fn an_empty_array_and_map_are_a_single_zero() {
    let mut out = Vec::new();
    codec::write_array::<i32>(&mut out, &[], |_, _| Ok(())).unwrap();
    codec::write_map::<i32>(&mut out, 0, [], |_, _| Ok(())).unwrap();
    assert_eq!(out, [0, 0]);
}

#[test]
fn a_map_must_yield_the_length_it_announced() {
    let map: HashMap<String, i32> = [("a".to_owned(), 1)].into();
    let mut out = Vec::new();
    let error = codec::write_map(&mut out, 2, &map, |o, v| {
        codec::write_int(o, *v);
        Ok(())
    })
    .unwrap_err();
    assert!(matches!(
        error.kind(),
        avdl2rs::EncodeErrorKind::MapLengthMismatch {
            announced: 2,
            written: 1
        }
    ));
}

#[test]
fn read_blocks_counts_items_across_blocks() {
    let mut bytes = Vec::new();
    write_blocks(
        &mut bytes,
        &[1i64, 2, 3, 4, 5],
        &[(2, true), (3, false)],
        |o, v| codec::write_long(o, *v),
    );
    let mut seen = Vec::new();
    let count = Reader::new(&bytes)
        .read_blocks(|r, index| {
            seen.push((index, r.read_long()?));
            Ok(())
        })
        .unwrap();
    assert_eq!(count, 5);
    assert_eq!(seen, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]);
}
