//! `avdl2rs concat IN... OUT`: container files of one schema joined into one, their blocks
//! copied as they are stored when their codec is the output's, recompressed otherwise.

use avdl2rs::schema::SchemaSet;
use avdl2rs_container::{BlockReader, Header};

use super::container::{
    failure, keeping_metadata, not_an_input, parse_codec, transfer, write_failure, Transfer,
};
use crate::io::{input_name, open, Failure, Output};

/// Arguments of `concat`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs concat part-0.avro part-1.avro part-2.avro all.avro\n  \
    avdl2rs concat --codec zstandard day-*.avro week.avro\n\n\
    Every input must have the first one's schema (compared by Parsing Canonical Form). The\n\
    output takes the first input's schema text and metadata, and its codec unless --codec.")]
pub struct Args {
    /// The input files, then the output file; `-` for stdin (one input) or stdout (the output).
    #[arg(value_name = "IN... OUT", required = true, num_args = 2..)]
    pub files: Vec<String>,
    /// The codec of the output, instead of the first input's.
    #[arg(long, value_name = "CODEC", value_parser = parse_codec)]
    pub codec: Option<avdl2rs_container::Codec>,
}

/// Writes the blocks of every input, in order.
pub fn run(args: &Args) -> Result<(), Failure> {
    let Some((output, inputs)) = args.files.split_last() else {
        return Err(Failure::Message("give the inputs and the output".into()));
    };
    let Ok(output) = output.parse::<Output>();
    not_an_input(inputs, &output)?;
    let first = &inputs[0];
    let reader = BlockReader::new(open(first)?).map_err(|e| failure(first, e))?;
    let header = reader.header().clone();
    let canonical = canonical_form(first, &header)?;
    let codec = args.codec.unwrap_or(header.codec());
    output.write_with(|out| {
        let mut writer = keeping_metadata(&header)
            .codec(codec)
            .build_datums(header.schema_json(), out)
            .map_err(|e| write_failure(&output, e))?;
        transfer(reader, first, &mut writer, &output, Transfer::Copy)?;
        for path in &inputs[1..] {
            let reader = BlockReader::new(open(path)?).map_err(|e| failure(path, e))?;
            if canonical_form(path, reader.header())? != canonical {
                return Err(Failure::Message(format!(
                    "{}: its schema is not {}'s (their Parsing Canonical Forms differ)",
                    input_name(path),
                    input_name(first)
                )));
            }
            transfer(reader, path, &mut writer, &output, Transfer::Copy)?;
        }
        writer.finish().map_err(|e| write_failure(&output, e))?;
        Ok(())
    })
}

/// The Parsing Canonical Form of the schema in the header of `path`.
fn canonical_form(path: &str, header: &Header) -> Result<String, Failure> {
    let mut set = SchemaSet::new();
    let schema = set.parse_str(header.schema_json()).map_err(|e| {
        Failure::Message(format!(
            "{}: invalid schema in the file header: {e}",
            input_name(path)
        ))
    })?;
    Ok(set.canonical_form(&schema))
}
