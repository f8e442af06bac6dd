//! Decompressing blocks: one [`Decompressor`] per reader, keeping the codec's state from block
//! to block and writing into the reader's reused buffer in one pass where the codec allows.
//!
//! A file has thousands of blocks of about 64 kB. Creating a zstd or inflate context for each
//! (a zstd stream decoder allocates a window buffer, 2 MiB for level-3 frames written as a
//! stream) and streaming through `Read` adapters (which copy through their own buffers) took
//! a large share of the reading time; zstd and deflate are therefore decompressed in one call
//! by a context made once.
//! bzip2 and xz keep their stream decoders: their own work dwarfs those costs.
//!
//! Decompression is bounded: no codec may produce more than the reader's block limit, so a
//! small compressed block cannot expand into gigabytes (a "zip bomb"). Nor is memory taken
//! on a block's word: a decompressed length announced in the data (snappy's preamble, a
//! zstd frame's content size) is refused when more than the compressed bytes could produce
//! at the format's largest expansion, before anything is allocated; the other codecs'
//! output grows with the data actually decompressed.

use std::fmt;
#[cfg(any(feature = "bzip2", feature = "xz"))]
use std::io::Read;

use crate::codec::Codec;
use crate::error::Damage;

/// The smallest buffer tried for data whose decompressed size is not known in advance.
#[cfg(any(feature = "deflate", feature = "zstandard"))]
const MIN_GUESS: usize = 64 << 10;

/// The most bytes one byte of snappy data can produce: a copy with a 2-byte offset takes 3
/// bytes (tag and offset) and copies at most 64 bytes (snappy `format_description.txt`,
/// "Copy with 2-byte offset"); a 1-byte-offset copy gives at most 11 bytes for 2, a 4-byte-
/// offset copy 64 for 5, a literal fewer bytes than it takes.
#[cfg(feature = "snappy")]
const SNAPPY_MAX_EXPANSION: (usize, usize) = (64, 3);

/// The most bytes one byte of a zstd frame can produce: a block decompresses to at most
/// 128 KiB (RFC 8878, "Block_Maximum_Size") and takes at least 3 bytes (its header; an RLE
/// block adds one byte, a compressed one more).
#[cfg(feature = "zstandard")]
const ZSTD_MAX_EXPANSION: (usize, usize) = (128 << 10, 3);

/// Decompresses the blocks of one file.
pub(crate) struct Decompressor {
    codec: Codec,
    #[cfg(feature = "zstandard")]
    zstd: Option<zstd::zstd_safe::DCtx<'static>>,
    #[cfg(feature = "deflate")]
    inflate: Option<flate2::Decompress>,
}

impl fmt::Debug for Decompressor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Decompressor")
            .field("codec", &self.codec)
            .finish_non_exhaustive()
    }
}

impl Decompressor {
    /// A decompressor for `codec`'s blocks; its state is made on the first block.
    pub(crate) fn new(codec: Codec) -> Self {
        Decompressor {
            codec,
            #[cfg(feature = "zstandard")]
            zstd: None,
            #[cfg(feature = "deflate")]
            inflate: None,
        }
    }

    /// Decompresses `data` into `out` (replacing its contents), producing at most `limit`
    /// bytes.
    pub(crate) fn decompress(
        &mut self,
        data: &[u8],
        out: &mut Vec<u8>,
        limit: usize,
    ) -> Result<(), Damage> {
        match self.codec {
            #[cfg(feature = "deflate")]
            Codec::Deflate => {
                let state = self
                    .inflate
                    .get_or_insert_with(|| flate2::Decompress::new(false));
                inflate(state, data, out, limit)
            }
            #[cfg(feature = "snappy")]
            Codec::Snappy => snappy(data, out, limit),
            #[cfg(feature = "zstandard")]
            Codec::Zstandard => {
                let context = self.zstd.get_or_insert_with(zstd::zstd_safe::DCtx::create);
                zstandard(context, data, out, limit)
            }
            #[cfg(feature = "bzip2")]
            Codec::Bzip2 => bounded(bzip2::read::MultiBzDecoder::new(data), out, limit),
            #[cfg(feature = "xz")]
            Codec::Xz => bounded(xz_decoder(data)?, out, limit),
            _ => {
                // Uncompressed data was already checked against the limit as a block size.
                out.clear();
                out.extend_from_slice(data);
                Ok(())
            }
        }
    }
}

/// A first guess at the size of data that decompresses to an unknown size: the size of the
/// earlier blocks (whose buffer is reused), or four times the compressed size.
#[cfg(any(feature = "deflate", feature = "zstandard"))]
fn size_guess(data: &[u8], capacity: usize, limit: usize) -> usize {
    capacity
        .max(data.len().saturating_mul(4))
        .max(MIN_GUESS)
        .min(limit.saturating_add(1))
}

