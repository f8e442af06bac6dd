//! Compressing blocks: one [`Compressor`] per writer, keeping the zstd and deflate contexts
//! from block to block instead of making one per block.

use std::fmt;
#[cfg(any(feature = "bzip2", feature = "xz"))]
use std::io::Read;

use crate::codec::Codec;

/// Compresses the blocks of one file.
pub(crate) struct Compressor {
    codec: Codec,
    #[cfg(feature = "zstandard")]
    zstd: Option<zstd::bulk::Compressor<'static>>,
    #[cfg(feature = "deflate")]
    deflate: Option<flate2::Compress>,
}

impl fmt::Debug for Compressor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Compressor")
            .field("codec", &self.codec)
            .finish_non_exhaustive()
    }
}

impl Compressor {
    /// A compressor for `codec`'s blocks; its state is made on the first block.
    pub(crate) fn new(codec: Codec) -> Self {
        Compressor {
            codec,
            #[cfg(feature = "zstandard")]
            zstd: None,
            #[cfg(feature = "deflate")]
            deflate: None,
        }
    }

    /// Replaces the contents of `out` with the compressed `data`.
    pub(crate) fn compress(&mut self, data: &[u8], out: &mut Vec<u8>) -> std::io::Result<()> {
        out.clear();
        match self.codec {
            #[cfg(feature = "deflate")]
            Codec::Deflate => {
                let state = self.deflate.get_or_insert_with(|| {
                    flate2::Compress::new(flate2::Compression::new(6), false)
                });
                deflate(state, data, out)
            }
            #[cfg(feature = "snappy")]
            Codec::Snappy => {
                out.resize(snap::raw::max_compress_len(data.len()), 0);
                let written = snap::raw::Encoder::new()
                    .compress(data, out)
                    .map_err(std::io::Error::other)?;
                out.truncate(written);
                out.extend_from_slice(&crc32fast::hash(data).to_be_bytes());
                Ok(())
            }
            #[cfg(feature = "zstandard")]
            Codec::Zstandard => {
                let compressor = match &mut self.zstd {
                    Some(compressor) => compressor,
                    none => none.insert(zstd_compressor()?),
                };
                // Compressed in one piece, the frame records its decompressed size, which
                // lets readers decompress it in one pass too.
                out.reserve_exact(zstd::zstd_safe::compress_bound(data.len()));
                compressor.compress_to_buffer(data, out).map(drop)
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
}

/// Level 3, with the frame's content checksum so that readers find damage.
#[cfg(feature = "zstandard")]
fn zstd_compressor() -> std::io::Result<zstd::bulk::Compressor<'static>> {
    let mut compressor = zstd::bulk::Compressor::new(3)?;
    compressor.set_parameter(zstd::zstd_safe::CParameter::ChecksumFlag(true))?;
    Ok(compressor)
}

/// Raw deflate (RFC 1951) of the whole block, growing `out` until the stream is finished.
#[cfg(feature = "deflate")]
fn deflate(state: &mut flate2::Compress, data: &[u8], out: &mut Vec<u8>) -> std::io::Result<()> {
    use flate2::{FlushCompress, Status};

    state.reset();
    // Incompressible data grows by 5 bytes per 16 kB stored block, and a few for the end.
    out.reserve_exact(data.len() + data.len() / 1024 + 64);
    loop {
        let read = state.total_in() as usize;
        let status = state
            .compress_vec(&data[read..], out, FlushCompress::Finish)
            .map_err(std::io::Error::other)?;
        if status == Status::StreamEnd {
            return Ok(());
        }
        if out.len() < out.capacity() {
            return Err(std::io::Error::other("deflate stopped before the end"));
        }
        out.reserve(out.capacity().max(64));
    }
}
