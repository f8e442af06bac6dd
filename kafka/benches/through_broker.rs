//! Order events through the broker on loopback: typed produce and consume
//! (`TypedProducer`/`TypedConsumer` with the registry's serializers, warm caches) against
//! sending and reading the same pre-encoded frames with plain rdkafka, in the same run, with
//! the same settings and pipelining (messages queued, delivery reports awaited at the end of
//! each batch; offsets stored for each message read).
//!
//! Each consume iteration first produces its messages (not timed), then times reading them
//! with a consumer kept across iterations, in batches of 50,000 so that waiting for the first
//! fetch is a small part. After criterion's runs, a million events are produced and consumed
//! raw, then typed, and the rates, their ratios and the consumers' memory are printed.
//!
//! Needs a broker and a registry: run it as
//! `.ci/registry-server .ci/kafka-broker cargo bench -p avdl2rs-kafka`.

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use avdl2rs_kafka::rdkafka::admin::{AdminClient, AdminOptions, NewTopic, TopicReplication};
use avdl2rs_kafka::rdkafka::client::DefaultClientContext;
use avdl2rs_kafka::rdkafka::consumer::{Consumer, StreamConsumer};
use avdl2rs_kafka::rdkafka::message::Message;
use avdl2rs_kafka::rdkafka::producer::{FutureProducer, FutureRecord};
use avdl2rs_kafka::rdkafka::ClientConfig;
use avdl2rs_kafka::{Raw, SendOptions, TypedConsumer, TypedProducer};
use avdl2rs_registry::nonblocking::{Client, Deserializer, Serializer};
use avdl2rs_registry::SerializerConfig;
use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use kafka_orders::v2::OrderEvent;
use tokio::runtime::Runtime;

/// Messages read per timed consume iteration: enough that the first fetch's wait (up to
/// `fetch.wait.max.ms`) is a small part of it.
const BATCH: u64 = 50_000;
/// Events of the one-shot runs after criterion's.
const MILLION: u64 = 1_000_000;

struct Setup {
    runtime: Runtime,
    kafka: ClientConfig,
    registry: Arc<Client>,
    frame: Vec<u8>,
}

fn order() -> OrderEvent {
    OrderEvent {
        id: 42,
        amount: 99.5,
        user_id: 7,
        currency: "CNY".into(),
        discount: Some(5.0),
    }
}

fn setup() -> Option<Setup> {
    let brokers = std::env::var("AVDL2RS_KAFKA_BROKERS").ok();
    let registry = std::env::var("AVDL2RS_SCHEMA_REGISTRY_URL").ok();
    let (Some(brokers), Some(registry)) = (brokers, registry) else {
        eprintln!("skipped: set AVDL2RS_KAFKA_BROKERS and AVDL2RS_SCHEMA_REGISTRY_URL (.ci/kafka-broker, .ci/registry-server)");
        return None;
    };
    let runtime = Runtime::new().unwrap();
    let registry = avdl2rs_registry::ClientConfig::new(&registry);
    let registry = Arc::new(Client::new(registry).unwrap());
    let mut kafka = ClientConfig::new();
    kafka
        .set("bootstrap.servers", &brokers)
        .set("linger.ms", "5");
    let serializer = Serializer::new(Arc::clone(&registry), SerializerConfig::default());
    let frame = runtime
        .block_on(serializer.serialize("bench-orders", &order()))
        .unwrap();
    Some(Setup {
        runtime,
        kafka,
        registry,
        frame,
    })
}

impl Setup {
    fn topic(&self, name: &str) -> String {
        let topic = format!("{name}-{}", std::process::id());
        let admin: AdminClient<DefaultClientContext> = self.kafka.create().unwrap();
        let new = NewTopic::new(&topic, 1, TopicReplication::Fixed(1));
        let created = self
            .runtime
            .block_on(admin.create_topics([&new], &AdminOptions::new()));
        created.unwrap().into_iter().for_each(|r| {
            r.unwrap();
        });
        topic
    }

