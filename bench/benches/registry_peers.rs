//! The per-message cost of framing through a Schema Registry with warm caches: this
//! workspace's registry-backed `Serializer` / `Deserializer` (async and blocking) against
//! `schema_registry_converter`'s async `EasyAvroEncoder` / `EasyAvroDecoder` and
//! `schema-registry-client`'s async `AvroSerializer` / `AvroDeserializer`, on OrderEvent and
//! LogLine, against the same registry in the same run; then Python `confluent-kafka`'s
//! `AvroSerializer` / `AvroDeserializer` on the same values (`registry_peers.py`, beside this
//! file).
//!
//! Run it as `.ci/registry-server cargo bench -p avdl2rs-bench --bench registry_peers`, which
//! starts a registry and names it in `AVDL2RS_SCHEMA_REGISTRY_URL` (and the venv's python in
//! `AVDL2RS_REGISTRY_PYTHON`). Without the variable the benchmark says so and measures
//! nothing, so that `cargo bench --no-run` and a plain `cargo bench` still pass. The Python
//! loops run after criterion's, whatever criterion's filter.
//!
//! With `--count ID COUNT` instead of criterion's arguments, the binary repeats the one
//! operation criterion reports as `ID` (`peers/order_event/encode/avdl2rs_async_serialize`)
//! `COUNT` times, for counting its instructions under
//! `valgrind --tool=callgrind --toggle-collect='registry_peers::timed*'`: only the timed loops
//! are counted, so the total over `COUNT` is one operation, set-up and warm-up left out.
//!
//! What is timed, so that every implementation does the work a user of it pays per message:
//!
//! * Before any timing, each serializer frames the sample value once (ours registers its
//!   schema, the converter and schema-registry-client look the subject's latest version up,
//!   which is that schema), each deserializer reads that
//!   frame once, and the frames and values are checked equal: all caches are warm and all
//!   write the same bytes under the same id.
//! * Encode, ours: `serialize` (a new `Vec` per message, as the peers return) and
//!   `serialize_into` (a reused buffer, as a producer that copies the payload can use).
//! * Encode, the converter: `encode_struct` takes any serde `Serialize` value and converts it
//!   with apache-avro's schema-aware serializer inside the call, so that conversion of the
//!   same Rust struct is timed, as its user pays it. `encode_value` takes apache-avro's
//!   `Value` by value: the `Value` is converted from the struct once, outside the timed loop,
//!   and cloned for each call in untimed batches, so only the encoding of a ready `Value` is
//!   timed.
//! * Encode, schema-registry-client: the same two, on apache-avro 0.21, the version it is
//!   built on: `serialize_ser` converts the serde struct to a `Value` inside the call
//!   (timed), `serialize` takes a ready `Value` by value (cloned in untimed batches). Its
//!   serdes are given the topic-name strategy of the other rows rather than their default,
//!   `Associated`, which asks the registry which subject a topic is associated with and
//!   copies the topic and the schema text into a cache key on every call; its serializer
//!   writes with the subject's latest version (cached) rather than auto-registering, its
//!   default, which in 0.4.2 sends the registration to the registry for every message (its
//!   cache of registrations is checked but never filled): that would time the registry.
//! * Decode, ours: `deserialize` into the generated type. The peers: into their `Value`
//!   (the converter's `decode`, schema-registry-client's `deserialize`), and followed by
//!   `from_value` into the same serde struct, since neither API offers a typed decode and
//!   that is how a user gets one.
//! * The async calls are awaited one after another inside one `block_on` of a
//!   current-thread tokio runtime, as a task awaiting them in turn pays them; the operations
//!   are async closures, so that one reusing a buffer can lend it to each call's future.
//!   Outputs are dropped inside the timed loop for every implementation.

