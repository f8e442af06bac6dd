//! Runs one operation of `benches/codec.rs` a given number of times, for counting its
//! instructions under valgrind, which (unlike wall-clock time) a loaded machine does not
//! disturb:
//!
//! `instructions SHAPE OPERATION IMPLEMENTATION COUNT`, with SHAPE one of `order_event`,
//! `log_line`, `click_event`, `metrics`; OPERATION `encode`, `decode`, `to_avro_bytes`
//! (IMPLEMENTATION `generated` only), `with_capacity` (IMPLEMENTATION `bare`: the allocation
//! and free of a buffer of the size `to_avro_bytes` gives, nothing encoded) or `resolve`
//! (IMPLEMENTATION `direct`, decoding the current version's bytes, or `resolving`, the
//! earlier version's through a plan; not for `metrics`); otherwise IMPLEMENTATION is a name
//! the benchmark reports (`generated`, `hand_checked`, ...).
//!
//! Run it twice under `valgrind --tool=cachegrind --cache-sim=no` with two counts; the
//! difference of the two instruction totals over the difference of the counts is the cost of
//! one operation, with the set-up (schemas, writers, the sample value) cancelled out.

use std::fmt::Debug;
use std::hint::black_box;
use std::process::ExitCode;

use avdl2rs::resolve::ResolutionPlan;
use avdl2rs::wire::decode_body;
use avdl2rs::Avro;
use avdl2rs_bench::codecs::{self, Codec, Shape, Visitor};
use avdl2rs_bench::evolution::{self, Evolved};
use avdl2rs_bench::values::{self, BENCH_SEED};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [shape, operation, implementation, count] = &args[..] else {
        eprintln!("usage: instructions SHAPE OPERATION IMPLEMENTATION COUNT");
        return ExitCode::FAILURE;
    };
    let Ok(count) = count.parse() else {
        eprintln!("instructions: COUNT must be a number, not {count:?}");
        return ExitCode::FAILURE;
    };
    let run = Run {
        operation,
        implementation,
        count,
        done: false,
    };
    let done = match (shape.as_str(), operation.as_str()) {
        ("order_event", "resolve") => run.resolve(&values::order_event(BENCH_SEED)),
        ("log_line", "resolve") => run.resolve(&values::log_line(BENCH_SEED)),
        ("click_event", "resolve") => run.resolve(&values::click_event(BENCH_SEED)),
        ("order_event", _) => run.shape(&values::order_event(BENCH_SEED)),
        ("log_line", _) => run.shape(&values::log_line(BENCH_SEED)),
        ("click_event", _) => run.shape(&values::click_event(BENCH_SEED)),
        ("metrics", _) => run.shape(&values::metrics(BENCH_SEED)),
        _ => false,
    };
    if done {
        ExitCode::SUCCESS
    } else {
        eprintln!("instructions: no operation {shape} {operation} {implementation}");
        ExitCode::FAILURE
    }
}

/// The operation to repeat, and whether it was found.
struct Run<'a> {
    operation: &'a str,
    implementation: &'a str,
    count: u64,
    done: bool,
}

impl Run<'_> {
    /// Runs the operation on `value`; whether there was one of that name.
    fn shape<T: Shape>(mut self, value: &T) -> bool {
        match (self.operation, self.implementation) {
            ("to_avro_bytes", "generated") => {
                for _ in 0..self.count {
                    black_box(black_box(value).to_avro_bytes().expect("encodes"));
                }
                return true;
            }
            ("with_capacity", "bare") => {
                // The allocation `to_avro_bytes` makes (the encoding's size plus a quarter)
                // and its free, with nothing written: the floor of any new buffer.
                let mut bytes = Vec::new();
                value.encode(&mut bytes).expect("encodes");
                let capacity = bytes.len() + bytes.len() / 4;
                for _ in 0..self.count {
                    black_box(Vec::<u8>::with_capacity(black_box(capacity)));
                }
                return true;
            }
            _ => {}
        }
        codecs::visit_all(value, &mut self).expect("every implementation accepts the schema");
        self.done
    }

    /// Decodes `value` directly from its bytes, or resolving from its earlier version's.
    fn resolve<T: Shape + Evolved>(self, value: &T) -> bool {
        match self.implementation {
            "direct" => {
                let mut bytes = Vec::new();
                value.resolved().encode(&mut bytes).expect("encodes");
                for _ in 0..self.count {
                    black_box(decode_body::<T>(black_box(&bytes)).expect("decodes"));
                }
            }
            "resolving" => {
                let plan = ResolutionPlan::reading::<T>(T::WRITER_SCHEMA).expect("compatible");
                let bytes = evolution::writer_bytes(value).expect("apache-avro writes it");
                for _ in 0..self.count {
                    black_box(plan.decode::<T>(black_box(&bytes)).expect("resolves"));
                }
            }
            _ => return false,
        }
        true
    }
}

impl Visitor for Run<'_> {
    fn visit<V, C>(&mut self, name: &'static str, mut codec: C, value: &V)
    where
        V: PartialEq + Debug + 'static,
        C: Codec<V>,
    {
        if name != self.implementation {
            return;
        }
        let mut out = Vec::with_capacity(4096);
        match self.operation {
            "encode" => {
                for _ in 0..self.count {
                    out.clear();
                    codec.encode(black_box(value), &mut out).expect("encodes");
                    black_box(out.len());
                }
            }
            "decode" => {
                codec.encode(value, &mut out).expect("encodes");
                for _ in 0..self.count {
                    black_box(codec.decode(black_box(&out)).expect("decodes"));
                }
            }
            _ => return,
        }
        self.done = true;
    }
}
