//! `avdl2rs fingerprint [--algorithm crc64|md5|sha256] [--format hex|0x|u64] FILE [--type NAME]`:
//! the fingerprint of a schema's Parsing Canonical Form (Avro specification, "Schema
//! Fingerprints").
//!
//! By default it prints what avro-tools' `fingerprint` prints: the fingerprint's bytes in
//! lowercase hex, then the input's name. Every algorithm gives bytes: the digests' own, and
//! for CRC-64-AVRO the 64-bit value least significant byte first, the order single-object
//! headers carry it in. The 64-bit value as a number is there for those who want it.

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
    avdl2rs fingerprint --algorithm sha256 schemas/warehouse.avdl --type StockMoved -I schemas/shared\n  \
    avdl2rs fingerprint --format 0x order.avsc\n\n\
    The default output is avro-tools': the fingerprint's bytes in lowercase hex, a space and the\n\
    file name. crc64's bytes are the 64-bit value least significant first, as single-object\n\
    headers carry them: cb71aab0cbb3b87c is the value 0x7cb8b3cbb0aa71cb and the header\n\
    c3 01 cb 71 aa b0 cb b3 b8 7c. md5 and sha256 print the digest's bytes in order.")]
pub struct Args {
    /// The schema.
    #[command(flatten)]
    pub file: SchemaFile,
    /// The fingerprint algorithm.
    #[arg(long, value_enum, default_value = "crc64")]
    pub algorithm: Algorithm,
    /// How to print the fingerprint.
    #[arg(long, value_enum, default_value = "hex")]
    pub format: Format,
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

/// The spellings of a fingerprint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The bytes in lowercase hex and the file name, as avro-tools prints them.
    Hex,
    /// crc64 only: `0x` and the 64-bit value in 16 hex digits, most significant first.
    #[value(name = "0x")]
    Prefixed,
    /// crc64 only: the 64-bit value in decimal, unsigned.
    #[value(name = "u64", alias = "int")]
    Decimal,
}

/// Prints the fingerprint.
pub fn run(args: &Args) -> Result<(), Failure> {
    let loaded = args.file.load(&args.include_dirs)?;
    let crc64 = || loaded.set.fingerprint(&loaded.schema);
    let text = match (args.algorithm, args.format) {
        (Algorithm::Crc64, Format::Prefixed) => crc64_text(crc64()),
        (Algorithm::Crc64, Format::Decimal) => crc64().to_string(),
        (_, Format::Prefixed | Format::Decimal) => {
            return Err(Failure::CannotRun(
                "--format 0x and u64 print a 64-bit value: only --algorithm crc64 has one"
                    .to_owned(),
            ))
        }
        (algorithm, Format::Hex) => {
            let bytes = match algorithm {
                Algorithm::Crc64 => crc64().to_le_bytes().to_vec(),
                Algorithm::Md5 => Md5::digest(loaded.canonical_form()).to_vec(),
                Algorithm::Sha256 => Sha256::digest(loaded.canonical_form()).to_vec(),
            };
            format!("{} {}", hex(&bytes), args.file.path.display())
        }
    };
    Output::Stdout.write(format!("{text}\n").as_bytes())
}

/// A CRC-64-AVRO fingerprint as a number: `0x` and 16 hex digits.
pub fn crc64_text(fingerprint: u64) -> String {
    format!("{fingerprint:#018x}")
}
