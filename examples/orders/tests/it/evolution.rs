//! A consumer built against today's `OrderEvent` reads messages that producers wrote with an
//! older version of the schema: the writer schema comes by id from the Confluent frame, and
//! the generated type is filled through a resolution plan.

use std::collections::HashMap;

use apache_avro::types::Value;
use avdl2rs::resolve::Consumer;
use orders::OrderEvent;

/// Version 1 of the schema: no currency and no discount yet, the amount still a float, and a
/// `channel` field that version 2 dropped.
const ORDER_V1: &str = r#"{"type": "record", "name": "OrderEvent", "namespace": "com.example.orders",
  "fields": [
    {"name": "id", "type": "int"},
    {"name": "amount", "type": "float"},
    {"name": "user_id", "type": "int"},
    {"name": "channel", "type": "string"}
  ]}"#;

/// Version 1 renamed `user_id` from `customer`: version 2 would need an alias to read it.
const ORDER_V0_RENAMED: &str = r#"{"type": "record", "name": "OrderEvent", "namespace": "com.example.orders",
  "fields": [
    {"name": "id", "type": "int"},
    {"name": "amount", "type": "double"},
    {"name": "customer", "type": "int"}
  ]}"#;

/// A Confluent frame of `value` written with `schema` under `id`.
fn frame_with(schema: &str, id: i32, value: Value) -> Vec<u8> {
    let schema = apache_avro::Schema::parse_str(schema).expect("the test schema parses");
    let body = apache_avro::writer::datum::GenericDatumWriter::builder(&schema)
        .build()
        .and_then(|writer| writer.write_value_to_vec(value))
        .expect("the value fits the schema");
    let mut frame = vec![0];
    frame.extend_from_slice(&id.to_be_bytes());
    frame.extend(body);
    frame
}

fn registry() -> Consumer<HashMap<i32, String>> {
    let mut schemas = HashMap::new();
    schemas.insert(1, ORDER_V1.to_string());
    schemas.insert(
        2,
        <OrderEvent as avdl2rs::AvroSchema>::SCHEMA_JSON.to_string(),
    );
    schemas.insert(3, ORDER_V0_RENAMED.to_string());
    Consumer::new(schemas)
}

#[test]
fn old_messages_get_defaults_promotions_and_lose_dropped_fields() {
    let v1 = Value::Record(vec![
        ("id".into(), Value::Int(7)),
        ("amount".into(), Value::Float(12.5)),
        ("user_id".into(), Value::Int(99)),
        ("channel".into(), Value::String("web".into())),
    ]);
    let order: OrderEvent = registry()
        .decode_confluent(&frame_with(ORDER_V1, 1, v1))
        .expect("version 1 is readable by version 2");
    assert_eq!(
        order,
        OrderEvent {
            id: 7,
            amount: 12.5,
            user_id: 99,
            currency: "CNY".into(),
            discount: None,
        }
    );
}

#[test]
fn current_messages_decode_directly() {
    let order = orders::sample_order();
    let frame = orders::frame(&order, 2);
    let consumer = registry();
    assert!(consumer.plan::<OrderEvent>(2).unwrap().is_direct());
    assert_eq!(
        consumer.decode_confluent::<OrderEvent>(&frame).unwrap(),
        order
    );
}

#[test]
fn a_writer_the_reader_cannot_read_fails_with_the_reason_not_garbage() {
    let v0 = Value::Record(vec![
        ("id".into(), Value::Int(1)),
        ("amount".into(), Value::Double(1.0)),
        ("customer".into(), Value::Int(5)),
    ]);
    let error = registry()
        .decode_confluent::<OrderEvent>(&frame_with(ORDER_V0_RENAMED, 3, v0))
        .expect_err("user_id has no default and no alias for customer");
    let text = error.to_string();
    assert!(text.contains("user_id"), "{text}");
}
