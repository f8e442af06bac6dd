//! Writing and reading container files (`avdl2rs-container`) of the benchmark shapes, per codec,
//! in one run: the generated type through the container crate's `Reader` (as it reads by default, with
//! compressed blocks decompressed ahead on a worker thread per core, and for compressed files
//! also on the reading thread alone, `generated_one_thread`), apache-avro's `Reader` with
//! `from_value`, and serde_avro_fast's container reader.
//!
//! Each file holds about 100 MB of records (uncompressed); throughput is reported against
//! that size, and the record count of each shape is printed to stderr for records per second.
//! Groups are `<shape>/<codec>/read` and `<shape>/<codec>/write`. The records and files are
//! made when a benchmark that needs them first runs, once per run, so that building the
//! benchmark (`cargo bench --no-run`) costs nothing and a filter skips the files it does not
//! select. Run a short pass with
//! `cargo bench -p avdl2rs-bench --bench container_files -- --warm-up-time 1 --measurement-time 3`.

use std::cell::OnceCell;
use std::hint::black_box;

use avdl2rs::AvroEncode;
use avdl2rs_bench::codecs::Shape;
use avdl2rs_bench::values;
use avdl2rs_container::{Codec, Reader, WriterBuilder};
use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};

/// The uncompressed size of each file.
const FILE_BYTES: usize = 100 << 20;

/// Records of the shape, varied by seed, until their encoding reaches [`FILE_BYTES`].
fn records<T: AvroEncode>(name: &str, make: fn(u32) -> T) -> Vec<T> {
    let mut records = Vec::new();
    let mut bytes = Vec::new();
    let mut seed = 0;
    while bytes.len() < FILE_BYTES {
        let record = make(seed);
        record.encode(&mut bytes).expect("encodes");
        records.push(record);
        seed += 1;
    }
    eprintln!("{name}: {} records, {} bytes", records.len(), bytes.len());
    records
}

/// Writes `records` as a file compressed by `codec` into `out` (cleared first).
fn write<T: Shape>(records: &[T], codec: Codec, out: &mut Vec<u8>) {
    out.clear();
    let mut writer = WriterBuilder::new()
        .codec(codec)
        .build::<T, _>(out)
        .expect("a writer");
    writer.extend(records).expect("writes");
    writer.finish().expect("finishes");
}

/// The file of `records` with `codec`, checked to read back as the same records.
fn file<T: Shape>(records: &[T], codec: Codec) -> Vec<u8> {
    let mut file = Vec::new();
    write(records, codec, &mut file);
    let read: Vec<T> = Reader::new(file.as_slice())
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(read == records, "{codec}");
    file
}

/// Whether serde_avro_fast can read the codec in this build: its `xz` feature links a second
/// copy of liblzma (through `xz2`), which cargo refuses beside `liblzma-sys`.
fn serde_avro_fast_reads(codec: Codec) -> bool {
    codec != Codec::Xz
}

fn shape<T: Shape>(c: &mut Criterion, name: &str, make: fn(u32) -> T) {
    let records = OnceCell::new();
    let records = || records.get_or_init(|| self::records(name, make)).as_slice();
    for codec in Codec::ALL {
        let file = OnceCell::new();
        let file = || file.get_or_init(|| self::file(records(), codec)).as_slice();

        let mut group = c.benchmark_group(format!("{name}/{codec}/read"));
        group.throughput(Throughput::Bytes(FILE_BYTES as u64));
        group.sample_size(10);
        group.sampling_mode(SamplingMode::Flat);
        group.bench_function("generated", |b| {
            let file = file();
            b.iter(|| {
                let reader = Reader::<T, _>::new(black_box(file)).unwrap();
                reader.for_each(|r| drop(black_box(r.unwrap())))
            })
        });
        if codec != Codec::Null {
            group.bench_function("generated_one_thread", |b| {
                let file = file();
                b.iter(|| {
                    let reader = Reader::<T, _>::new(black_box(file)).unwrap();
                    let reader = reader.decompression_threads(0);
                    reader.for_each(|r| drop(black_box(r.unwrap())))
                })
            });
        }
        group.bench_function("apache_avro", |b| {
            let file = file();
            b.iter(|| {
                let reader = apache_avro::Reader::new(black_box(file)).unwrap();
                reader.for_each(|v| {
                    let value = apache_avro::from_value::<T::Serde>(&v.unwrap());
                    drop(black_box(value.unwrap()));
                })
            })
        });
        if serde_avro_fast_reads(codec) {
            group.bench_function("serde_avro_fast", |b| {
                let file = file();
                b.iter(|| {
                    let mut reader =
                        serde_avro_fast::object_container_file_encoding::Reader::from_slice(
                            black_box(file),
                        )
                        .unwrap();
                    reader
                        .deserialize::<T::Serde>()
                        .for_each(|v| drop(black_box(v.unwrap())))
                })
            });
        }
        group.finish();

        let mut group = c.benchmark_group(format!("{name}/{codec}/write"));
        group.throughput(Throughput::Bytes(FILE_BYTES as u64));
        group.sample_size(10);
        group.sampling_mode(SamplingMode::Flat);
        group.bench_function("generated", |b| {
            let (records, mut out) = (records(), Vec::new());
            b.iter(|| write(black_box(records), codec, &mut out))
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
