//! `avdl2rs lint`'s library call against `avdl2rs idl`'s (parse, then the JSON text) on the
//! same generated protocol of 3,000 records, and on its first half to show that both grow
//! linearly; and against what lint must do before any rule runs, compiling the file to the
//! JSON value the rules read (`compile`). The protocol breaks several rules in every record (a field without a default, a
//! wide union, a `double` named like money, a snake_case field among camelCase ones), so the
//! lint measures placing thousands of findings, not only the rules' walk.

use std::path::Path;

use avdl2rs_bench::ledger::protocol;
use avdl2rs_lint::{check, Settings, Source};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn bench(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("avdl2rs-lint-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let settings = Settings::default();
    let parse = avdl_parser::ParseOptions::default();
    let mut group = c.benchmark_group("idl_lint");
    group.sample_size(10);
    for records in [1500, 3000] {
        let text = protocol(records);
        let path = dir.join(format!("ledger{records}.avdl"));
        std::fs::write(&path, &text).expect("the generated protocol is written");
        let source = Source::idl("ledger.avdl", &text, &path, &[]);
        let findings = check(&source, &settings, None).expect("the generated protocol lints");
        assert!(findings.len() > records * 3, "{} findings", findings.len());
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(format!("lint/{records}"), |b| {
            b.iter(|| lint(&path, &settings));
        });
        group.bench_function(format!("idl/{records}"), |b| {
            b.iter(|| {
                let file = avdl_parser::parse_file(&path, &parse).expect("parses");
                file.to_json_string(true).len()
            });
        });
        // What lint cannot do without: compile the file to the JSON value its rules read.
        group.bench_function(format!("compile/{records}"), |b| {
            b.iter(|| {
                let file = avdl_parser::parse_file(&path, &parse).expect("parses");
                file.json().is_object()
            });
        });
    }
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

/// What `avdl2rs lint FILE` does before rendering: read the file and check it.
fn lint(path: &Path, settings: &Settings) -> usize {
    let text = std::fs::read_to_string(path).expect("reads");
    let source = Source::idl("ledger.avdl", &text, path, &[]);
    check(&source, settings, None).expect("lints").len()
}

criterion_group!(benches, bench);
criterion_main!(benches);
