//! Schema changes rolled out through the broker, checked value by value: a consumer reads
//! every version on its topic into its own type, with defaults for fields its writer did not
//! have and without the fields it does not know.

use avdl2rs::compat::CompatLevel;
use avdl2rs::{AvroDecode, AvroEncode, AvroSchema};
use avdl2rs_kafka::{Part, SendError};
use avdl2rs_registry::Schema;

use crate::support::{env, receive, records, Env};

/// A log line as the first release wrote it.
mod log_v1 {
    #[derive(avdl2rs::Avro, Debug, Clone, PartialEq)]
    #[avro(namespace = "com.example.logs")]
    pub struct LogLine {
        pub timestamp: i64,
        pub level: String,
        #[avro(rename = "sessionId")]
        pub session_id: Option<String>,
    }
}

/// The second release: a message, with a default, and no session.
mod log_v2 {
    #[derive(avdl2rs::Avro, Debug, Clone, PartialEq)]
    #[avro(namespace = "com.example.logs")]
    pub struct LogLine {
        pub timestamp: i64,
        pub level: String,
        #[avro(default = "")]
        pub message: String,
    }
}

/// A third release that turns the level into a number: no reader of the others can read it.
mod log_v3 {
    #[derive(avdl2rs::Avro, Debug, Clone, PartialEq)]
    #[avro(namespace = "com.example.logs")]
    pub struct LogLine {
        pub timestamp: i64,
        pub level: i32,
    }
}

fn old_line(n: i64) -> log_v1::LogLine {
    log_v1::LogLine {
        timestamp: 1_000 + n,
        level: "INFO".into(),
        session_id: Some(format!("s-{n}")),
    }
}

fn new_line(n: i64) -> log_v2::LogLine {
    log_v2::LogLine {
        timestamp: 1_000 + n,
        level: "WARN".into(),
        message: format!("m-{n}"),
    }
}

/// Sends `values` to `topic`, keyed by their position (`pos-<n>`), auto-registering.
async fn write<T: AvroSchema + AvroEncode + Sync>(env: &Env, topic: &str, values: &[(i64, T)]) {
    let producer = env.text_producer::<T>();
    for (n, v) in values {
        producer
            .send(topic, &format!("pos-{n:03}"), v)
            .await
            .unwrap();
    }
}

/// The first `count` values of `topic` read as `T` by a new group, by key.
async fn read<T: AvroSchema + AvroDecode + Send>(env: &Env, topic: &str, count: usize) -> Vec<T> {
    let consumer = env.text_consumer::<T>(topic);
    let mut read = records(receive(&consumer, count).await);
    read.sort_by(|a, b| a.key.cmp(&b.key));
    read.into_iter().map(|r| r.value.unwrap()).collect()
}

