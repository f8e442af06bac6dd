//! `decode` and `encode` on the built binary: single-object messages of the runtime's
//! `to_single_object` (by fingerprint among `--schema` files, as a file, stdin, hex and
//! base64), resolution to a reader schema, Confluent frames of the registry crate's
//! `Serializer` and of Python `confluent-kafka`'s `AvroSerializer` through the real registry,
//! the same frames and hand-encoded ones decoded offline with `--writer-schema`, and the exit
//! codes: 1 for a bad message, 2 without a registry.

use std::process::{Command, Output};
use std::sync::Arc;

use avdl2rs::{Avro, AvroSchema};
use avdl2rs_registry::blocking::Client;
use avdl2rs_registry::{ClientConfig, Serializer, SerializerConfig};
use avdl2rs_tests::{external, fresh_name, schema_registry, workspace_root};
use orders::OrderEvent;
use serde_json::{json, Value};

use crate::cli_support::{cli_binary, code, path_str, stderr};

fn avdl2rs(args: &[&str], stdin: &[u8]) -> Output {
    avdl2rs_tests::run_with_stdin(cli_binary(), args, stdin)
}

fn printed(output: &Output) -> Value {
    assert_eq!(code(output), 0, "{}", stderr(output));
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Asserts that a run exited with `expected` and said `message` on stderr, without a panic.
fn fails_with(output: &Output, expected: i32, message: &str) {
    let text = stderr(output);
    assert_eq!(code(output), expected, "{text}");
    assert!(
        text.contains(message) && !text.contains("panicked"),
        "{text}"
    );
}

/// `encode` of the orders IDL's `OrderEvent`, with `extra` arguments.
fn encode(extra: &[&str], stdin: &[u8]) -> Output {
    let avdl = orders_avdl();
    let mut args = vec!["encode", "--schema", &avdl, "--type", "OrderEvent"];
    args.extend(extra);
    avdl2rs(&args, stdin)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn orders_avdl() -> String {
    let path = workspace_root().join("examples/orders/schemas/orders.avdl");
    path_str(&path).to_owned()
}

/// The sample order in the JSON encoding, written out by hand.
fn sample_json() -> Value {
    json!({"id": 42, "amount": 99.5, "user_id": 7, "currency": "CNY", "discount": {"double": 5.0}})
}

/// The fingerprint as `decode` prints it, from the frame's own 8 little-endian bytes.
fn fingerprint_text(frame: &[u8]) -> String {
    let mut bytes: [u8; 8] = frame[2..10].try_into().unwrap();
    bytes.reverse();
    format!("0x{}", hex(&bytes))
}

#[test]
fn single_object_messages_decode_by_fingerprint_from_every_source() {
    let frame = orders::sample_order().to_single_object().unwrap();
    let expected = json!({"fingerprint": fingerprint_text(&frame), "value": sample_json()});
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("order.bin");
    std::fs::write(&file, &frame).unwrap();
    let unrelated = avdl2rs_tests::conformance_dir().join("schemas/weather.avsc");
    let schemas = ["--schema", path_str(&unrelated), "--schema", &orders_avdl()];
    let base64 = {
        let output = encode(
            &["--single-object", "--base64"],
            sample_json().to_string().as_bytes(),
        );
        assert_eq!(code(&output), 0, "{}", stderr(&output));
        String::from_utf8(output.stdout).unwrap()
    };
    let frame_hex = hex(&frame);
    let runs: [(Vec<&str>, &[u8]); 5] = [
        (vec![path_str(&file)], b""),
        (vec!["-"], &frame),
        (vec!["--hex", &frame_hex], b""),
        (vec!["--hex", "-"], frame_hex.as_bytes()),
        (vec!["--base64", "-"], base64.as_bytes()),
    ];
    for (source, stdin) in runs {
        let mut args = vec!["decode"];
        args.extend(&schemas);
        args.extend(&source);
        assert_eq!(printed(&avdl2rs(&args, stdin)), expected, "{source:?}");
    }
}

#[test]
fn encode_single_object_writes_the_runtime_framing() {
    let frame = orders::sample_order().to_single_object().unwrap();
    let output = encode(&["--single-object"], sample_json().to_string().as_bytes());
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(output.stdout, frame);
    let output = encode(
        &["--single-object", "--hex"],
        sample_json().to_string().as_bytes(),
    );
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        format!("{}\n", hex(&frame))
    );
}

/// Version 2 of `OrderEvent`, written in `dir`: it drops `discount` and adds `qty` with a
/// default.
fn order_v2(dir: &std::path::Path) -> std::path::PathBuf {
    let reader = dir.join("v2.avsc");
    std::fs::write(
        &reader,
        r#"{"type":"record","name":"OrderEvent","namespace":"com.example.orders","fields":[
            {"name":"id","type":"int"},{"name":"amount","type":"double"},
            {"name":"user_id","type":"long"},{"name":"currency","type":"string"},
            {"name":"qty","type":"int","default":1}]}"#,
    )
    .unwrap();
    reader
}

