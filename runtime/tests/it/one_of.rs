//! Reading messages of several record types into one `#[derive(AvroOneOf)]` enum: the
//! variant is picked by the writer schema's full name or an alias of the variant's type, each
//! variant's versions are resolved by its own plan, other types go to the catch-all or are
//! an error; a union writer schema is read branch by branch the same way. The writers' bytes
//! come from apache-avro, the reference encoder.

use std::collections::BTreeMap;

use apache_avro::types::Value;
use avdl2rs::generic::{GenericRecord, GenericValue};
use avdl2rs::resolve::{Consumer, ResolveError};
use avdl2rs::wire;
use avdl2rs::{Avro, AvroOneOf, AvroSchema, OneOf};

use crate::resolve_support::apache_bytes;

#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "shop")]
struct OrderCreated {
    id: i64,
    customer: String,
}

/// Version 2: a `currency` with a default; renamed from `shop.Payment`.
#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "shop", aliases = ["shop.Payment"])]
struct OrderPaid {
    id: i64,
    amount: f64,
    #[avro(default = "EUR")]
    currency: String,
}

#[derive(AvroOneOf, Debug, PartialEq)]
enum OrderEvent {
    Created(OrderCreated),
    Paid(OrderPaid),
}

#[derive(AvroOneOf, Debug, PartialEq)]
enum AnyOrderEvent {
    Created(OrderCreated),
    #[avro(other)]
    Other(GenericRecord),
}

const PAID_V1: &str = r#"{"type":"record","name":"OrderPaid","namespace":"shop",
    "fields":[{"name":"id","type":"long"},{"name":"amount","type":"double"}]}"#;
const PAYMENT: &str = r#"{"type":"record","name":"Payment","namespace":"shop",
    "fields":[{"name":"id","type":"long"},{"name":"amount","type":"double"}]}"#;
const SHIPPED: &str = r#"{"type":"record","name":"OrderShipped","namespace":"shop",
    "fields":[{"name":"id","type":"long"},{"name":"carrier","type":"string"}]}"#;

fn record(fields: &[(&str, Value)]) -> Value {
    Value::Record(
        fields
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )
}

/// Schema ids 1 to 5: `OrderCreated` and `OrderPaid` as derived, `OrderPaid` version 1, the
/// old name `shop.Payment`, and a type the enum does not know.
fn consumer() -> Consumer<BTreeMap<i32, &'static str>> {
    Consumer::new(BTreeMap::from([
        (1, OrderCreated::SCHEMA_JSON),
        (2, OrderPaid::SCHEMA_JSON),
        (3, PAID_V1),
        (4, PAYMENT),
        (5, SHIPPED),
    ]))
}

fn framed(id: i32, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    wire::write_confluent_header(&mut out, id);
    out.extend_from_slice(body);
    out
}

#[test]
fn each_writer_type_is_read_into_its_variant() {
    let consumer = consumer();
    let created = apache_bytes(
        OrderCreated::SCHEMA_JSON,
        record(&[
            ("id", Value::Long(1)),
            ("customer", Value::String("ann".into())),
        ]),
    );
    let paid = apache_bytes(
        OrderPaid::SCHEMA_JSON,
        record(&[
            ("id", Value::Long(1)),
            ("amount", Value::Double(9.5)),
            ("currency", Value::String("USD".into())),
        ]),
    );
    let event: OrderEvent = consumer.decode_confluent(&framed(1, &created)).unwrap();
    let expected = OrderCreated {
        id: 1,
        customer: "ann".into(),
    };
    assert_eq!(event, OrderEvent::Created(expected));
    let event: OrderEvent = consumer.decode_confluent(&framed(2, &paid)).unwrap();
    let expected = OrderPaid {
        id: 1,
        amount: 9.5,
        currency: "USD".into(),
    };
    assert_eq!(event, OrderEvent::Paid(expected));
}

#[test]
fn an_older_version_and_an_old_name_resolve_into_the_variant() {
    let consumer = consumer();
    let v1 = apache_bytes(
        PAID_V1,
        record(&[("id", Value::Long(4)), ("amount", Value::Double(2.0))]),
    );
    let expected = OrderEvent::Paid(OrderPaid {
        id: 4,
        amount: 2.0,
        currency: "EUR".into(),
    });
    assert_eq!(
        consumer.decode_one_of::<OrderEvent>(3, &v1).unwrap(),
        expected
    );
    // `shop.Payment` is an alias of `OrderPaid`: the reader's aliases name the writer.
    assert_eq!(
        consumer.decode_one_of::<OrderEvent>(4, &v1).unwrap(),
        expected
    );
}