use std::fmt::Debug;
use std::hint::black_box;
use std::io::Write;
use std::process::{Command, ExitCode, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use avdl2rs::{AvroDecode, AvroEncode, AvroSchema};
use avdl2rs_bench::shapes::{LogLine, OrderEvent};
use avdl2rs_bench::values::{self, BENCH_SEED};
use avdl2rs_registry::{blocking, nonblocking, ClientConfig, SerializerConfig};
use criterion::Criterion;
use schema_registry_client::rest::client_config::ClientConfig as PeerClientConfig;
use schema_registry_client::rest::models::Schema as PeerSchema;
use schema_registry_client::rest::schema_registry_client::{Client as _, SchemaRegistryClient};
use schema_registry_client::serdes::avro::{AvroDeserializer, AvroSerializer};
use schema_registry_client::serdes::config::{
    DeserializerConfig, SchemaSelector, SerializerConfig as PeerSerializerConfig,
};
use schema_registry_client::serdes::serde::{
    SerdeFormat, SerdeType, SerializationContext, SubjectNameStrategyType,
};
use schema_registry_converter::async_impl::easy_avro::{EasyAvroDecoder, EasyAvroEncoder};
use schema_registry_converter::async_impl::schema_registry::SrSettings;
use schema_registry_converter::schema_registry_common::SubjectNameStrategy;
use serde::de::DeserializeOwned;
use serde::Serialize;
use tokio::runtime::Runtime;

/// What a benchmarked shape needs: our codec traits and the serde ones the peers use.
trait Message:
    AvroSchema + AvroEncode + AvroDecode + Serialize + DeserializeOwned + PartialEq + Debug
{
}

impl<T> Message for T where
    T: AvroSchema + AvroEncode + AvroDecode + Serialize + DeserializeOwned + PartialEq + Debug
{
}

/// Every serializer and deserializer under test, with warm caches, and the frame they agree on.
struct Setup<T> {
    topic: String,
    value: T,
    frame: Vec<u8>,
    ours_async: (nonblocking::Serializer<T>, nonblocking::Deserializer<T>),
    ours_blocking: (blocking::Serializer<T>, blocking::Deserializer<T>),
    encoder: EasyAvroEncoder,
    decoder: EasyAvroDecoder,
    strategy: SubjectNameStrategy,
    client: ClientPeer,
}

/// schema-registry-client's serializer and deserializer of one topic, and the context
/// (topic, value side) every call of theirs is given.
struct ClientPeer {
    serializer: AvroSerializer<'static, SchemaRegistryClient>,
    deserializer: AvroDeserializer<'static, SchemaRegistryClient>,
    context: SerializationContext,
}

impl ClientPeer {
    /// The serdes of `topic` over their own client, writing with the subject's latest version
    /// (registered by ours before, `schema_json`), as the converter does, under the
    /// topic-name strategy the other peers use. Not auto-registering, its default: in 0.4.2
    /// the client's `register_schema` checks a cache it never fills, so every message would
    /// be a request to the registry; nor looking `schema_json` up, which rivven-schema
    /// refuses (405). The client and schema live as long as the benchmark: the serdes
    /// borrow them.
    fn new(url: &str, topic: &str, schema_json: &str) -> Self {
        let client: &'static SchemaRegistryClient = Box::leak(Box::new(SchemaRegistryClient::new(
            PeerClientConfig::new(vec![url.to_owned()]),
        )));
        let schema: &'static PeerSchema = Box::leak(Box::new(PeerSchema::new(
            Some("AVRO".to_owned()),
            schema_json.to_owned(),
        )));
        let strategy = SubjectNameStrategyType::Topic;
        let serializer_config = PeerSerializerConfig {
            auto_register_schemas: false,
            use_schema: Some(SchemaSelector::LatestVersion),
            subject_name_strategy_type: strategy,
            ..PeerSerializerConfig::default()
        };
        let deserializer_config = DeserializerConfig {
            subject_name_strategy_type: strategy,
            ..DeserializerConfig::default()
        };
        ClientPeer {
            serializer: AvroSerializer::new(client, Some(schema), None, serializer_config)
                .expect("a serializer"),
            deserializer: AvroDeserializer::new(client, None, deserializer_config)
                .expect("a deserializer"),
            context: SerializationContext {
                topic: topic.to_owned(),
                serde_type: SerdeType::Value,
                serde_format: SerdeFormat::Avro,
                headers: None,
            },
        }
    }

    /// Checks that both ways of serializing write `frame` and that it reads back as `value`,
    /// warming the caches.
    async fn check<T: Message>(&self, value: &T, frame: &[u8]) {
        let ctx = &self.context;
        let written = self.serializer.serialize_ser(ctx, value).await.unwrap();
        assert_eq!(written, frame, "serialize_ser writes another frame");
        let avro_value = apache_avro_0_21::to_value(value).unwrap();
        let written = self.serializer.serialize(ctx, avro_value).await.unwrap();
        assert_eq!(written, frame, "serialize writes another frame");
        let read = self.deserializer.deserialize(ctx, frame).await.unwrap();
        assert_eq!(
            apache_avro_0_21::from_value::<T>(&read.value).unwrap(),
            *value
        );
    }
}

