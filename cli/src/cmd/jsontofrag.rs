//! `avdl2rs jsontofrag --schema FILE [IN|-] [-o OUT]`: one value in Avro's JSON encoding
//! to its raw Avro binary encoding (no header, no framing).

use crate::io::{input_name, open, Failure, Output};
use crate::json_values::JsonValues;
use crate::schema_file::SchemaOption;

/// Arguments of `jsontofrag`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    echo '{\"id\": 1, \"amount\": 9.5, \"user_id\": 7, \"discount\": null}' \\\n      \
      | avdl2rs jsontofrag --schema examples/orders/schemas/orders.avdl -o order.bin\n  \
    avdl2rs jsontofrag --schema order.avsc order.json | xxd")]
pub struct Args {
    /// The schema of the value.
    #[command(flatten)]
    pub schema: SchemaOption,
    /// One JSON value; `-` or absent for stdin.
    #[arg(value_name = "IN", default_value = "-")]
    pub input: String,
    /// Where the binary goes; `-` or absent for stdout.
    #[arg(short = 'o', long = "output", value_name = "OUT", default_value = "-")]
    pub output: Output,
}

/// Encodes the input's value.
pub fn run(args: &Args) -> Result<(), Failure> {
    let json = args.schema.avro_json()?;
    let name = input_name(&args.input);
    let value = JsonValues::new(open(&args.input)?, name).single()?;
    let mut datum = Vec::new();
    json.encode(&value, &mut datum)
        .map_err(|e| Failure::Message(format!("{name}: {e}")))?;
    args.output.write(&datum)
}
