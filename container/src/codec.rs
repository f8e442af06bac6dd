//! The block compression codecs (Avro specification, "Required Codecs" and "Optional
//! Codecs"), each behind a cargo feature except `null`.
//!
//! Decompression is bounded: no codec may produce more than the reader's block limit, so a
//! small compressed block cannot expand into gigabytes (a "zip bomb").

#[cfg(any(
    feature = "deflate",
    feature = "zstandard",
    feature = "bzip2",
    feature = "xz"
))]
use std::io::Read;

use crate::error::{Damage, Error};

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

    /// Appends the compressed `data` to `out` (which the caller has cleared).
    pub(crate) fn compress(self, data: &[u8], out: &mut Vec<u8>) -> std::io::Result<()> {
        match self {
            #[cfg(feature = "deflate")]
            Codec::Deflate => {
                use std::io::Write;
                let level = flate2::Compression::new(6);
                let mut encoder = flate2::write::DeflateEncoder::new(out, level);
                encoder.write_all(data)?;
                encoder.finish().map(drop)
            }
            #[cfg(feature = "snappy")]
            Codec::Snappy => {
                let start = out.len();
                out.resize(start + snap::raw::max_compress_len(data.len()), 0);
                let written = snap::raw::Encoder::new()
                    .compress(data, &mut out[start..])
                    .map_err(std::io::Error::other)?;
                out.truncate(start + written);
                out.extend_from_slice(&crc32fast::hash(data).to_be_bytes());
                Ok(())
            }
            #[cfg(feature = "zstandard")]
            Codec::Zstandard => {
                // With the frame's content checksum, damage is found by the reader too.
                let mut encoder = zstd::stream::Encoder::new(out, 3)?;
                encoder.include_checksum(true)?;
                std::io::Write::write_all(&mut encoder, data)?;
                encoder.finish().map(drop)
            }
            #[cfg(feature = "bzip2")]
            Codec::Bzip2 => {
                bzip2::read::BzEncoder::new(data, bzip2::Compression::best()).read_to_end(out)?;
                Ok(())
            }
            #[cfg(feature = "xz")]
            Codec::Xz => liblzma::read::XzEncoder::new(data, 6)
                .read_to_end(out)
                .map(drop),
            _ => {
                out.extend_from_slice(data);
                Ok(())
            }
        }
    }

    /// Decompresses `data` into `out` (cleared first), producing at most `limit` bytes.
    pub(crate) fn decompress(
        self,
        data: &[u8],
        out: &mut Vec<u8>,
        limit: usize,
    ) -> Result<(), Damage> {
        out.clear();
        match self {
            #[cfg(feature = "deflate")]
            Codec::Deflate => bounded(flate2::read::DeflateDecoder::new(data), out, limit),
            #[cfg(feature = "snappy")]
            Codec::Snappy => snappy_decompress(data, out, limit),
            #[cfg(feature = "zstandard")]
            Codec::Zstandard => {
                let decoder = zstd::stream::read::Decoder::with_buffer(data)
                    .map_err(|e| Damage::Decompress(e.to_string()))?;
                bounded(decoder, out, limit)
            }
            #[cfg(feature = "bzip2")]
            Codec::Bzip2 => bounded(bzip2::read::MultiBzDecoder::new(data), out, limit),
            #[cfg(feature = "xz")]
            Codec::Xz => bounded(
                liblzma::read::XzDecoder::new_multi_decoder(data),
                out,
                limit,
            ),
            _ => {
                // Uncompressed data was already checked against the limit as a block size.
                let _ = limit;
                out.extend_from_slice(data);
                Ok(())
            }
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

/// Reads a decompressing stream to its end into `out`, failing once it passes `limit` bytes.
#[cfg(any(
    feature = "deflate",
    feature = "zstandard",
    feature = "bzip2",
    feature = "xz"
))]
fn bounded(decoder: impl Read, out: &mut Vec<u8>, limit: usize) -> Result<(), Damage> {
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    decoder
        .take(cap)
        .read_to_end(out)
        .map_err(|e| Damage::Decompress(e.to_string()))?;
    if out.len() > limit {
        return Err(too_large(limit));
    }
    Ok(())
}

#[cfg(any(
    feature = "deflate",
    feature = "snappy",
    feature = "zstandard",
    feature = "bzip2",
    feature = "xz"
))]
fn too_large(limit: usize) -> Damage {
    Damage::Decompress(format!(
        "the data expands beyond the block limit of {limit} bytes"
    ))
}

/// A snappy raw block followed by the big-endian CRC32 of the uncompressed data.
#[cfg(feature = "snappy")]
fn snappy_decompress(data: &[u8], out: &mut Vec<u8>, limit: usize) -> Result<(), Damage> {
    let Some((compressed, crc)) = data.split_last_chunk::<4>() else {
        return Err(Damage::Decompress(
            "a snappy block needs at least its 4-byte CRC32".into(),
        ));
    };
    let len =
        snap::raw::decompress_len(compressed).map_err(|e| Damage::Decompress(e.to_string()))?;
    if len > limit {
        return Err(too_large(limit));
    }
    out.resize(len, 0);
    snap::raw::Decoder::new()
        .decompress(compressed, out)
        .map_err(|e| Damage::Decompress(e.to_string()))?;
    let stored = u32::from_be_bytes(*crc);
    let computed = crc32fast::hash(out);
    if stored != computed {
        return Err(Damage::Checksum { stored, computed });
    }
    Ok(())
}
