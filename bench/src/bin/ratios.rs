//! Prints `benches/codec.rs` results as markdown tables of ratios.
//!
//! `cargo run -p avdl2rs-bench --bin ratios [-- [--dir CRITERION_DIR] [BASELINE...]]` reads
//! criterion's estimates (by default under `$CARGO_TARGET_DIR/criterion`, else the
//! workspace's `target/criterion`) and prints, per shape and direction, the median ns/op of
//! every implementation, how many times slower each serde-based implementation is than the
//! generated code, and the generated code's time over each hand-written codec's; then, per
//! shape, `to_avro_bytes` over `encode` into a reused buffer, and resolving decode over
//! direct decode.
//!
//! A table whose benchmarks were not run (a run filtered to some groups) is left out, with a
//! message naming what is missing. Without baselines it reads the last run (`new`). On a
//! noisy machine, save several runs (`cargo bench -p avdl2rs-bench -- --save-baseline run1`,
//! `run2`, ...) and name them: each time is then the median over the runs, and the last two
//! columns also show the range of the per-run ratios.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The benchmark's shapes and directions, in report order.
const SHAPES: [&str; 4] = ["order_event", "log_line", "click_event", "metrics"];
const DIRECTIONS: [&str; 2] = ["encode", "decode"];
/// The implementations, in the benchmark's order: three serde-based ones, then the two
/// hand-written codecs and the generated one.
const IMPLEMENTATIONS: [&str; 6] = [
    "apache_value",
    "apache_serde",
    "serde_avro_fast",
    "hand_checked",
    "hand_unchecked",
    "generated",
];
/// The index of the first hand-written codec; the serde-based ones come before it.
const HAND: usize = 3;
const GENERATED: usize = 5;

fn main() -> ExitCode {
    let (dir, baselines) = match arguments(std::env::args().skip(1)) {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("ratios: {message}");
            return ExitCode::FAILURE;
        }
    };
    // A filtered run has some tables' results only: print those, and say which are missing.
    let tables: [Table; 3] = [table, new_buffer, resolve];
    let mut printed = 0;
    for table in tables {
        match table(&dir, &baselines) {
            Ok(table) => {
                print!("{}{table}", if printed > 0 { "\n" } else { "" });
                printed += 1;
            }
            Err(message) => eprintln!("ratios: {message}"),
        }
    }
    if printed > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// A function printing one table from the criterion directory and the baselines.
type Table = fn(&Path, &[String]) -> Result<String, String>;

/// The criterion directory and the baselines to read.
fn arguments(mut args: impl Iterator<Item = String>) -> Result<(PathBuf, Vec<String>), String> {
    let mut dir = default_dir();
    let mut baselines = Vec::new();
    while let Some(arg) = args.next() {
        if arg == "--dir" {
            dir = args.next().ok_or("--dir needs a directory")?.into();
        } else {
            baselines.push(arg);
        }
    }
    if baselines.is_empty() {
        baselines.push("new".to_string());
    }
    Ok((dir, baselines))
}

/// Where cargo puts criterion's output for this workspace.
fn default_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"))
        .join("criterion")
}

/// The median ns/op of one benchmark in one baseline, from criterion's `estimates.json`.
fn median_ns(dir: &Path, group: &str, implementation: &str, baseline: &str) -> Result<f64, String> {
    let path = dir
        .join(group)
        .join(implementation)
        .join(baseline)
        .join("estimates.json");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("{}: {e} (run the benchmark first)", path.display()))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    json["median"]["point_estimate"]
        .as_f64()
        .ok_or_else(|| format!("{}: no median.point_estimate", path.display()))
}

/// The median of some numbers (the mean of the middle two for an even count).
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    if values.len().is_multiple_of(2) {
        (values[middle - 1] + values[middle]) / 2.0
    } else {
        values[middle]
    }
}

