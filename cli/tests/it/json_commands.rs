//! `fromjson`, `tojson` (the alias of `cat`), `jsontofrag` and `fragtojson` on the built
//! binary: round trips for every codec, checked against the generated type's reading of the
//! file; the binary of the specification's worked examples; and bad input (wrong type,
//! missing field, unknown branch, code points above U+00FF, unterminated JSON, 100 MB of `[`)
//! refused with exit 1 and a located message, in bounded time and memory.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use avdl2rs_container::{Codec, Reader};
use avdl2rs_container_interop::support::{order_records, schema_file};
use orders::OrderEvent;
use serde_json::{json, Value};

use crate::cli_support::{cli_binary, code, path_str, stderr};

fn avdl2rs(args: &[&str], stdin: &[u8]) -> Output {
    avdl2rs_tests::run_with_stdin(cli_binary(), args, stdin)
}

fn success(output: &Output) -> &[u8] {
    assert_eq!(code(output), 0, "{}", stderr(output));
    &output.stdout
}

/// An order as the JSON encoding writes it (the union `["null", "double"]` wrapped).
fn order_json(order: &OrderEvent) -> Value {
    json!({
        "id": order.id,
        "amount": order.amount,
        "user_id": order.user_id,
        "currency": order.currency,
        "discount": order.discount.map(|d| json!({"double": d})),
    })
}

fn json_lines(values: &[Value]) -> String {
    values.iter().map(|v| format!("{v}\n")).collect()
}

fn parse_lines(bytes: &[u8]) -> Vec<Value> {
    String::from_utf8(bytes.to_vec())
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn fromjson_then_tojson_gives_the_values_back_for_every_codec() {
    let dir = tempfile::tempdir().unwrap();
    let schema = schema_file::<OrderEvent>(dir.path(), "orders");
    let records = order_records();
    let values: Vec<Value> = records.iter().map(order_json).collect();
    let input = dir.path().join("orders.jsonl");
    std::fs::write(&input, json_lines(&values)).unwrap();
    for codec in Codec::ALL {
        let file = dir.path().join(format!("orders-{codec}.avro"));
        let output = avdl2rs(
            &[
                "fromjson",
                "--schema",
                path_str(&schema),
                "--codec",
                codec.name(),
                path_str(&input),
                "-o",
                path_str(&file),
            ],
            b"",
        );
        success(&output);
        let reader = Reader::<OrderEvent, _>::new(std::fs::File::open(&file).unwrap()).unwrap();
        assert_eq!(reader.header().codec(), codec);
        let read: Vec<OrderEvent> = reader.collect::<Result<_, _>>().unwrap();
        assert!(
            read == records,
            "{codec}: the generated type reads other records"
        );
        let back = avdl2rs(&["tojson", path_str(&file)], b"");
        assert_eq!(parse_lines(success(&back)), values, "{codec}");
    }
}

#[test]
fn fromjson_takes_concatenated_values_from_stdin_and_writes_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let schema = schema_file::<OrderEvent>(dir.path(), "orders");
    let values: Vec<Value> = order_records()[..3].iter().map(order_json).collect();
    // Pretty-printed, then two on one line without a separator.
    let input = format!(
        "{}\n{}{}",
        serde_json::to_string_pretty(&values[0]).unwrap(),
        values[1],
        values[2]
    );
    let output = avdl2rs(
        &["fromjson", "--schema", path_str(&schema)],
        input.as_bytes(),
    );
    let file = success(&output).to_vec();
    let back = avdl2rs(&["tojson", "-"], &file);
    assert_eq!(parse_lines(success(&back)), values);
    // An IDL schema with the type chosen by simple name gives the same records.
    let idl = avdl2rs_tests::workspace_root().join("examples/orders/schemas/orders.avdl");
    let output = avdl2rs(
        &[
            "fromjson",
            "--schema",
            path_str(&idl),
            "--type",
            "OrderEvent",
            "-",
        ],
        input.as_bytes(),
    );
    let reader = Reader::<OrderEvent, _>::new(success(&output)).unwrap();
    assert_eq!(reader.count(), 3);
}

/// A schema file written into `dir`.
fn schema(dir: &Path, name: &str, json: &str) -> String {
    let path = dir.join(format!("{name}.avsc"));
    std::fs::write(&path, json).unwrap();
    path_str(&path).to_owned()
}

/// `value` through `jsontofrag`, the bytes through `fragtojson`.
fn both_ways(schema: &str, value: &Value, bytes: &[u8]) {
    let frag = avdl2rs(
        &["jsontofrag", "--schema", schema],
        value.to_string().as_bytes(),
    );
    assert_eq!(success(&frag), bytes, "{value}");
    let json = avdl2rs(&["fragtojson", "--schema", schema, "-"], bytes);
    let back: Value = serde_json::from_slice(success(&json)).unwrap();
    assert_eq!(&back, value);
}

