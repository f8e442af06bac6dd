//! Flat top-level records (fields kept, dropped and promoted, defaults added, no nested
//! translation), which are translated into a buffer sized once with the position in a local:
//! checked against apache-avro's resolution, against the general path (translate, then
//! decode) on any bytes, errors and their offsets included, and on hostile input.

use crate::resolve_support;

use apache_avro::types::Value;
use avdl2rs::resolve::{ResolutionPlan, ResolveError};
use avdl2rs::schema::SchemaSet;
use avdl2rs::wire::decode_body;
use avdl2rs::{AvroDecode, AvroSchema};
use proptest::prelude::*;
use resolve_support::{apache_bytes, apache_resolved};

/// An order as an older producer wrote it: `amount` a `float`, a `note` since dropped, and
/// `meta` a union (passed over through its skip, not by width).
const ORDER_V1: &str = r#"{"type":"record","name":"Order","fields":[
    {"name":"id","type":"long"},
    {"name":"amount","type":"float"},
    {"name":"user","type":"int"},
    {"name":"note","type":"string"},
    {"name":"meta","type":["null","string"]}]}"#;

/// (id, amount, user, currency, meta): the fields both reader types start with.
type OrderHead = (i64, f64, i64, String, Option<String>);

fn read_head(r: &mut avdl2rs::codec::Reader<'_>) -> Result<OrderHead, avdl2rs::DecodeError> {
    Ok((
        r.read_long()?,
        r.read_double()?,
        r.read_long()?,
        r.read_string()?.to_owned(),
        match r.read_union_index(2)? {
            0 => None,
            _ => Some(r.read_string()?.to_owned()),
        },
    ))
}

// Today's order: `amount` a double, `user` a long, `currency` and `discount` added with
// defaults, the last one after the kept `meta`: the translation ends with a step that writes.
single_value_type!(
    Order,
    (OrderHead, Option<f64>),
    r#"{"type":"record","name":"Order","fields":[
        {"name":"id","type":"long"},
        {"name":"amount","type":"double"},
        {"name":"user","type":"long"},
        {"name":"currency","type":"string","default":"CNY"},
        {"name":"meta","type":["null","string"]},
        {"name":"discount","type":["null","double"],"default":null}]}"#,
    r#"{"name":"Order","type":"record","fields":[{"name":"id","type":"long"},{"name":"amount","type":"double"},{"name":"user","type":"long"},{"name":"currency","type":"string"},{"name":"meta","type":["null","string"]},{"name":"discount","type":["null","double"]}]}"#,
    |r| (
        read_head(r)?,
        match r.read_union_index(2)? {
            0 => None,
            _ => Some(r.read_double()?),
        },
    )
);

// The same without `discount`: the translation ends with the kept `meta`, copied unwalked.
single_value_type!(
    OrderTail,
    OrderHead,
    r#"{"type":"record","name":"Order","fields":[
        {"name":"id","type":"long"},
        {"name":"amount","type":"double"},
        {"name":"user","type":"long"},
        {"name":"currency","type":"string","default":"CNY"},
        {"name":"meta","type":["null","string"]}]}"#,
    r#"{"name":"Order","type":"record","fields":[{"name":"id","type":"long"},{"name":"amount","type":"double"},{"name":"user","type":"long"},{"name":"currency","type":"string"},{"name":"meta","type":["null","string"]}]}"#,
    |r| read_head(r)?
);

fn assert_consts<T: AvroSchema>() {
    let mut set = SchemaSet::new();
    let schema = set.parse_str(T::SCHEMA_JSON).unwrap();
    assert_eq!(set.canonical_form(&schema), T::CANONICAL_FORM);
}

fn order_v1(id: i64, amount: f32, user: i32, note: &str, meta: Option<&str>) -> Value {
    Value::Record(vec![
        ("id".into(), Value::Long(id)),
        ("amount".into(), Value::Float(amount)),
        ("user".into(), Value::Int(user)),
        ("note".into(), Value::String(note.into())),
        (
            "meta".into(),
            match meta {
                None => Value::Union(0, Box::new(Value::Null)),
                Some(text) => Value::Union(1, Box::new(Value::String(text.into()))),
            },
        ),
    ])
}

/// How a read ended, comparable between the two paths: the value, or where the error was
/// found (translating or decoding the translation) and at which offset.
#[derive(Debug, PartialEq)]
enum Outcome<T> {
    Value(T),
    Translate(usize),
    Decode(usize),
}

fn outcome<T>(result: Result<T, ResolveError>) -> Outcome<T> {
    match result {
        Ok(value) => Outcome::Value(value),
        Err(ResolveError::Translate(e)) => Outcome::Translate(e.offset()),
        Err(ResolveError::Decode(e)) => Outcome::Decode(e.offset()),
        Err(other) => panic!("unexpected error {other}"),
    }
}

/// What the general path reads: the writer's bytes translated by the plan's step
/// interpreter, then decoded as a `T`.
fn general<T: AvroDecode>(plan: &ResolutionPlan, bytes: &[u8]) -> Outcome<T> {
    let mut out = Vec::new();
    outcome(
        plan.translate(bytes, &mut out)
            .map_err(ResolveError::Translate)
            .and_then(|()| decode_body(&out).map_err(ResolveError::Decode)),
    )
}

/// Strings of every length class: empty, a one-byte length, a two-byte one.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![Just(String::new()), "[a-zé]{1,20}", "[a-z]{60,140}"]
}

