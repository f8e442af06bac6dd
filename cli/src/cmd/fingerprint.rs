//! `avdl2rs fingerprint [--algorithm crc64|md5|sha256] FILE [--type NAME]`: the fingerprint
//! of a schema's Parsing Canonical Form (Avro specification, "Schema Fingerprints").

use std::path::PathBuf;

use md5::Md5;
use sha2::{Digest, Sha256};

use crate::io::{Failure, Output};
use crate::message_text::hex;
use crate::schema_file::SchemaFile;

/// Arguments of `fingerprint`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs fingerprint examples/orders/schemas/orders.avdl\n  \
    avdl2rs fingerprint --algorithm sha256 schemas/warehouse.avdl --type StockMoved -I schemas/shared\n\n\
    crc64 prints 0x and the 64-bit value in 16 hex digits, most significant first; single-object\n\
    messages carry the same value as 8 bytes least significant first (little-endian), so\n\
    0x0123456789abcdef is the header bytes c3 01 ef cd ab 89 67 45 23 01.\n\
    md5 and sha256 print the digest's bytes in hex, in order.")]
pub struct Args {
    /// The schema.
    #[command(flatten)]
    pub file: SchemaFile,
    /// The fingerprint algorithm.
    #[arg(long, value_enum, default_value = "crc64")]
    pub algorithm: Algorithm,
    /// Directory searched for IDL imports not found beside the importing file (repeatable).
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
}

/// The fingerprint algorithms of the specification.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Algorithm {
    /// CRC-64-AVRO (Rabin), the single-object encoding's.
    Crc64,
    /// MD5, 128 bits.
    Md5,
    /// SHA-256, 256 bits.
    Sha256,
}

/// Prints the fingerprint.
pub fn run(args: &Args) -> Result<(), Failure> {
    let loaded = args.file.load(&args.include_dirs)?;
    let text = match args.algorithm {
        Algorithm::Crc64 => crc64_text(loaded.set.fingerprint(&loaded.schema)),
        Algorithm::Md5 => hex(&Md5::digest(loaded.canonical_form())),
        Algorithm::Sha256 => hex(&Sha256::digest(loaded.canonical_form())),
    };
    Output::Stdout.write(format!("{text}\n").as_bytes())
}

/// A CRC-64-AVRO fingerprint as `fingerprint` prints it: `0x` and 16 hex digits.
pub fn crc64_text(fingerprint: u64) -> String {
    format!("{fingerprint:#018x}")
}
