//! `avdl2rs kafka produce|consume`, run as processes against the real broker and registry:
//! JSON lines in, framed messages through the topic, JSON lines out in Avro's JSON encoding;
//! messages that cannot be read reported on stderr while consuming goes on; bad input located
//! and refused, with nothing sent; keys and headers as Python confluent-kafka reads them; a
//! killed group member resuming from its last commit. Without a broker (a port where nothing
//! listens) both commands end within `--timeout` with one line, and `--dry-run` needs neither.

use std::io::{BufRead, BufReader, ErrorKind};
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

/// A 127.0.0.1 address where nothing listens.
fn dead_broker() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    drop(listener);
    address
}

/// Runs `kafka ARGS` against `brokers` with a 3 s timeout, and answers how long it took.
fn timed(brokers: &str, args: &[&str]) -> (Output, Duration) {
    let started = std::time::Instant::now();
    let out = command(brokers, "http://127.0.0.1:9")
        .args(["kafka", "--timeout", "3s"])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (out, started.elapsed())
}

/// Exit 2 after the timeout (3 s) and well before a generous bound, with one line naming the
/// brokers and nothing else.
fn assert_ends_naming(out: &Output, took: Duration, brokers: &str) {
    assert_eq!(code(out), 2, "{}", stderr(out));
    assert!(
        took >= Duration::from_millis(2_500) && took < Duration::from_secs(15),
        "took {took:?}"
    );
    let errors = stderr(out);
    assert_eq!(errors.lines().count(), 1, "{errors}");
    assert!(
        errors.contains(brokers) && errors.contains("within 3s"),
        "{errors}"
    );
    assert_eq!(stdout(out), "");
}

#[test]
fn consume_without_a_broker_ends_within_its_timeout_with_one_line() {
    let brokers = dead_broker();
    let (out, took) = timed(&brokers, &["consume", "--topic", "t", "--from-beginning"]);
    assert_ends_naming(&out, took, &brokers);
}

#[test]
fn produce_without_a_broker_ends_within_its_timeout_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let (schema, _) = reading_schemas(dir.path());
    let input = dir.path().join("in.jsonl");
    std::fs::write(&input, reading("a", 1.5, 1).to_string()).unwrap();
    let input = input.display().to_string();
    let brokers = dead_broker();
    let args = ["produce", "--topic", "t", "--schema", &schema, &input];
    let (out, took) = timed(&brokers, &args);
    assert_ends_naming(&out, took, &brokers);
}

/// The schema files of the tests of keys and headers: a reading, and its key (a record).
fn reading_schemas(dir: &std::path::Path) -> (String, String) {
    let value = r#"{"type": "record", "name": "Reading", "namespace": "test.kafka", "fields": [
        {"name": "sensor", "type": "string"}, {"name": "celsius", "type": "double"},
        {"name": "seq", "type": "long"}]}"#;
    let key = r#"{"type": "record", "name": "ReadingKey", "namespace": "test.kafka", "fields": [
        {"name": "sensor", "type": "string"}, {"name": "site", "type": "int"}]}"#;
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    (write("reading.avsc", value), write("reading-key.avsc", key))
}

fn reading(sensor: &str, celsius: f64, seq: i64) -> Value {
    json!({"sensor": sensor, "celsius": celsius, "seq": seq})
}

fn json_lines(values: &[Value]) -> String {
    let lines: Vec<String> = values.iter().map(Value::to_string).collect();
    lines.join("\n")
}