async fn full_subject(env: &Env, topic: &str) {
    let subject = format!("{topic}-value");
    let registry = env.registry();
    let level = registry.set_config(Some(&subject), CompatLevel::Full).await;
    assert_eq!(level.unwrap(), CompatLevel::Full);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
async fn log_lines_consumer_first_read_old_data_with_the_new_default() {
    let env = env();
    let topic = env.topic("log-backward", 1).await;
    full_subject(&env, &topic).await;
    write(&env, &topic, &[(0, old_line(0)), (1, old_line(1))]).await;
    let defaulted = |n: i64| log_v2::LogLine {
        timestamp: 1_000 + n,
        level: "INFO".into(),
        message: String::new(),
    };
    let expected = [defaulted(0), defaulted(1)];
    assert_eq!(read::<log_v2::LogLine>(&env, &topic, 2).await, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
async fn log_lines_producer_first_old_consumers_read_new_data_without_the_dropped_field() {
    let env = env();
    let topic = env.topic("log-forward", 1).await;
    full_subject(&env, &topic).await;
    // The old schema is registered first, as the first release did.
    write(&env, &topic, &[(0, old_line(0))]).await;
    write(&env, &topic, &[(1, new_line(1)), (2, new_line(2))]).await;
    let read = read::<log_v1::LogLine>(&env, &topic, 3).await;
    let dropped = |n| log_v1::LogLine {
        level: "WARN".into(),
        session_id: None,
        ..old_line(n)
    };
    assert_eq!(read, [old_line(0), dropped(1), dropped(2)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
async fn orders_of_both_versions_mixed_on_one_topic_read_by_both_versions() {
    use kafka_orders::{v1, v2};
    let env = env();
    let topic = env.topic("orders-full", 2).await;
    full_subject(&env, &topic).await;
    let old = |id| v1::OrderEvent {
        id,
        amount: f64::from(id) / 4.0,
        user_id: 3,
    };
    let new = |id| v2::OrderEvent {
        id,
        amount: f64::from(id) / 4.0,
        user_id: 3,
        currency: "EUR".into(),
        discount: Some(0.25),
    };
    let mut olds = Vec::new();
    let mut news = Vec::new();
    for id in 0..20 {
        if id % 2 == 0 {
            olds.push((i64::from(id), old(id)));
        } else {
            news.push((i64::from(id), new(id)));
        }
    }
    write(&env, &topic, &olds).await;
    write(&env, &topic, &news).await;

    let as_v1 = read::<v1::OrderEvent>(&env, &topic, 20).await;
    assert_eq!(as_v1, (0..20).map(old).collect::<Vec<_>>());
    let as_v2 = read::<v2::OrderEvent>(&env, &topic, 20).await;
    let expected: Vec<_> = (0..20)
        .map(|id| match id % 2 {
            0 => v2::OrderEvent {
                currency: "CNY".into(),
                discount: None,
                ..new(id)
            },
            _ => new(id),
        })
        .collect();
    assert_eq!(as_v2, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
async fn an_incompatible_change_is_refused_by_the_registry_and_by_the_consumer() {
    let env = env();
    let topic = env.topic("log-incompatible", 1).await;
    full_subject(&env, &topic).await;
    write(&env, &topic, &[(0, old_line(0))]).await;

    // The registry refuses to register the third release under the FULL subject ...
    let producer = env.text_producer::<log_v3::LogLine>();
    let line = log_v3::LogLine {
        timestamp: 1,
        level: 3,
    };
    let refused = producer.send(&topic, "pos-001", &line).await.unwrap_err();
    let SendError::Encode { part, source } = &refused else {
        panic!("{refused}")
    };
    assert_eq!(*part, Part::Value);
    assert!(source.to_string().contains("409"), "{source}");

    // ... and a frame written under it anyway (another subject let it in) is poison for
    // readers of the earlier releases, which name why.
    let registry = env.registry();
    let schema = Schema::avro(log_v3::LogLine::SCHEMA_JSON);
    let id = registry
        .register(&format!("{topic}-elsewhere"), &schema, false)
        .await
        .unwrap();
    let mut frame = Vec::new();
    avdl2rs::wire::write_confluent_header(&mut frame, id);
    line.encode(&mut frame).unwrap();
    let raw: avdl2rs_kafka::rdkafka::producer::FutureProducer = env.kafka().create().unwrap();
    let record = avdl2rs_kafka::rdkafka::producer::FutureRecord::to(&topic)
        .key("pos-001")
        .payload(&frame);
    raw.send(record, None).await.unwrap();

    let consumer = env.text_consumer::<log_v2::LogLine>(&topic);
    let mut received = receive(&consumer, 2).await.into_iter();
    assert!(received.next().unwrap().is_ok());
    let poison = received.next().unwrap().unwrap_err();
    assert_eq!(poison.reason.kind(), "refused");
    assert_eq!(poison.reason.schema_id(), Some(id));
    let reason = poison.reason.to_string();
    assert!(reason.contains("level"), "names the field: {reason}");
}