/// Builds the serializers of `value`'s type on `topic`, warms their caches with one message
/// each, and checks that they all write and read the same thing.
fn setup<T: Message>(rt: &Runtime, url: &str, topic: &str, value: T) -> Setup<T> {
    let config = || ClientConfig::new(url);
    let async_client = Arc::new(nonblocking::Client::new(config()).expect("async client"));
    let ours_async = (
        nonblocking::Serializer::new(Arc::clone(&async_client), SerializerConfig::default()),
        nonblocking::Deserializer::new(async_client),
    );
    let blocking_client = Arc::new(blocking::Client::new(config()).expect("blocking client"));
    let ours_blocking = (
        blocking::Serializer::new(Arc::clone(&blocking_client), SerializerConfig::default()),
        blocking::Deserializer::new(blocking_client),
    );
    let settings = SrSettings::new(url.to_owned());
    let encoder = EasyAvroEncoder::new(settings.clone());
    let decoder = EasyAvroDecoder::new(settings);
    let strategy = SubjectNameStrategy::TopicNameStrategy(topic.to_owned(), false);

    let frame = rt
        .block_on(ours_async.0.serialize(topic, &value))
        .expect("registers and frames");
    let same = |what: &str, other: &[u8]| assert_eq!(other, frame, "{what} writes another frame");
    same(
        "blocking",
        &ours_blocking.0.serialize(topic, &value).unwrap(),
    );
    rt.block_on(async {
        same(
            "encode_struct",
            &encoder.encode_struct(&value, &strategy).await.unwrap(),
        );
        let avro_value = apache_avro::to_value(&value).unwrap();
        same(
            "encode_value",
            &encoder.encode_value(avro_value, &strategy).await.unwrap(),
        );
        let decoded = decoder.decode(Some(&frame)).await.unwrap().value;
        assert_eq!(apache_avro::from_value::<T>(&decoded).unwrap(), value);
        assert_eq!(ours_async.1.deserialize(&frame).await.unwrap(), value);
    });
    let client = ClientPeer::new(url, topic, T::SCHEMA_JSON);
    rt.block_on(client.check(&value, &frame));
    assert_eq!(ours_blocking.1.deserialize(&frame).unwrap(), value);
    Setup {
        topic: topic.to_owned(),
        value,
        frame,
        ours_async,
        ours_blocking,
        encoder,
        decoder,
        strategy,
        client,
    }
}

/// The operations named in `--count ID COUNT` are those criterion reports, `group/name`.
fn id(group: &str, name: &str) -> String {
    format!("{group}/{name}")
}

/// How the operations are run.
enum Mode<'c> {
    /// Timed by criterion.
    Criterion(&'c mut Criterion),
    /// The operation `id` repeated `count` times, for counting its instructions
    /// (`--count ID COUNT`); `found` says whether there is one of that id.
    Count { id: String, count: u64, found: bool },
}

/// Runs each operation in the current [`Mode`], the async ones on `rt`.
struct Runner<'c, 'r> {
    mode: Mode<'c>,
    rt: &'r Runtime,
}

impl Runner<'_, '_> {
    /// Runs `timed`, which does `n` operations and answers the time they took.
    fn run(&mut self, group: &str, name: &str, mut timed: impl FnMut(&Runtime, u64) -> Duration) {
        let rt = self.rt;
        match &mut self.mode {
            Mode::Criterion(c) => {
                c.benchmark_group(group)
                    .bench_function(name, |b| b.iter_custom(|n| timed(rt, n)));
            }
            Mode::Count {
                id: wanted,
                count,
                found,
            } => {
                if *wanted == id(group, name) {
                    timed(rt, *count);
                    *found = true;
                }
            }
        }
    }

    /// A blocking call.
    fn blocking<O>(&mut self, group: &str, name: &str, mut op: impl FnMut() -> O) {
        self.run(group, name, |_, n| timed_blocking(n, &mut op));
    }

