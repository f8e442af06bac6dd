//! `avdl2rs cat [--pretty] [--head N] FILE...`: the records of container files as JSON, one
//! per line, in the Avro JSON encoding.

use std::io::Write;

use avdl2rs_container::JsonReader;

use super::container::{failure, open, stdout_error, to_stdout};
use crate::io::Failure;

/// Arguments of `cat`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs cat orders.avro\n  \
    avdl2rs cat --head 10 --pretty part-0.avro part-1.avro\n  \
    cat orders.avro | avdl2rs cat -")]
pub struct Args {
    /// The Avro object container files, read in order; `-` for stdin.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<String>,
    /// Pretty-prints each record over several lines.
    #[arg(long)]
    pub pretty: bool,
    /// Stops after N records in all.
    #[arg(long, value_name = "N")]
    pub head: Option<u64>,
}

/// Writes the records of every file to stdout.
pub fn run(args: &Args) -> Result<(), Failure> {
    let mut left = args.head.unwrap_or(u64::MAX);
    to_stdout(|out| {
        for path in &args.files {
            if left == 0 {
                break;
            }
            let reader = JsonReader::new(open(path)?).map_err(|e| failure(path, e))?;
            for record in reader {
                if left == 0 {
                    break;
                }
                let record = record.map_err(|e| failure(path, e))?;
                if let Err(e) = write_record(out, &record, args.pretty) {
                    return stdout_error(e);
                }
                left -= 1;
            }
        }
        Ok(())
    })
}

fn write_record(
    out: &mut dyn Write,
    record: &serde_json::Value,
    pretty: bool,
) -> std::io::Result<()> {
    if pretty {
        serde_json::to_writer_pretty(&mut *out, record)?;
    } else {
        serde_json::to_writer(&mut *out, record)?;
    }
    out.write_all(b"\n")
}