/// The messages of `topic` as `consume --from-beginning --idle 2s` prints them.
fn consume_all(brokers: &str, url: &str, topic: &str) -> Vec<Value> {
    let args = [
        "consume",
        "--topic",
        topic,
        "--from-beginning",
        "--idle",
        "2s",
    ];
    let out = run(brokers, url, &args, "");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    stdout(&out)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// The first `count` messages of `topic` as Python confluent-kafka reads them (see
/// `tests/scripts/kafka_read.py`).
fn python_read(brokers: &str, url: &str, topic: &str, count: usize, avro_key: bool) -> Vec<Value> {
    let python = external(
        "AVDL2RS_REGISTRY_PYTHON",
        "a python with confluent-kafka (.ci/registry-server makes one)",
    );
    let script = workspace_root().join("cli/tests/scripts/kafka_read.py");
    let mut command = Command::new(python);
    command
        .arg(script)
        .args([brokers, url, topic, &count.to_string()]);
    if avro_key {
        command.arg("--avro-key");
    }
    let out = command.output().unwrap();
    assert!(out.status.success(), "python: {}", stderr(&out));
    stdout(&out)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Whether the registry at `url` has `subject`.
fn registered(url: &str, subject: &str) -> bool {
    let out = Command::new(cli_binary())
        .args(["registry", "subjects", "--url", url])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    stdout(&out).lines().any(|line| line.trim() == subject)
}

#[test]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
fn a_bad_third_line_sends_nothing_and_with_stream_the_first_two() {
    let (brokers, url) = setup();
    let dir = tempfile::tempdir().unwrap();
    let (schema, _) = reading_schemas(dir.path());
    let topic = topic(&brokers, "cli-all-or-nothing");
    let lines = [
        reading("a", 1.5, 1).to_string(),
        reading("b", 2.5, 2).to_string(),
        r#"{"sensor": "c", "celsius": "hot", "seq": 3}"#.to_owned(),
    ]
    .join("\n");
    let args = ["produce", "--topic", &topic, "--schema", &schema];
    let out = run(&brokers, &url, &args, &lines);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let errors = stderr(&out);
    assert!(
        errors.contains("<stdin>:3") && errors.contains("/celsius"),
        "{errors}"
    );
    assert_eq!(consume_all(&brokers, &url, &topic), Vec::<Value>::new());
    assert!(!registered(&url, &format!("{topic}-value")));

    let args = [
        "produce", "--topic", &topic, "--schema", &schema, "--stream",
    ];
    let out = run(&brokers, &url, &args, &lines);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let errors = stderr(&out);
    assert!(
        errors.contains("<stdin>:3") && errors.contains("2 sent"),
        "{errors}"
    );
    let values: Vec<Value> = consume_all(&brokers, &url, &topic)
        .into_iter()
        .map(|message| message["value"].clone())
        .collect();
    assert_eq!(values, [reading("a", 1.5, 1), reading("b", 2.5, 2)]);
}

#[test]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
fn keys_and_headers_reach_a_python_consumer() {
    let (brokers, url) = setup();
    let dir = tempfile::tempdir().unwrap();
    let (schema, _) = reading_schemas(dir.path());
    let topic = topic(&brokers, "cli-keys");
    let produce = |extra: &[&str], lines: &str| {
        let mut args = vec!["produce", "--topic", &topic, "--schema", &schema];
        args.extend(extra);
        let out = run(&brokers, &url, &args, lines);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
    };
    let by_field = [reading("north", 1.5, 1), reading("south", -2.0, 2)];
    produce(
        &["--key-field", "sensor", "-H", "source=cli"],
        &json_lines(&by_field),
    );
    let fixed = [reading("east", 3.0, 3)];
    produce(
        &["--key", "site-7", "-H", "a=1", "-H", "b="],
        &json_lines(&fixed),
    );
    let enveloped = [
        json!({"key": "k1", "value": reading("west", 4.5, 4), "headers": {"trace": "t-1"}}),
        json!({"value": reading("up", 5.5, 5)}),
    ];
    produce(&["--envelope", "-H", "source=cli"], &json_lines(&enveloped));

    let seen = python_read(&brokers, &url, &topic, 5, false);
    let expected = [
        json!({"key": "north", "headers": [["source", "cli"]], "value": by_field[0]}),
        json!({"key": "south", "headers": [["source", "cli"]], "value": by_field[1]}),
        json!({"key": "site-7", "headers": [["a", "1"], ["b", ""]], "value": fixed[0]}),
        json!({"key": "k1", "headers": [["source", "cli"], ["trace", "t-1"]],
            "value": reading("west", 4.5, 4)}),
        json!({"key": null, "headers": [["source", "cli"]], "value": reading("up", 5.5, 5)}),
    ];
    assert_eq!(seen, expected);
}

#[test]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
fn avro_keys_go_under_the_key_subject_and_python_reads_them() {
    let (brokers, url) = setup();
    let dir = tempfile::tempdir().unwrap();
    let (schema, key_schema) = reading_schemas(dir.path());
    let topic = topic(&brokers, "cli-avro-keys");
    let keys = [
        json!({"sensor": "north", "site": 7}),
        json!({"sensor": "south", "site": -1}),
    ];
    let values = [reading("north", 1.5, 1), reading("south", 2.5, 2)];
    let lines: Vec<Value> = keys
        .iter()
        .zip(&values)
        .map(|(key, value)| json!({"key": key, "value": value}))
        .collect();
    let args = [
        "produce",
        "--topic",
        &topic,
        "--schema",
        &schema,
        "--key-schema",
        &key_schema,
        "--envelope",
    ];
    let out = run(&brokers, &url, &args, &json_lines(&lines));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(registered(&url, &format!("{topic}-key")));

    let seen = python_read(&brokers, &url, &topic, 2, true);
    for ((message, key), value) in seen.iter().zip(&keys).zip(&values) {
        assert_eq!(&message["key"], key);
        assert_eq!(&message["value"], value);
        assert_eq!(message["key_schema_id"], message["key_subject_id"]);
    }
    assert_eq!(seen.len(), 2);
}

#[test]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
fn a_dry_run_prints_the_messages_and_sends_nothing() {
    let (brokers, url) = setup();
    let dir = tempfile::tempdir().unwrap();
    let (schema, key_schema) = reading_schemas(dir.path());
    let topic = topic(&brokers, "cli-dry-run");
    let lines = [
        json!({"key": {"sensor": "north", "site": 7}, "value": reading("north", 1.5, 1),
            "headers": {"trace": "t-1"}}),
        json!({"value": reading("south", 2.5, 2)}),
    ];
    let args = [
        "produce",
        "--topic",
        &topic,
        "--schema",
        &schema,
        "--key-schema",
        &key_schema,
        "--envelope",
        "-H",
        "source=cli",
        "--dry-run",
    ];
    let out = run(&brokers, &url, &args, &json_lines(&lines));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let printed: Vec<Value> = stdout(&out)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let subjects = json!({"key_subject": format!("{topic}-key"),
        "value_subject": format!("{topic}-value")});
    let expected = |line: u64, key: &Value, headers: Value, value: &Value| {
        let mut message = json!({"line": line, "key": key, "headers": headers, "value": value});
        message
            .as_object_mut()
            .unwrap()
            .extend(subjects.as_object().unwrap().clone());
        message
    };
    assert_eq!(
        printed,
        [
            expected(
                1,
                &lines[0]["key"],
                json!([["source", "cli"], ["trace", "t-1"]]),
                &lines[0]["value"]
            ),
            expected(
                2,
                &Value::Null,
                json!([["source", "cli"]]),
                &lines[1]["value"]
            ),
        ]
    );
    assert_eq!(consume_all(&brokers, &url, &topic), Vec::<Value>::new());
    assert!(!registered(&url, &format!("{topic}-value")));
    assert!(!registered(&url, &format!("{topic}-key")));
}

#[test]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
fn consume_idle_reads_a_topic_to_its_end() {
    let (brokers, url) = setup();
    let dir = tempfile::tempdir().unwrap();
    let (schema, _) = reading_schemas(dir.path());
    let topic = topic(&brokers, "cli-idle");
    let values: Vec<Value> = (0..7).map(|seq| reading("s", 0.5, seq)).collect();
    let args = ["produce", "--topic", &topic, "--schema", &schema];
    let out = run(&brokers, &url, &args, &json_lines(&values));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let started = std::time::Instant::now();
    let consumed = consume_all(&brokers, &url, &topic);
    let read: Vec<Value> = consumed.iter().map(|m| m["value"].clone()).collect();
    assert_eq!(read, values);
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );

    // As a group member: all of them, committed when it ends, so the next run has none.
    let group = fresh_name("cli-idle-group");
    let args = [
        "consume",
        "--topic",
        &topic,
        "--group",
        &group,
        "--from-beginning",
        "--idle",
        "2s",
    ];
    let out = run(&brokers, &url, &args, "");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), values.len());
    let out = run(&brokers, &url, &args, "");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "");

    let missing = fresh_name("cli-no-topic");
    let args = ["consume", "--topic", &missing, "--idle", "2s"];
    let out = run(&brokers, &url, &args, "");
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains(&missing), "{}", stderr(&out));
}