#[test]
fn decode_resolves_to_a_reader_schema() {
    let dir = tempfile::tempdir().unwrap();
    let reader = order_v2(dir.path());
    let frame = orders::sample_order().to_single_object().unwrap();
    let output = avdl2rs(
        &[
            "decode",
            "--schema",
            &orders_avdl(),
            "--reader",
            path_str(&reader),
            "-",
        ],
        &frame,
    );
    let value = &printed(&output)["value"];
    assert_eq!(
        value,
        &json!({"id": 42, "amount": 99.5, "user_id": 7, "currency": "CNY", "qty": 1})
    );
    let broken = dir.path().join("v3.avsc");
    std::fs::write(
        &broken,
        r#"{"type":"record","name":"OrderEvent","namespace":"com.example.orders","fields":[
            {"name":"qty","type":"int"}]}"#,
    )
    .unwrap();
    let output = avdl2rs(
        &[
            "decode",
            "--schema",
            &orders_avdl(),
            "--reader",
            path_str(&broken),
            "-",
        ],
        &frame,
    );
    fails_with(&output, 1, "cannot read");
}

#[test]
fn bad_messages_and_missing_schemas() {
    let frame = orders::sample_order().to_single_object().unwrap();
    let schema = ["decode", "--schema", &orders_avdl()];
    let with = |extra: &[&str], stdin: &[u8]| {
        let mut args = schema.to_vec();
        args.extend(extra);
        avdl2rs(&args, stdin)
    };
    for (what, stdin, message) in [
        (
            "not framed",
            &b"{\"id\": 1}"[..],
            "neither a Confluent frame",
        ),
        ("cut", &frame[..frame.len() - 3], "the message:"),
        ("too long", &[&frame[..], &[0]].concat()[..], "the message:"),
        (
            "unknown fingerprint",
            &[0xc3, 0x01, 1, 2, 3, 4, 5, 6, 7, 8, 0][..],
            "no schema of the --schema files",
        ),
    ] {
        let output = with(&["-"], stdin);
        assert!(stderr(&output).contains(message), "{what}");
        fails_with(&output, 1, message);
    }
    fails_with(&with(&["--hex", "c3z1"], b""), 1, "not two hex digits");
    let output = avdl2rs(&["decode", "-"], &frame);
    fails_with(&output, 2, "give the schema with --schema");
    let confluent = [0, 0, 0, 0, 7, 2];
    let output = Command::new(cli_binary())
        .args(["decode", "--hex", &hex(&confluent)])
        .env_remove("AVDL2RS_SCHEMA_REGISTRY_URL")
        .output()
        .unwrap();
    fails_with(&output, 2, "needs a registry");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let output = avdl2rs(&["decode", "--url", &dead, "--hex", &hex(&confluent)], b"");
    assert_eq!(code(&output), 2, "{}", stderr(&output));
    let output = encode(
        &["--url", &dead, "--subject", "s"],
        sample_json().to_string().as_bytes(),
    );
    assert_eq!(code(&output), 2, "{}", stderr(&output));
    let output = encode(&["--single-object"], br#"{"id": "x"}"#);
    fails_with(&output, 1, "<stdin>: at /id: expected int");
}

#[test]
#[ignore = "needs a Schema Registry (.ci/registry-server)"]
fn confluent_frames_through_the_real_registry() {
    let url = schema_registry();
    let client = Arc::new(Client::new(ClientConfig::new(&url)).unwrap());
    let serializer =
        Serializer::<OrderEvent>::new(Arc::clone(&client), SerializerConfig::default());
    let topic = fresh_name("cli-decode");
    let frame = serializer
        .serialize(&topic, &orders::sample_order())
        .unwrap();
    let id = i32::from_be_bytes(frame[1..5].try_into().unwrap());
    let output = avdl2rs(&["decode", "--url", &url, "--hex", &hex(&frame)], b"");
    assert_eq!(
        printed(&output),
        json!({"schema_id": id, "value": sample_json()})
    );

    // encode under the same subject finds the same id and writes the same bytes.
    let subject = format!("{topic}-value");
    for register in [&[][..], &["--no-register"]] {
        let mut args = vec!["--url", &url, "--subject", &subject];
        args.extend(register);
        let output = encode(&args, sample_json().to_string().as_bytes());
        assert_eq!(code(&output), 0, "{}", stderr(&output));
        assert_eq!(output.stdout, frame, "{register:?}");
    }
    // A new subject registers the schema; looked up only, it is not found: exit 1.
    let fresh = fresh_name("cli-encode");
    let output = encode(
        &["--url", &url, "--subject", &fresh, "--no-register"],
        sample_json().to_string().as_bytes(),
    );
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    let output = avdl2rs(&["decode", "--url", &url, "--hex", "000fffffff02"], b"");
    assert_eq!(code(&output), 1, "an unknown id: {}", stderr(&output));
}

#[test]
#[ignore = "needs a Schema Registry and Python confluent-kafka (.ci/registry-server)"]
fn confluent_frames_of_python_decode() {
    let url = schema_registry();
    let python = external(
        "AVDL2RS_REGISTRY_PYTHON",
        "a python with confluent-kafka (.ci/registry-server makes one)",
    );
    let script = workspace_root().join("registry/tests/python/interop.py");
    let topic = fresh_name("cli-python");
    let plain = json!({"id": 42, "amount": 99.5, "user_id": 7, "currency": "CNY", "discount": 5.0});
    let output = Command::new(python)
        .arg(script)
        .args([
            "produce",
            &url,
            &topic,
            OrderEvent::SCHEMA_JSON,
            &plain.to_string(),
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let frame_hex = String::from_utf8(output.stdout).unwrap();
    let decoded = printed(&avdl2rs(
        &["decode", "--url", &url, "--hex", frame_hex.trim()],
        b"",
    ));
    assert_eq!(decoded["value"], sample_json());
    assert!(decoded["schema_id"].is_i64(), "{decoded}");

    // Offline, with the schema from a file and no registry in reach.
    let id = decoded["schema_id"].clone();
    let offline = |extra: &[&str]| {
        let avdl = orders_avdl();
        let mut args = vec![
            "decode",
            "--writer-schema",
            &avdl,
            "--writer-type",
            "OrderEvent",
        ];
        args.extend(extra);
        args.extend(["--hex", frame_hex.trim()]);
        let output = Command::new(cli_binary())
            .args(&args)
            .env_remove("AVDL2RS_SCHEMA_REGISTRY_URL")
            .output()
            .unwrap();
        printed(&output)
    };
    assert_eq!(
        offline(&[]),
        json!({"schema_id": id, "value": sample_json()})
    );
    let dir = tempfile::tempdir().unwrap();
    let reader = order_v2(dir.path());
    assert_eq!(
        offline(&["--reader", path_str(&reader)]),
        json!({"schema_id": id, "value":
            {"id": 42, "amount": 99.5, "user_id": 7, "currency": "CNY", "qty": 1}})
    );
}

/// A `Point` schema in each form a schema file takes, with another type beside it in the
/// protocol and the IDL file.
const POINT_AVSC: &str = r#"{"type": "record", "name": "Point", "fields": [
    {"name": "x", "type": "int"}, {"name": "label", "type": "string"},
    {"name": "n", "type": ["null", "long"]}]}"#;
const POINT_AVDL: &str = "protocol P {
    record Other { int a; }
    record Point { int x; string label; union { null, long } n; }
}";