    /// An async call, awaited.
    fn awaited<O>(&mut self, group: &str, name: &str, mut op: impl AsyncFnMut() -> O) {
        self.run(group, name, |rt, n| timed_awaited(rt, n, &mut op));
    }

    /// An async call that consumes an input, made by `setup` outside the timed loop.
    fn batched<I, O>(
        &mut self,
        group: &str,
        name: &str,
        mut setup: impl FnMut() -> I,
        mut op: impl AsyncFnMut(I) -> O,
    ) {
        self.run(group, name, |rt, n| {
            let mut took = Duration::ZERO;
            let mut left = n;
            while left > 0 {
                let batch = left.min(BATCH);
                let inputs = (0..batch).map(|_| setup()).collect();
                took += timed_inputs(rt, inputs, &mut op);
                left -= batch;
            }
            took
        });
    }
}

/// The inputs of [`Runner::batched`] made at a time: few enough to stay in the caches.
const BATCH: u64 = 1_000;

// The timed loops: not inlined, so that `valgrind --tool=callgrind
// --toggle-collect='registry_peers::timed*'` counts exactly what criterion times. The async
// ones await the calls in turn inside one `block_on` of the current-thread runtime, as a task
// awaiting them pays them. Every output is dropped inside the loop.

#[inline(never)]
fn timed_blocking<O>(n: u64, op: &mut impl FnMut() -> O) -> Duration {
    let started = Instant::now();
    for _ in 0..n {
        black_box(op());
    }
    started.elapsed()
}

#[inline(never)]
fn timed_awaited<O>(rt: &Runtime, n: u64, op: &mut impl AsyncFnMut() -> O) -> Duration {
    rt.block_on(async {
        let started = Instant::now();
        for _ in 0..n {
            black_box(op().await);
        }
        started.elapsed()
    })
}

#[inline(never)]
fn timed_inputs<I, O>(rt: &Runtime, inputs: Vec<I>, op: &mut impl AsyncFnMut(I) -> O) -> Duration {
    rt.block_on(async {
        let started = Instant::now();
        for input in inputs {
            black_box(op(input).await);
        }
        started.elapsed()
    })
}

fn encode<T: Message>(runner: &mut Runner, name: &str, s: &Setup<T>) {
    let group = &format!("peers/{name}/encode");
    let (topic, value) = (s.topic.as_str(), &s.value);
    let serializer = &s.ours_async.0;
    runner.awaited(group, "avdl2rs_async_serialize", async || {
        serializer.serialize(topic, black_box(value)).await.unwrap()
    });
    let mut out = Vec::new();
    runner.awaited(group, "avdl2rs_async_serialize_into", async || {
        serializer
            .serialize_into(topic, black_box(value), &mut out)
            .await
            .unwrap();
        black_box(&out);
    });
    let serializer = &s.ours_blocking.0;
    runner.blocking(group, "avdl2rs_blocking_serialize", || {
        serializer.serialize(topic, black_box(value)).unwrap()
    });
    runner.blocking(group, "avdl2rs_blocking_serialize_into", || {
        serializer
            .serialize_into(topic, black_box(value), &mut out)
            .unwrap();
        black_box(&out);
    });
    let (encoder, strategy) = (&s.encoder, &s.strategy);
    runner.awaited(group, "converter_encode_struct", async || {
        encoder
            .encode_struct(black_box(value), strategy)
            .await
            .unwrap()
    });
    let avro_value = apache_avro::to_value(value).unwrap();
    runner.batched(
        group,
        "converter_encode_value",
        || avro_value.clone(),
        async |v| encoder.encode_value(v, strategy).await.unwrap(),
    );
    let (serializer, ctx) = (&s.client.serializer, &s.client.context);
    runner.awaited(group, "client_serialize_ser", async || {
        serializer
            .serialize_ser(ctx, black_box(value))
            .await
            .unwrap()
    });
    let avro_value = apache_avro_0_21::to_value(value).unwrap();
    runner.batched(
        group,
        "client_serialize",
        || avro_value.clone(),
        async |v| serializer.serialize(ctx, v).await.unwrap(),
    );
}

