//! The shortcuts of the resolving decode: a record's steps with runs of fixed-width values
//! and defaults merged and numbers promoted inline, and the plans whose reader decodes the
//! writer's bytes in place (the reader's fields are the writer's first ones, encoded alike).
//! Each is checked against apache-avro's resolution and against the general path (translate,
//! then decode), also on hostile input.

use crate::resolve_support;

use apache_avro::types::Value;
use avdl2rs::resolve::{ResolutionPlan, ResolveError};
use avdl2rs::schema::SchemaSet;
use avdl2rs::wire::decode_body;
use avdl2rs::{AvroDecode, AvroSchema};
use proptest::prelude::*;
use resolve_support::{apache_bytes, apache_resolved};

/// The consts of a hand-written reader type agree with the schema model.
fn assert_consts<T: AvroSchema>() {
    let mut set = SchemaSet::new();
    let schema = set.parse_str(T::SCHEMA_JSON).unwrap();
    assert_eq!(set.canonical_form(&schema), T::CANONICAL_FORM);
}

/// What the general path reads: the writer's bytes translated, then decoded as a `T`.
fn translated<T: AvroDecode>(plan: &ResolutionPlan, bytes: &[u8]) -> Option<T> {
    let mut out = Vec::new();
    plan.translate(bytes, &mut out).ok()?;
    decode_body(&out).ok()
}

/// Writes fixed-width values kept and dropped in runs, a promoted `int` and two defaults in
/// a row.
const MIXED_WRITER: &str = r#"{"type":"record","name":"Mixed","fields":[
    {"name":"x","type":"double"},
    {"name":"y","type":"float"},
    {"name":"f","type":{"type":"fixed","name":"F3","size":3}},
    {"name":"gone1","type":"double"},
    {"name":"gone2","type":{"type":"fixed","name":"F2","size":2}},
    {"name":"n","type":"int"},
    {"name":"tail","type":"float"}]}"#;

single_value_type!(
    Mixed,
    (f64, f32, [u8; 3], f64, String, i64, f32),
    r#"{"type":"record","name":"Mixed","fields":[
        {"name":"x","type":"double"},
        {"name":"y","type":"float"},
        {"name":"f","type":{"type":"fixed","name":"F3","size":3}},
        {"name":"n","type":"double"},
        {"name":"label","type":"string","default":"none"},
        {"name":"count","type":"long","default":-3},
        {"name":"tail","type":"float"}]}"#,
    r#"{"name":"Mixed","type":"record","fields":[{"name":"x","type":"double"},{"name":"y","type":"float"},{"name":"f","type":{"name":"F3","type":"fixed","size":3}},{"name":"n","type":"double"},{"name":"label","type":"string"},{"name":"count","type":"long"},{"name":"tail","type":"float"}]}"#,
    |r| (
        r.read_double()?,
        r.read_float()?,
        r.read_fixed::<3>()?,
        r.read_double()?,
        r.read_string()?.to_owned(),
        r.read_long()?,
        r.read_float()?,
    )
);

fn mixed_value(x: f64, n: i32) -> Value {
    Value::Record(vec![
        ("x".into(), Value::Double(x)),
        ("y".into(), Value::Float(-1.5)),
        ("f".into(), Value::Fixed(3, vec![1, 2, 3])),
        ("gone1".into(), Value::Double(9.0)),
        ("gone2".into(), Value::Fixed(2, vec![7, 8])),
        ("n".into(), Value::Int(n)),
        ("tail".into(), Value::Float(0.25)),
    ])
}

#[test]
fn merged_runs_promotions_and_defaults_read_like_apache_avro() {
    assert_consts::<Mixed>();
    let plan = ResolutionPlan::reading::<Mixed>(MIXED_WRITER).unwrap();
    for (x, n) in [(0.0, 0), (2.5, -70_000), (f64::MAX, i32::MAX)] {
        let bytes = apache_bytes(MIXED_WRITER, mixed_value(x, n));
        let ours = plan.decode::<Mixed>(&bytes).unwrap();
        assert_eq!(
            ours.0,
            (x, -1.5, [1, 2, 3], f64::from(n), "none".into(), -3, 0.25)
        );
        let theirs = apache_resolved(MIXED_WRITER, Mixed::SCHEMA_JSON, &bytes);
        let Value::Record(fields) = theirs else {
            panic!("a record: {theirs:?}")
        };
        assert_eq!(fields[3].1, Value::Double(f64::from(n)));
        assert_eq!(fields[4].1, Value::String("none".into()));
        assert_eq!(fields[5].1, Value::Long(-3));
    }
}

