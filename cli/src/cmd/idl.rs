//! `avdl2rs idl [-I DIR]... [IN] [OUT]`: IDL to `.avpr` / `.avsc` JSON.

use crate::io::{Failure, IdlInput, Output};

/// Arguments of `idl`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs idl orders.avdl orders.avpr\n  \
    cat orders.avdl | avdl2rs idl -I schemas/ > orders.avpr")]
pub struct Args {
    #[command(flatten)]
    pub input: IdlInput,
    /// Output file; `-` or absent for stdout.
    #[arg(value_name = "OUT")]
    pub output: Option<Output>,
    /// Writes compact JSON instead of pretty-printed JSON.
    #[arg(long)]
    pub compact: bool,
}

/// Parses the input and writes its JSON.
pub fn run(args: &Args) -> Result<(), Failure> {
    let file = args.input.parse()?;
    let mut text = file.to_json_string(!args.compact);
    text.push('\n');
    // The process ends right after this command: freeing the syntax tree one node at a time
    // would only add to the run time.
    std::mem::forget(file);
    args.output
        .clone()
        .unwrap_or_default()
        .write(text.as_bytes())
}
