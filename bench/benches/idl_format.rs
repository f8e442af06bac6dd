//! `avdl2rs fmt`'s library call against `avdl2rs idl`'s (parse, then the JSON text) on the same
//! generated protocol: 3,000 records (about 1.2 MB) with varied fields, docs, defaults, unions
//! and enums, laid out carelessly so that the formatter has work to do, and the first half of
//! it, to show that both grow linearly.

use std::fmt::Write as _;

use avdl_parser::format::{format, FormatOptions};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// One record, its layout varied with `i` (indents, blank lines, comments, docs).
fn record(out: &mut String, i: usize) {
    let pad = " ".repeat(i % 5);
    let _ = write!(
        out,
        r#"
{pad}/**
{pad} * Record {i}.
{pad} */
{pad}@aliases(["Old{i}"])   record   Rec{i}{{
    long id = {i};   // the key
  string   @order("descending") name="rec-{i}";
      /** How much. */ decimal( 12 , 2 ) amount;
    union {{null,string,int}} choice=null;
    array< map<union{{ null , double }}> > series = [];
    Kind{k} kind = "K{k}A";
    {previous}? previous = null;
    boolean active = true; double ratio = -1.5e-3;
}}
"#,
        k = i % 50,
        previous = if i == 0 {
            "Kind0".to_owned()
        } else {
            format!("Rec{}", i - 1)
        },
    );
}

/// A protocol of `records` records, with an enum for each 60 of them and a message each 10.
fn protocol(records: usize) -> String {
    let mut text =
        String::from("/** A generated protocol. */\n@namespace(\"bench\")\nprotocol Wide {\n");
    for k in 0..50 {
        let _ = writeln!(text, "  enum Kind{k} {{K{k}A,K{k}B,  K{k}C}} = K{k}A;");
    }
    for i in 0..records {
        record(&mut text, i);
        if i % 10 == 0 {
            let _ = writeln!(
                text,
                "  Rec{i} get{i}( long id,string? filter=null ) throws Failure;"
            );
        }
    }
    text.push_str("  error Failure { string message; }\n  void ping() oneway;\n}\n");
    text
}

fn bench(c: &mut Criterion) {
    let options = FormatOptions::default();
    let parse = avdl_parser::ParseOptions::default();
    let mut group = c.benchmark_group("idl_format");
    group.sample_size(20);
    for records in [1500, 3000] {
        let text = protocol(records);
        let check = format(&text, "wide.avdl", &options).expect("the generated protocol formats");
        let json = |t: &str| {
            avdl_parser::parse_str(t, "wide.avdl", &parse)
                .unwrap()
                .to_json_string(true)
        };
        assert_eq!(json(&check), json(&text), "formatting changed the protocol");
        group.throughput(Throughput::Bytes(text.len() as u64));
        let size = format!("{records} records, {} KB", text.len() / 1000);
        group.bench_function(format!("fmt: {size}"), |b| {
            b.iter(|| format(&text, "wide.avdl", &options).unwrap())
        });
        group.bench_function(format!("idl (parse + JSON text): {size}"), |b| {
            b.iter_with_large_drop(|| {
                let file = avdl_parser::parse_str(&text, "wide.avdl", &parse).unwrap();
                let json = file.to_json_string(true);
                (file, json)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
