//! `avdl2rs cat [--pretty] [--head N] [--skip-damaged] FILE...`: the records of container
//! files as JSON, one per line, in the Avro JSON encoding.

use std::io::Write;

use avdl2rs_container::{JsonReader, Salvage, Salvaged};
use serde_json::Value;

use super::container::{failure, report_damage, Losses};
use crate::io::{open, stdout_error, to_stdout, Failure};

/// Arguments of `cat`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs cat orders.avro\n  \
    avdl2rs cat --head 10 --pretty part-0.avro part-1.avro\n  \
    cat orders.avro | avdl2rs cat -\n  \
    avdl2rs cat --skip-damaged damaged.avro > readable.jsonl")]
pub struct Args {
    /// The Avro object container files, read in order; `-` for stdin.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<String>,
    /// Pretty-prints each record over several lines.
    #[arg(long)]
    pub pretty: bool,
    /// Stops after N records in all.
    #[arg(long, value_name = "N")]
    pub head: Option<u64>,
    /// Prints the records of the blocks that can be read and reports each damaged block on
    /// stderr (where it is, what is wrong, the records lost), going on after it; exits with
    /// 1 when any was damaged. Without it, the first damaged block ends the command.
    #[arg(long)]
    pub skip_damaged: bool,
}

/// Writes the records of every file to stdout.
pub fn run(args: &Args) -> Result<(), Failure> {
    let mut left = args.head.unwrap_or(u64::MAX);
    let mut damaged = false;
    to_stdout(|out| {
        for path in &args.files {
            if left == 0 {
                break;
            }
            if args.skip_damaged {
                let losses = salvage(path, out, args.pretty, &mut left)?;
                losses.summarize(path);
                damaged |= losses.any();
                continue;
            }
            let reader = JsonReader::new(open(path)?).map_err(|e| failure(path, e))?;
            for record in reader {
                if left == 0 {
                    break;
                }
                let record = record.map_err(|e| failure(path, e))?;
                print(out, &record, args.pretty, &mut left)?;
            }
        }
        Ok(())
    })?;
    if damaged {
        return Err(Failure::Message(
            "records were lost to damaged blocks".into(),
        ));
    }
    Ok(())
}

/// Prints the records of the intact blocks of `path` and reports the damaged ones.
fn salvage(
    path: &str,
    out: &mut dyn Write,
    pretty: bool,
    left: &mut u64,
) -> Result<Losses, Failure> {
    let mut salvage = Salvage::new(open(path)?).map_err(|e| failure(path, e))?;
    let mut losses = Losses::default();
    while *left > 0 {
        match salvage.next_block().map_err(|e| failure(path, e))? {
            None => break,
            Some(Salvaged::Intact(block)) => {
                losses.kept(block.info.count);
                for record in block.records.iter().take(*left as usize) {
                    print(out, record, pretty, left)?;
                }
            }
            Some(Salvaged::Damaged(damaged)) => losses.add(report_damage(path, &damaged)),
        }
    }
    Ok(losses)
}

/// Prints one record, counting it against `left`; a closed stdout (`| head`) leaves
/// nothing more to print.
fn print(out: &mut dyn Write, record: &Value, pretty: bool, left: &mut u64) -> Result<(), Failure> {
    *left -= 1;
    write_record(out, record, pretty).or_else(|e| {
        *left = 0;
        stdout_error(e)
    })
}

fn write_record(out: &mut dyn Write, record: &Value, pretty: bool) -> std::io::Result<()> {
    if pretty {
        serde_json::to_writer_pretty(&mut *out, record)?;
    } else {
        serde_json::to_writer(&mut *out, record)?;
    }
    out.write_all(b"\n")
}
