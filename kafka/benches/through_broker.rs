//! Order events through the broker on loopback: typed produce and consume
//! (`TypedProducer`/`TypedConsumer` with the registry's serializers, warm caches) against
//! sending and reading the same pre-encoded frames with plain rdkafka, in the same run, with
//! the same settings and pipelining (messages queued, delivery reports awaited at the end of
//! each batch; offsets stored for each message read).
//!
//! Criterion times producing. After it, a million events are produced and consumed by each
//! of the raw and typed clients, in halves taken in the order raw, typed, typed, raw, each
//! consumer alone with a topic filled beforehand: the broker (tansu, in memory) slows down as
//! it holds more data, so a consumer benchmarked after another was measured 35% slower than
//! alone, and consumers that exist side by side read ahead for each other's turns.
//! First of all, the growth of resident memory while a typed consumer reads a million events
//! is printed.
//!
//! Needs a broker and a registry: run it as
//! `.ci/registry-server .ci/kafka-broker cargo bench -p avdl2rs-kafka`.

use std::hint::black_box;
use std::sync::atomic::{AtomicU32, Ordering};
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
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kafka_orders::v2::OrderEvent;
use tokio::runtime::Runtime;

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
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let topic = format!("{name}-{}-{n}", std::process::id());
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

/// Which client a run measures.
#[derive(Clone, Copy, PartialEq)]
enum Side {
    Raw,
    Typed,
}

/// The order of the four runs, half a million events each,: raw, typed, typed, raw, so that a drift
/// of the broker's speed over the runs weighs on both alike.
const ORDER: [Side; 4] = [Side::Raw, Side::Typed, Side::Typed, Side::Raw];

/// A million events produced by each client, then consumed by each, in halves in the order
/// [`ORDER`]; prints the rates and their ratios.
fn million(s: &Setup) {
    let _runtime = s.runtime.enter();
    let raw_producer: FutureProducer = s.kafka.create().unwrap();
    let typed_producer =
        TypedProducer::<[u8], OrderEvent, Raw>::new(&s.kafka, Raw, s.serializer()).unwrap();
    let half = MILLION / 2;
    let mut produced = [Duration::ZERO; 2];
    for client in ORDER {
        let topic = s.topic("bench-million-produce");
        // Untimed: the connection, the topic's metadata, the registry lookup.
        s.runtime.block_on(async {
            produce_raw(&raw_producer, &topic, &s.frame, 1).await;
            produce_typed(&typed_producer, &topic, 1).await;
        });
        produced[client as usize] += timed(|| match client {
            Side::Raw => s
                .runtime
                .block_on(produce_raw(&raw_producer, &topic, &s.frame, half)),
            Side::Typed => s
                .runtime
                .block_on(produce_typed(&typed_producer, &topic, half)),
        });
    }

    // Every topic is filled before any is read, so the broker holds the same data throughout;
    // each consumer exists only during its run, so none reads ahead while another is timed.
    let topics: Vec<String> = ORDER
        .iter()
        .map(|_| s.topic("bench-million-consume"))
        .collect();
    for topic in &topics {
        s.runtime
            .block_on(produce_raw(&raw_producer, topic, &s.frame, half + 1));
    }
    let mut consumed = [Duration::ZERO; 2];
    for (client, topic) in ORDER.into_iter().zip(&topics) {
        consumed[client as usize] += match client {
            Side::Raw => {
                let raw = raw_consumer(s, topic);
                // Untimed: the group join.
                s.runtime.block_on(read_raw(&raw, 1));
                timed(|| s.runtime.block_on(read_raw(&raw, half)))
            }
            Side::Typed => {
                let value = Deserializer::new(Arc::clone(&s.registry));
                let group = s.group(topic, "typed");
                let typed =
                    TypedConsumer::<Vec<u8>, OrderEvent, Raw>::new(&group, Raw, value).unwrap();
                typed.subscribe(&[topic]).unwrap();
                s.runtime.block_on(read_typed(&typed, 1));
                timed(|| s.runtime.block_on(read_typed(&typed, half)))
            }
        };
    }
    let rate = |d: Duration| MILLION as f64 / d.as_secs_f64();
    let [produced_raw, produced_typed] = produced.map(rate);
    let [consumed_raw, consumed_typed] = consumed.map(rate);
    println!(
        "one million events each, produced: raw {produced_raw:.0}/s, typed {produced_typed:.0}/s (typed / raw {:.3})",
        produced_typed / produced_raw
    );
    println!(
        "one million events each, consumed: raw {consumed_raw:.0}/s, typed {consumed_typed:.0}/s (typed / raw {:.3})",
        consumed_typed / consumed_raw
    );
}

/// A plain consumer of `topic` that stores offsets itself, as the typed one does.
fn raw_consumer(s: &Setup, topic: &str) -> StreamConsumer {
    let mut config = s.group(topic, "raw");
    config.set("enable.auto.offset.store", "false");
    let raw: StreamConsumer = config.create().unwrap();
    raw.subscribe(&[topic]).unwrap();
    raw
}

/// The growth of resident memory while a typed consumer reads a million events, measured
/// first in the process, before any other consumer has grown its allocator.
fn consumer_memory(s: &Setup) {
    let _runtime = s.runtime.enter();
    let feeder: FutureProducer = s.kafka.create().unwrap();
    let topic = s.topic("bench-memory");
    s.runtime
        .block_on(produce_raw(&feeder, &topic, &s.frame, MILLION));
    let value = Deserializer::new(Arc::clone(&s.registry));
    let group = s.group(&topic, "memory");
    let typed = TypedConsumer::<Vec<u8>, OrderEvent, Raw>::new(&group, Raw, value).unwrap();
    typed.subscribe(&[&topic]).unwrap();
    let before = resident_kib();
    s.runtime.block_on(read_typed(&typed, MILLION));
    let grown = resident_kib().saturating_sub(before);
    println!("typed consumer of a million events: resident memory grew by {grown} KiB");
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
    consumer_memory(&setup);
    produce(c, &setup);
    million(&setup);
}

criterion_group! {
    name = through_broker;
    config = Criterion::default().warm_up_time(Duration::from_secs(2)).measurement_time(Duration::from_secs(8));
    targets = benches
}
criterion_main!(through_broker);
