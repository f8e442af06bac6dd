//! Encode and decode of the four benchmark shapes by every implementation of
//! `avdl2rs_bench::codecs`, in one run so that the ratios between them are meaningful.
//!
//! Groups are `<shape>/encode` and `<shape>/decode`, one function per implementation, and
//! `<shape>/new_buffer`: the generated code's `encode` into a reused buffer against
//! `to_avro_bytes`, which returns a new one; and `<shape>/resolve` for the shapes of
//! `avdl2rs_bench::evolution`: decoding the current version's bytes (`direct`) against
//! reading the earlier version's through a cached plan (`resolving`). Schemas, writers,
//! readers and plans are prepared
//! outside the timed loop; the output buffer of the encode groups is cleared and reused. Run a short pass with
//! `cargo bench -p avdl2rs-bench -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use avdl2rs::resolve::ResolutionPlan;
use avdl2rs::wire::decode_body;
use avdl2rs::Avro;
use avdl2rs_bench::codecs::{self, Codec, Shape, Visitor};
use avdl2rs_bench::evolution::{self, Evolved};
use avdl2rs_bench::values::{self, BENCH_SEED};
use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion};

/// Times `encode` of the sample value per implementation.
struct Encode<'g, 'c> {
    group: &'g mut BenchmarkGroup<'c, WallTime>,
}

impl Visitor for Encode<'_, '_> {
    fn visit<V, C: Codec<V>>(&mut self, name: &'static str, mut codec: C, value: &V) {
        let mut out = Vec::with_capacity(4096);
        self.group.bench_function(name, |b| {
            b.iter(|| {
                out.clear();
                codec.encode(black_box(value), &mut out).expect("encodes");
                black_box(out.len())
            })
        });
    }
}

/// Times `decode` of the same bytes per implementation.
struct Decode<'a, 'g, 'c> {
    group: &'g mut BenchmarkGroup<'c, WallTime>,
    bytes: &'a [u8],
}

impl Visitor for Decode<'_, '_, '_> {
    fn visit<V, C: Codec<V>>(&mut self, name: &'static str, codec: C, _value: &V) {
        let bytes = self.bytes;
        self.group.bench_function(name, |b| {
            b.iter(|| codec.decode(black_box(bytes)).expect("decodes"))
        });
    }
}

/// Both groups of one shape.
fn shape<T: Shape>(c: &mut Criterion, name: &str, value: &T) {
    let mut group = c.benchmark_group(format!("{name}/encode"));
    let mut encode = Encode { group: &mut group };
    codecs::visit_all(value, &mut encode).expect("every implementation accepts the schema");
    group.finish();
    let mut bytes = Vec::new();
    value.encode(&mut bytes).expect("the sample value encodes");
    let mut group = c.benchmark_group(format!("{name}/decode"));
    let mut decode = Decode {
        group: &mut group,
        bytes: &bytes,
    };
    codecs::visit_all(value, &mut decode).expect("every implementation accepts the schema");
    group.finish();
    let mut group = c.benchmark_group(format!("{name}/new_buffer"));
    let mut out = Vec::with_capacity(4096);
    group.bench_function("reused_buffer", |b| {
        b.iter(|| {
            out.clear();
            black_box(value).encode(&mut out).expect("encodes");
            black_box(out.len())
        })
    });
    group.bench_function("to_avro_bytes", |b| {
        b.iter(|| black_box(value).to_avro_bytes().expect("encodes"))
    });
    group.finish();
}

/// Direct against resolving decode of a shape with an earlier version.
fn resolve<T: Shape + Evolved>(c: &mut Criterion, name: &str, value: &T) {
    let expected = value.resolved();
    let mut direct = Vec::new();
    expected.encode(&mut direct).expect("the value encodes");
    let writer = evolution::writer_bytes(value).expect("apache-avro writes the earlier version");
    let plan = ResolutionPlan::reading::<T>(T::WRITER_SCHEMA).expect("a compatible change");
    assert_eq!(plan.decode::<T>(&writer).expect("resolves"), expected);
    let mut group = c.benchmark_group(format!("{name}/resolve"));
    group.bench_function("direct", |b| {
        b.iter(|| decode_body::<T>(black_box(&direct)).expect("decodes"))
    });
    group.bench_function("resolving", |b| {
        b.iter(|| plan.decode::<T>(black_box(&writer)).expect("resolves"))
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    shape(c, "order_event", &values::order_event(BENCH_SEED));
    shape(c, "log_line", &values::log_line(BENCH_SEED));
    shape(c, "click_event", &values::click_event(BENCH_SEED));
    shape(c, "metrics", &values::metrics(BENCH_SEED));
    resolve(c, "order_event", &values::order_event(BENCH_SEED));
    resolve(c, "log_line", &values::log_line(BENCH_SEED));
    resolve(c, "click_event", &values::click_event(BENCH_SEED));
}

criterion_group!(codec, benches);
criterion_main!(codec);
