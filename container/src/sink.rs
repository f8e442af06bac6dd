//! [`BlockSink`]: the blocks of a file being written, whatever writes the records: the
//! typed [`crate::Writer`] and the [`crate::DatumWriter`] both add records to its current
//! block, and the datum writer also adds whole blocks taken from other files.
//!
//! Every block goes out in one `write_all`, closed by this file's own sync marker, so the
//! output never holds part of a block.

use std::io::Write;

use avdl2rs::codec::{self, DecodeLimits};

use crate::codec::Codec;
use crate::compress::Compressor;
use crate::error::Error;
use crate::header::Header;

/// The blocks of one output file after its header.
#[derive(Debug)]
pub(crate) struct BlockSink<W: Write> {
    /// `None` only after [`BlockSink::finish`] took it.
    out: Option<W>,
    codec: Codec,
    compressor: Compressor,
    sync: [u8; 16],
    /// The encoded records of the current block, how many there are, and the array items
    /// and map entries they hold as far as their writer counted them.
    block: Vec<u8>,
    records: u64,
    items: usize,
    compressed: Vec<u8>,
    frame: Vec<u8>,
    block_bytes: usize,
    block_records: u64,
}

impl<W: Write> BlockSink<W> {
    /// Blocks of the file whose `header` was already written to `out`, each complete once
    /// its records reach `block_bytes` bytes or `block_records` records.
    pub(crate) fn new(out: W, header: &Header, block_bytes: usize, block_records: u64) -> Self {
        BlockSink {
            out: Some(out),
            codec: header.codec(),
            compressor: Compressor::new(header.codec()),
            sync: header.sync(),
            block: Vec::new(),
            records: 0,
            items: 0,
            compressed: Vec::new(),
            frame: Vec::new(),
            block_bytes,
            block_records,
        }
    }

    /// The codec blocks are compressed with.
    pub(crate) fn codec(&self) -> Codec {
        self.codec
    }

    /// Adds one record, which `encode` appends to the current block; on error the block is
    /// left as it was.
    pub(crate) fn append<E>(
        &mut self,
        encode: impl FnOnce(&mut Vec<u8>) -> Result<(), E>,
    ) -> Result<(), AppendError<E>> {
        let before = self.block.len();
        if let Err(e) = encode(&mut self.block) {
            self.block.truncate(before);
            return Err(AppendError::Encode(e));
        }
        self.records += 1;
        if self.block.len() >= self.block_bytes || self.records >= self.block_records {
            self.write_block().map_err(AppendError::Write)?;
        }
        Ok(())
    }

    /// Adds one encoded record holding `items` array items and map entries, keeping every
    /// block within the item budget readers give it (one [`DecodeLimits`] for the block's
    /// bytes): a record that would take the block past it starts a new block, and a record
    /// past it on its own is refused, since no reader would take it.
    pub(crate) fn append_counted(&mut self, datum: &[u8], items: usize) -> Result<(), Error> {
        let limit = block_items(datum.len());
        if items > limit {
            return Err(Error::TooManyItems {
                items,
                bytes: datum.len(),
                limit,
            });
        }
        if self.items.saturating_add(items) > block_items(self.block.len() + datum.len()) {
            self.write_block()?;
        }
        self.items += items;
        self.append(|block| {
            block.extend_from_slice(datum);
            Ok::<(), std::convert::Infallible>(())
        })
        .map_err(|e| match e {
            AppendError::Write(e) => e,
            AppendError::Encode(never) => match never {},
        })
    }

    /// Writes the block of `count` records whose uncompressed data is `data`, compressed with
    /// this file's codec, after the records added so far.
    pub(crate) fn write_records(&mut self, count: u64, data: &[u8]) -> Result<(), Error> {
        self.write_block()?;
        let stored = match self.codec {
            Codec::Null => data,
            _ => {
                self.compressor.compress(data, &mut self.compressed)?;
                &self.compressed
            }
        };
        let out = self.out.as_mut().expect("the output is there until finish");
        write_frame(out, &mut self.frame, count, stored, &self.sync)
    }

    /// Writes the block of `count` records whose data, already compressed with this file's
    /// codec, is `stored`, after the records added so far: the bytes are copied as they are,
    /// followed by this file's sync marker.
    pub(crate) fn copy_block(&mut self, count: u64, stored: &[u8]) -> Result<(), Error> {
        self.write_block()?;
        let out = self.out.as_mut().expect("the output is there until finish");
        write_frame(out, &mut self.frame, count, stored, &self.sync)
    }

    /// Writes the records added so far as a block and flushes the output.
    pub(crate) fn flush(&mut self) -> Result<(), Error> {
        self.write_block()?;
        self.out_mut().flush()?;
        Ok(())
    }

    /// Flushes and returns the output.
    pub(crate) fn finish(mut self) -> Result<W, Error> {
        self.flush()?;
        Ok(self.out.take().expect("the output is there until finish"))
    }

    /// The output.
    pub(crate) fn get_ref(&self) -> &W {
        self.out.as_ref().expect("the output is there until finish")
    }

    fn out_mut(&mut self) -> &mut W {
        self.out.as_mut().expect("the output is there until finish")
    }

    /// Writes the current block, if it has records, in one `write_all`.
    fn write_block(&mut self) -> Result<(), Error> {
        if self.records == 0 {
            return Ok(());
        }
        let data = if self.codec == Codec::Null {
            &self.block
        } else {
            self.compressor
                .compress(&self.block, &mut self.compressed)?;
            &self.compressed
        };
        let out = self.out.as_mut().expect("the output is there until finish");
        write_frame(out, &mut self.frame, self.records, data, &self.sync)?;
        self.block.clear();
        self.records = 0;
        self.items = 0;
        Ok(())
    }
}

impl<W: Write> Drop for BlockSink<W> {
    fn drop(&mut self) {
        if self.out.is_some() {
            let _ = self.flush();
        }
    }
}

/// Why a record could not be added: it could not be encoded (nothing of it is left), or the
/// block it completed could not be written.
#[derive(Debug)]
pub(crate) enum AppendError<E> {
    Encode(E),
    Write(Error),
}

/// The array items and map entries a reader takes from a block of `len` bytes.
fn block_items(len: usize) -> usize {
    DecodeLimits::for_input_len(len).max_items
}

/// Writes a block to `out` in one piece, assembled in `frame`: its record count, its size,
/// its data and the sync marker.
fn write_frame<W: Write>(
    out: &mut W,
    frame: &mut Vec<u8>,
    count: u64,
    data: &[u8],
    sync: &[u8; 16],
) -> Result<(), Error> {
    frame.clear();
    codec::write_long(frame, count as i64);
    codec::write_long(frame, data.len() as i64);
    frame.extend_from_slice(data);
    frame.extend_from_slice(sync);
    out.write_all(frame)?;
    Ok(())
}