/// The whole markdown table.
fn table(dir: &Path, baselines: &[String]) -> Result<String, String> {
    let mut out = String::from("| shape | direction |");
    for implementation in IMPLEMENTATIONS {
        out.push_str(&format!(" {implementation} ns |"));
    }
    for implementation in &IMPLEMENTATIONS[..HAND] {
        out.push_str(&format!(" {implementation} ÷ generated |"));
    }
    for implementation in &IMPLEMENTATIONS[HAND..GENERATED] {
        out.push_str(&format!(" generated ÷ {implementation} |"));
    }
    out.push('\n');
    out.push_str(&"|---".repeat(2 + IMPLEMENTATIONS.len() + GENERATED));
    out.push_str("|\n");
    for shape in SHAPES {
        for direction in DIRECTIONS {
            let group = format!("{shape}_{direction}");
            // runs[baseline][implementation]
            let runs = baselines
                .iter()
                .map(|baseline| {
                    IMPLEMENTATIONS
                        .iter()
                        .map(|implementation| median_ns(dir, &group, implementation, baseline))
                        .collect::<Result<Vec<_>, _>>()
                })
                .collect::<Result<Vec<_>, _>>()?;
            out.push_str(&row(shape, direction, &runs));
        }
    }
    Ok(out)
}

/// The table of `to_avro_bytes` against `encode` into a reused buffer.
fn new_buffer(dir: &Path, baselines: &[String]) -> Result<String, String> {
    let pair = Pair {
        group: "new_buffer",
        base: ("reused_buffer", "encode, reused buffer"),
        other: ("to_avro_bytes", "to_avro_bytes"),
    };
    pair.table(dir, baselines, &SHAPES)
}

/// The table of resolving decode against direct decode.
fn resolve(dir: &Path, baselines: &[String]) -> Result<String, String> {
    let pair = Pair {
        group: "resolve",
        base: ("direct", "direct decode"),
        other: ("resolving", "resolving decode"),
    };
    pair.table(dir, baselines, &SHAPES[..3])
}

/// Two functions of a per-shape group, one timed against the other: each is a function
/// name and the column title.
struct Pair {
    group: &'static str,
    base: (&'static str, &'static str),
    other: (&'static str, &'static str),
}

impl Pair {
    /// The table of the two functions' median times over the runs, and their ratio.
    fn table(&self, dir: &Path, baselines: &[String], shapes: &[&str]) -> Result<String, String> {
        let (base, other) = (self.base.1, self.other.1);
        let mut out = format!("| shape | {base} ns | {other} ns | {other} ÷ {base} |\n");
        out.push_str("|---|---|---|---|\n");
        for shape in shapes {
            let group = format!("{shape}_{}", self.group);
            let median_of = |function: &str| -> Result<f64, String> {
                let runs = baselines
                    .iter()
                    .map(|baseline| median_ns(dir, &group, function, baseline))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(median(runs))
            };
            let (base, other) = (median_of(self.base.0)?, median_of(self.other.0)?);
            out.push_str(&format!(
                "| {shape} | {base:.1} | {other:.1} | {:.2} |\n",
                other / base
            ));
        }
        Ok(out)
    }
}

/// One row: the times, then the ratios, from the times of one or more runs.
fn row(shape: &str, direction: &str, runs: &[Vec<f64>]) -> String {
    let times: Vec<f64> = (0..IMPLEMENTATIONS.len())
        .map(|i| median(runs.iter().map(|run| run[i]).collect()))
        .collect();
    let generated = times[GENERATED];
    let mut row = format!("| {shape} | {direction} |");
    for time in &times {
        row.push_str(&format!(" {time:.1} |"));
    }
    for slower in &times[..HAND] {
        row.push_str(&format!(" {:.1}× |", slower / generated));
    }
    for hand in HAND..GENERATED {
        row.push_str(&format!(" {:.2}", generated / times[hand]));
        if runs.len() > 1 {
            let per_run: Vec<f64> = runs.iter().map(|run| run[GENERATED] / run[hand]).collect();
            let low = per_run.iter().copied().fold(f64::INFINITY, f64::min);
            let high = per_run.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            row.push_str(&format!(" ({low:.2}–{high:.2})"));
        }
        row.push_str(" |");
    }
    row.push('\n');
    row
}
