//! `avdl2rs recodec --codec C IN OUT`: a container file with every block recompressed in
//! another codec, block by block, its schema, metadata and records kept.

use avdl2rs_container::{BlockReader, Codec};

use super::container::{
    failure, keeping_metadata, not_an_input, parse_codec, transfer, write_failure, Transfer,
};
use crate::io::{open, Failure, Output};

/// Arguments of `recodec`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs recodec --codec zstandard orders.avro orders.zstd.avro\n  \
    avdl2rs recodec --codec null - - < orders.avro | avdl2rs count -")]
pub struct Args {
    /// The codec of the output.
    #[arg(long, value_name = "CODEC", value_parser = parse_codec)]
    pub codec: Codec,
    /// The input file; `-` for stdin.
    #[arg(value_name = "IN")]
    pub input: String,
    /// The output file; `-` for stdout.
    #[arg(value_name = "OUT")]
    pub output: Output,
}

/// Writes every block of the input again, compressed with the new codec.
pub fn run(args: &Args) -> Result<(), Failure> {
    let input = &args.input;
    not_an_input(std::slice::from_ref(input), &args.output)?;
    let reader = BlockReader::new(open(input)?).map_err(|e| failure(input, e))?;
    let header = reader.header().clone();
    args.output.write_with(|out| {
        let mut writer = keeping_metadata(&header)
            .codec(args.codec)
            .build_datums(header.schema_json(), out)
            .map_err(|e| write_failure(&args.output, e))?;
        transfer(
            reader,
            input,
            &mut writer,
            &args.output,
            Transfer::Recompress,
        )?;
        writer
            .finish()
            .map_err(|e| write_failure(&args.output, e))?;
        Ok(())
    })
}