/// A Confluent frame of schema id 17 and the `Point` {x: -3, label: "hi", n: 64}, encoded
/// by hand by the specification: zigzag varints (-3 → 5, length 2 → 4, 64 → 128 = 80 01),
/// the union's branch index 1 (→ 2) before the long.
const POINT_FRAME: [u8; 12] = [0, 0, 0, 0, 17, 0x05, 0x04, b'h', b'i', 0x02, 0x80, 0x01];

#[test]
fn confluent_frames_decode_offline_with_a_writer_schema() {
    let dir = tempfile::tempdir().unwrap();
    let avsc = dir.path().join("point.avsc");
    std::fs::write(&avsc, POINT_AVSC).unwrap();
    let avpr = dir.path().join("point.avpr");
    let protocol = format!(
        r#"{{"protocol": "P", "types": [{{"type": "record", "name": "Other",
            "fields": [{{"name": "a", "type": "int"}}]}}, {POINT_AVSC}]}}"#
    );
    std::fs::write(&avpr, protocol).unwrap();
    let avdl = dir.path().join("point.avdl");
    std::fs::write(&avdl, POINT_AVDL).unwrap();
    let decode = |extra: &[&str], frame: &[u8]| {
        Command::new(cli_binary())
            .args([&["decode"], extra, &["--hex", &hex(frame)]].concat())
            .env_remove("AVDL2RS_SCHEMA_REGISTRY_URL")
            .output()
            .unwrap()
    };
    let expected = json!({"schema_id": 17,
        "value": {"x": -3, "label": "hi", "n": {"long": 64}}});
    for writer in [
        vec!["--writer-schema", path_str(&avsc)],
        vec!["--writer-schema", path_str(&avpr), "--writer-type", "Point"],
        vec!["--writer-schema", path_str(&avdl), "--writer-type", "Point"],
    ] {
        assert_eq!(
            printed(&decode(&writer, &POINT_FRAME)),
            expected,
            "{writer:?}"
        );
    }
    // Resolution: `x` promoted to long, `label` dropped, `k` from its default.
    let reader = dir.path().join("reader.avsc");
    std::fs::write(
        &reader,
        r#"{"type": "record", "name": "Point", "fields": [
            {"name": "x", "type": "long"}, {"name": "n", "type": ["null", "long"]},
            {"name": "k", "type": "string", "default": "z"}]}"#,
    )
    .unwrap();
    let args = [
        "--writer-schema",
        path_str(&avsc),
        "--reader",
        path_str(&reader),
    ];
    assert_eq!(
        printed(&decode(&args, &POINT_FRAME)),
        json!({"schema_id": 17, "value": {"x": -3, "n": {"long": 64}, "k": "z"}})
    );
    // A body cut short, a protocol without a type chosen, a single-object message.
    let writer = ["--writer-schema", path_str(&avsc)];
    fails_with(&decode(&writer, &POINT_FRAME[..11]), 1, "the message:");
    let protocol = ["--writer-schema", path_str(&avpr)];
    fails_with(&decode(&protocol, &POINT_FRAME), 1, "defines several types");
    let single = orders::sample_order().to_single_object().unwrap();
    fails_with(&decode(&writer, &single), 2, "for Confluent frames");
}
