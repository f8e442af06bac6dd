//! `avdl2rs getschema FILE`: the writer schema in a container file's header.

use avdl2rs_container::JsonReader;

use super::container::{failure, FileInput};
use crate::io::{json_text, open, stdout_error, to_stdout, Failure};

/// Arguments of `getschema`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs getschema orders.avro > orders.avsc")]
pub struct Args {
    #[command(flatten)]
    pub input: FileInput,
    /// Writes the schema exactly as stored instead of pretty-printed.
    #[arg(long)]
    pub raw: bool,
}

/// Prints the schema, pretty-printed unless `--raw`.
pub fn run(args: &Args) -> Result<(), Failure> {
    let path = &args.input.path;
    let reader = JsonReader::new(open(path)?).map_err(|e| failure(path, e))?;
    let stored = reader.header().schema_json();
    let text = match serde_json::from_str(stored) {
        Ok(value) if !args.raw => json_text(&value, false),
        _ => format!("{stored}\n"),
    };
    to_stdout(|out| out.write_all(text.as_bytes()).or_else(stdout_error))
}
