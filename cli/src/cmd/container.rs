//! What the container-file commands share: opening a file or stdin (`-`), the `--codec`
//! of those that write one, and failures that name the file.

use std::fs::File;
use std::io::{BufWriter, Read, Write};

use avdl2rs_container::Codec;

use crate::io::{Failure, Output};

/// An input file of a container-file command.
#[derive(Debug, Clone, clap::Args)]
pub struct FileInput {
    /// The Avro object container file; `-` for stdin.
    #[arg(value_name = "FILE")]
    pub path: String,
}

/// Opens `path`, or stdin for `-`.
pub fn open(path: &str) -> Result<Box<dyn Read>, Failure> {
    if path == "-" {
        return Ok(Box::new(std::io::stdin().lock()));
    }
    File::open(path)
        .map(|file| Box::new(file) as Box<dyn Read>)
        .map_err(|e| Failure::Message(format!("cannot read {path}: {e}")))
}

/// The name of the input `path` in messages.
pub fn input_name(path: &str) -> &str {
    if path == "-" {
        "<stdin>"
    } else {
        path
    }
}

/// A failure reading the container file `path`.
pub fn failure(path: &str, error: avdl2rs_container::Error) -> Failure {
    Failure::Message(format!("{}: {error}", input_name(path)))
}

/// A failure writing the container file `output`.
pub fn write_failure(output: &Output, error: avdl2rs_container::Error) -> Failure {
    Failure::Message(format!("{}: {error}", output.name()))
}

/// The codec of the file a command writes.
#[derive(Debug, Clone, clap::Args)]
pub struct CodecArg {
    /// The compression codec of the blocks: null, deflate, snappy, zstandard, bzip2 or xz.
    #[arg(long = "codec", value_name = "CODEC", default_value = "null", value_parser = parse_codec)]
    pub codec: Codec,
}

/// A codec by its name in the header.
pub fn parse_codec(name: &str) -> Result<Codec, String> {
    Codec::from_name(name).map_err(|e| e.to_string())
}

/// Runs `write` on a buffered stdout; a reader that stops early (a closed pipe, as with
/// `| head`) is not an error.
pub fn to_stdout(write: impl FnOnce(&mut dyn Write) -> Result<(), Failure>) -> Result<(), Failure> {
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    write(&mut out)?;
    out.flush().or_else(stdout_error)
}

/// A write error on stdout: a closed pipe ends the output quietly.
pub fn stdout_error(error: std::io::Error) -> Result<(), Failure> {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        return Ok(());
    }
    Err(Failure::Message(format!("cannot write to stdout: {error}")))
}
