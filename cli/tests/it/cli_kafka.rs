//! `avdl2rs kafka produce|consume`, run as processes against the real broker and registry:
//! JSON lines in, framed messages through the topic, JSON lines out in Avro's JSON encoding;
//! messages that cannot be read reported on stderr while consuming goes on; bad input located
//! and refused; a killed group member resuming from its last commit.

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use avdl2rs_kafka::rdkafka::admin::{AdminClient, AdminOptions, NewTopic, TopicReplication};
use avdl2rs_kafka::rdkafka::client::DefaultClientContext;
use avdl2rs_kafka::rdkafka::producer::{BaseProducer, BaseRecord, Producer};
use avdl2rs_kafka::rdkafka::ClientConfig;
use avdl2rs_tests::{external, fresh_name, schema_registry, workspace_root};
use serde_json::{json, Value};

use crate::cli_support::{cli_binary, code, stderr, stdout};

/// The broker and the registry the environment names; the tests that call it are ignored
/// unless asked for, and fail here without them.
fn setup() -> (String, String) {
    let brokers = external(
        "AVDL2RS_KAFKA_BROKERS",
        "a running Kafka broker (.ci/kafka-broker)",
    );
    (brokers, schema_registry())
}

fn command(brokers: &str, url: &str) -> Command {
    let mut command = Command::new(cli_binary());
    command
        .env("AVDL2RS_KAFKA_BROKERS", brokers)
        .env("AVDL2RS_SCHEMA_REGISTRY_URL", url);
    command
}

fn orders_avdl() -> String {
    let path = workspace_root().join("examples/kafka-orders/schemas/v2/orders.avdl");
    path.display().to_string()
}

/// A new topic of one partition.
fn topic(brokers: &str, prefix: &str) -> String {
    let topic = fresh_name(prefix);
    let mut config = ClientConfig::new();
    config.set("bootstrap.servers", brokers);
    let admin: AdminClient<DefaultClientContext> = config.create().unwrap();
    let new = NewTopic::new(&topic, 1, TopicReplication::Fixed(1));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let created = runtime.block_on(admin.create_topics([&new], &AdminOptions::new()));
    for result in created.unwrap() {
        result.unwrap();
    }
    topic
}

/// Sends `payload` to `topic` as it is, with plain rdkafka.
fn send_raw(brokers: &str, topic: &str, payload: &[u8]) {
    let producer: BaseProducer = ClientConfig::new()
        .set("bootstrap.servers", brokers)
        .create()
        .unwrap();
    producer
        .send(BaseRecord::<[u8], [u8]>::to(topic).payload(payload))
        .unwrap();
    producer.flush(Duration::from_secs(30)).unwrap();
}

fn order_line(id: i32, discount: Value) -> String {
    json!({"id": id, "amount": 2.5, "user_id": 7, "currency": "EUR", "discount": discount})
        .to_string()
}

fn produce(brokers: &str, url: &str, topic: &str, lines: &str) -> Output {
    let schema = orders_avdl();
    let args = ["produce", "--topic", topic, "--schema", &schema];
    run(brokers, url, &args, lines)
}

