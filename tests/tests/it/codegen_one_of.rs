//! Generated enums of one of several named types (compiled by `build.rs`: a top-level union
//! of four named types, and two enums asked for by the options): each variant is written in
//! its own type's encoding, byte for byte what apache-avro writes for the same value, and is
//! read back into the variant of the type that wrote it through the registry-free
//! `Consumer::decode_one_of`, with one writer schema per type.

use std::collections::HashMap;

use apache_avro::types::Value;
use apache_avro::writer::datum::GenericDatumWriter;
use avdl2rs::generic::GenericValue;
use avdl2rs::resolve::{Consumer, Resolvable, ResolveError};
use avdl2rs::{Avro, AvroSchema, OneOf};

#[allow(dead_code)]
mod generated {
    include!(concat!(env!("OUT_DIR"), "/one_of.rs"));
}

use generated::audit::{self, AuditEvent, Status};
use generated::shop::{Created, Paid, PaymentEvent};
use generated::ShopEvents;

/// The schema ids of the writer schemas: each type's own.
const CREATED: i32 = 1;
const PAID: i32 = 2;
const STATUS: i32 = 3;
const AUDIT_CREATED: i32 = 4;

fn consumer() -> Consumer<HashMap<i32, &'static str>> {
    Consumer::new(HashMap::from([
        (CREATED, Created::SCHEMA_JSON),
        (PAID, Paid::SCHEMA_JSON),
        (STATUS, Status::SCHEMA_JSON),
        (AUDIT_CREATED, audit::Created::SCHEMA_JSON),
    ]))
}

/// What apache-avro writes for `value` under the schema of `T`.
fn apache_bytes<T: AvroSchema>(value: Value) -> Vec<u8> {
    let schema = apache_avro::Schema::parse_str(T::SCHEMA_JSON).unwrap();
    let writer = GenericDatumWriter::builder(&schema).build().unwrap();
    writer.write_value_to_vec(value).unwrap()
}

fn record(fields: &[(&str, Value)]) -> Value {
    Value::Record(
        fields
            .iter()
            .map(|(name, value)| ((*name).to_owned(), value.clone()))
            .collect(),
    )
}

/// A value of each variant, with its writer schema id, its type's own bytes and the bytes
/// apache-avro writes for the same value.
fn cases() -> Vec<(ShopEvents, i32, Vec<u8>, Vec<u8>)> {
    let created = Created {
        id: 7,
        item: "tea".into(),
    };
    let paid = Paid {
        id: 7,
        amount: 2.5,
        note: Some("card".into()),
    };
    let at = audit::Created { at: -3 };
    vec![
        (
            ShopEvents::Created(created.clone()),
            CREATED,
            created.to_avro_bytes().unwrap(),
            apache_bytes::<Created>(record(&[
                ("id", Value::Long(7)),
                ("item", Value::String("tea".into())),
            ])),
        ),
        (
            ShopEvents::Paid(paid.clone()),
            PAID,
            paid.to_avro_bytes().unwrap(),
            apache_bytes::<Paid>(record(&[
                ("id", Value::Long(7)),
                ("amount", Value::Double(2.5)),
                (
                    "note",
                    Value::Union(1, Box::new(Value::String("card".into()))),
                ),
            ])),
        ),
        (
            ShopEvents::Status(Status::Closed),
            STATUS,
            Status::Closed.to_avro_bytes().unwrap(),
            apache_bytes::<Status>(Value::Enum(1, "CLOSED".into())),
        ),
        (
            ShopEvents::Created2(at.clone()),
            AUDIT_CREATED,
            at.to_avro_bytes().unwrap(),
            apache_bytes::<audit::Created>(record(&[("at", Value::Long(-3))])),
        ),
    ]
}

#[test]
fn the_union_s_enum_lists_its_branches_in_order() {
    assert_eq!(
        ShopEvents::VARIANTS,
        ["shop.Created", "shop.Paid", "audit.Status", "audit.Created"]
    );
    assert_eq!(PaymentEvent::VARIANTS, ["shop.Paid", "audit.Status"]);
}

// Whether an enum has a catch-all is a constant: checked when this file compiles.
const _: () = assert!(!ShopEvents::CATCH_ALL);
const _: () = assert!(PaymentEvent::CATCH_ALL);

#[test]
fn each_variant_is_its_type_s_encoding_as_apache_avro_writes_it_and_reads_back() {
    let consumer = consumer();
    for (index, (event, id, own, apache)) in cases().into_iter().enumerate() {
        assert_eq!(event.variant(), Some(index));
        let mut bytes = Vec::new();
        event.encode_variant(&mut bytes).unwrap();
        assert_eq!(bytes, own, "{event:?}");
        assert_eq!(bytes, apache, "{event:?}");
        assert_eq!(
            consumer.decode_one_of::<ShopEvents>(id, &bytes).unwrap(),
            event
        );
        assert_eq!(
            ShopEvents::decode_written(&consumer, id, &bytes).unwrap(),
            event
        );
    }
}

#[test]
fn the_catch_all_takes_a_record_of_another_type() {
    let consumer = consumer();
    let created = Created {
        id: 9,
        item: "cup".into(),
    };
    let bytes = created.to_avro_bytes().unwrap();
    let PaymentEvent::Other(record) = consumer
        .decode_one_of::<PaymentEvent>(CREATED, &bytes)
        .unwrap()
    else {
        panic!("not the catch-all");
    };
    assert_eq!(record.schema().name.full_name(), "shop.Created");
    assert_eq!(record.get("id"), Some(&GenericValue::Long(9)));
    let event = PaymentEvent::Other(record);
    assert_eq!(event.variant(), None);
    assert!(event.encode_variant(&mut Vec::new()).is_err());
    let status = Status::Open.to_avro_bytes().unwrap();
    assert_eq!(
        consumer
            .decode_one_of::<PaymentEvent>(STATUS, &status)
            .unwrap(),
        PaymentEvent::Status(Status::Open)
    );
}

#[test]
fn without_a_catch_all_another_type_is_an_error_naming_it() {
    let paid = Paid {
        id: 1,
        amount: 1.0,
        note: None,
    };
    let error = consumer()
        .decode_one_of::<AuditEvent>(PAID, &paid.to_avro_bytes().unwrap())
        .unwrap_err();
    assert!(
        matches!(&error, ResolveError::UnknownType { id: PAID, full_name } if full_name == "shop.Paid"),
        "{error}"
    );
}
