//! Runs one decode of `benches/generic.rs` a given number of times, for counting its
//! instructions under valgrind, which a loaded machine does not disturb as it does
//! wall-clock time:
//!
//! `generic_instructions SHAPE IMPLEMENTATION COUNT`, with SHAPE `order_event` or `log_line`
//! and IMPLEMENTATION `generic` (`GenericSchema::decode`), `generic_into`
//! (`GenericSchema::decode_into` one value kept across the runs) or `apache_avro`
//! (`GenericDatumReader::read_value`). Each decoded value is dropped before the next, as in
//! the benchmark.
//!
//! Run it twice under `valgrind --tool=cachegrind --cache-sim=no` with two counts; the
//! difference of the two instruction totals over the difference of the counts is the cost of
//! one decode, with the set-up (schemas, readers, the sample bytes) cancelled out.

use std::hint::black_box;
use std::process::ExitCode;

use apache_avro::reader::datum::GenericDatumReader;
use avdl2rs::generic::{GenericSchema, GenericValue};
use avdl2rs::Avro;
use avdl2rs_bench::values::{self, BENCH_SEED};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [shape, implementation, count] = &args[..] else {
        eprintln!("usage: generic_instructions SHAPE IMPLEMENTATION COUNT");
        return ExitCode::FAILURE;
    };
    let Ok(count) = count.parse() else {
        eprintln!("generic_instructions: COUNT must be a number, not {count:?}");
        return ExitCode::FAILURE;
    };
    let done = match shape.as_str() {
        "order_event" => repeat(&values::order_event(BENCH_SEED), implementation, count),
        "log_line" => repeat(&values::log_line(BENCH_SEED), implementation, count),
        _ => false,
    };
    if done {
        ExitCode::SUCCESS
    } else {
        eprintln!("generic_instructions: no decode {shape} {implementation}");
        ExitCode::FAILURE
    }
}

/// Decodes the encoding of `value` `count` times with `implementation`; whether there is
/// one of that name.
fn repeat<T: Avro>(value: &T, implementation: &str, count: u64) -> bool {
    let bytes = value.to_avro_bytes().expect("the sample value encodes");
    let schema = apache_avro::Schema::parse_str(T::SCHEMA_JSON).expect("apache-avro schema");
    let reader = GenericDatumReader::builder(&schema)
        .build()
        .expect("reader");
    let generic = GenericSchema::new(T::SCHEMA_JSON).expect("generic schema");
    let mut kept = GenericValue::Null;
    match implementation {
        "generic" => times(count, || drop(black_box(generic.decode(black_box(&bytes))))),
        "generic_into" => times(count, || {
            drop(black_box(generic.decode_into(black_box(&bytes), &mut kept)))
        }),
        "apache_avro" => times(count, || {
            drop(black_box(reader.read_value(&mut black_box(&bytes[..]))))
        }),
        _ => return false,
    }
    true
}

/// Calls `decode` `count` times.
fn times(count: u64, mut decode: impl FnMut()) {
    for _ in 0..count {
        decode();
    }
}
