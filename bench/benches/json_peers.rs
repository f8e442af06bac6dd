//! `fromjson` and `tojson` of a file of about 100 MB of JSON lines (`schemas/json_event.avsc`,
//! generated at run time into `target/json-bench/`), null and deflate codecs: this
//! workspace's CLI against Python fastavro and Python avro (`json_peers.py`, beside this
//! file), on the same files in the same run, with a table of the ratios at the end.
//!
//! Run it as `eval "$(.ci/container-interop)"; cargo build --release -p avdl2rs-cli; cargo
//! bench -p avdl2rs-bench --bench json_peers`. Without `AVDL2RS_INTEROP_PYTHON` (the venv's
//! python that `.ci/container-interop` names) the Python peers are skipped, saying so. The
//! release binary `target/release/avdl2rs` (or `AVDL2RS_BIN`) is required: ours `fromjson`
//! is the CLI's, run as a process, so the benchmarks do not link the CLI crate above them.
//! `AVDL2RS_JSON_BENCH_MB` sets another size of the file.
//!
//! What is timed, ours, each the whole file:
//!
//! * **library**: in the bench's process, `tojson` (the CLI's `cat`, which writes to stdout)
//!   as `cat` does it: the container crate's `JsonReader` and `serde_json::to_writer` of each
//!   record, a line each, into a 64 KiB `BufWriter` of a file;
//! * **binary**: the release binary, `fromjson -o FILE` and `cat FILE > FILE`, process
//!   start-up and all I/O included.
//!
//! The peers each do the same two things through their own APIs (see `json_peers.py`). MB/s
//! are of the JSON file in both directions. Before timing, ours `tojson` of the container file
//! ours `fromjson` wrote must give back the input's values, line for line.

use std::fmt::Write as _;
use std::fs::{self, File};
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use avdl2rs_container::JsonReader;
use criterion::{Criterion, SamplingMode};

const SCHEMA: &str = include_str!("../schemas/json_event.avsc");
const CODECS: [&str; 2] = ["null", "deflate"];
/// Timed loops of each fastavro measurement (Python avro is timed once: it takes minutes).
const PYTHON_REPEATS: u32 = 3;

