//! `avdl2rs count FILE`: the number of records in a container file.

use super::container::{failure, FileInput};
use crate::io::{open, stdout_error, to_stdout, Failure};

/// Arguments of `count`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs count orders.avro")]
pub struct Args {
    #[command(flatten)]
    pub input: FileInput,
}

/// Prints the record count, after reading (and decompressing) every block.
pub fn run(args: &Args) -> Result<(), Failure> {
    let path = &args.input.path;
    let count = avdl2rs_container::count_records(open(path)?).map_err(|e| failure(path, e))?;
    to_stdout(|out| writeln!(out, "{count}").or_else(stdout_error))
}