#[test]
fn a_type_no_variant_is_goes_to_the_catch_all_or_is_an_error() {
    let consumer = consumer();
    let shipped = apache_bytes(
        SHIPPED,
        record(&[
            ("id", Value::Long(8)),
            ("carrier", Value::String("dhl".into())),
        ]),
    );
    match consumer.decode_one_of::<OrderEvent>(5, &shipped) {
        Err(ResolveError::UnknownType { id: 5, full_name }) => {
            assert_eq!(full_name, "shop.OrderShipped");
        }
        other => panic!("expected an unknown type, got {other:?}"),
    }
    let AnyOrderEvent::Other(record) = consumer.decode_one_of(5, &shipped).unwrap() else {
        panic!("expected the catch-all");
    };
    assert_eq!(record.schema().name.full_name(), "shop.OrderShipped");
    assert_eq!(
        record.get("carrier"),
        Some(&GenericValue::String("dhl".into()))
    );
    // A catch-all is read, never written.
    assert_eq!(AnyOrderEvent::Other(record).variant(), None);
}

#[test]
fn a_variant_is_written_as_its_own_type() {
    let created = OrderCreated {
        id: 3,
        customer: "bo".into(),
    };
    let mut out = Vec::new();
    OrderEvent::Created(created.clone())
        .encode_variant(&mut out)
        .unwrap();
    assert_eq!(out, created.to_avro_bytes().unwrap());
    assert_eq!(
        OrderEvent::VARIANTS,
        ["shop.OrderCreated", "shop.OrderPaid"]
    );
    const { assert!(!OrderEvent::CATCH_ALL && AnyOrderEvent::CATCH_ALL) };
}

#[test]
fn a_union_writer_schema_is_read_branch_by_branch() {
    // One subject holding several types: the derived OrderCreated, OrderPaid version 1, a
    // branch that is no record, and a type the enum does not know.
    let union = format!(
        "[{}, {PAID_V1}, \"null\", {SHIPPED}]",
        OrderCreated::SCHEMA_JSON
    );
    let consumer = Consumer::new(BTreeMap::from([(6, union.as_str())]));
    let branch = |index, value| apache_bytes(&union, Value::Union(index, Box::new(value)));
    let created = record(&[
        ("id", Value::Long(1)),
        ("customer", Value::String("ann".into())),
    ]);
    let event: OrderEvent = consumer.decode_one_of(6, &branch(0, created)).unwrap();
    let expected = OrderCreated {
        id: 1,
        customer: "ann".into(),
    };
    assert_eq!(event, OrderEvent::Created(expected));
    let paid = record(&[("id", Value::Long(4)), ("amount", Value::Double(2.0))]);
    let event: OrderEvent = consumer.decode_one_of(6, &branch(1, paid)).unwrap();
    let expected = OrderPaid {
        id: 4,
        amount: 2.0,
        currency: "EUR".into(),
    };
    assert_eq!(event, OrderEvent::Paid(expected));

    let unknown = |bytes: &[u8]| match consumer.decode_one_of::<OrderEvent>(6, bytes) {
        Err(ResolveError::UnknownType { id: 6, full_name }) => full_name,
        other => panic!("expected an unknown type, got {other:?}"),
    };
    assert_eq!(unknown(&branch(2, Value::Null)), "null");
    let shipped = record(&[
        ("id", Value::Long(8)),
        ("carrier", Value::String("dhl".into())),
    ]);
    let shipped = branch(3, shipped);
    assert_eq!(unknown(&shipped), "shop.OrderShipped");
    let AnyOrderEvent::Other(record) = consumer.decode_one_of(6, &shipped).unwrap() else {
        panic!("expected the catch-all");
    };
    assert_eq!(
        record.get("carrier"),
        Some(&GenericValue::String("dhl".into()))
    );

    // A branch index past the union's end is bad writer data, not a panic.
    let past_the_end = consumer.decode_one_of::<OrderEvent>(6, &[8]);
    assert!(
        matches!(past_the_end, Err(ResolveError::Translate(_))),
        "{past_the_end:?}"
    );
}
