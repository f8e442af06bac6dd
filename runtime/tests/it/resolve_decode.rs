//! Resolving decode: data written with one schema version, read into a type of another, rule
//! by rule (Avro specification, "Schema Resolution"), checked against apache-avro's own
//! resolution where it applies.

use crate::resolve_support;

use std::collections::HashMap;
use std::sync::Arc;

use apache_avro::types::Value;
use avdl2rs::compat::IncompatibilityKind;
use avdl2rs::resolve::{Consumer, ResolutionPlan, ResolveError, Resolver};
use avdl2rs::schema::SchemaSet;
use avdl2rs::{AvroDecode, AvroSchema};
use resolve_support::{
    apache_bytes, apache_resolved, payment_v1, OptLong, OptString, PaymentV2, Status, PAYMENT_V1,
};

fn resolve<T: AvroSchema + AvroDecode>(writer: &str, bytes: &[u8]) -> Result<T, ResolveError> {
    ResolutionPlan::reading::<T>(writer)?.decode(bytes)
}

/// The consts of a hand-written reader type agree with the schema model.
fn assert_consts<T: AvroSchema>() {
    let mut set = SchemaSet::new();
    let schema = set.parse_str(T::SCHEMA_JSON).unwrap();
    assert_eq!(set.canonical_form(&schema), T::CANONICAL_FORM);
    assert_eq!(set.fingerprint(&schema), T::FINGERPRINT);
}

#[test]
fn a_v1_payment_reads_as_v2_like_apache_avro_resolves_it() {
    assert_consts::<PaymentV2>();
    let cases = [
        payment_v1("p-1", 1250, 1, "first", &[1, -2, 300]),
        payment_v1("p-2", -7, 2, "", &[]),
        payment_v1("", i32::MAX, 0, "ünï", &[i32::MIN]),
    ];
    for value in cases {
        let bytes = apache_bytes(PAYMENT_V1, value);
        let ours: PaymentV2 = resolve(PAYMENT_V1, &bytes).unwrap();
        let theirs = apache_resolved(PAYMENT_V1, PaymentV2::SCHEMA_JSON, &bytes);
        assert_eq!(ours.to_value(), theirs);
    }
    let bytes = apache_bytes(PAYMENT_V1, payment_v1("p-9", 5, 2, "n", &[4]));
    assert_eq!(
        resolve::<PaymentV2>(PAYMENT_V1, &bytes).unwrap(),
        PaymentV2 {
            id: "p-9".into(),
            amount: 5.0,
            currency: "EUR".into(),
            status: Status::Unknown,
            note: Some("n".into()),
            tags: vec![4],
        }
    );
}