proptest! {
    #[test]
    fn flat_records_read_like_apache_avro(
        id in any::<i64>(),
        amount in any::<f32>().prop_filter("NaN payloads may change", |a| !a.is_nan()),
        user in any::<i32>(),
        note in text(),
        meta in proptest::option::of(text()),
    ) {
        let bytes = apache_bytes(ORDER_V1, order_v1(id, amount, user, &note, meta.as_deref()));
        let ours = ResolutionPlan::reading::<Order>(ORDER_V1).unwrap();
        let ours = ours.decode::<Order>(&bytes).unwrap().0;
        let head = (id, f64::from(amount), i64::from(user), "CNY".to_owned(), meta.clone());
        prop_assert_eq!(&ours, &(head.clone(), None));
        let tail = ResolutionPlan::reading::<OrderTail>(ORDER_V1).unwrap();
        prop_assert_eq!(tail.decode::<OrderTail>(&bytes).unwrap().0, head);

        let theirs = apache_resolved(ORDER_V1, Order::SCHEMA_JSON, &bytes);
        let meta = match meta {
            None => Value::Union(0, Box::new(Value::Null)),
            Some(text) => Value::Union(1, Box::new(Value::String(text))),
        };
        prop_assert_eq!(theirs, Value::Record(vec![
            ("id".into(), Value::Long(id)),
            ("amount".into(), Value::Double(f64::from(amount))),
            ("user".into(), Value::Long(i64::from(user))),
            ("currency".into(), Value::String("CNY".into())),
            ("meta".into(), meta),
            ("discount".into(), Value::Union(0, Box::new(Value::Null))),
        ]));
    }

    #[test]
    fn flat_records_agree_with_the_general_path_on_any_bytes(
        bytes in proptest::collection::vec(any::<u8>(), 0..96),
    ) {
        let plan = ResolutionPlan::reading::<Order>(ORDER_V1).unwrap();
        prop_assert_eq!(outcome(plan.decode::<Order>(&bytes)), general::<Order>(&plan, &bytes));
        let plan = ResolutionPlan::reading::<OrderTail>(ORDER_V1).unwrap();
        prop_assert_eq!(
            outcome(plan.decode::<OrderTail>(&bytes)),
            general::<OrderTail>(&plan, &bytes)
        );
    }

    #[test]
    fn flat_records_agree_with_the_general_path_on_damaged_messages(
        index in 0usize..200,
        byte in any::<u8>(),
        note in text(),
    ) {
        let mut bytes = apache_bytes(ORDER_V1, order_v1(-3, 2.5, 1 << 20, &note, Some("m")));
        let index = index % bytes.len();
        bytes[index] = byte;
        let plan = ResolutionPlan::reading::<Order>(ORDER_V1).unwrap();
        prop_assert_eq!(outcome(plan.decode::<Order>(&bytes)), general::<Order>(&plan, &bytes));
    }
}

#[test]
fn the_reader_types_have_their_schemas_consts() {
    assert_consts::<Order>();
    assert_consts::<OrderTail>();
}

#[test]
fn flat_records_reject_every_truncation_and_trailing_bytes() {
    let long_note = "n".repeat(300);
    let bytes = apache_bytes(ORDER_V1, order_v1(i64::MIN, 1.0, -1, &long_note, Some("m")));
    let plan = ResolutionPlan::reading::<Order>(ORDER_V1).unwrap();
    for len in 0..bytes.len() {
        match plan.decode::<Order>(&bytes[..len]) {
            Err(ResolveError::Translate(e)) => assert!(e.offset() <= len, "{len}: {e}"),
            other => panic!("{len}: expected a translation error, got {other:?}"),
        }
    }
    let mut longer = bytes.clone();
    longer.push(0);
    let err = plan.decode::<Order>(&longer).unwrap_err();
    assert!(err.to_string().contains("trailing"), "{err}");
}

#[test]
fn a_dropped_length_beyond_the_input_is_an_error_not_an_allocation() {
    // id 1, amount 0.0, user 1, then a note claiming 2^35 bytes (zig-zag 2^36).
    let mut bytes = vec![2, 0, 0, 0, 0, 2];
    bytes.extend([0x80, 0x80, 0x80, 0x80, 0x80, 0x02, b'x']);
    let plan = ResolutionPlan::reading::<Order>(ORDER_V1).unwrap();
    match plan.decode::<Order>(&bytes) {
        Err(ResolveError::Translate(e)) => {
            assert_eq!(e.offset(), 6, "{e}");
            assert!(e.to_string().contains("length"), "{e}");
        }
        other => panic!("expected a translation error, got {other:?}"),
    }
}

#[test]
fn messages_larger_than_the_stack_room_read_the_same() {
    // Notes and metadata of a few KiB take the thread's reused buffer; read twice, so the
    // second read reuses it.
    let plan = ResolutionPlan::reading::<Order>(ORDER_V1).unwrap();
    for size in [10, 5_000, 200, 70_000] {
        let meta = "m".repeat(size);
        let bytes = apache_bytes(
            ORDER_V1,
            order_v1(7, -0.5, 3, &"x".repeat(size), Some(&meta)),
        );
        for _ in 0..2 {
            let value = plan.decode::<Order>(&bytes).unwrap().0;
            let head = (7, -0.5, 3, "CNY".into(), Some(meta.clone()));
            assert_eq!(value, (head, None), "{size}");
        }
    }
}