/// The worked examples of the specification's "Binary Encoding" section.
#[test]
fn jsontofrag_and_fragtojson_agree_with_the_specification() {
    let dir = tempfile::tempdir().unwrap();
    let record = schema(
        dir.path(),
        "test",
        r#"{"type":"record","name":"test","fields":[
            {"name":"a","type":"long"},{"name":"b","type":"string"}]}"#,
    );
    both_ways(
        &record,
        &json!({"a": 27, "b": "foo"}),
        &[0x36, 0x06, 0x66, 0x6f, 0x6f],
    );
    let longs = schema(dir.path(), "longs", r#"{"type":"array","items":"long"}"#);
    both_ways(&longs, &json!([3, 27]), &[0x04, 0x06, 0x36, 0x00]);
    let long = schema(dir.path(), "long", r#""long""#);
    for (value, bytes) in [(0, &[0x00][..]), (-1, &[0x01]), (1, &[0x02]), (-2, &[0x03])] {
        both_ways(&long, &json!(value), bytes);
    }
    both_ways(&long, &json!(-64), &[0x7f]);
    both_ways(&long, &json!(64), &[0x80, 0x01]);
    let union = schema(dir.path(), "union", r#"["null","string"]"#);
    both_ways(&union, &Value::Null, &[0x00]);
    both_ways(&union, &json!({"string": "a"}), &[0x02, 0x02, 0x61]);
    let bytes = schema(dir.path(), "bytes", r#""bytes""#);
    both_ways(&bytes, &json!("\u{0}\u{ff}"), &[0x04, 0x00, 0xff]);

    let pretty = avdl2rs(
        &["fragtojson", "--schema", &record, "--pretty", "-"],
        &[0x36, 0x06, 0x66, 0x6f, 0x6f],
    );
    assert_eq!(success(&pretty), b"{\n  \"a\": 27,\n  \"b\": \"foo\"\n}\n");
    // Bytes after the value, or too few, are not one datum.
    let output = avdl2rs(
        &["fragtojson", "--schema", &record, "-"],
        &[0x36, 0x06, 0x66, 0x6f, 0x6f, 0x00],
    );
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    let output = avdl2rs(
        &["fragtojson", "--schema", &record, "-"],
        &[0x36, 0x06, 0x66],
    );
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    let output = avdl2rs(&["jsontofrag", "--schema", &long], b"1 2");
    assert_eq!(code(&output), 1);
    assert!(
        stderr(&output).contains("a second JSON value"),
        "{}",
        stderr(&output)
    );
}

/// Runs `fromjson` of the line schema on `input`; returns its exit code and stderr.
fn refused(dir: &Path, input: &str) -> (i32, String) {
    let schema = schema(
        dir,
        "line",
        r#"{"type":"record","name":"shop.Line","fields":[
            {"name":"sku","type":"string"},
            {"name":"qty","type":["null","int"],"default":null},
            {"name":"tag","type":"bytes"}]}"#,
    );
    let path = dir.join("in.jsonl");
    std::fs::write(&path, input).unwrap();
    let out = dir.join("out.avro");
    let output = avdl2rs(
        &[
            "fromjson",
            "--schema",
            &schema,
            path_str(&path),
            "-o",
            path_str(&out),
        ],
        b"",
    );
    let text = stderr(&output);
    assert!(!text.contains("panicked"), "{text}");
    (code(&output), text)
}

#[test]
fn bad_values_are_refused_with_their_line_and_path() {
    let dir = tempfile::tempdir().unwrap();
    let good = r#"{"sku":"tea","tag":"x"}"#;
    let in_path = dir.path().join("in.jsonl");
    let name = path_str(&in_path).to_owned();
    for (bad, expected) in [
        (
            r#"{"sku":"tea","qty":{"int":"3"},"tag":""}"#,
            r#":3: at /qty/int: expected int, found "3""#.to_owned(),
        ),
        (
            r#"{"sku":"tea"}"#,
            r#":3: missing field "tag", which has no default"#.to_owned(),
        ),
        (
            r#"{"sku":"tea","qty":{"long":3},"tag":""}"#,
            r#":3: at /qty: "long" is not a branch of the union [null, int]"#.to_owned(),
        ),
        (
            r#"{"sku":"tea","tag":"a\u0100"}"#,
            ":3: at /tag: character 1 is U+0100, above U+00FF: not a byte".to_owned(),
        ),
        (
            r#"{"sku":"tea","#,
            ":3:13: not JSON: EOF while parsing a value".to_owned(),
        ),
    ] {
        let input = format!("{good}\n\n{bad}");
        let (code, text) = refused(dir.path(), &input);
        assert_eq!(code, 1, "{bad}: {text}");
        assert!(text.contains(&format!("{name}{expected}")), "{bad}: {text}");
    }
}

#[test]
fn deep_nesting_is_refused_in_bounded_time_and_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deep.json");
    std::fs::write(&path, vec![b'['; 100 << 20]).unwrap();
    let schema = schema(dir.path(), "any", r#"{"type":"array","items":"long"}"#);
    for command in ["fromjson", "jsontofrag"] {
        let started = Instant::now();
        // 640 MiB of address space (the schema parser reserves a 256 MiB stack): far too
        // little to parse the input into JSON values, 56 bytes or more per level.
        let output = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 655360 && exec '{}' {command} --schema '{schema}' '{}' -o /dev/null",
                cli_binary().display(),
                path.display()
            ))
            .output()
            .unwrap();
        assert!(started.elapsed() < Duration::from_secs(20), "{command}");
        assert_eq!(code(&output), 1, "{command}: {}", stderr(&output));
        assert!(
            stderr(&output)
                .contains("deep.json:1: JSON nested deeper than the limit of 512 levels"),
            "{command}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn schemas_that_do_not_load_and_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let broken = schema(dir.path(), "broken", r#"{"type":"record","name":"R"}"#);
    let output = avdl2rs(&["fromjson", "--schema", &broken], b"{}");
    assert_eq!(code(&output), 1);
    assert!(
        stderr(&output).contains("broken.avsc"),
        "{}",
        stderr(&output)
    );
    let output = avdl2rs(&["fromjson", "--schema", &broken, "--codec", "lz4"], b"");
    assert_eq!(code(&output), 2);
    assert_eq!(code(&avdl2rs(&["fromjson", "-"], b"")), 2);
}
