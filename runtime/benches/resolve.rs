//! Resolving decode against direct decode of the same value, and against apache-avro's
//! resolving decode, measured in the same run.
//!
//! `direct`: v2 bytes decoded into the v2 type. `resolving`: v1 bytes (one more string
//! field, an int amount, an old enum and int tags) read into the same type through a cached
//! plan: the id is copied, the amount promoted, the old field skipped, the currency default
//! added, the enum re-indexed, the note wrapped in its union; the int tags, the last field,
//! read as longs unchanged and are copied with the rest of the input. `same_schema_plan`: v2 bytes through a plan whose writer is v2 (no translation).
//! `apache_avro_resolving`: apache-avro reading the v1 bytes with the v2 schema as reader.

#[macro_use]
#[path = "../tests/it/resolve_support.rs"]
mod support;

use std::hint::black_box;

use avdl2rs::resolve::ResolutionPlan;
use avdl2rs::wire::decode_body;
use avdl2rs::AvroSchema;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use support::{apache_bytes, payment_v1, PaymentV2, Status, PAYMENT_V1};

fn message_v1() -> Vec<u8> {
    apache_bytes(
        PAYMENT_V1,
        payment_v1(
            "3f1c8a2e-5b7d-4c19-9e0a-6d2b8f4c1a77",
            129_900,
            1,
            "gift wrap, deliver after 18:00",
            &[3, 17, 250, 4096, 70_000, 12, 9, 1, 88, 640],
        ),
    )
}

fn message_v2() -> Vec<u8> {
    let value = PaymentV2 {
        id: "3f1c8a2e-5b7d-4c19-9e0a-6d2b8f4c1a77".into(),
        amount: 129_900.0,
        currency: "EUR".into(),
        status: Status::Paid,
        note: Some("gift wrap, deliver after 18:00".into()),
        tags: vec![3, 17, 250, 4096, 70_000, 12, 9, 1, 88, 640],
    };
    apache_bytes(PaymentV2::SCHEMA_JSON, value.to_value())
}

fn bench(c: &mut Criterion) {
    let v1 = message_v1();
    let v2 = message_v2();
    let plan = ResolutionPlan::reading::<PaymentV2>(PAYMENT_V1).unwrap();
    let same = ResolutionPlan::reading::<PaymentV2>(PaymentV2::SCHEMA_JSON).unwrap();
    assert_eq!(
        plan.decode::<PaymentV2>(&v1).unwrap(),
        decode_body::<PaymentV2>(&v2).unwrap()
    );
    let apache_writer = apache_avro::Schema::parse_str(PAYMENT_V1).unwrap();
    let apache_reader = apache_avro::Schema::parse_str(PaymentV2::SCHEMA_JSON).unwrap();
    let apache = apache_avro::reader::datum::GenericDatumReader::builder(&apache_writer)
        .reader_schema(&apache_reader)
        .build()
        .unwrap();

    let mut group = c.benchmark_group("resolve_payment");
    group.throughput(Throughput::Elements(1));
    group.bench_function("direct", |b| {
        b.iter(|| decode_body::<PaymentV2>(black_box(&v2)).unwrap())
    });
    group.bench_function("resolving", |b| {
        b.iter(|| plan.decode::<PaymentV2>(black_box(&v1)).unwrap())
    });
    group.bench_function("same_schema_plan", |b| {
        b.iter(|| same.decode::<PaymentV2>(black_box(&v2)).unwrap())
    });
    group.bench_function("apache_avro_resolving", |b| {
        b.iter(|| apache.read_value(&mut black_box(v1.as_slice())).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
