//! Reading a topic of several types into one `#[derive(AvroOneOf)]` enum against reading the
//! same frames into the single generated type, through a `resolve::Consumer` whose plans are
//! warm: the cost of picking the variant by the writer's schema id.
//!
//! Groups are `one_of/<shape>` for the writer's own schema (decoded directly) and
//! `one_of/<shape>_evolved` for an older version (decoded through the plan), each with
//! `single` (`decode_confluent::<T>`) and `enum` (`decode_confluent::<Event>`). Run a short
//! pass with `cargo bench -p avdl2rs-bench --bench one_of -- --warm-up-time 1 --measurement-time 3`.

use std::collections::BTreeMap;
use std::hint::black_box;

use avdl2rs::resolve::{Consumer, Resolvable};
use avdl2rs::{wire, Avro, AvroOneOf};
use avdl2rs_bench::evolution::{writer_bytes, Evolved};
use avdl2rs_bench::shapes::{ClickEvent, LogLine, OrderEvent};
use avdl2rs_bench::values::{self, BENCH_SEED};
use criterion::{criterion_group, criterion_main, Criterion};

/// The three shapes, as one topic would carry them.
#[derive(AvroOneOf)]
enum Event {
    Order(OrderEvent),
    Log(LogLine),
    Click(ClickEvent),
}

/// The registry's ids: 1 to 3 the current schemas, 11 to 13 the older versions.
fn consumer() -> Consumer<BTreeMap<i32, &'static str>> {
    Consumer::new(BTreeMap::from([
        (1, <OrderEvent as avdl2rs::AvroSchema>::SCHEMA_JSON),
        (2, <LogLine as avdl2rs::AvroSchema>::SCHEMA_JSON),
        (3, <ClickEvent as avdl2rs::AvroSchema>::SCHEMA_JSON),
        (11, OrderEvent::WRITER_SCHEMA),
        (12, LogLine::WRITER_SCHEMA),
        (13, ClickEvent::WRITER_SCHEMA),
    ]))
}

fn framed(id: i32, body: &[u8]) -> Vec<u8> {
    let mut frame = Vec::with_capacity(body.len() + wire::CONFLUENT_HEADER_LEN);
    wire::write_confluent_header(&mut frame, id);
    frame.extend_from_slice(body);
    frame
}

/// `single` and `enum` on the frame of `value` under `id` and under the older version's id.
fn shape<T: Avro + Evolved + Resolvable>(c: &mut Criterion, name: &str, id: i32, value: &T) {
    let consumer = consumer();
    let current = framed(id, &value.to_avro_bytes().expect("encodes"));
    let older = framed(id + 10, &writer_bytes(value).expect("encodes"));
    for (group, frame) in [
        (name.to_owned(), current),
        (format!("{name}_evolved"), older),
    ] {
        let mut group = c.benchmark_group(format!("one_of/{group}"));
        group.bench_function("single", |b| {
            b.iter(|| {
                consumer
                    .decode_confluent::<T>(black_box(&frame))
                    .expect("decodes")
            })
        });
        group.bench_function("enum", |b| {
            b.iter(|| {
                consumer
                    .decode_confluent::<Event>(black_box(&frame))
                    .expect("decodes")
            })
        });
        group.finish();
    }
}

fn one_of(c: &mut Criterion) {
    shape(c, "order_event", 1, &values::order_event(BENCH_SEED));
    shape(c, "log_line", 2, &values::log_line(BENCH_SEED));
    shape(c, "click_event", 3, &values::click_event(BENCH_SEED));
}

criterion_group!(benches, one_of);
criterion_main!(benches);
