//! Generic values (`avdl2rs::generic`) against apache-avro's `types::Value`, the two ways to
//! read and write data whose type is known only at run time, on OrderEvent and LogLine.
//!
//! Groups are `<shape>/generic_decode` and `<shape>/generic_encode`, each with `generic`
//! (`GenericSchema::decode` / `encode_into`) and `apache_avro` (`GenericDatumReader::read_value`
//! / `GenericDatumWriter::write_value_ref`), and the generated code's codec as the floor;
//! decoding also has `generic_into` (`GenericSchema::decode_into` one value kept across
//! iterations, as a consumer loop can).
//! Schemas, readers and writers are built outside the timed loop, and encodes write into a
//! cleared, reused buffer. Run a short pass with
//! `cargo bench -p avdl2rs-bench --bench generic -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use apache_avro::reader::datum::GenericDatumReader;
use apache_avro::writer::datum::GenericDatumWriter;
use avdl2rs::generic::{GenericSchema, GenericValue};
use avdl2rs::Avro;
use avdl2rs_bench::values::{self, BENCH_SEED};
use criterion::{criterion_group, criterion_main, Criterion};

/// Both groups of one shape, on the encoding of `value`.
fn shape<T: Avro>(c: &mut Criterion, name: &str, value: &T) {
    let bytes = value.to_avro_bytes().expect("the sample value encodes");
    let schema = apache_avro::Schema::parse_str(T::SCHEMA_JSON).expect("apache-avro schema");
    let reader = GenericDatumReader::builder(&schema)
        .build()
        .expect("reader");
    let writer = GenericDatumWriter::builder(&schema)
        .build()
        .expect("writer");
    let generic = GenericSchema::new(T::SCHEMA_JSON).expect("generic schema");

    let mut group = c.benchmark_group(format!("{name}/generic_decode"));
    group.bench_function("generic", |b| {
        b.iter(|| generic.decode(black_box(&bytes)).expect("decodes"))
    });
    // A consumer loop's decode: into one value kept across messages, reusing its strings,
    // fields and union boxes; not a like-for-like peer of the two fresh decodes.
    let mut kept = GenericValue::Null;
    group.bench_function("generic_into", |b| {
        b.iter(|| {
            generic
                .decode_into(black_box(&bytes), &mut kept)
                .expect("decodes");
        })
    });
    group.bench_function("apache_avro", |b| {
        b.iter(|| {
            reader
                .read_value(&mut black_box(&bytes[..]))
                .expect("decodes")
        })
    });
    group.bench_function("generated", |b| {
        b.iter(|| T::from_avro_bytes(black_box(&bytes)).expect("decodes"))
    });
    group.finish();

    let ours = generic.decode(&bytes).expect("decodes");
    let theirs = reader.read_value(&mut &bytes[..]).expect("decodes");
    let mut out = Vec::with_capacity(4096);
    let mut group = c.benchmark_group(format!("{name}/generic_encode"));
    group.bench_function("generic", |b| {
        b.iter(|| {
            out.clear();
            generic
                .encode_into(black_box(&ours), &mut out)
                .expect("encodes");
            black_box(out.len())
        })
    });
    group.bench_function("apache_avro", |b| {
        b.iter(|| {
            out.clear();
            writer
                .write_value_ref(&mut out, black_box(&theirs))
                .expect("encodes");
            black_box(out.len())
        })
    });
    group.bench_function("generated", |b| {
        b.iter(|| {
            out.clear();
            black_box(value).encode(&mut out).expect("encodes");
            black_box(out.len())
        })
    });
    group.finish();
}

fn generic_values(c: &mut Criterion) {
    shape(c, "order_event", &values::order_event(BENCH_SEED));
    shape(c, "log_line", &values::log_line(BENCH_SEED));
}

criterion_group!(benches, generic_values);
criterion_main!(benches);
