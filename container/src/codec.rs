//! The block compression codecs (Avro specification, "Required Codecs" and "Optional
//! Codecs"), each behind a cargo feature except `null`. The `compress` and `decompress`
//! modules do the work.

use crate::error::Error;

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

    /// The codec named `name`, whether compiled in or not; an unknown name is an error.
    pub fn from_name(name: &str) -> Result<Codec, Error> {
        Codec::ALL
            .into_iter()
            .find(|codec| codec.name() == name)
            .ok_or_else(|| Error::UnknownCodec(name.to_owned()))
    }

    /// Whether this build can read and write the codec (its feature is enabled).
    pub fn is_enabled(self) -> bool {
        self.check_enabled().is_ok()
    }

    /// Fails with [`Error::CodecNotEnabled`] unless the codec's feature is enabled.
    pub(crate) fn check_enabled(self) -> Result<(), Error> {
        let (enabled, feature) = match self {
            Codec::Null => (true, ""),
            Codec::Deflate => (cfg!(feature = "deflate"), "deflate"),
            Codec::Snappy => (cfg!(feature = "snappy"), "snappy"),
            Codec::Zstandard => (cfg!(feature = "zstandard"), "zstandard"),
            Codec::Bzip2 => (cfg!(feature = "bzip2"), "bzip2"),
            Codec::Xz => (cfg!(feature = "xz"), "xz"),
        };
        if enabled {
            Ok(())
        } else {
            Err(Error::CodecNotEnabled {
                codec: self.name(),
                feature,
            })
        }
    }
}

impl std::fmt::Display for Codec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Codec {
    type Err = Error;

    fn from_str(name: &str) -> Result<Codec, Error> {
        Codec::from_name(name)
    }
}
