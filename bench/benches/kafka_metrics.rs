//! What the metrics cost the consume path's decode: a Confluent frame read through the Kafka
//! decoder (`avdl2rs_kafka::Decoder` of the registry's async `Deserializer`, its writer schema
//! cached) followed by the consumer's per-message recording (`ConsumedTally::received`:
//! messages and bytes by topic added up and handed to the recorder every 256 messages, the
//! decode time of one message in 64), on OrderEvent and LogLine. Three runs of the same loop:
//!
//! * `decode`: the decoder alone, no recording by the consumer (the deserializer's own count of
//!   a writer-cache hit stays, handed over every 256 hits, with no recorder: the floor);
//! * `recorded/no_recorder`: with the consumer's recording, no recorder installed (a library
//!   user who exports nothing);
//! * `decode/prometheus` and `recorded/prometheus`: the same two with the Prometheus recorder
//!   the CLI's `--metrics-addr` installs, as global recorder (the first counts the
//!   deserializer's writer-cache hits in it).
//!
//! Run it as `.ci/registry-server cargo bench -p avdl2rs-bench --bench kafka_metrics`, which
//! starts a registry and names it in `AVDL2RS_SCHEMA_REGISTRY_URL`; without it the benchmark
//! says so and measures nothing, so that `cargo bench --no-run` and a plain `cargo bench` pass.
//! The recorder is installed between the runs, since a global recorder cannot be taken back:
//! give no filter, or the `prometheus` runs measure without it when they come first.

use std::future::Future;
use std::hint::black_box;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use avdl2rs::{AvroDecode, AvroEncode, AvroSchema};
use avdl2rs_bench::shapes::{LogLine, OrderEvent};
use avdl2rs_bench::values::{self, BENCH_SEED};
use avdl2rs_kafka::metrics::{ConsumedTally, DecodeTimer};
use avdl2rs_kafka::Decoder;
use avdl2rs_registry::nonblocking::{Client, Deserializer, Serializer};
use avdl2rs_registry::{ClientConfig, SerializerConfig};
use criterion::Criterion;
use metrics_exporter_prometheus::PrometheusBuilder;

/// The output of `future`, which a warm deserializer completes at its first poll: awaiting it
/// in a runtime would time the runtime too.
fn now<F: Future>(future: F) -> F::Output {
    let mut cx = Context::from_waker(Waker::noop());
    match pin!(future).poll(&mut cx) {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("the writer schema is not cached"),
    }
}

/// A deserializer with the writer schema of `value`'s frame cached, and that frame.
fn setup<T>(url: &str, topic: &str, value: &T) -> (Deserializer<T>, Vec<u8>)
where
    T: AvroSchema + AvroEncode + AvroDecode + Sync + Send + PartialEq + std::fmt::Debug,
{
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let client = Arc::new(Client::new(ClientConfig::new(url)).expect("client"));
    let serializer = Serializer::new(Arc::clone(&client), SerializerConfig::default());
    let frame = rt
        .block_on(serializer.serialize(topic, value))
        .expect("registers and frames");
    let deserializer = Deserializer::new(client);
    let read = rt.block_on(Decoder::<T>::decode(&deserializer, &frame));
    assert_eq!(&read.expect("reads its frame").value, value);
    (deserializer, frame)
}

/// The decoder alone. Never inlined, here and in [`recorded`], so that callgrind gives the
/// instructions of one call (`--toggle-collect`, or its inclusive cost over its calls).
#[inline(never)]
fn decode<T>(deserializer: &Deserializer<T>, frame: &[u8])
where
    T: AvroSchema + AvroDecode + Send,
{
    black_box(now(Decoder::<T>::decode(deserializer, black_box(frame))).is_ok());
}

/// The decoder and the consumer's recording of the message, as the consumer does both (the
/// consumer's tally sits beside the held message, behind the lock it takes anyway).
#[inline(never)]
fn recorded<T>(tally: &mut ConsumedTally, topic: &str, deserializer: &Deserializer<T>, frame: &[u8])
where
    T: AvroSchema + AvroDecode + Send,
{
    let timer = DecodeTimer::start();
    let read = now(Decoder::<T>::decode(deserializer, black_box(frame)));
    tally.received(topic, frame.len(), timer, None);
    black_box(read.is_ok());
}

/// The runs of one shape without a recorder.
fn unrecorded<T>(c: &mut Criterion, shape: &str, (deserializer, frame): &(Deserializer<T>, Vec<u8>))
where
    T: AvroSchema + AvroDecode + Send,
{
    let mut group = c.benchmark_group(format!("kafka_metrics/{shape}"));
    group.bench_function("decode", |b| b.iter(|| decode(deserializer, frame)));
    group.bench_function("recorded/no_recorder", |b| {
        let mut tally = ConsumedTally::default();
        b.iter(|| recorded(&mut tally, shape, deserializer, frame))
    });
    group.finish();
}

/// The runs of one shape with the recorder installed.
fn with_recorder<T>(
    c: &mut Criterion,
    shape: &str,
    (deserializer, frame): &(Deserializer<T>, Vec<u8>),
) where
    T: AvroSchema + AvroDecode + Send,
{
    let mut group = c.benchmark_group(format!("kafka_metrics/{shape}"));
    group.bench_function("decode/prometheus", |b| {
        b.iter(|| decode(deserializer, frame))
    });
    group.bench_function("recorded/prometheus", |b| {
        let mut tally = ConsumedTally::default();
        b.iter(|| recorded(&mut tally, shape, deserializer, frame))
    });
    group.finish();
}

fn main() {
    let Ok(url) = std::env::var("AVDL2RS_SCHEMA_REGISTRY_URL") else {
        eprintln!("skipped: set AVDL2RS_SCHEMA_REGISTRY_URL (.ci/registry-server) to measure");
        return;
    };
    let orders = setup(
        &url,
        "metrics-order-event",
        &values::order_event(BENCH_SEED),
    );
    let logs = setup(&url, "metrics-log-line", &values::log_line(BENCH_SEED));
    let mut criterion = Criterion::default().configure_from_args();
    unrecorded::<OrderEvent>(&mut criterion, "order_event", &orders);
    unrecorded::<LogLine>(&mut criterion, "log_line", &logs);
    let recorder = PrometheusBuilder::new().build_recorder();
    metrics::set_global_recorder(recorder).expect("the first recorder");
    avdl2rs_kafka::metrics::describe();
    with_recorder::<OrderEvent>(&mut criterion, "order_event", &orders);
    with_recorder::<LogLine>(&mut criterion, "log_line", &logs);
    criterion.final_summary();
}