single_value_type!(ALong, i64, r#""long""#, r#""long""#, |r| r.read_long()?);
single_value_type!(AFloat, f32, r#""float""#, r#""float""#, |r| r
    .read_float()?);
single_value_type!(ADouble, f64, r#""double""#, r#""double""#, |r| r
    .read_double()?);
single_value_type!(AString, String, r#""string""#, r#""string""#, |r| r
    .read_string()?
    .to_owned());
single_value_type!(SomeBytes, Vec<u8>, r#""bytes""#, r#""bytes""#, |r| r
    .read_bytes()?
    .to_vec());

#[test]
fn numbers_are_promoted_and_strings_and_bytes_interchange() {
    assert_consts::<ALong>();
    let int = |n: i32| apache_bytes(r#""int""#, Value::Int(n));
    let long = |n: i64| apache_bytes(r#""long""#, Value::Long(n));
    assert_eq!(resolve::<ALong>(r#""int""#, &int(-5)).unwrap(), ALong(-5));
    assert_eq!(
        resolve::<AFloat>(r#""int""#, &int(16_777_217)).unwrap(),
        AFloat(16_777_217_f32)
    );
    assert_eq!(
        resolve::<ADouble>(r#""int""#, &int(i32::MIN)).unwrap(),
        ADouble(f64::from(i32::MIN))
    );
    assert_eq!(
        resolve::<AFloat>(r#""long""#, &long(1 << 40)).unwrap(),
        AFloat((1u64 << 40) as f32)
    );
    assert_eq!(
        resolve::<ADouble>(r#""long""#, &long(-3)).unwrap(),
        ADouble(-3.0)
    );
    let float = apache_bytes(r#""float""#, Value::Float(1.5));
    assert_eq!(
        resolve::<ADouble>(r#""float""#, &float).unwrap(),
        ADouble(1.5)
    );
    let string = apache_bytes(r#""string""#, Value::String("héllo".into()));
    assert_eq!(
        resolve::<SomeBytes>(r#""string""#, &string).unwrap(),
        SomeBytes("héllo".into())
    );
    let bytes = apache_bytes(r#""bytes""#, Value::Bytes(b"ok".to_vec()));
    assert_eq!(
        resolve::<AString>(r#""bytes""#, &bytes).unwrap(),
        AString("ok".into())
    );
    // Bytes that are not UTF-8 cannot become a string: the reader's decode says so.
    let bad = apache_bytes(r#""bytes""#, Value::Bytes(vec![0xff]));
    assert!(matches!(
        resolve::<AString>(r#""bytes""#, &bad),
        Err(ResolveError::Decode(_))
    ));
}

single_value_type!(
    Reordered,
    (i64, i64, i32, String),
    r#"{"type":"record","name":"R","fields":[{"name":"c","type":"long"},{"name":"a","type":"long"},{"name":"d","type":"int","default":7},{"name":"s","type":"string","default":"dflt"}]}"#,
    r#"{"name":"R","type":"record","fields":[{"name":"c","type":"long"},{"name":"a","type":"long"},{"name":"d","type":"int"},{"name":"s","type":"string"}]}"#,
    |r| (
        r.read_long()?,
        r.read_long()?,
        r.read_int()?,
        r.read_string()?.to_owned()
    )
);

#[test]
fn fields_are_matched_by_name_reordered_skipped_and_defaulted() {
    assert_consts::<Reordered>();
    let writer = r#"{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"string"},{"name":"c","type":"long"}]}"#;
    let value = Value::Record(vec![
        ("a".into(), Value::Int(1)),
        ("b".into(), Value::String("skipped".into())),
        ("c".into(), Value::Long(3)),
    ]);
    let bytes = apache_bytes(writer, value);
    let ours: Reordered = resolve(writer, &bytes).unwrap();
    assert_eq!(ours, Reordered((3, 1, 7, "dflt".into())));
}

single_value_type!(
    Renamed,
    i32,
    r#"{"type":"record","name":"New","aliases":["Old"],"fields":[{"name":"y","type":"int","aliases":["x"]}]}"#,
    r#"{"name":"New","type":"record","fields":[{"name":"y","type":"int"}]}"#,
    |r| r.read_int()?
);

#[test]
fn aliases_rename_types_and_fields() {
    assert_consts::<Renamed>();
    let writer = r#"{"type":"record","name":"Old","fields":[{"name":"x","type":"int"}]}"#;
    let bytes = apache_bytes(writer, Value::Record(vec![("x".into(), Value::Int(42))]));
    assert_eq!(resolve::<Renamed>(writer, &bytes).unwrap(), Renamed(42));
}

#[test]
fn union_branches_are_re_indexed_and_non_unions_wrapped_or_unwrapped() {
    let writer = r#"["string","null"]"#;
    let some = apache_bytes(writer, Value::Union(0, Box::new(Value::String("s".into()))));
    let none = apache_bytes(writer, Value::Union(1, Box::new(Value::Null)));
    assert_eq!(
        resolve::<OptString>(writer, &some).unwrap(),
        OptString(Some("s".into()))
    );
    assert_eq!(
        resolve::<OptString>(writer, &none).unwrap(),
        OptString(None)
    );
    // A writer int read into the long branch of a reader union.
    let int = apache_bytes(r#""int""#, Value::Int(9));
    assert_eq!(
        resolve::<OptLong>(r#""int""#, &int).unwrap(),
        OptLong(Some(9))
    );
    // A writer union read as a plain long: every branch promotes.
    let writer = r#"["int","long"]"#;
    let bytes = apache_bytes(writer, Value::Union(0, Box::new(Value::Int(-1))));
    assert_eq!(resolve::<ALong>(writer, &bytes).unwrap(), ALong(-1));
}

single_value_type!(
    LongMap,
    Vec<(String, i64)>,
    r#"{"type":"map","values":"long"}"#,
    r#"{"type":"map","values":"long"}"#,
    |r| r.read_map::<Vec<(String, i64)>, i64>(|r| r.read_long())?
);

single_value_type!(
    Doubles,
    Vec<f64>,
    r#"{"type":"array","items":"double"}"#,
    r#"{"type":"array","items":"double"}"#,
    |r| r.read_array(|r| r.read_double())?
);

#[test]
fn map_values_and_array_items_are_translated_across_blocks() {
    // Items that change encoding: all writer blocks become one reader block.
    let writer = r#"{"type":"array","items":"int"}"#;
    let bytes = [2, 2, 3, 4, 4, 6, 0]; // [1], then [2, 3] in the negative-count form
    assert_eq!(
        resolve::<Doubles>(writer, &bytes).unwrap(),
        Doubles(vec![1.0, 2.0, 3.0])
    );
    assert_eq!(resolve::<Doubles>(writer, &[0]).unwrap(), Doubles(vec![]));
    // Values that keep their encoding (int as long): the map is copied as written.
    let writer = r#"{"type":"map","values":"int"}"#;
    let value = Value::Map([("k".to_string(), Value::Int(-4))].into_iter().collect());
    let bytes = apache_bytes(writer, value);
    assert_eq!(
        resolve::<LongMap>(writer, &bytes).unwrap(),
        LongMap(vec![("k".into(), -4)])
    );
    // Two blocks, the second in the negative-count form with its byte size (3).
    let writer = r#"{"type":"map","values":"int"}"#;
    let bytes = [2, 2, b'a', 2, 0x01, 6, 2, b'b', 6, 0];
    assert_eq!(
        resolve::<LongMap>(writer, &bytes).unwrap(),
        LongMap(vec![("a".into(), 1), ("b".into(), 3)])
    );
}

/// A linked list whose values were ints and are now longs.
#[derive(Debug, PartialEq)]
struct LongList {
    value: i64,
    next: Option<Box<LongList>>,
}

impl AvroSchema for LongList {
    const SCHEMA_JSON: &'static str = r#"{"type":"record","name":"LongList","fields":[{"name":"value","type":"long"},{"name":"next","type":["null","LongList"]}]}"#;
    const CANONICAL_FORM: &'static str = r#"{"name":"LongList","type":"record","fields":[{"name":"value","type":"long"},{"name":"next","type":["null","LongList"]}]}"#;
    const FINGERPRINT: u64 =
        avdl2rs::fingerprint::rabin_fingerprint(Self::CANONICAL_FORM.as_bytes());
    const FULL_NAME: &'static str = "LongList";
}

impl AvroDecode for LongList {
    fn decode(r: &mut avdl2rs::codec::Reader<'_>) -> Result<Self, avdl2rs::DecodeError> {
        let value = r.read_long()?;
        let next = match r.read_union_index(2)? {
            0 => None,
            _ => Some(Box::new(LongList::decode(r)?)),
        };
        Ok(LongList { value, next })
    }
}

#[test]
fn recursive_types_resolve() {
    assert_consts::<LongList>();
    let writer = r#"{"type":"record","name":"LongList","fields":[{"name":"value","type":"int"},{"name":"next","type":["null","LongList"]}]}"#;
    let bytes = [2, 2, 4, 2, 6, 0]; // 1 -> 2 -> 3
    let list: LongList = resolve(writer, &bytes).unwrap();
    let values: Vec<i64> = std::iter::successors(Some(&list), |l| l.next.as_deref())
        .map(|l| l.value)
        .collect();
    assert_eq!(values, [1, 2, 3]);
}

single_value_type!(
    Defaults,
    (),
    r#"{"type":"record","name":"D","fields":[
        {"name":"rec","type":{"type":"record","name":"Inner","fields":[{"name":"x","type":"int"},{"name":"y","type":"string","default":"yy"}]},"default":{"x":3}},
        {"name":"arr","type":{"type":"array","items":"long"},"default":[1,2]},
        {"name":"map","type":{"type":"map","values":"boolean"},"default":{"t":true}},
        {"name":"uni","type":["null","double"],"default":2.5},
        {"name":"byt","type":"bytes","default":"\u00ff\u0000"},
        {"name":"fix","type":{"type":"fixed","name":"F","size":2},"default":"ab"},
        {"name":"enm","type":{"type":"enum","name":"E","symbols":["P","Q"]},"default":"Q"},
        {"name":"nan","type":"float","default":"NaN"}]}"#,
    r#"{"name":"D","type":"record","fields":[{"name":"rec","type":{"name":"Inner","type":"record","fields":[{"name":"x","type":"int"},{"name":"y","type":"string"}]}},{"name":"arr","type":{"type":"array","items":"long"}},{"name":"map","type":{"type":"map","values":"boolean"}},{"name":"uni","type":["null","double"]},{"name":"byt","type":"bytes"},{"name":"fix","type":{"name":"F","type":"fixed","size":2}},{"name":"enm","type":{"name":"E","type":"enum","symbols":["P","Q"]}},{"name":"nan","type":"float"}]}"#,
    |r| {
        r.read_int()?;
        r.read_string()?;
        r.read_array(|r| r.read_long())?;
        r.read_map::<Vec<(String, bool)>, bool>(|r| r.read_boolean())?;
        if r.read_union_index(2)? == 1 {
            r.read_double()?;
        }
        r.read_bytes()?;
        r.read_fixed::<2>()?;
        r.read_enum_index(2)?;
        r.read_float()?;
    }
);

#[test]
fn defaults_of_every_type_are_encoded_like_apache_avro_encodes_the_values() {
    assert_consts::<Defaults>();
    let writer = r#"{"type":"record","name":"D","fields":[]}"#;
    let plan = ResolutionPlan::reading::<Defaults>(writer).unwrap();
    let mut ours = Vec::new();
    plan.translate(&[], &mut ours).unwrap();
    let expected = Value::Record(vec![
        (
            "rec".into(),
            Value::Record(vec![
                ("x".into(), Value::Int(3)),
                ("y".into(), Value::String("yy".into())),
            ]),
        ),
        (
            "arr".into(),
            Value::Array(vec![Value::Long(1), Value::Long(2)]),
        ),
        (
            "map".into(),
            Value::Map(
                [("t".to_string(), Value::Boolean(true))]
                    .into_iter()
                    .collect(),
            ),
        ),
        ("uni".into(), Value::Union(1, Box::new(Value::Double(2.5)))),
        ("byt".into(), Value::Bytes(vec![0xff, 0])),
        ("fix".into(), Value::Fixed(2, b"ab".to_vec())),
        ("enm".into(), Value::Enum(1, "Q".into())),
        ("nan".into(), Value::Float(f32::NAN)),
    ]);
    assert_eq!(ours, apache_bytes(Defaults::SCHEMA_JSON, expected));
    // And the reader type reads them.
    plan.decode::<Defaults>(&[]).unwrap();
}

#[test]
fn the_same_canonical_form_is_decoded_directly() {
    let writer = r#"{"type":"string","doc":"docs do not matter"}"#;
    let plan = ResolutionPlan::reading::<AString>(writer).unwrap();
    assert!(plan.is_direct());
    let bytes = apache_bytes(r#""string""#, Value::String("x".into()));
    assert_eq!(plan.decode::<AString>(&bytes).unwrap(), AString("x".into()));
    assert!(!ResolutionPlan::reading::<ALong>(r#""int""#)
        .unwrap()
        .is_direct());
}

#[test]
fn a_type_is_translated_into_another_schema_for_writing() {
    // What a producer of `ALong` writes when the registered schema is `double`.
    let plan = ResolutionPlan::writing::<ALong>(r#""double""#).unwrap();
    let mut ours = Vec::new();
    let written = apache_bytes(r#""long""#, Value::Long(-3));
    plan.translate(&written, &mut ours).unwrap();
    assert_eq!(ours, apache_bytes(r#""double""#, Value::Double(-3.0)));
    assert!(ResolutionPlan::writing::<ALong>(r#""long""#)
        .unwrap()
        .is_direct());
    assert!(matches!(
        ResolutionPlan::writing::<ALong>(r#""int""#),
        Err(ResolveError::Incompatible(_))
    ));
    assert!(matches!(
        ResolutionPlan::writing::<ALong>("nope"),
        Err(ResolveError::ReaderSchema(_))
    ));
}

#[test]
fn incompatible_writers_are_refused_when_the_plan_is_built() {
    let writer = r#"{"type":"record","name":"Payment","namespace":"shop","fields":[{"name":"id","type":"int"}]}"#;
    let Err(ResolveError::Incompatible(problems)) = ResolutionPlan::reading::<PaymentV2>(writer)
    else {
        panic!("expected an incompatibility report")
    };
    let found: Vec<(IncompatibilityKind, &str)> = problems
        .iter()
        .map(|p| (p.kind, p.location.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (IncompatibilityKind::TypeMismatch, "/fields/id/type"),
            (
                IncompatibilityKind::ReaderFieldMissingDefault,
                "/fields/amount"
            ),
            // An enum's own default is for unknown symbols, not for a missing field.
            (
                IncompatibilityKind::ReaderFieldMissingDefault,
                "/fields/status"
            ),
            (
                IncompatibilityKind::ReaderFieldMissingDefault,
                "/fields/tags"
            ),
        ]
    );
    let message = ResolutionPlan::reading::<PaymentV2>(writer)
        .unwrap_err()
        .to_string();
    assert!(message.contains("/fields/id/type"), "{message}");
    assert!(matches!(
        ResolutionPlan::reading::<PaymentV2>("{"),
        Err(ResolveError::WriterSchema(_))
    ));
}

#[test]
fn a_plan_refuses_a_type_it_was_not_built_for() {
    let plan = ResolutionPlan::reading::<ALong>(r#""int""#).unwrap();
    assert!(matches!(
        plan.decode::<ADouble>(&[2]),
        Err(ResolveError::WrongReader { .. })
    ));
}

#[test]
fn the_resolver_builds_each_plan_once() {
    let resolver = Resolver::new();
    let a = resolver.plan::<PaymentV2>(PAYMENT_V1).unwrap();
    let b = resolver.plan::<PaymentV2>(PAYMENT_V1).unwrap();
    assert!(Arc::ptr_eq(&a, &b));
    // Another spelling of the same writer schema shares the plan through its fingerprint.
    let respelled = format!("  {}", PAYMENT_V1.replace("\"int\"", "{\"type\":\"int\"}"));
    assert!(Arc::ptr_eq(
        &a,
        &resolver.plan::<PaymentV2>(&respelled).unwrap()
    ));
    let bytes = apache_bytes(PAYMENT_V1, payment_v1("r", 1, 0, "", &[]));
    assert_eq!(
        resolver.decode::<PaymentV2>(PAYMENT_V1, &bytes).unwrap().id,
        "r"
    );
}

#[test]
fn the_consumer_reads_confluent_frames_of_any_registered_version() {
    let registry: HashMap<i32, String> = [
        (1, PAYMENT_V1.to_string()),
        (2, PaymentV2::SCHEMA_JSON.to_string()),
    ]
    .into_iter()
    .collect();
    let consumer = Consumer::new(registry);
    let mut old = vec![0, 0, 0, 0, 1];
    old.extend(apache_bytes(PAYMENT_V1, payment_v1("old", 3, 1, "x", &[7])));
    let read: PaymentV2 = consumer.decode_confluent(&old).unwrap();
    assert_eq!(
        (read.id.as_str(), read.amount, read.tags),
        ("old", 3.0, vec![7])
    );

    let current = PaymentV2 {
        id: "new".into(),
        amount: 0.5,
        currency: "USD".into(),
        status: Status::Paid,
        note: None,
        tags: vec![],
    };
    let mut new = vec![0, 0, 0, 0, 2];
    new.extend(apache_bytes(PaymentV2::SCHEMA_JSON, current.to_value()));
    assert_eq!(
        consumer.decode_confluent::<PaymentV2>(&new).unwrap(),
        current
    );
    assert!(consumer.plan::<PaymentV2>(2).unwrap().is_direct());

    let unknown = [0, 0, 0, 0, 9, 0];
    let err = consumer
        .decode_confluent::<PaymentV2>(&unknown)
        .unwrap_err();
    assert!(matches!(err, ResolveError::Lookup { id: 9, .. }), "{err}");
    assert!(matches!(
        consumer.decode_confluent::<PaymentV2>(&[1, 0, 0, 0, 1]),
        Err(ResolveError::Wire(_))
    ));
}

/// Consumers share plans across threads.
#[test]
fn plans_and_caches_are_shared_across_threads() {
    fn shared<T: Send + Sync>() {}
    shared::<ResolutionPlan>();
    shared::<Resolver>();
    shared::<Consumer<HashMap<i32, String>>>();
    let resolver = Arc::new(Resolver::new());
    let bytes = apache_bytes(PAYMENT_V1, payment_v1("t", 2, 1, "", &[5]));
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let (resolver, bytes) = (Arc::clone(&resolver), bytes.clone());
            std::thread::spawn(move || resolver.decode::<PaymentV2>(PAYMENT_V1, &bytes).unwrap())
        })
        .collect();
    for thread in threads {
        assert_eq!(thread.join().unwrap().tags, [5]);
    }
}
