//! The block compression codecs (Avro specification, "Required Codecs" and "Optional
//! Codecs"), each behind a cargo feature except `null`. The `compress` and `decompress`
//! modules do the work; `codec_support` says which a name means and whether this build has it.

/// A block compression codec, named in the header's `avro.codec`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Codec {
    /// No compression.
    #[default]
    Null,
    /// Raw deflate (RFC 1951, no zlib header or checksum), level 6.
    Deflate,
    /// Snappy raw blocks, each followed by the big-endian CRC32 of the uncompressed data.
    Snappy,
    /// Zstandard frames, level 3, written with their content checksum.
    Zstandard,
    /// A bzip2 stream, block size 900k.
    Bzip2,
    /// An xz stream, preset 6.
    Xz,
}

impl Codec {
    /// Every codec, compiled in or not.
    pub const ALL: [Codec; 6] = [
        Codec::Null,
        Codec::Deflate,
        Codec::Snappy,
        Codec::Zstandard,
        Codec::Bzip2,
        Codec::Xz,
    ];

    /// The name written in `avro.codec`.
    pub fn name(self) -> &'static str {
        match self {
            Codec::Null => "null",
            Codec::Deflate => "deflate",
            Codec::Snappy => "snappy",
            Codec::Zstandard => "zstandard",
            Codec::Bzip2 => "bzip2",
            Codec::Xz => "xz",
        }
    }
}

impl std::fmt::Display for Codec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
