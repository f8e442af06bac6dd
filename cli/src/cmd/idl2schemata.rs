//! `avdl2rs idl2schemata [-I DIR]... [IN] [OUTDIR]`: one `<Name>.avsc` per named type.

use std::path::PathBuf;

use crate::io::{Failure, IdlInput, Output};

/// Arguments of `idl2schemata`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:\n  avdl2rs idl2schemata orders.avdl schemas/")]
pub struct Args {
    #[command(flatten)]
    pub input: IdlInput,
    /// Directory the `.avsc` files are written to (created if missing).
    #[arg(value_name = "OUTDIR", default_value = ".")]
    pub out_dir: PathBuf,
    /// Writes compact JSON instead of pretty-printed JSON.
    #[arg(long)]
    pub compact: bool,
}

/// Parses the input and writes each named type's schema as `<OUTDIR>/<SimpleName>.avsc`.
/// Types with the same simple name overwrite each other, as with the reference tool.
pub fn run(args: &Args) -> Result<(), Failure> {
    let file = args.input.parse()?;
    let schemas = file.named_schemas().map_err(Failure::Invalid)?;
    std::fs::create_dir_all(&args.out_dir).map_err(|e| Failure::io(&args.out_dir, e))?;
    for (full_name, schema) in schemas {
        let simple = full_name.rsplit('.').next().unwrap_or(&full_name);
        let path = args.out_dir.join(format!("{simple}.avsc"));
        Output::File(path).write_json(&schema, args.compact)?;
    }
    Ok(())
}