#[test]
fn merged_runs_reject_every_truncation() {
    let plan = ResolutionPlan::reading::<Mixed>(MIXED_WRITER).unwrap();
    let bytes = apache_bytes(MIXED_WRITER, mixed_value(1.0, 300));
    for len in 0..bytes.len() {
        assert!(plan.decode::<Mixed>(&bytes[..len]).is_err(), "{len}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(plan.decode::<Mixed>(&longer).is_err());
}

/// Writes nested records: one the reader adds a field to, one it reads unchanged (with
/// unions inside), one it drops.
const NESTED_WRITER: &str = r#"{"type":"record","name":"Outer","fields":[
    {"name":"id","type":"string"},
    {"name":"user","type":{"type":"record","name":"User","fields":[
        {"name":"uid","type":"long"},{"name":"name","type":"string"}]}},
    {"name":"page","type":{"type":"record","name":"Page","fields":[
        {"name":"url","type":"string"},{"name":"ref","type":["null","string"]},
        {"name":"flag","type":["boolean","null"]}]}},
    {"name":"old","type":{"type":"record","name":"Old","fields":[
        {"name":"a","type":"int"},{"name":"b","type":{"type":"array","items":"string"}}]}}]}"#;

/// (id, (uid, name, email), (url, ref, flag), session)
type NestedValue = (
    String,
    (i64, String, Option<String>),
    (String, Option<String>, Option<bool>),
    Option<String>,
);

single_value_type!(
    Nested,
    NestedValue,
    r#"{"type":"record","name":"Outer","fields":[
        {"name":"id","type":"string"},
        {"name":"user","type":{"type":"record","name":"User","fields":[
            {"name":"uid","type":"long"},{"name":"name","type":"string"},
            {"name":"email","type":["null","string"],"default":null}]}},
        {"name":"page","type":{"type":"record","name":"Page","fields":[
            {"name":"url","type":"string"},{"name":"ref","type":["null","string"]},
            {"name":"flag","type":["boolean","null"]}]}},
        {"name":"session","type":["null","string"],"default":null}]}"#,
    r#"{"name":"Outer","type":"record","fields":[{"name":"id","type":"string"},{"name":"user","type":{"name":"User","type":"record","fields":[{"name":"uid","type":"long"},{"name":"name","type":"string"},{"name":"email","type":["null","string"]}]}},{"name":"page","type":{"name":"Page","type":"record","fields":[{"name":"url","type":"string"},{"name":"ref","type":["null","string"]},{"name":"flag","type":["boolean","null"]}]}},{"name":"session","type":["null","string"]}]}"#,
    |r| {
        let optional =
            |r: &mut avdl2rs::codec::Reader<'_>| -> Result<Option<String>, avdl2rs::DecodeError> {
                Ok(match r.read_union_index(2)? {
                    0 => None,
                    _ => Some(r.read_string()?.to_owned()),
                })
            };
        let id = r.read_string()?.to_owned();
        let user = (r.read_long()?, r.read_string()?.to_owned(), optional(r)?);
        let url = r.read_string()?.to_owned();
        let reference = optional(r)?;
        let flag = match r.read_union_index(2)? {
            0 => Some(r.read_boolean()?),
            _ => None,
        };
        (id, user, (url, reference, flag), optional(r)?)
    }
);

fn nested_value(reference: Option<&str>, flag: Option<bool>, old: &[&str]) -> Value {
    let record = |fields: Vec<(&str, Value)>| {
        Value::Record(fields.into_iter().map(|(k, v)| (k.into(), v)).collect())
    };
    let string = |s: &str| Value::String(s.into());
    record(vec![
        ("id", string("o-1")),
        (
            "user",
            record(vec![("uid", Value::Long(-40_000)), ("name", string("Ann"))]),
        ),
        (
            "page",
            record(vec![
                ("url", string("/a")),
                (
                    "ref",
                    match reference {
                        None => Value::Union(0, Box::new(Value::Null)),
                        Some(r) => Value::Union(1, Box::new(string(r))),
                    },
                ),
                (
                    "flag",
                    match flag {
                        Some(b) => Value::Union(0, Box::new(Value::Boolean(b))),
                        None => Value::Union(1, Box::new(Value::Null)),
                    },
                ),
            ]),
        ),
        (
            "old",
            record(vec![
                ("a", Value::Int(7)),
                ("b", Value::Array(old.iter().map(|s| string(s)).collect())),
            ]),
        ),
    ])
}