#[test]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
fn messages_the_client_refuses_are_named_by_line_and_exit_1() {
    let (brokers, url) = setup();
    let dir = tempfile::tempdir().unwrap();
    let (schema, _) = reading_schemas(dir.path());
    let topic = topic(&brokers, "cli-refused");
    // Lines 2 and 3 fit the schema but not librdkafka's largest message (1000 bytes here).
    let big = "x".repeat(2_000);
    let values = [
        reading("a", 1.0, 1),
        reading(&big, 2.0, 2),
        reading(&big, 3.0, 3),
        reading("d", 4.0, 4),
    ];
    let args = [
        "-X",
        "message.max.bytes=1000",
        "produce",
        "--topic",
        &topic,
        "--schema",
        &schema,
    ];
    let out = run(&brokers, &url, &args, &json_lines(&values));
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let errors = stderr(&out);
    assert!(
        errors.contains("2 of 4 messages not delivered, <stdin> lines 2-3"),
        "{errors}"
    );
    let delivered: Vec<Value> = consume_all(&brokers, &url, &topic)
        .into_iter()
        .map(|message| message["value"].clone())
        .collect();
    assert_eq!(delivered, [values[0].clone(), values[3].clone()]);
}

/// `produce --dry-run` with `args`, with no broker and no registry at all.
fn dry_run(args: &[&str], lines: &str) -> Output {
    let mut child = Command::new(cli_binary())
        .args(["kafka", "produce", "--topic", "t", "--dry-run"])
        .args(args)
        .env_remove("AVDL2RS_KAFKA_BROKERS")
        .env_remove("AVDL2RS_SCHEMA_REGISTRY_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    // A run refused on its arguments ends before it reads its input.
    let written = std::io::Write::write_all(&mut input, lines.as_bytes());
    assert!(written.is_ok() || written.is_err_and(|e| e.kind() == ErrorKind::BrokenPipe));
    drop(input);
    child.wait_with_output().unwrap()
}

#[test]
fn avro_keys_from_key_or_a_field_are_checked_against_the_key_schema() {
    let dir = tempfile::tempdir().unwrap();
    let (schema, _) = reading_schemas(dir.path());
    let key_schema = dir.path().join("sensor.avsc");
    std::fs::write(&key_schema, r#""string""#).unwrap();
    let key_schema = key_schema.display().to_string();
    let lines = json_lines(&[reading("north", 1.5, 1), reading("south", 2.5, 2)]);
    let keys = |extra: &[&str]| {
        let mut args = vec!["--schema", &schema, "--key-schema", &key_schema];
        args.extend(extra);
        let out = dry_run(&args, &lines);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let printed = stdout(&out);
        let keys: Vec<Value> = printed
            .lines()
            .map(|line| serde_json::from_str::<Value>(line).unwrap()["key"].clone())
            .collect();
        keys
    };
    assert_eq!(
        keys(&["--key-field", "sensor"]),
        [json!("north"), json!("south")]
    );
    assert_eq!(
        keys(&["--key", r#""site-7""#]),
        [json!("site-7"), json!("site-7")]
    );

    // With a key schema, --key is Avro JSON; a key of the wrong type is the line's fault.
    let out = dry_run(
        &[
            "--schema",
            &schema,
            "--key-schema",
            &key_schema,
            "--key",
            "site-7",
        ],
        &lines,
    );
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("--key is not JSON"),
        "{}",
        stderr(&out)
    );
    let args = [
        "--schema",
        &schema,
        "--key-schema",
        &key_schema,
        "--key-field",
        "seq",
    ];
    let out = dry_run(&args, &lines);
    assert_eq!(code(&out), 1);
    let errors = stderr(&out);
    assert!(
        errors.contains("<stdin>:1") && errors.contains("the key does not fit"),
        "{errors}"
    );
    assert_eq!(stdout(&out), "");
}

/// A port on 127.0.0.1 nothing listens on now.
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// The body of `GET /metrics` at `port`, once the server answers (it starts with the command).
fn scrape(port: u16) -> String {
    use std::io::{Read, Write};
    for _ in 0..100 {
        if let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) {
            let request = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
            stream.write_all(request.as_bytes()).unwrap();
            let mut reply = String::new();
            stream.read_to_string(&mut reply).unwrap();
            let (head, body) = reply.split_once("\r\n\r\n").unwrap();
            assert!(head.starts_with("HTTP/1.1 200"), "{head}");
            return body.to_owned();
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("nothing answered at 127.0.0.1:{port}");
}

/// The value of the series `name` whose labels include every one of `labels` (`key="value"`).
fn series(body: &str, name: &str, labels: &[&str]) -> Option<f64> {
    body.lines()
        .filter(|line| line.starts_with(name) && !line.starts_with('#'))
        .filter(|line| line[name.len()..].starts_with(['{', ' ']))
        .find(|line| labels.iter().all(|label| line.contains(label)))
        .and_then(|line| line.rsplit(' ').next()?.parse().ok())
}

/// `promtool check metrics` on `body`: its findings, empty when the text is valid and lint-free.
fn promtool_findings(body: &str) -> String {
    let promtool = external("AVDL2RS_PROMTOOL", "Prometheus' promtool (.ci/promtool)");
    let mut child = Command::new(promtool)
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), body.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    if out.status.success() {
        String::new()
    } else {
        format!("{}{}", stdout(&out), stderr(&out))
    }
}

#[test]
#[ignore = "needs a Kafka broker, a Schema Registry and promtool (.ci/kafka-broker, .ci/registry-server, .ci/promtool)"]
fn consume_serves_its_metrics_in_the_prometheus_text_format() {
    let (brokers, url) = setup();
    let topic = topic(&brokers, "cli-metrics");
    let good = [order_line(1, Value::Null), order_line(2, Value::Null)].join("\n");
    let out = produce(&brokers, &url, &topic, &good);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    send_raw(&brokers, &topic, b"not a frame");
    let out = produce(&brokers, &url, &topic, &order_line(3, Value::Null));
    assert_eq!(code(&out), 0, "{}", stderr(&out));

    let port = free_port();
    let address = format!("127.0.0.1:{port}");
    let mut child = command(&brokers, &url)
        .args(["kafka", "consume", "--topic", &topic, "--from-beginning"])
        .args(["--idle", "60s", "--metrics-addr", &address])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The third record comes after the poison message: all four are read then.
    let printed = BufReader::new(child.stdout.take().unwrap()).lines().take(3);
    assert_eq!(printed.map(Result::unwrap).count(), 3);
    let body = scrape(port);
    child.kill().unwrap();
    child.wait().unwrap();

    assert_eq!(promtool_findings(&body), "", "{body}");
    let on_topic = format!("topic=\"{topic}\"");
    let consumed = series(&body, "avdl2rs_kafka_messages_consumed_total", &[&on_topic]);
    assert_eq!(consumed, Some(4.0), "{body}");
    let labels = [on_topic.as_str(), "part=\"value\"", "reason=\"not-framed\""];
    let poison = series(&body, "avdl2rs_kafka_poison_messages_total", &labels);
    assert_eq!(poison, Some(1.0), "{body}");
    let bytes = series(&body, "avdl2rs_kafka_consumed_bytes_total", &[&on_topic]);
    assert!(bytes.is_some_and(|b| b > 11.0), "{body}");
    // One decode in 64 of each consumer thread is timed, its first included: 1 to 4 here,
    // as the consuming task moves between the runtime's threads.
    let decoded = series(&body, "avdl2rs_kafka_decode_seconds_count", &[]);
    assert!(decoded.is_some_and(|n| (1.0..=4.0).contains(&n)), "{body}");
    let requests = series(
        &body,
        "avdl2rs_registry_requests_total",
        &["outcome=\"ok\""],
    );
    assert!(requests.is_some_and(|n| n >= 1.0), "{body}");
    // One schema id on the topic: fetched once, when the first message needed it.
    let schemas = "cache=\"schemas\"";
    let misses = series(&body, "avdl2rs_registry_cache_misses_total", &[schemas]);
    assert_eq!(misses, Some(1.0), "{body}");
}