fn run(brokers: &str, url: &str, args: &[&str], stdin: &str) -> Output {
    let mut child = command(brokers, url)
        .args(["kafka", "-X", "session.timeout.ms=6000"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut input, stdin.as_bytes()).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

#[test]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
fn json_lines_go_through_the_topic_and_come_back_in_the_avro_json_encoding() {
    let (brokers, url) = setup();
    let topic = topic(&brokers, "cli-roundtrip");
    let lines = [
        order_line(1, json!({"double": 0.5})),
        order_line(2, Value::Null),
    ]
    .join("\n");
    let out = produce(&brokers, &url, &topic, &lines);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stderr(&out).contains("sent 2 messages"), "{}", stderr(&out));
    // A message that cannot be read, between the good ones: reported, and consuming goes on.
    send_raw(&brokers, &topic, b"not a frame");
    let out = produce(&brokers, &url, &topic, &order_line(3, Value::Null));
    assert_eq!(code(&out), 0, "{}", stderr(&out));

    let args = [
        "consume",
        "--topic",
        &topic,
        "--from-beginning",
        "--count",
        "3",
    ];
    let out = run(&brokers, &url, &args, "");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let printed: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let id = printed[0]["schema_id"].as_i64().unwrap();
    let expected = |offset: i64, line: &str| {
        let value: Value = serde_json::from_str(line).unwrap();
        json!({"topic": topic, "partition": 0, "offset": offset, "schema_id": id, "key": null,
            "value": value})
    };
    assert_eq!(
        printed,
        [
            expected(0, &order_line(1, json!({"double": 0.5}))),
            expected(1, &order_line(2, Value::Null)),
            expected(3, &order_line(3, Value::Null)),
        ]
    );
    let errors = stderr(&out);
    assert!(
        errors.contains("partition 0 offset 2") && errors.contains("magic byte"),
        "{errors}"
    );
}

#[test]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
fn a_line_that_does_not_fit_the_schema_stops_with_its_place() {
    let (brokers, url) = setup();
    let topic = topic(&brokers, "cli-bad-line");
    let bad = r#"{"id": 2, "amount": "much", "user_id": 7}"#;
    let lines = [order_line(1, Value::Null), bad.to_owned()].join("\n");
    let out = produce(&brokers, &url, &topic, &lines);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let errors = stderr(&out);
    assert!(
        errors.contains("<stdin>:2") && errors.contains("/amount"),
        "{errors}"
    );
    let out = produce(&brokers, &url, &topic, "{not json");
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("<stdin>:1: not JSON"),
        "{}",
        stderr(&out)
    );
}

#[test]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
fn looking_up_a_schema_not_registered_is_refused() {
    let (brokers, url) = setup();
    let topic = topic(&brokers, "cli-lookup");
    let schema = orders_avdl();
    let args = [
        "produce",
        "--topic",
        &topic,
        "--schema",
        &schema,
        "--no-register",
    ];
    let out = run(&brokers, &url, &args, &order_line(1, Value::Null));
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("{topic}-value")),
        "{}",
        stderr(&out)
    );
}

#[test]
fn without_brokers_it_cannot_run() {
    let out = Command::new(cli_binary())
        .args([
            "kafka",
            "consume",
            "--topic",
            "t",
            "--url",
            "http://127.0.0.1:9",
        ])
        .env_remove("AVDL2RS_KAFKA_BROKERS")
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("AVDL2RS_KAFKA_BROKERS"),
        "{}",
        stderr(&out)
    );
}

#[test]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
fn a_killed_group_member_resumes_from_its_last_commit() {
    let (brokers, url) = setup();
    let topic = topic(&brokers, "cli-kill");
    let lines: Vec<String> = (0..2_000).map(|id| order_line(id, Value::Null)).collect();
    let out = produce(&brokers, &url, &topic, &lines.join("\n"));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let group = fresh_name("cli-group");
    let consume = |count: &'static str| {
        let mut command = command(&brokers, &url);
        command.args(["kafka", "-X", "session.timeout.ms=6000"]);
        command.args([
            "-X",
            "auto.commit.interval.ms=100",
            "consume",
            "--topic",
            &topic,
        ]);
        command.args(["--group", &group, "--from-beginning", "--count", count]);
        command
    };
    let offset = |line: &str| serde_json::from_str::<Value>(line).unwrap()["offset"].as_i64();

    // The first member prints until the pipe nobody reads is full, has what it printed
    // committed, and is killed.
    let mut first = consume("2000")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut printed = BufReader::new(first.stdout.take().unwrap()).lines();
    let line = printed.next().unwrap().unwrap();
    assert_eq!(offset(&line), Some(0));
    std::thread::sleep(Duration::from_secs(1));
    first.kill().unwrap();
    first.wait().unwrap();
    let mut seen: Vec<i64> = printed.map(|l| offset(&l.unwrap()).unwrap()).collect();
    let last_printed = *seen.last().unwrap();
    assert!(
        last_printed < 1_999,
        "the first member was stopped by the full pipe"
    );

    // The second resumes where the commit was: it does not start over, and skips nothing
    // (what the first printed after its last commit comes again: at least once).
    let out = consume("100").output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let again: Vec<i64> = stdout(&out).lines().map(|l| offset(l).unwrap()).collect();
    let resumed = again[0];
    assert!(resumed > 0, "resumed from a commit, not from the start");
    assert!(
        resumed <= last_printed + 1,
        "resumed at {resumed}, after {last_printed}"
    );
    seen.insert(0, 0);
    seen.extend(&again);
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen, (0..=again[99]).collect::<Vec<_>>());
}