#[test]
fn nested_records_read_like_apache_avro() {
    assert_consts::<Nested>();
    let plan = ResolutionPlan::reading::<Nested>(NESTED_WRITER).unwrap();
    let cases = [
        (None, Some(true), &[][..]),
        (Some("from"), None, &["x", "yz"][..]),
        (Some(""), Some(false), &["only"][..]),
    ];
    for (reference, flag, old) in cases {
        let bytes = apache_bytes(NESTED_WRITER, nested_value(reference, flag, old));
        let ours = plan.decode::<Nested>(&bytes).unwrap().0;
        let expected: NestedValue = (
            "o-1".into(),
            (-40_000, "Ann".into(), None),
            ("/a".into(), reference.map(Into::into), flag),
            None,
        );
        assert_eq!(ours, expected);
        let theirs = apache_resolved(NESTED_WRITER, Nested::SCHEMA_JSON, &bytes);
        let Value::Record(fields) = theirs else {
            panic!("a record: {theirs:?}")
        };
        let names: Vec<&str> = fields.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(names, ["id", "user", "page", "session"]);
        assert_eq!(fields[3].1, Value::Union(0, Box::new(Value::Null)));
        let Value::Record(user) = &fields[1].1 else {
            panic!("a record")
        };
        assert_eq!(user[2].1, Value::Union(0, Box::new(Value::Null)));
        // Damage anywhere, also inside the nested records and the dropped one, is refused.
        for len in 0..bytes.len() {
            assert!(plan.decode::<Nested>(&bytes[..len]).is_err(), "{len}");
        }
        if flag == Some(true) && old.is_empty() {
            // The kept `flag` boolean, then the dropped `old`: `a` (1 byte), `b` (0, empty).
            let mut bad = bytes.clone();
            let at = bytes.len() - 3;
            assert_eq!(bad[at], 1, "the boolean of `flag`");
            bad[at] = 2;
            assert!(plan.decode::<Nested>(&bad).is_err());
        }
    }
}

/// Writes the reader's two fields (`amount` as an `int`, read as a `long`), then three the
/// reader does not have.
const WIDE_WRITER: &str = r#"{"type":"record","name":"Head","fields":[
    {"name":"id","type":"string"},
    {"name":"amount","type":"int"},
    {"name":"note","type":"string"},
    {"name":"tags","type":{"type":"array","items":"int"}},
    {"name":"score","type":"double"}]}"#;

single_value_type!(
    Head,
    (String, i64),
    r#"{"type":"record","name":"Head","fields":[{"name":"id","type":"string"},{"name":"amount","type":"long"}]}"#,
    r#"{"name":"Head","type":"record","fields":[{"name":"id","type":"string"},{"name":"amount","type":"long"}]}"#,
    |r| (r.read_string()?.to_owned(), r.read_long()?)
);

fn wide_value(id: &str, amount: i32, tags: &[i32]) -> Value {
    Value::Record(vec![
        ("id".into(), Value::String(id.into())),
        ("amount".into(), Value::Int(amount)),
        ("note".into(), Value::String("dropped".into())),
        (
            "tags".into(),
            Value::Array(tags.iter().map(|&t| Value::Int(t)).collect()),
        ),
        ("score".into(), Value::Double(0.5)),
    ])
}

#[test]
fn a_reader_of_the_first_fields_decodes_the_writer_bytes_in_place() {
    assert_consts::<Head>();
    let plan = ResolutionPlan::reading::<Head>(WIDE_WRITER).unwrap();
    for (id, amount, tags) in [
        ("", 0, &[][..]),
        ("h-1", -5, &[1, 2, 3]),
        ("ü", i32::MIN, &[7]),
    ] {
        let bytes = apache_bytes(WIDE_WRITER, wide_value(id, amount, tags));
        let ours = plan.decode::<Head>(&bytes).unwrap();
        assert_eq!(ours.0, (id.to_owned(), i64::from(amount)));
        assert_eq!(translated::<Head>(&plan, &bytes), Some(ours));
        let theirs = apache_resolved(WIDE_WRITER, Head::SCHEMA_JSON, &bytes);
        assert_eq!(
            theirs,
            Value::Record(vec![
                ("id".into(), Value::String(id.into())),
                ("amount".into(), Value::Long(amount.into())),
            ])
        );
    }
}

