//! What the container-file commands share: the `--codec` of those that write one, block
//! transfers, recovering reads, and failures that name the file.

use std::io::{Read, Write};

use avdl2rs_container::{BlockReader, Codec, DamagedBlock, DatumWriter, Header, WriterBuilder};

use crate::io::{input_name, Failure, Output};

/// An input file of a container-file command.
#[derive(Debug, Clone, clap::Args)]
pub struct FileInput {
    /// The Avro object container file; `-` for stdin.
    #[arg(value_name = "FILE")]
    pub path: String,
}

/// A failure reading the container file `path`.
pub fn failure(path: &str, error: avdl2rs_container::Error) -> Failure {
    Failure::Message(format!("{}: {error}", input_name(path)))
}

/// A failure writing the container file `output`.
pub fn write_failure(output: &Output, error: avdl2rs_container::Error) -> Failure {
    Failure::Message(format!("{}: {error}", output.name()))
}

/// The codec of the file a command writes.
#[derive(Debug, Clone, clap::Args)]
pub struct CodecArg {
    /// The compression codec of the blocks: null, deflate, snappy, zstandard, bzip2 or xz.
    #[arg(long = "codec", value_name = "CODEC", default_value = "null", value_parser = parse_codec)]
    pub codec: Codec,
}

/// A codec by its name in the header.
pub fn parse_codec(name: &str) -> Result<Codec, String> {
    Codec::from_name(name).map_err(|e| e.to_string())
}

/// How [`transfer`] moves blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transfer {
    /// Blocks of the output's codec are copied as stored, others recompressed.
    Copy,
    /// Every block is decompressed and compressed again.
    Recompress,
}

/// Writes every block of the file `reader` reads (named `path`) into `writer`, one block in
/// memory at a time, never decoding a record.
pub fn transfer<R: Read, W: Write>(
    mut reader: BlockReader<R>,
    path: &str,
    writer: &mut DatumWriter<W>,
    output: &Output,
    how: Transfer,
) -> Result<(), Failure> {
    let codec = reader.header().codec();
    let mut data = Vec::new();
    let read_failure = |e| failure(path, e);
    if how == Transfer::Copy && codec == writer.codec() {
        while let Some(block) = reader.next_stored(&mut data).map_err(read_failure)? {
            let copied = writer.copy_block(&block, codec, &data);
            copied.map_err(|e| write_failure(output, e))?;
        }
    } else {
        while let Some(block) = reader.next_decompressed(&mut data).map_err(read_failure)? {
            let written = writer.append_block(&block, &data);
            written.map_err(|e| write_failure(output, e))?;
        }
    }
    Ok(())
}

/// A writer with the user metadata of `header` (its `avro.` entries are the writer's own).
pub fn keeping_metadata(header: &Header) -> WriterBuilder {
    header
        .metadata()
        .iter()
        .filter(|(key, _)| !key.starts_with("avro."))
        .fold(WriterBuilder::new(), |builder, (key, value)| {
            builder.metadata(key.clone(), value.clone())
        })
}

/// Refuses to write `output` when it is one of the `inputs`: it would be emptied before
/// it is read.
pub fn not_an_input(inputs: &[String], output: &Output) -> Result<(), Failure> {
    let Output::File(out) = output else {
        return Ok(());
    };
    let Ok(out) = std::fs::canonicalize(out) else {
        return Ok(());
    };
    let same = |input: &&String| std::fs::canonicalize(input).is_ok_and(|input| input == out);
    match inputs.iter().find(same) {
        Some(input) => Err(Failure::Message(format!(
            "{input} is both an input and the output"
        ))),
        None => Ok(()),
    }
}

/// What a recovering read (`repair`, `cat --skip-damaged`) kept and lost.
#[derive(Debug, Default, Clone, Copy)]
pub struct Losses {
    kept: u64,
    damaged: u64,
    lost: u64,
    /// Damaged blocks whose record count is unknown, or after which blocks were skipped.
    uncounted: u64,
}

impl Losses {
    /// Counts the records of an intact block.
    pub fn kept(&mut self, records: u64) {
        self.kept += records;
    }

    /// Counts a damaged block.
    pub fn add(&mut self, damaged: &DamagedBlock) {
        self.damaged += 1;
        self.lost += damaged.records.unwrap_or(0);
        if damaged.records.is_none() || damaged.skipped > 0 {
            self.uncounted += 1;
        }
    }

    /// Whether anything was damaged.
    pub fn any(&self) -> bool {
        self.damaged > 0
    }

    /// Prints the totals of `path` on stderr, when anything was damaged.
    pub fn summarize(&self, path: &str) {
        if !self.any() {
            return;
        }
        let more = if self.uncounted > 0 { " or more" } else { "" };
        eprintln!(
            "{}: {} records kept, {}{more} lost in {} damaged blocks",
            input_name(path),
            self.kept,
            self.lost,
            self.damaged
        );
    }
}

/// Reports a damaged block of `path` on stderr, as one line: where it is, what is wrong,
/// and what was lost with it; returns it for counting.
pub fn report_damage<'a>(path: &str, damaged: &'a DamagedBlock) -> &'a DamagedBlock {
    let lost = match damaged.records {
        Some(records) => format!("{records} records lost"),
        None => "an unknown number of records lost".to_owned(),
    };
    let skipped = match damaged.skipped {
        0 => String::new(),
        bytes => format!(", {bytes} bytes skipped to the next sync marker"),
    };
    eprintln!("{}: {}; {lost}{skipped}", input_name(path), damaged.error);
    damaged
}
