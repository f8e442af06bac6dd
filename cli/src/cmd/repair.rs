//! `avdl2rs repair IN OUT`: the records that can still be read from a damaged container
//! file, written to a new one of the same schema, codec, metadata and sync marker, with a
//! report of every damaged block on stderr. The recovery is the container crate's
//! [`Salvage`]; this only writes what it keeps.

use std::path::PathBuf;
use std::process::ExitCode;

use avdl2rs_container::{Salvage, Salvaged};

use super::container::{failure, keeping_metadata, report_damage, Losses};
use crate::io::{self, open, Failure, Output};

/// Arguments of `repair`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit status: 0 when nothing was damaged, 1 when records were lost (the \
    good ones are written and each damaged block is reported on stderr), 2 when the file \
    could not be repaired (no readable header, OUT not writable).\n\n\
    Examples:\n  \
    avdl2rs repair orders.avro orders.repaired.avro\n  \
    avdl2rs repair - repaired.avro < damaged.avro"
)]
pub struct Args {
    /// The damaged file; `-` for stdin.
    #[arg(value_name = "IN")]
    pub input: String,
    /// The repaired file, written whole or not at all (through a temporary file beside it);
    /// it may be IN itself.
    #[arg(value_name = "OUT")]
    pub output: PathBuf,
}

/// Repairs the input; the exit code says whether records were lost.
pub fn run(args: &Args) -> ExitCode {
    match repair(args) {
        Ok(losses) if losses.any() => ExitCode::from(io::INVALID),
        Ok(_) => ExitCode::from(io::SUCCESS),
        Err(failure) => Failure::CannotRun(failure.one_line()).report(),
    }
}

/// Writes the intact blocks of the input to the output; returns what was lost.
fn repair(args: &Args) -> Result<Losses, Failure> {
    let input = &args.input;
    let mut salvage = Salvage::new(open(input)?).map_err(|e| failure(input, e))?;
    let header = salvage.header().clone();
    let out = &args.output;
    let mut losses = Losses::default();
    Output::File(out.clone()).write_with(|file| {
        let write_failure = |e| Failure::Message(format!("{}: {e}", out.display()));
        let mut writer = keeping_metadata(&header)
            .codec(header.codec())
            .sync_marker(header.sync())
            .build_datums(header.schema_json(), file)
            .map_err(write_failure)?;
        while let Some(block) = salvage.next_block().map_err(|e| failure(input, e))? {
            match block {
                Salvaged::Intact(block) => {
                    losses.kept(block.info.count);
                    writer
                        .append_block(&block.info, &block.data)
                        .map_err(write_failure)?;
                }
                Salvaged::Damaged(damaged) => losses.add(report_damage(input, &damaged)),
            }
        }
        writer.finish().map_err(write_failure)?;
        Ok(())
    })?;
    losses.summarize(input);
    Ok(losses)
}