#[test]
fn in_place_decoding_rejects_damage_in_the_fields_it_passes_over() {
    let plan = ResolutionPlan::reading::<Head>(WIDE_WRITER).unwrap();
    let bytes = apache_bytes(WIDE_WRITER, wide_value("abc", 1000, &[4, 5]));
    for len in 0..bytes.len() {
        match plan.decode::<Head>(&bytes[..len]) {
            // The reader's own fields: `id` (4 bytes) and `amount` (2).
            Err(ResolveError::Decode(e)) => assert!(len < 6 && e.offset() <= len, "{len}: {e}"),
            // The fields passed over after them, with offsets in the writer's bytes.
            Err(ResolveError::Translate(e)) => assert!(len >= 6 && e.offset() <= len, "{len}"),
            other => panic!("{len}: expected an error, got {other:?}"),
        }
    }
    let mut trailing = bytes.clone();
    trailing.push(0);
    let err = plan.decode::<Head>(&trailing).unwrap_err();
    assert!(err.to_string().contains("trailing"), "{err}");
    // A dropped array claiming a billion items is an error, not a loop or an allocation.
    let mut huge = apache_bytes(WIDE_WRITER, wide_value("", 0, &[]));
    huge.truncate(3 + "dropped".len());
    huge.extend([0x80, 0xa8, 0xd6, 0xb9, 0x07]);
    assert!(matches!(
        plan.decode::<Head>(&huge),
        Err(ResolveError::Translate(_))
    ));
}

proptest! {
    #[test]
    fn in_place_decoding_agrees_with_the_general_path_on_any_bytes(
        bytes in proptest::collection::vec(any::<u8>(), 0..64),
    ) {
        let plan = ResolutionPlan::reading::<Head>(WIDE_WRITER).unwrap();
        prop_assert_eq!(plan.decode::<Head>(&bytes).ok(), translated::<Head>(&plan, &bytes));
    }

    #[test]
    fn merged_runs_copy_every_byte_of_mutated_messages(index in 0usize..30, byte in any::<u8>()) {
        // x (8 bytes), y (4), f (3), gone1 (8), gone2 (2), n (1: 9 is 18 as a zig-zag
        // varint), tail (4): every byte but n's is data that any value may take.
        prop_assume!(index != 25);
        let plan = ResolutionPlan::reading::<Mixed>(MIXED_WRITER).unwrap();
        let mut bytes = apache_bytes(MIXED_WRITER, mixed_value(3.0, 9));
        prop_assert_eq!(bytes.len(), 30);
        bytes[index] = byte;
        let (x, y, f, n, _, _, tail) = plan.decode::<Mixed>(&bytes).unwrap().0;
        prop_assert_eq!(x.to_bits(), u64::from_le_bytes(bytes[0..8].try_into().unwrap()));
        prop_assert_eq!(y.to_bits(), u32::from_le_bytes(bytes[8..12].try_into().unwrap()));
        prop_assert_eq!(&f[..], &bytes[12..15]);
        prop_assert_eq!(n, 9.0);
        prop_assert_eq!(tail.to_bits(), u32::from_le_bytes(bytes[26..30].try_into().unwrap()));
    }
}

single_value_type!(
    OnlyA,
    i64,
    r#"{"type":"record","name":"Holder","fields":[{"name":"a","type":"long"}]}"#,
    r#"{"name":"Holder","type":"record","fields":[{"name":"a","type":"long"}]}"#,
    |r| r.read_long()?
);

#[test]
fn a_dropped_record_that_holds_itself_compiles_and_is_cut_off_at_the_depth_limit() {
    // No finite value of `Loop` exists; its steps are flattened a few levels, then skipped.
    let writer = r#"{"type":"record","name":"Holder","fields":[{"name":"a","type":"long"},
        {"name":"loop","type":{"type":"record","name":"Loop","fields":[{"name":"again","type":"Loop"}]}}]}"#;
    let plan = ResolutionPlan::reading::<OnlyA>(writer).unwrap();
    let err = plan.decode::<OnlyA>(&[2]).unwrap_err();
    assert!(err.to_string().contains("levels"), "{err}");
}
