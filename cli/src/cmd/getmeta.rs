//! `avdl2rs getmeta [--key KEY] FILE`: the metadata in a container file's header.

use avdl2rs_container::JsonReader;

use super::container::{failure, FileInput};
use crate::io::{open, stdout_error, to_stdout, Failure};

/// Arguments of `getmeta`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs getmeta orders.avro\n  \
    avdl2rs getmeta --key avro.codec orders.avro")]
pub struct Args {
    #[command(flatten)]
    pub input: FileInput,
    /// Prints only the value of this key (an error when the file has none).
    #[arg(long, value_name = "KEY")]
    pub key: Option<String>,
}

/// Prints `key<TAB>value` lines (values as UTF-8, invalid bytes replaced), or one value.
pub fn run(args: &Args) -> Result<(), Failure> {
    let path = &args.input.path;
    let reader = JsonReader::new(open(path)?).map_err(|e| failure(path, e))?;
    let metadata = reader.header().metadata();
    let text = match &args.key {
        Some(key) => match metadata.get(key) {
            Some(value) => format!("{}\n", String::from_utf8_lossy(value)),
            None => return Err(Failure::Message(format!("{path}: no metadata key {key:?}"))),
        },
        None => metadata
            .iter()
            .map(|(key, value)| format!("{key}\t{}\n", String::from_utf8_lossy(value)))
            .collect(),
    };
    to_stdout(|out| out.write_all(text.as_bytes()).or_else(stdout_error))
}
