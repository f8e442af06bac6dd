//! Parse throughput on generated inputs: a protocol of several thousand records using every
//! kind of field (with `import idl|schema|protocol`), compiled to JSON and read into the
//! lossless syntax tree, and a chain of 3000 records where each
//! refers to the one before (`RecN? previous = null;`), which makes naive resolvers quadratic.
//!
//! Set `AVDL2RS_BENCH_INPUTS=<dir>` to keep the generated files there (e.g. to time the
//! `avdl2rs idl` process on them).

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// One record using every field kind; refers to the previous record and to imported types.
fn record(out: &mut String, i: usize) {
    let previous = if i == 0 {
        "common.Shared".to_owned()
    } else {
        format!("Rec{}", i - 1)
    };
    let _ = write!(
        out,
        r#"
  /** Record number {i}, with every kind of field. */
  @aliases(["OldRec{i}"]) @generated(true)
  record Rec{i} {{
    int id = {i};
    long big = 0x7fffffffL;
    float ratio = 0.5;
    double precise = -1.25e-3;
    boolean active = true;
    /** The name. */ string @order("descending") name = "rec-{i}";
    bytes payload = "\u00ff";
    null nothing = null;
    date day;
    time_ms time;
    timestamp_ms at;
    local_timestamp_ms local;
    uuid key;
    decimal(12, 2) amount;
    @logicalType("timestamp-micros") long micros;
    array<string> tags = [];
    map<long> counters = {{}};
    union {{ null, int, string }} choice = null;
    Color color = "RED";
    Hash hash;
    {previous}? previous = null;
    @java-class("java.util.ArrayList") array<map<union {{ null, double }}>> nested;
    ext.Imported imported;
    json.FromSchema fromSchema;
  }}
"#
    );
}

/// A protocol of `records` records with imports, written into `dir`; returns the root file.
fn generate_wide(dir: &Path, records: usize) -> PathBuf {
    std::fs::write(
        dir.join("common.avdl"),
        "@namespace(\"common\") protocol Common { record Shared { int x; } }",
    )
    .unwrap();
    std::fs::write(
        dir.join("schema.avsc"),
        "/* imported JSON schema */ {\"type\": \"record\", \"name\": \"json.FromSchema\", \"fields\": [{\"name\": \"x\", \"type\": \"int\"}]}",
    )
    .unwrap();
    std::fs::write(
        dir.join("proto.avpr"),
        r#"{"protocol": "Ext", "namespace": "ext", "types": [{"type": "fixed", "name": "Imported", "size": 4}], "messages": {"ext": {"request": [], "response": "null"}}}"#,
    )
    .unwrap();
    let mut text = String::from(
        "/** A generated protocol. */\n@namespace(\"bench\")\nprotocol Wide {\n  import idl \"common.avdl\";\n  import schema \"schema.avsc\";\n  import protocol \"proto.avpr\";\n  enum Color { RED, GREEN, BLUE } = RED;\n  fixed Hash(16);\n",
    );
    for i in 0..records {
        record(&mut text, i);
        if i % 10 == 0 {
            let _ = writeln!(
                text,
                "  Rec{i} get{i}(long id, string? filter = null) throws Failure;"
            );
        }
    }
    text.push_str("  error Failure { string message; }\n  void ping() oneway;\n}\n");
    let root = dir.join("wide.avdl");
    std::fs::write(&root, text).unwrap();
    root
}

/// 3000 records, each with an optional reference to the one before.
fn generate_chain(dir: &Path, records: usize) -> PathBuf {
    let mut text =
        String::from("@namespace(\"chain\")\nprotocol Chain {\n  record Rec0 { int value; }\n");
    for i in 1..records {
        let _ = writeln!(
            text,
            "  record Rec{i} {{ int value; Rec{}? previous = null; }}",
            i - 1
        );
    }
    text.push_str("}\n");
    let root = dir.join("chain.avdl");
    std::fs::write(&root, text).unwrap();
    root
}

fn bench(c: &mut Criterion) {
    let temp = tempfile::tempdir().unwrap();
    let dir = std::env::var_os("AVDL2RS_BENCH_INPUTS")
        .map_or_else(|| temp.path().to_path_buf(), PathBuf::from);
    std::fs::create_dir_all(&dir).unwrap();
    let options = avdl_parser::ParseOptions::default();

    let wide = generate_wide(&dir, 1500);
    let bytes = std::fs::metadata(&wide).unwrap().len();
    assert!(
        bytes >= 1_000_000,
        "the generated protocol must be at least 1 MB, is {bytes} bytes"
    );
    let mut group = c.benchmark_group("parse");
    group.throughput(Throughput::Bytes(bytes));
    group.sample_size(20);
    // What `avdl2rs idl` does: the file to pretty-printed JSON text. The syntax tree is
    // dropped outside the measurement, as the command never frees it.
    let to_text = |path: &Path| {
        let file = avdl_parser::parse_file(path, &options).unwrap();
        let text = file.to_json_string(true);
        (file, text)
    };
    group.bench_function("wide protocol, every field kind, imports: to text", |b| {
        b.iter_with_large_drop(|| to_text(&wide))
    });
    // What a library user gets from `json()`: the same JSON as a `serde_json::Value`.
    group.bench_function("wide protocol, every field kind, imports: to Value", |b| {
        b.iter_with_large_drop(|| {
            let file = avdl_parser::parse_file(&wide, &options).unwrap();
            black_box(file.json());
            file
        })
    });
    // What `fmt`, `lint` and an editor do on every file: the lossless syntax tree of the text
    // (imports are not followed, the text is read beforehand).
    let wide_text = std::fs::read_to_string(&wide).unwrap();
    group.bench_function("wide protocol: lossless syntax tree", |b| {
        b.iter_with_large_drop(|| {
            let parse = avdl_parser::syntax::parse(&wide_text);
            assert!(parse.errors().is_empty());
            parse
        })
    });
    let chain = generate_chain(&dir, 3000);
    group.throughput(Throughput::Bytes(std::fs::metadata(&chain).unwrap().len()));
    group.bench_function(
        "3000 records, each referring to the previous: to text",
        |b| b.iter_with_large_drop(|| to_text(&chain)),
    );
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
