//! `avdl2rs fromjson --schema FILE [IN|-] [-o OUT]`: JSON values in Avro's JSON encoding
//! (JSON lines, or values one after another) into a container file, streamed: one value in
//! memory at a time, one block in the writer.

use avdl2rs_container::{Codec, WriterBuilder};

use super::container::{write_failure, CodecArg};
use crate::io::{input_name, open, Failure, Output};
use crate::json_values::JsonValues;
use crate::schema_file::SchemaOption;

/// Arguments of `fromjson`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs fromjson --schema orders.avsc orders.jsonl -o orders.avro\n  \
    avdl2rs fromjson --schema schemas/orders.avdl --type OrderEvent --codec zstandard - < orders.jsonl > orders.avro\n\n\
    Each value is in Avro's JSON encoding: a union value as {\"<branch>\": value} or null,\n\
    bytes and fixed as strings of code points U+0000 to U+00FF; a missing field takes its default.")]
pub struct Args {
    /// The schema of the records.
    #[command(flatten)]
    pub schema: SchemaOption,
    /// The compression codec of the blocks.
    #[command(flatten)]
    pub codec: CodecArg,
    /// JSON values, one per line or simply one after another; `-` or absent for stdin.
    #[arg(value_name = "IN", default_value = "-")]
    pub input: String,
    /// The container file to write; `-` or absent for stdout.
    #[arg(short = 'o', long = "output", value_name = "OUT", default_value = "-")]
    pub output: Output,
}

/// Writes every value of the input as a record.
pub fn run(args: &Args) -> Result<(), Failure> {
    let loaded = args.schema.load()?;
    let schema_json = loaded.json();
    let json = loaded.into_avro_json();
    let values = JsonValues::new(open(&args.input)?, input_name(&args.input));
    let codec: Codec = args.codec.codec;
    let failure = |e| write_failure(&args.output, e);
    args.output.write_with(|out| {
        let mut writer = WriterBuilder::new()
            .codec(codec)
            .build_datums(&schema_json, out)
            .map_err(failure)?;
        let mut datum = Vec::new();
        let name = values.name().to_owned();
        for value in values {
            let (line, value) = value?;
            datum.clear();
            let items = json
                .encode(&value, &mut datum)
                .map_err(|e| Failure::Message(format!("{name}:{line}: {e}")))?;
            writer
                .append_encoded_counted(&datum, items)
                .map_err(failure)?;
        }
        writer.finish().map_err(failure)?;
        Ok(())
    })
}
