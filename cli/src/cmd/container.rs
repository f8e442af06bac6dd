//! What the container-file commands (`cat`, `getschema`, `getmeta`, `count`) share: opening
//! a file or stdin (`-`), and failures that name the file.

use std::fs::File;
use std::io::{BufWriter, Read, Write};

use crate::io::Failure;

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

/// A failure reading the container file `path`.
pub fn failure(path: &str, error: avdl2rs_container::Error) -> Failure {
    let name = if path == "-" { "<stdin>" } else { path };
    Failure::Message(format!("{name}: {error}"))
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
