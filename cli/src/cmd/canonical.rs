//! `avdl2rs canonical FILE [--type NAME]`: a schema's Parsing Canonical Form (Avro
//! specification, "Parsing Canonical Form for Schemas"), the text its fingerprints are of.

use std::path::PathBuf;

use crate::io::{Failure, Output};
use crate::schema_file::SchemaFile;

/// Arguments of `canonical`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs canonical order.avsc\n  \
    avdl2rs canonical examples/orders/schemas/orders.avdl --type OrderEvent")]
pub struct Args {
    /// The schema.
    #[command(flatten)]
    pub file: SchemaFile,
    /// Directory searched for IDL imports not found beside the importing file (repeatable).
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
}

/// Prints the canonical form, with a final line break.
pub fn run(args: &Args) -> Result<(), Failure> {
    let loaded = args.file.load(&args.include_dirs)?;
    Output::Stdout.write(format!("{}\n", loaded.canonical_form()).as_bytes())
}
