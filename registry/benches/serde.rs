//! Framing through the registry-backed `Serializer` / `Deserializer` with warm caches,
//! against plain `encode_confluent` and a `Consumer` over a fixed map of schemas, in the
//! same run; then the same with 8 threads sharing one client, serializer and deserializer.
//!
//! Needs a registry to warm the caches against: run it as
//! `.ci/registry-server cargo bench -p avdl2rs-registry`.

use std::collections::HashMap;
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use avdl2rs::resolve::Consumer;
use avdl2rs::{Avro, AvroSchema};
use avdl2rs_registry::blocking::Client;
use avdl2rs_registry::{ClientConfig, Deserializer, Serializer, SerializerConfig};
use criterion::{criterion_group, criterion_main, Criterion};
use orders::OrderEvent;

const THREADS: u64 = 8;

struct Setup {
    serializer: Serializer<OrderEvent>,
    deserializer: Deserializer<OrderEvent>,
    consumer: Consumer<HashMap<i32, String>>,
    topic: String,
    id: i32,
    frame: Vec<u8>,
}

fn setup(url: &str) -> Setup {
    let client = Arc::new(Client::new(ClientConfig::new(url)).unwrap());
    let serializer = Serializer::new(Arc::clone(&client), SerializerConfig::default());
    let deserializer = Deserializer::new(client);
    let topic = "bench-orders".to_owned();
    let order = orders::sample_order();
    let frame = serializer.serialize(&topic, &order).unwrap();
    let id = serializer.schema_id(&topic).unwrap();
    deserializer.deserialize(&frame).unwrap();
    let consumer = Consumer::new(HashMap::from([(id, OrderEvent::SCHEMA_JSON.to_owned())]));
    consumer.decode_confluent::<OrderEvent>(&frame).unwrap();
    Setup {
        serializer,
        deserializer,
        consumer,
        topic,
        id,
        frame,
    }
}

fn single_thread(c: &mut Criterion, s: &Setup) {
    let order = orders::sample_order();
    let mut out = Vec::new();
    let mut group = c.benchmark_group("encode");
    group.bench_function("encode_confluent", |b| {
        b.iter(|| {
            out.clear();
            black_box(&order).encode_confluent(s.id, &mut out).unwrap();
            black_box(&out);
        })
    });
    group.bench_function("serializer", |b| {
        b.iter(|| {
            s.serializer
                .serialize_into(&s.topic, black_box(&order), &mut out)
                .unwrap();
            black_box(&out);
        })
    });
    let mut handle = s.serializer.for_topic(&s.topic).unwrap();
    group.bench_function("topic_serializer", |b| {
        b.iter(|| {
            handle.serialize_into(black_box(&order), &mut out).unwrap();
            black_box(&out);
        })
    });
    group.finish();
    let mut group = c.benchmark_group("decode");
    group.bench_function("consumer", |b| {
        b.iter(|| {
            black_box(
                s.consumer
                    .decode_confluent::<OrderEvent>(black_box(&s.frame))
                    .unwrap(),
            )
        })
    });
    group.bench_function("deserializer", |b| {
        b.iter(|| black_box(s.deserializer.deserialize(black_box(&s.frame)).unwrap()))
    });
    group.finish();
}

/// Runs `iters` operations in total, `run(n)` doing `n` of them on each of [`THREADS`]
/// threads, and returns the wall time: with no contention, the time per operation is the
/// single-thread time divided by the cores.
fn threaded(iters: u64, run: &(dyn Fn(u64) + Sync)) -> Duration {
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..THREADS {
            scope.spawn(|| run(iters.div_ceil(THREADS)));
        }
    });
    started.elapsed()
}

/// `op` `n` times.
fn repeat(n: u64, mut op: impl FnMut()) {
    for _ in 0..n {
        op();
    }
}

fn eight_threads(c: &mut Criterion, s: &Setup) {
    let order = orders::sample_order();
    let mut group = c.benchmark_group("encode_8_threads");
    group.bench_function("encode_confluent", |b| {
        b.iter_custom(|iters| {
            threaded(iters, &|n| {
                let mut out = Vec::new();
                repeat(n, || {
                    out.clear();
                    order.encode_confluent(s.id, &mut out).unwrap();
                    black_box(&out);
                })
            })
        })
    });
    group.bench_function("serializer", |b| {
        b.iter_custom(|iters| {
            threaded(iters, &|n| {
                let mut out = Vec::new();
                repeat(n, || {
                    s.serializer
                        .serialize_into(&s.topic, &order, &mut out)
                        .unwrap();
                    black_box(&out);
                })
            })
        })
    });
    group.bench_function("topic_serializer", |b| {
        b.iter_custom(|iters| {
            threaded(iters, &|n| {
                let mut out = Vec::new();
                let mut handle = s.serializer.for_topic(&s.topic).unwrap();
                repeat(n, || {
                    handle.serialize_into(&order, &mut out).unwrap();
                    black_box(&out);
                })
            })
        })
    });
    group.finish();
    let mut group = c.benchmark_group("decode_8_threads");
    group.bench_function("consumer", |b| {
        b.iter_custom(|iters| {
            threaded(iters, &|n| {
                repeat(n, || {
                    black_box(s.consumer.decode_confluent::<OrderEvent>(&s.frame).unwrap());
                })
            })
        })
    });
    group.bench_function("deserializer", |b| {
        b.iter_custom(|iters| {
            threaded(iters, &|n| {
                repeat(n, || {
                    black_box(s.deserializer.deserialize(&s.frame).unwrap());
                })
            })
        })
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    let Ok(url) = std::env::var("AVDL2RS_SCHEMA_REGISTRY_URL") else {
        println!("skipped: set AVDL2RS_SCHEMA_REGISTRY_URL (.ci/registry-server cargo bench)");
        return;
    };
    let s = setup(&url);
    single_thread(c, &s);
    eight_threads(c, &s);
}

criterion_group!(serde, benches);
criterion_main!(serde);