    fn group(&self, topic: &str, name: &str) -> ClientConfig {
        let mut config = self.kafka.clone();
        config
            .set("group.id", format!("{topic}-{name}"))
            .set("auto.offset.reset", "earliest")
            .set("session.timeout.ms", "6000");
        config
    }

    fn serializer(&self) -> Serializer<OrderEvent> {
        Serializer::new(Arc::clone(&self.registry), SerializerConfig::default())
    }
}

/// Sends `count` pre-encoded frames with plain rdkafka and waits for their reports.
async fn produce_raw(producer: &FutureProducer, topic: &str, frame: &[u8], count: u64) {
    let mut reports = Vec::with_capacity(count as usize);
    for _ in 0..count {
        loop {
            let record = FutureRecord::<[u8], [u8]>::to(topic).payload(frame);
            match producer.send_result(record) {
                Ok(report) => break reports.push(report),
                Err(_) => tokio::time::sleep(Duration::from_millis(2)).await,
            }
        }
    }
    for report in reports {
        report.await.unwrap().unwrap();
    }
}

/// Sends `count` events with the typed producer and waits for their reports.
async fn produce_typed(producer: &TypedProducer<[u8], OrderEvent, Raw>, topic: &str, count: u64) {
    let order = order();
    let mut reports = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let queued = producer.enqueue(topic, None, &order, SendOptions::new());
        reports.push(queued.await.unwrap());
    }
    for report in reports {
        report.await.unwrap();
    }
}

fn produce(c: &mut Criterion, s: &Setup) {
    let raw: FutureProducer = s.kafka.create().unwrap();
    let typed = TypedProducer::<[u8], OrderEvent, Raw>::new(&s.kafka, Raw, s.serializer()).unwrap();
    let topic = s.topic("bench-produce");
    let mut group = c.benchmark_group("produce");
    group.throughput(Throughput::Elements(1));
    group.sample_size(10);
    group.bench_function("rdkafka pre-encoded", |b| {
        b.iter_custom(|n| {
            let started = Instant::now();
            s.runtime.block_on(produce_raw(&raw, &topic, &s.frame, n));
            started.elapsed()
        })
    });
    group.bench_function("TypedProducer", |b| {
        b.iter_custom(|n| {
            let started = Instant::now();
            s.runtime.block_on(produce_typed(&typed, &topic, n));
            started.elapsed()
        })
    });
    group.finish();
}

fn consume(c: &mut Criterion, s: &Setup) {
    // rdkafka's stream consumer starts a task on the runtime it is made in.
    let _runtime = s.runtime.enter();
    let feeder: FutureProducer = s.kafka.create().unwrap();
    let raw_topic = s.topic("bench-consume-raw");
    let typed_topic = s.topic("bench-consume-typed");
    let raw: StreamConsumer = {
        let mut config = s.group(&raw_topic, "raw");
        config.set("enable.auto.offset.store", "false");
        config.create().unwrap()
    };
    raw.subscribe(&[&raw_topic]).unwrap();
    let value = Deserializer::new(Arc::clone(&s.registry));
    let typed =
        TypedConsumer::<Vec<u8>, OrderEvent, Raw>::new(&s.group(&typed_topic, "typed"), Raw, value)
            .unwrap();
    typed.subscribe(&[&typed_topic]).unwrap();

    let mut group = c.benchmark_group("consume");
    group.throughput(Throughput::Elements(BATCH));
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.bench_function("rdkafka pre-encoded", |b| {
        b.iter_custom(|n| {
            let batch = n * BATCH;
            s.runtime
                .block_on(produce_raw(&feeder, &raw_topic, &s.frame, batch));
            let started = Instant::now();
            s.runtime.block_on(read_raw(&raw, batch));
            started.elapsed()
        })
    });
    group.bench_function("TypedConsumer", |b| {
        b.iter_custom(|n| {
            let batch = n * BATCH;
            s.runtime
                .block_on(produce_raw(&feeder, &typed_topic, &s.frame, batch));
            let started = Instant::now();
            s.runtime.block_on(read_typed(&typed, batch));
            started.elapsed()
        })
    });
    group.finish();
}

