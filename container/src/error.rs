//! Errors of reading and writing container files.

use std::fmt;

use avdl2rs::resolve::ResolveError;
use avdl2rs::schema::SchemaError;
use avdl2rs::{DecodeError, EncodeError};

use crate::codec::Codec;

/// Why a container file could not be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Reading or writing the underlying stream failed.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// The file does not start with the magic bytes `Obj\x01`.
    #[error("not an Avro object container file: it starts with {found:02x?}, not 4f 62 6a 01 (Obj\\x01)")]
    BadMagic {
        /// The first bytes of the file (fewer than 4 when it is shorter).
        found: Vec<u8>,
    },
    /// The header after the magic bytes is malformed.
    #[error("bad file header at byte {offset}: {message}")]
    Header {
        /// The offset in the file where the problem was found.
        offset: u64,
        /// What is wrong.
        message: String,
    },
    /// The header names a codec no Avro implementation defines.
    #[error("unknown codec {0:?} in the file header (known: null, deflate, snappy, zstandard, bzip2, xz)")]
    UnknownCodec(String),
    /// The header names a codec this build was compiled without.
    #[error("the file uses the codec {codec:?}, which needs the feature {feature:?} of avdl2rs-container")]
    CodecNotEnabled {
        /// The codec name.
        codec: &'static str,
        /// The cargo feature that enables it.
        feature: &'static str,
    },
    /// The header's `avro.schema` is not a valid schema.
    #[error("invalid schema in the file header: {0}")]
    Schema(#[source] SchemaError),
    /// The reader type cannot read data written with the file's schema.
    #[error("cannot read the file's records as this type: {0}")]
    Resolve(#[source] ResolveError),
    /// A block is damaged; `offset` is where the block starts in the file.
    #[error("damaged block {block} at byte {offset}: {damage}")]
    Block {
        /// The block number, counting from 0.
        block: u64,
        /// The offset of the block's first byte (its record count) in the file.
        offset: u64,
        /// What is wrong with it.
        damage: Damage,
    },
    /// A record of a block could not be decoded.
    #[error("damaged block {block} at byte {offset}, record {record}: {source}")]
    Record {
        /// The block number, counting from 0.
        block: u64,
        /// The offset of the block's first byte in the file.
        offset: u64,
        /// The record's index inside the block.
        record: u64,
        /// Why it could not be decoded (its offset counts in the uncompressed block data).
        source: DecodeError,
    },
    /// A record could not be encoded; nothing of it was written.
    #[error("cannot encode a record: {0}")]
    Encode(#[source] EncodeError),
    /// A record holds more array items and map entries than a reader takes for its bytes
    /// (only items that take no bytes, like `null`, can be that many); nothing was written.
    #[error("a record of {bytes} bytes holds {items} array items and map entries, more than the {limit} a reader takes for them (DecodeLimits::for_input_len)")]
    TooManyItems {
        /// The record's array items and map entries.
        items: usize,
        /// The record's encoded bytes.
        bytes: usize,
        /// The most a reader takes for that many bytes.
        limit: usize,
    },
    /// A block compressed with one codec was to be copied into a file of another.
    #[error("cannot copy a block compressed with {block} into a file compressed with {file}")]
    CodecMismatch {
        /// The codec of the block.
        block: Codec,
        /// The codec of the file written.
        file: Codec,
    },
    /// The file to append to was written with another schema than the writer type's.
    #[error("cannot append: the file's schema (fingerprint {found:#018x}) is not the writer type's ({expected:#018x})")]
    SchemaMismatch {
        /// The writer type's fingerprint.
        expected: u64,
        /// The fingerprint of the file's schema.
        found: u64,
    },
}

/// What is wrong with a damaged block.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Damage {
    /// The file ends inside the block.
    Truncated,
    /// The record count is negative or not a valid varint.
    BadCount(String),
    /// The byte size is negative, not a valid varint, or larger than the reader's limit.
    BadSize(String),
    /// The count is larger than the block's data can hold.
    CountTooLarge {
        /// The record count of the block.
        count: u64,
        /// The uncompressed bytes of the block.
        bytes: usize,
    },
    /// The 16 bytes after the data are not the file's sync marker.
    BadSync,
    /// The data could not be decompressed.
    Decompress(String),
    /// The snappy block's CRC32 does not match its uncompressed data.
    Checksum {
        /// The checksum stored in the block.
        stored: u32,
        /// The checksum of the uncompressed data.
        computed: u32,
    },
    /// The records are not valid data of the file's schema (found while translating them to
    /// the reader's schema).
    Records(String),
    /// The records end before the block's data does.
    TrailingBytes(usize),
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Damage::Truncated => f.write_str("the file ends inside the block"),
            Damage::BadCount(why) => write!(f, "bad record count: {why}"),
            Damage::BadSize(why) => write!(f, "bad block size: {why}"),
            Damage::CountTooLarge { count, bytes } => write!(
                f,
                "a count of {count} records cannot fit in {bytes} bytes of data"
            ),
            Damage::BadSync => f.write_str("the sync marker after the data is wrong"),
            Damage::Decompress(why) => write!(f, "cannot decompress: {why}"),
            Damage::Checksum { stored, computed } => write!(
                f,
                "CRC32 {stored:#010x} stored, {computed:#010x} computed from the data"
            ),
            Damage::Records(why) => write!(f, "bad records: {why}"),
            Damage::TrailingBytes(left) => {
                write!(f, "{left} bytes left after the block's last record")
            }
        }
    }
}