/// Raw deflate (RFC 1951) in one pass into `out`, which grows (by doubling, up to one byte
/// past the limit) only when the data does not fit. Data after the end of the deflate stream
/// is ignored, as by other implementations.
#[cfg(feature = "deflate")]
fn inflate(
    state: &mut flate2::Decompress,
    data: &[u8],
    out: &mut Vec<u8>,
    limit: usize,
) -> Result<(), Damage> {
    use flate2::{FlushDecompress, Status};

    state.reset(false);
    out.clear();
    let guess = size_guess(data, out.capacity(), limit);
    out.reserve_exact(guess);
    loop {
        let (read, written) = (state.total_in(), state.total_out());
        let input = &data[read as usize..];
        let status = state
            .decompress_vec(input, out, FlushDecompress::Finish)
            .map_err(|e| Damage::Decompress(e.to_string()))?;
        if status == Status::StreamEnd {
            break;
        }
        if out.len() == out.capacity() {
            if out.len() > limit {
                return Err(too_large(limit));
            }
            out.reserve_exact(out.len().min(limit + 1 - out.len()));
        } else if (read, written) == (state.total_in(), state.total_out()) {
            return Err(Damage::Decompress(
                "the deflate data ends before its last block".into(),
            ));
        }
    }
    if out.len() > limit {
        return Err(too_large(limit));
    }
    Ok(())
}

/// Zstandard frames in one pass into `out`. Frames written in one piece (by this crate,
/// Python and most one-shot compressors) carry their decompressed size, which sizes `out`
/// exactly; for frames written as a stream (Java, apache-avro) `out` starts at a guess and
/// doubles, up to one byte past the limit, until the data fits.
#[cfg(feature = "zstandard")]
fn zstandard(
    context: &mut zstd::zstd_safe::DCtx<'static>,
    data: &[u8],
    out: &mut Vec<u8>,
    limit: usize,
) -> Result<(), Damage> {
    use zstd::zstd_safe::{self, zstd_sys::ZSTD_ErrorCode};

    let mut capacity = match zstd_safe::get_frame_content_size(data) {
        Ok(Some(size)) if size > limit as u64 => return Err(too_large(limit)),
        // A block of several frames does not fit and takes the doubling path.
        Ok(Some(size)) => {
            check_announced("zstd", size as usize, data.len(), ZSTD_MAX_EXPANSION)?;
            size as usize
        }
        // A bad header is reported by the decompression itself.
        Ok(None) | Err(_) => size_guess(data, out.capacity(), limit),
    };
    loop {
        out.clear();
        out.reserve_exact(capacity);
        match context.decompress(out, data) {
            Ok(_) if out.len() > limit => return Err(too_large(limit)),
            Ok(_) => return Ok(()),
            // zstd returns its error codes negated (`ERROR(name)` in its sources).
            Err(code)
                if code.wrapping_neg() == ZSTD_ErrorCode::ZSTD_error_dstSize_tooSmall as usize =>
            {
                if out.capacity() > limit {
                    return Err(too_large(limit));
                }
                capacity = out
                    .capacity()
                    .saturating_mul(2)
                    .max(MIN_GUESS)
                    .min(limit.saturating_add(1));
            }
            Err(code) => {
                return Err(Damage::Decompress(
                    zstd_safe::get_error_name(code).to_owned(),
                ))
            }
        }
    }
}

/// The most memory the xz decoder may take: a stream's header names its dictionary size,
/// which liblzma allocates before decoding anything. 64 MiB is the dictionary of the
/// strongest preset (`-9`), the largest any writer uses by default; the rest is the
/// decoder's own state.
#[cfg(feature = "xz")]
const XZ_MEMORY_LIMIT: u64 = 66 << 20;

/// A decoder of the concatenated xz streams of `data`, refusing one that needs more than
/// [`XZ_MEMORY_LIMIT`].
#[cfg(feature = "xz")]
fn xz_decoder(data: &[u8]) -> Result<liblzma::read::XzDecoder<&[u8]>, Damage> {
    let stream =
        liblzma::stream::Stream::new_stream_decoder(XZ_MEMORY_LIMIT, liblzma::stream::CONCATENATED)
            .map_err(|e| Damage::Decompress(e.to_string()))?;
    Ok(liblzma::read::XzDecoder::new_stream(data, stream))
}

/// Reads a decompressing stream to its end into `out` (cleared first), failing once it passes
/// `limit` bytes.
#[cfg(any(feature = "bzip2", feature = "xz"))]
fn bounded(decoder: impl Read, out: &mut Vec<u8>, limit: usize) -> Result<(), Damage> {
    out.clear();
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

/// Refuses a decompressed length `announced` in the data that `compressed` bytes cannot
/// produce at the codec's largest `expansion` (bytes out, bytes in).
#[cfg(any(feature = "snappy", feature = "zstandard"))]
fn check_announced(
    codec: &str,
    announced: usize,
    compressed: usize,
    (out, input): (usize, usize),
) -> Result<(), Damage> {
    let most = compressed.div_ceil(input).saturating_mul(out);
    if announced > most {
        return Err(Damage::Decompress(format!(
            "the {codec} data announces {announced} bytes, more than its {compressed} bytes \
             can produce (at most {most})"
        )));
    }
    Ok(())
}

/// A snappy raw block followed by the big-endian CRC32 of the uncompressed data.
#[cfg(feature = "snappy")]
fn snappy(data: &[u8], out: &mut Vec<u8>, limit: usize) -> Result<(), Damage> {
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
    check_announced("snappy", len, compressed.len(), SNAPPY_MAX_EXPANSION)?;
    // Every byte is overwritten: only the part beyond the previous block's length is zeroed.
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