fn decode<T: Message>(runner: &mut Runner, name: &str, s: &Setup<T>) {
    let group = &format!("peers/{name}/decode");
    let frame = s.frame.as_slice();
    let deserializer = &s.ours_async.1;
    runner.awaited(group, "avdl2rs_async_deserialize", async || {
        deserializer.deserialize(black_box(frame)).await.unwrap()
    });
    let deserializer = &s.ours_blocking.1;
    runner.blocking(group, "avdl2rs_blocking_deserialize", || {
        deserializer.deserialize(black_box(frame)).unwrap()
    });
    let decoder = &s.decoder;
    runner.awaited(group, "converter_decode_value", async || {
        decoder.decode(Some(black_box(frame))).await.unwrap()
    });
    runner.awaited(group, "converter_decode_from_value", async || {
        let decoded = decoder.decode(Some(black_box(frame))).await.unwrap();
        apache_avro::from_value::<T>(&decoded.value).unwrap()
    });
    let (deserializer, ctx) = (&s.client.deserializer, &s.client.context);
    runner.awaited(group, "client_deserialize", async || {
        deserializer
            .deserialize(ctx, black_box(frame))
            .await
            .unwrap()
    });
    runner.awaited(group, "client_deserialize_from_value", async || {
        let read = deserializer
            .deserialize(ctx, black_box(frame))
            .await
            .unwrap();
        apache_avro_0_21::from_value::<T>(&read.value).unwrap()
    });
}

/// What `registry_peers.py` is given of one shape: where to write, the schema our serializer
/// registered, the value as JSON and the frame it must write and read back.
fn python_case<T: Message>(name: &str, s: &Setup<T>) -> serde_json::Value {
    serde_json::json!({
        "name": name,
        "topic": s.topic,
        "schema": T::SCHEMA_JSON,
        "value": s.value,
        "frame": s.frame,
    })
}

/// Runs `registry_peers.py` with `python` on the same registry and values; it prints its
/// own ns/message lines.
fn python(python: &str, url: &str, cases: &serde_json::Value) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/registry_peers.py");
    let mut child = Command::new(python)
        .args([script, url])
        .stdin(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
    let mut stdin = child.stdin.take().expect("piped");
    stdin
        .write_all(cases.to_string().as_bytes())
        .expect("python reads the cases");
    drop(stdin);
    let status = child.wait().expect("python runs");
    assert!(status.success(), "{script} failed: {status}");
}

fn main() -> ExitCode {
    let Ok(url) = std::env::var("AVDL2RS_SCHEMA_REGISTRY_URL") else {
        println!(
            "skipped: set AVDL2RS_SCHEMA_REGISTRY_URL \
             (.ci/registry-server cargo bench -p avdl2rs-bench --bench registry_peers)"
        );
        return ExitCode::SUCCESS;
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let order = setup(
        &rt,
        &url,
        "peers-order-event",
        values::order_event(BENCH_SEED),
    );
    let log = setup(&rt, &url, "peers-log-line", values::log_line(BENCH_SEED));
    let all = |runner: &mut Runner| {
        encode::<OrderEvent>(runner, "order_event", &order);
        decode::<OrderEvent>(runner, "order_event", &order);
        encode::<LogLine>(runner, "log_line", &log);
        decode::<LogLine>(runner, "log_line", &log);
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, id, count] = args.as_slice() {
        if flag == "--count" {
            let Ok(count) = count.parse() else {
                eprintln!("registry_peers: COUNT must be a number, not {count:?}");
                return ExitCode::FAILURE;
            };
            let id = id.clone();
            let mode = Mode::Count {
                id,
                count,
                found: false,
            };
            let mut runner = Runner { mode, rt: &rt };
            all(&mut runner);
            let Mode::Count { id, found, .. } = runner.mode else {
                unreachable!("the mode stays the same")
            };
            if !found {
                eprintln!("registry_peers: no operation {id}");
                return ExitCode::FAILURE;
            }
            return ExitCode::SUCCESS;
        }
    }
    let mut criterion = Criterion::default().configure_from_args();
    all(&mut Runner {
        mode: Mode::Criterion(&mut criterion),
        rt: &rt,
    });
    criterion.final_summary();
    match std::env::var("AVDL2RS_REGISTRY_PYTHON") {
        Ok(interpreter) => {
            let cases = serde_json::json!([
                python_case("order_event", &order),
                python_case("log_line", &log),
            ]);
            python(&interpreter, &url, &cases);
        }
        Err(_) => println!("python skipped: set AVDL2RS_REGISTRY_PYTHON (.ci/registry-server)"),
    }
    ExitCode::SUCCESS
}