async fn read_raw(raw: &StreamConsumer, count: u64) {
    for _ in 0..count {
        let message = raw.recv().await.unwrap();
        black_box(message.payload());
        raw.store_offset_from_message(&message).unwrap();
    }
}

async fn read_typed(typed: &TypedConsumer<Vec<u8>, OrderEvent, Raw>, count: u64) {
    for _ in 0..count {
        let record = typed.recv().await.unwrap().unwrap();
        black_box(&record.value);
        typed.store_offset(&record).unwrap();
    }
}

/// A million events produced and consumed, raw then typed, each with a new topic and
/// consumer: the rates, their ratio, and the growth of resident memory while the consumer
/// reads.
fn million(s: &Setup) {
    let _runtime = s.runtime.enter();
    let raw_producer: FutureProducer = s.kafka.create().unwrap();
    let typed_producer =
        TypedProducer::<[u8], OrderEvent, Raw>::new(&s.kafka, Raw, s.serializer()).unwrap();
    let raw_topic = s.topic("bench-million-raw");
    let typed_topic = s.topic("bench-million-typed");
    let produced_raw = timed(|| {
        s.runtime
            .block_on(produce_raw(&raw_producer, &raw_topic, &s.frame, MILLION))
    });
    let produced_typed = timed(|| {
        s.runtime
            .block_on(produce_typed(&typed_producer, &typed_topic, MILLION))
    });

    let raw: StreamConsumer = {
        let mut config = s.group(&raw_topic, "raw");
        config.set("enable.auto.offset.store", "false");
        config.create().unwrap()
    };
    raw.subscribe(&[&raw_topic]).unwrap();
    let before = resident_kib();
    let consumed_raw = timed(|| s.runtime.block_on(read_raw(&raw, MILLION)));
    let raw_memory = resident_kib() as i64 - before as i64;
    drop(raw);
    let value = Deserializer::new(Arc::clone(&s.registry));
    let typed =
        TypedConsumer::<Vec<u8>, OrderEvent, Raw>::new(&s.group(&typed_topic, "typed"), Raw, value)
            .unwrap();
    typed.subscribe(&[&typed_topic]).unwrap();
    let before = resident_kib();
    let consumed_typed = timed(|| s.runtime.block_on(read_typed(&typed, MILLION)));
    let typed_memory = resident_kib() as i64 - before as i64;

    let rate = |d: Duration| MILLION as f64 / d.as_secs_f64();
    println!(
        "one million events, produced: raw {:.0}/s, typed {:.0}/s (typed / raw {:.3})",
        rate(produced_raw),
        rate(produced_typed),
        rate(produced_typed) / rate(produced_raw)
    );
    println!(
        "one million events, consumed: raw {:.0}/s, typed {:.0}/s (typed / raw {:.3})",
        rate(consumed_raw),
        rate(consumed_typed),
        rate(consumed_typed) / rate(consumed_raw)
    );
    println!(
        "resident memory grown while consuming: raw {raw_memory} KiB, typed {typed_memory} KiB"
    );
}

fn timed(run: impl FnOnce()) -> Duration {
    let started = Instant::now();
    run();
    started.elapsed()
}

/// The process's resident set size (`VmRSS`), in KiB.
fn resident_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with("VmRSS:"));
    let kib = line.and_then(|l| l.split_whitespace().nth(1));
    kib.and_then(|k| k.parse().ok()).unwrap_or(0)
}

fn benches(c: &mut Criterion) {
    let Some(setup) = setup() else { return };
    produce(c, &setup);
    consume(c, &setup);
    million(&setup);
}

criterion_group! {
    name = through_broker;
    config = Criterion::default().warm_up_time(Duration::from_secs(2)).measurement_time(Duration::from_secs(8));
    targets = benches
}
criterion_main!(through_broker);