/// A xorshift generator: the same file on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a>(&mut self, words: &[&'a str]) -> &'a str {
        words[self.below(words.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "request",
    "served",
    "cache",
    "miss",
    "hit",
    "user",
    "order",
    "payment",
    "accepted",
    "refused",
    "timeout",
    "retry",
    "upstream",
    "latency",
    "café",
    "naïve",
    "\\\"quoted\\\"",
    "checkout",
    "session",
    "expired",
    "token",
    "renewed",
    "shard",
    "rebalanced",
];
const SERVICES: &[&str] = &["checkout", "search", "gateway", "billing", "inventory"];
const LEVELS: &[&str] = &["DEBUG", "INFO", "WARN", "ERROR"];
const TAGS: &[&str] = &[
    "prod",
    "eu-west-1",
    "canary",
    "v2",
    "mobile",
    "web",
    "batch",
];
const COUNTERS: &[&str] = &["bytes_in", "bytes_out", "rows", "retries", "cache_hits"];

/// One record of the schema, in the Avro JSON encoding, without the newline. Doubles are
/// written as `Debug` writes them, which keeps `.0` on whole ones, as JSON encoders do.
fn event(rng: &mut Rng, id: u64, line: &mut String) {
    line.clear();
    let at = 1_764_000_000_000 + id * 37 + rng.below(1000);
    let service = rng.pick(SERVICES);
    let _ = write!(
        line,
        r#"{{"id":{id},"at":{at},"service":"{service}","host":"{service}-{:02}.internal","level":"{}","latency_ms":{:?}"#,
        rng.below(40),
        rng.pick(LEVELS),
        rng.below(2_000_000) as f64 / 1000.0,
    );
    match rng.below(3) {
        0 => line.push_str(r#","score":null"#),
        _ => {
            let score = rng.below(1 << 53) as f64 / (1u64 << 53) as f64;
            let _ = write!(line, r#","score":{{"double":{score:?}}}"#);
        }
    }
    match rng.below(2) {
        0 => line.push_str(r#","user_id":null"#),
        _ => {
            let _ = write!(line, r#","user_id":{{"long":{}}}"#, rng.below(1 << 40));
        }
    }
    line.push_str(r#","message":""#);
    for i in 0..4 + rng.below(12) {
        if i > 0 {
            line.push(' ');
        }
        line.push_str(rng.pick(WORDS));
    }
    line.push_str(r#"","tags":["#);
    for i in 0..rng.below(5) {
        if i > 0 {
            line.push(',');
        }
        let _ = write!(line, r#""{}""#, rng.pick(TAGS));
    }
    line.push_str(r#"],"counters":{"#);
    for (i, key) in COUNTERS.iter().take(rng.below(6) as usize).enumerate() {
        if i > 0 {
            line.push(',');
        }
        let _ = write!(line, r#""{key}":{}"#, rng.below(1 << 30));
    }
    line.push('}');
    match rng.below(4) {
        0 => {
            let _ = write!(
                line,
                r#","referrer":{{"string":"https://example.com/{}/{}"}}"#,
                rng.pick(SERVICES),
                rng.below(100_000)
            );
        }
        _ => line.push_str(r#","referrer":null"#),
    }
    line.push('}');
}

/// Writes the JSON lines file of about `megabytes` MB, answering its bytes and records.
fn generate(path: &Path, megabytes: u64) -> (u64, u64) {
    let mut out = BufWriter::new(File::create(path).expect("creates the events file"));
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut bytes, mut records, mut line) = (0, 0, String::new());
    while bytes < megabytes * 1_000_000 {
        event(&mut rng, records, &mut line);
        out.write_all(line.as_bytes()).unwrap();
        out.write_all(b"\n").unwrap();
        bytes += line.len() as u64 + 1;
        records += 1;
    }
    out.flush().unwrap();
    (bytes, records)
}

/// Ours `fromjson`: the release binary's.
fn fromjson(binary: &Path, schema: &Path, input: &Path, codec: &str, output: &Path) {
    let args = [
        "fromjson".as_ref(),
        "--schema".as_ref(),
        schema.as_os_str(),
        "--codec".as_ref(),
        codec.as_ref(),
        input.as_os_str(),
        "-o".as_ref(),
        output.as_os_str(),
    ];
    run_binary(binary, &args, None);
}

/// Ours `tojson`, as the CLI's `cat` does it, into a file.
fn tojson_library(input: &Path, output: &Path) {
    let reader = JsonReader::new(File::open(input).unwrap()).expect("a container file");
    let mut out = BufWriter::with_capacity(1 << 16, File::create(output).unwrap());
    for record in reader {
        serde_json::to_writer(&mut out, &record.expect("a record")).unwrap();
        out.write_all(b"\n").unwrap();
    }
    out.flush().unwrap();
}

fn run_binary(binary: &Path, args: &[&std::ffi::OsStr], stdout: Option<&Path>) {
    let mut command = Command::new(binary);
    command.args(args);
    if let Some(path) = stdout {
        command.stdout(File::create(path).unwrap());
    }
    let status = command.status().expect("runs the binary");
    assert!(status.success(), "{} {args:?}: {status}", binary.display());
}

/// The input's values and `written`'s are the same, line for line.
fn check_same(written: &Path, expected: &Path) {
    let lines = |p: &Path| BufReader::new(File::open(p).unwrap()).lines();
    let mut count = 0;
    for (a, b) in lines(written).zip(lines(expected)) {
        let (a, b) = (a.unwrap(), b.unwrap());
        let parse = |s: &str| serde_json::from_str::<serde_json::Value>(s).unwrap();
        assert_eq!(
            parse(&a),
            parse(&b),
            "line {} of {}",
            count + 1,
            written.display()
        );
        count += 1;
    }
    assert_eq!(
        count,
        lines(expected).count(),
        "lines of {}",
        written.display()
    );
}

/// The median of per-iteration times criterion took, per measurement name.
type Times = Arc<Mutex<Vec<(String, Vec<Duration>)>>>;

fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    let n = times.len();
    if n % 2 == 1 {
        times[n / 2]
    } else {
        (times[n / 2 - 1] + times[n / 2]) / 2.0
    }
}

fn bench(c: &mut Criterion, times: &Times, group: &str, name: &str, mut op: impl FnMut()) {
    let mut g = c.benchmark_group(group);
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(1));
    let times = Arc::clone(times);
    let id = format!("{group}/{name}");
    g.bench_function(name, |b| {
        b.iter_custom(|n| {
            let started = Instant::now();
            for _ in 0..n {
                op();
            }
            let took = started.elapsed();
            let mut all = times.lock().unwrap();
            match all.iter_mut().find(|(i, _)| *i == id) {
                Some((_, v)) => v.push(took / n as u32),
                None => all.push((id.clone(), vec![took / n as u32])),
            }
            took
        })
    });
    g.finish();
}

/// Python's measurements, one JSON object a line of its output.
fn python(interpreter: &str, schema: &Path, events: &Path, dir: &Path) -> Vec<serde_json::Value> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/json_peers.py");
    let output = Command::new(interpreter)
        .arg(script)
        .args([schema.as_os_str(), events.as_os_str(), dir.as_os_str()])
        .arg(PYTHON_REPEATS.to_string())
        .stderr(Stdio::inherit())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {interpreter}: {e}"));
    assert!(
        output.status.success(),
        "{script} failed: {}",
        output.status
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a measurement"))
        .collect()
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let dir = root.join("target/json-bench");
    fs::create_dir_all(&dir).unwrap();
    let schema = dir.join("json_event.avsc");
    fs::write(&schema, SCHEMA).unwrap();
    let megabytes = std::env::var("AVDL2RS_JSON_BENCH_MB")
        .ok()
        .and_then(|m| m.parse().ok())
        .unwrap_or(100);
    let events = dir.join("events.jsonl");
    let (bytes, records) = generate(&events, megabytes);
    println!("{}: {bytes} bytes, {records} records", events.display());
    let container = |codec: &str| dir.join(format!("events-{codec}.avro"));
    let ours_json = dir.join("ours.jsonl");
    let scratch = dir.join("ours.avro");
    let default_binary = root.join("target/release/avdl2rs");
    let binary = std::env::var_os("AVDL2RS_BIN").map_or(default_binary, PathBuf::from);
    assert!(
        binary.is_file(),
        "no {}: cargo build --release -p avdl2rs-cli, or set AVDL2RS_BIN",
        binary.display()
    );
    for codec in CODECS {
        fromjson(&binary, &schema, &events, codec, &container(codec));
        tojson_library(&container(codec), &ours_json);
        check_same(&ours_json, &events);
    }

    let times: Times = Arc::default();
    let mut c = Criterion::default().configure_from_args();
    for codec in CODECS {
        let group = format!("json/{codec}");
        bench(
            &mut c,
            &times,
            &format!("{group}/tojson"),
            "library",
            || tojson_library(&container(codec), &ours_json),
        );
        bench(
            &mut c,
            &times,
            &format!("{group}/fromjson"),
            "binary",
            || fromjson(&binary, &schema, &events, codec, &scratch),
        );
        let input = container(codec);
        bench(&mut c, &times, &format!("{group}/tojson"), "binary", || {
            run_binary(
                &binary,
                &["cat".as_ref(), input.as_os_str()],
                Some(&ours_json),
            )
        });
    }
    c.final_summary();

    // One row per direction, codec and tool: median seconds, MB/s, records/s.
    let mut rows: Vec<(String, String, String, f64)> = Vec::new();
    for (id, durations) in times.lock().unwrap().iter() {
        // json/CODEC/DIRECTION/NAME
        let parts: Vec<&str> = id.split('/').collect();
        let seconds = median(durations.iter().map(Duration::as_secs_f64).collect());
        rows.push((
            parts[2].into(),
            parts[1].into(),
            format!("avdl2rs {}", parts[3]),
            seconds,
        ));
    }
    match std::env::var("AVDL2RS_INTEROP_PYTHON") {
        Ok(interpreter) => {
            for m in python(&interpreter, &schema, &events, &dir) {
                let seconds = m["seconds"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_f64().unwrap())
                    .collect();
                rows.push((
                    m["direction"].as_str().unwrap().into(),
                    m["codec"].as_str().unwrap().into(),
                    m["tool"].as_str().unwrap().into(),
                    median(seconds),
                ));
            }
        }
        Err(_) => println!(
            "python skipped: set AVDL2RS_INTEROP_PYTHON (eval \"$(.ci/container-interop)\")"
        ),
    }
    let _ = fs::remove_file(&scratch);
    let _ = fs::remove_file(&ours_json);
    println!(
        "\n{bytes} bytes of JSON, {records} records; median wall-clock seconds of the whole file"
    );
    println!(
        "| direction | codec | tool | s | MB/s | records/s | ÷ fastavro (speed-up) | ÷ avro |"
    );
    println!("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |");
    let seconds_of = |direction: &str, codec: &str, tool: &str| {
        rows.iter()
            .find(|r| r.0 == direction && r.1 == codec && r.2 == tool)
            .map(|r| r.3)
    };
    for direction in ["fromjson", "tojson"] {
        for codec in CODECS {
            for row in rows.iter().filter(|r| r.0 == direction && r.1 == codec) {
                let ratio = |peer: &str| {
                    seconds_of(direction, codec, peer)
                        .map(|p| format!("{:.1}×", p / row.3))
                        .unwrap_or_default()
                };
                println!(
                    "| {direction} | {codec} | {} | {:.2} | {:.1} | {:.0} | {} | {} |",
                    row.2,
                    row.3,
                    bytes as f64 / 1e6 / row.3,
                    records as f64 / row.3,
                    ratio("fastavro"),
                    ratio("avro"),
                );
            }
        }
    }
}
