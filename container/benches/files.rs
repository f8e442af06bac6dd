//! Writing and reading container files of the benchmark shapes (`avdl2rs-bench`), per codec,
//! in one run: the generated type through this crate's `Reader`, apache-avro's `Reader` with
//! `from_value`, and serde_avro_fast's container reader.
//!
//! Each file holds about 10 MB of records (uncompressed); throughput is reported against
//! that size. Groups are `<shape>/<codec>/read` and `<shape>/<codec>/write`. Run a short pass
//! with `cargo bench -p avdl2rs-container -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use avdl2rs::AvroEncode;
use avdl2rs_bench::codecs::Shape;
use avdl2rs_bench::values;
use avdl2rs_container::{Codec, Reader, WriterBuilder};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// The uncompressed size of each file.
const FILE_BYTES: usize = 10 << 20;

/// The codecs measured; bzip2 and xz are left out, being an order of magnitude slower than
/// decoding and so measuring only themselves.
const CODECS: [Codec; 4] = [Codec::Null, Codec::Deflate, Codec::Snappy, Codec::Zstandard];

/// Records of the shape, varied by seed, until their encoding reaches [`FILE_BYTES`].
fn records<T: AvroEncode>(make: fn(u32) -> T) -> (Vec<T>, usize) {
    let mut records = Vec::new();
    let mut bytes = Vec::new();
    let mut seed = 0;
    while bytes.len() < FILE_BYTES {
        let record = make(seed);
        record.encode(&mut bytes).expect("encodes");
        records.push(record);
        seed += 1;
    }
    (records, bytes.len())
}

fn write<T: Shape>(records: &[T], codec: Codec) -> Vec<u8> {
    let mut writer = WriterBuilder::new()
        .codec(codec)
        .build::<T, _>(Vec::with_capacity(FILE_BYTES))
        .expect("a writer");
    writer.extend(records).expect("writes");
    writer.finish().expect("finishes")
}

fn shape<T: Shape>(c: &mut Criterion, name: &str, make: fn(u32) -> T) {
    let (records, bytes) = records(make);
    // For records per second: the throughput criterion reports is in bytes.
    eprintln!("{name}: {} records, {bytes} bytes", records.len());
    for codec in CODECS {
        let file = write(&records, codec);
        // Every reader reads the same records before anything is timed.
        let ours: Vec<T> = Reader::new(file.as_slice())
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(ours == records, "{name}, {codec}");

        let mut group = c.benchmark_group(format!("{name}/{codec}/read"));
        group.throughput(Throughput::Bytes(bytes as u64));
        group.sample_size(10);
        group.bench_function("generated", |b| {
            b.iter(|| {
                let reader = Reader::<T, _>::new(black_box(file.as_slice())).unwrap();
                reader.for_each(|r| drop(black_box(r.unwrap())))
            })
        });
        group.bench_function("apache_avro", |b| {
            b.iter(|| {
                let reader = apache_avro::Reader::new(black_box(file.as_slice())).unwrap();
                reader.for_each(|v| {
                    let value = apache_avro::from_value::<T::Serde>(&v.unwrap());
                    drop(black_box(value.unwrap()));
                })
            })
        });
        group.bench_function("serde_avro_fast", |b| {
            b.iter(|| {
                let mut reader =
                    serde_avro_fast::object_container_file_encoding::Reader::from_slice(black_box(
                        file.as_slice(),
                    ))
                    .unwrap();
                reader
                    .deserialize::<T::Serde>()
                    .for_each(|v| drop(black_box(v.unwrap())))
            })
        });
        group.finish();

        let mut group = c.benchmark_group(format!("{name}/{codec}/write"));
        group.throughput(Throughput::Bytes(bytes as u64));
        group.sample_size(10);
        group.bench_function("generated", |b| {
            b.iter(|| write(black_box(&records), codec).len())
        });
        group.finish();
    }
}

fn benches(c: &mut Criterion) {
    shape(c, "order_event", values::order_event);
    shape(c, "log_line", values::log_line);
    shape(c, "click_event", values::click_event);
    shape(c, "metrics", values::metrics);
}

criterion_group!(files, benches);
criterion_main!(files);
