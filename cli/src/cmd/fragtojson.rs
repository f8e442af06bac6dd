//! `avdl2rs fragtojson --schema FILE [IN|-] [-o OUT]`: one value's raw Avro binary encoding
//! (no header, no framing) to Avro's JSON encoding.

use std::io::Read;

use crate::io::{input_name, open, Failure, Output};
use crate::schema_file::SchemaOption;

/// Arguments of `fragtojson`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs fragtojson --schema examples/orders/schemas/orders.avdl order.bin\n  \
    avdl2rs fragtojson --schema order.avsc --pretty - < order.bin")]
pub struct Args {
    /// The schema of the value.
    #[command(flatten)]
    pub schema: SchemaOption,
    /// The binary encoding of one value, nothing before or after it; `-` or absent for stdin.
    #[arg(value_name = "IN", default_value = "-")]
    pub input: String,
    /// Where the JSON goes; `-` or absent for stdout.
    #[arg(short = 'o', long = "output", value_name = "OUT", default_value = "-")]
    pub output: Output,
    /// Pretty-prints the value over several lines.
    #[arg(long)]
    pub pretty: bool,
}

/// Decodes the input's value.
pub fn run(args: &Args) -> Result<(), Failure> {
    let json = args.schema.avro_json()?;
    let name = input_name(&args.input);
    let mut body = Vec::new();
    open(&args.input)?
        .read_to_end(&mut body)
        .map_err(|e| Failure::Message(format!("cannot read {name}: {e}")))?;
    let value = json
        .decode(&body)
        .map_err(|e| Failure::Message(format!("{name}: {e}")))?;
    args.output.write_json(&value, !args.pretty)
}
