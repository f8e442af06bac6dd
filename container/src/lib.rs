//! # avdl2rs-container
//!
//! Avro object container files (`.avro`, Avro specification, "Object Container Files") for
//! the types avdl2rs generates or derives: a header (magic `Obj\x01`, metadata with the writer
//! schema and codec, a 16-byte sync marker) followed by blocks of records, each compressed
//! by the file's codec and closed by the sync marker.
//!
//! * [`Writer`] writes records of a type with its generated codec, in blocks of a size you
//!   choose ([`WriterBuilder`]), and appends to existing files of the same schema;
//! * [`Reader`] reads records into a type, directly when the file has the type's schema, or
//!   through the runtime's schema resolution when it was written with another version;
//! * [`JsonReader`] reads any file's records as Avro JSON, driven by the file's schema alone;
//! * [`DatumWriter`] writes records already encoded as Avro binary, of a schema given at run
//!   time ([`WriterBuilder::build_datums`]), and blocks of other files, copied as they are
//!   stored or recompressed;
//! * [`BlockReader`] reads a file's blocks without decoding them, as stored or decompressed;
//! * [`Salvage`] reads what can still be read from a damaged file, block by block, reporting
//!   each damaged block and what was lost with it.
//!
//! Readers treat files as untrusted: memory is bounded by one block (and by the blocks in
//! flight when they are decompressed on worker threads), and a damaged file gives
//! an [`Error`] naming the block and its byte offset, after which a reader can skip to the
//! next block and go on.
//!
//! This is a crate of its own, not a module of the runtime, because compression codecs
//! bring dependencies (and for some a C build) that users who only exchange Kafka messages
//! should not pay for.
//!
//! ## Features: one per codec
//!
//! | feature | codec | crate | why |
//! |---|---|---|---|
//! | (always) | `null` | — | |
//! | `deflate` (default) | `deflate` | `flate2` on `zlib-rs` | pure Rust, no C compiler; twice as fast to compress as `miniz_oxide` |
//! | `snappy` (default) | `snappy` | `snap` + `crc32fast` | pure Rust; the block CRC32 is checked |
//! | `zstandard` (default) | `zstandard` | `zstd` | the reference library, fastest; builds C |
//! | `bzip2` | `bzip2` | `bzip2` | its default backend is pure Rust (`libbz2-rs-sys`) |
//! | `xz` | `xz` | `liblzma` | the maintained bindings to the reference library; builds C |
//!
//! A file whose codec is not compiled in gives [`Error::CodecNotEnabled`] naming the feature;
//! an unknown codec name gives [`Error::UnknownCodec`].

#![warn(missing_docs)]

/// The README, this crate's guide: `cargo test --doc` compiles and runs its snippets.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme_doctests {}

mod ahead;
mod block;
mod block_reader;
mod blocks;
mod codec;
mod codec_support;
mod compress;
mod datums;
mod decode;
mod decompress;
mod error;
mod header;
mod input;
mod json;
mod reader;
mod records;
mod salvage;
mod sink;
mod worker;
mod writer;

pub use block::BlockInfo;
pub use block_reader::BlockReader;
pub use blocks::{count_records, DEFAULT_MAX_BLOCK_BYTES};
pub use codec::Codec;
pub use datums::DatumWriter;
pub use error::{Damage, Error};
pub use header::{Header, CODEC_KEY, MAGIC, SCHEMA_KEY};
pub use json::JsonReader;
pub use reader::Reader;
pub use salvage::{DamagedBlock, IntactBlock, Salvage, Salvaged};
pub use writer::{Writer, WriterBuilder, DEFAULT_BLOCK_BYTES};
