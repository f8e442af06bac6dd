//! Reading a topic of several types into one `#[derive(AvroOneOf)]` enum against reading the
//! same frames into the single generated type, through a `resolve::Consumer` whose plans are
//! warm: the cost of picking the variant by the writer's schema id.
//!
//! Groups are `one_of/<shape>` for the writer's own schema (decoded directly) and
//! `one_of/<shape>_evolved` for an older version (decoded through the plan), each with
//! `single` (`decode_confluent::<T>`) and `enum` (`decode_confluent::<Event>`). Run a short
//! pass with `cargo bench -p avdl2rs-bench --bench one_of -- --warm-up-time 1 --measurement-time 3`.
//!
//! With `--count ID COUNT` instead of criterion's arguments, the binary reads the frame of the
//! read criterion reports as `ID` (`one_of/order_event/enum`) `COUNT` times, for counting its
//! instructions under `valgrind --tool=callgrind --toggle-collect='one_of::timed_reads*'`:
//! only the timed loop is counted, so the total over `COUNT` is one read, the consumer's
//! first (planning) read of each frame left out.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use avdl2rs::resolve::{Consumer, Resolvable};
use avdl2rs::{wire, Avro, AvroOneOf};
use avdl2rs_bench::evolution::{writer_bytes, Evolved};
use avdl2rs_bench::shapes::{ClickEvent, LogLine, OrderEvent};
use avdl2rs_bench::values::{self, BENCH_SEED};
use criterion::Criterion;

/// The three shapes, as one topic would carry them.
#[derive(AvroOneOf)]
enum Event {
    Order(OrderEvent),
    Log(LogLine),
    Click(ClickEvent),
}

/// The registry's ids: 1 to 3 the current schemas, 11 to 13 the older versions.
type Registry = BTreeMap<i32, &'static str>;

fn consumer() -> Consumer<Registry> {
    Consumer::new(BTreeMap::from([
        (1, <OrderEvent as avdl2rs::AvroSchema>::SCHEMA_JSON),
        (2, <LogLine as avdl2rs::AvroSchema>::SCHEMA_JSON),
        (3, <ClickEvent as avdl2rs::AvroSchema>::SCHEMA_JSON),
        (11, OrderEvent::WRITER_SCHEMA),
        (12, LogLine::WRITER_SCHEMA),
        (13, ClickEvent::WRITER_SCHEMA),
    ]))
}

fn framed(id: i32, body: &[u8]) -> Vec<u8> {
    let mut frame = Vec::with_capacity(body.len() + wire::CONFLUENT_HEADER_LEN);
    wire::write_confluent_header(&mut frame, id);
    frame.extend_from_slice(body);
    frame
}

/// Reads `frame` as an `R` `n` times and answers the time it took. Not inlined, so that
/// callgrind's `--toggle-collect` counts exactly what criterion times.
#[inline(never)]
fn timed_reads<R: Resolvable>(consumer: &Consumer<Registry>, frame: &[u8], n: u64) -> Duration {
    let started = Instant::now();
    for _ in 0..n {
        black_box(
            consumer
                .decode_confluent::<R>(black_box(frame))
                .expect("decodes"),
        );
    }
    started.elapsed()
}

/// Where the reads go: criterion, or one read `count` times (`--count ID COUNT`), `found`
/// saying whether a read of that id was seen.
enum Mode {
    Criterion(Box<Criterion>),
    Count { id: String, count: u64, found: bool },
}

impl Mode {
    /// Runs the read of `frame` as an `R`, which criterion reports as `group/name`, once
    /// the consumer has planned it.
    fn read<R: Resolvable>(
        &mut self,
        consumer: &Consumer<Registry>,
        group: &str,
        name: &str,
        frame: &[u8],
    ) {
        consumer.decode_confluent::<R>(frame).expect("decodes");
        match self {
            Mode::Criterion(c) => {
                c.benchmark_group(group).bench_function(name, |b| {
                    b.iter_custom(|n| timed_reads::<R>(consumer, frame, n))
                });
            }
            Mode::Count { id, count, found } => {
                if *id == format!("{group}/{name}") {
                    timed_reads::<R>(consumer, frame, *count);
                    *found = true;
                }
            }
        }
    }

    /// `single` and `enum` on the frame of `value` under `id` and under the older version's
    /// id.
    fn shape<T: Avro + Evolved + Resolvable>(&mut self, name: &str, id: i32, value: &T) {
        let consumer = consumer();
        let current = framed(id, &value.to_avro_bytes().expect("encodes"));
        let older = framed(id + 10, &writer_bytes(value).expect("encodes"));
        for (group, frame) in [
            (format!("one_of/{name}"), current),
            (format!("one_of/{name}_evolved"), older),
        ] {
            self.read::<T>(&consumer, &group, "single", &frame);
            self.read::<Event>(&consumer, &group, "enum", &frame);
        }
    }

    fn all(&mut self) {
        self.shape("order_event", 1, &values::order_event(BENCH_SEED));
        self.shape("log_line", 2, &values::log_line(BENCH_SEED));
        self.shape("click_event", 3, &values::click_event(BENCH_SEED));
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut mode = match args.as_slice() {
        [flag, id, count] if flag == "--count" => {
            let Ok(count) = count.parse() else {
                eprintln!("one_of: COUNT must be a number, not {count:?}");
                return ExitCode::FAILURE;
            };
            let id = id.clone();
            Mode::Count {
                id,
                count,
                found: false,
            }
        }
        _ => Mode::Criterion(Box::new(Criterion::default().configure_from_args())),
    };
    mode.all();
    match mode {
        Mode::Criterion(c) => c.final_summary(),
        Mode::Count { id, found, .. } if !found => {
            eprintln!("one_of: no read {id}");
            return ExitCode::FAILURE;
        }
        Mode::Count { .. } => {}
    }
    ExitCode::SUCCESS
}
