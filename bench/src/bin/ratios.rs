//! Prints the last `benches/codec.rs` run as a markdown table of ratios.
//!
//! `cargo run -p avdl2rs-bench --bin ratios [CRITERION_DIR]` reads criterion's estimates
//! (by default `$CARGO_TARGET_DIR/criterion`, else `target/criterion` of the workspace) and
//! prints, per shape and direction, the median ns/op of every implementation, how many
//! times slower each other implementation is than the generated code, and the generated
//! code's time over the hand-written codec's (the 1.25 target).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The benchmark's shapes and directions, in report order.
const SHAPES: [&str; 4] = ["order_event", "log_line", "click_event", "metrics"];
const DIRECTIONS: [&str; 2] = ["encode", "decode"];
/// The implementations, in the benchmark's order; the last two are the hand-written codec
/// and the generated one.
const IMPLEMENTATIONS: [&str; 5] = [
    "apache_value",
    "apache_serde",
    "serde_avro_fast",
    "hand_written",
    "generated",
];

fn main() -> ExitCode {
    let dir = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(default_dir);
    match table(&dir) {
        Ok(table) => {
            print!("{table}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("ratios: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Where cargo puts criterion's output for this workspace.
fn default_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"))
        .join("criterion")
}

/// The median ns/op of one benchmark, from criterion's `new/estimates.json`.
fn median_ns(dir: &Path, group: &str, implementation: &str) -> Result<f64, String> {
    let path = dir
        .join(group)
        .join(implementation)
        .join("new/estimates.json");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("{}: {e} (run the benchmark first)", path.display()))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    json["median"]["point_estimate"]
        .as_f64()
        .ok_or_else(|| format!("{}: no median.point_estimate", path.display()))
}

/// The whole markdown table.
fn table(dir: &Path) -> Result<String, String> {
    let mut out = String::from("| shape | direction |");
    for implementation in IMPLEMENTATIONS {
        out.push_str(&format!(" {implementation} ns |"));
    }
    out.push_str(" apache_value ÷ generated | apache_serde ÷ generated | serde_avro_fast ÷ generated | generated ÷ hand_written |\n");
    out.push_str(&"|---".repeat(2 + IMPLEMENTATIONS.len() + 4));
    out.push_str("|\n");
    for shape in SHAPES {
        for direction in DIRECTIONS {
            let group = format!("{shape}_{direction}");
            let times = IMPLEMENTATIONS
                .iter()
                .map(|implementation| median_ns(dir, &group, implementation))
                .collect::<Result<Vec<_>, _>>()?;
            out.push_str(&row(shape, direction, &times));
        }
    }
    Ok(out)
}

/// One row: the times, then the ratios.
fn row(shape: &str, direction: &str, times: &[f64]) -> String {
    let [apache_value, apache_serde, fast, hand, generated] = times else {
        unreachable!("one time per implementation");
    };
    let mut row = format!("| {shape} | {direction} |");
    for time in times {
        row.push_str(&format!(" {time:.1} |"));
    }
    for slower in [apache_value, apache_serde, fast] {
        row.push_str(&format!(" {:.1}× |", slower / generated));
    }
    row.push_str(&format!(" {:.2} |\n", generated / hand));
    row
}
