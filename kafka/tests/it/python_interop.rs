//! Interop with Python `confluent-kafka` through the broker and the registry: Python
//! produces both versions of the order event and our consumers read them into either
//! version's type; we produce and Python's consumer reads the same values.

use std::process::Command;

use avdl2rs::AvroSchema;
use avdl2rs_kafka::{Header, SendOptions};
use avdl2rs_tests::{external, fresh_name};
use kafka_orders::{v1, v2};
use serde_json::{json, Value};

use crate::roundtrip::order;
use crate::support::{env, receive, records, Env};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/kafka_interop.py");

pub fn python(env: &Env, args: &[&str]) -> String {
    let python = external(
        "AVDL2RS_REGISTRY_PYTHON",
        "a python with confluent-kafka (.ci/registry-server makes one)",
    );
    let out = Command::new(python)
        .arg(SCRIPT)
        .args([args[0], &env.brokers, &env.registry_url])
        .args(&args[1..])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "python {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker, a Schema Registry and Python confluent-kafka (.ci/kafka-broker, .ci/registry-server)"]
async fn python_writes_both_versions_and_we_read_them_as_either() {
    let env = env();
    let topic = env.topic("from-python", 3).await;
    let old =
        json!([{"id": 0, "amount": 1.5, "user_id": 9}, {"id": 1, "amount": 2.5, "user_id": 9}]);
    let new = json!([
        {"id": 2, "amount": 3.5, "user_id": 9, "currency": "EUR", "discount": 0.5},
        {"id": 3, "amount": 4.5, "user_id": 9, "currency": "USD", "discount": null}
    ]);
    python(
        &env,
        &[
            "produce",
            &topic,
            v1::OrderEvent::SCHEMA_JSON,
            &old.to_string(),
        ],
    );
    python(
        &env,
        &[
            "produce",
            &topic,
            v2::OrderEvent::SCHEMA_JSON,
            &new.to_string(),
        ],
    );

    let mut read_v2 = read::<v2::OrderEvent>(&env, &topic).await;
    read_v2.sort_by_key(|o| o.id);
    let as_v2 = |id: i32, currency: &str, discount| v2::OrderEvent {
        id,
        amount: f64::from(id) + 1.5,
        user_id: 9,
        currency: currency.into(),
        discount,
    };
    let expected = [
        as_v2(0, "CNY", None),
        as_v2(1, "CNY", None),
        as_v2(2, "EUR", Some(0.5)),
        as_v2(3, "USD", None),
    ];
    assert_eq!(read_v2, expected);
    let mut read_v1 = read::<v1::OrderEvent>(&env, &topic).await;
    read_v1.sort_by_key(|o| o.id);
    let as_v1 = |id: i32| v1::OrderEvent {
        id,
        amount: f64::from(id) + 1.5,
        user_id: 9,
    };
    assert_eq!(read_v1, (0..4).map(as_v1).collect::<Vec<_>>());
}

/// The four values on `topic`, read as `T` by a new group, each with Python's header.
async fn read<T: AvroSchema + avdl2rs::AvroDecode + Send>(env: &Env, topic: &str) -> Vec<T> {
    let consumer = env.text_consumer::<T>(topic);
    let read = records(receive(&consumer, 4).await);
    for record in &read {
        assert_eq!(record.headers, [Header::new("from", "python")]);
    }
    read.into_iter().map(|r| r.value.unwrap()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker, a Schema Registry and Python confluent-kafka (.ci/kafka-broker, .ci/registry-server)"]
async fn we_write_and_python_reads_the_same_values_and_headers() {
    let env = env();
    let topic = env.topic("to-python", 2).await;
    let producer = env.text_producer::<v2::OrderEvent>();
    for id in 0..6 {
        let options = SendOptions::new().header("from", "rust").partition(id % 2);
        producer
            .send_with(&topic, Some(&id.to_string()), &order(id), options)
            .await
            .unwrap();
    }
    let group = fresh_name("py");
    let out = python(&env, &["consume", &topic, &group, "6"]);
    let mut seen: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    seen.sort_by_key(|m| m["key"].as_str().unwrap().parse::<i32>().unwrap());
    for (id, message) in (0..).zip(&seen) {
        let o = order(id);
        let expected = json!({"id": o.id, "amount": o.amount, "user_id": o.user_id,
            "currency": o.currency, "discount": o.discount});
        assert_eq!(message["value"], expected);
        assert_eq!(message["headers"], json!({"from": "rust"}));
        assert_eq!(message["partition"], json!(id % 2));
    }
    assert_eq!(seen.len(), 6);
}
