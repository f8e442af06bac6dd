//! [`BlockReader`]: a file's blocks without decoding their records, for tools that copy or
//! recompress blocks (`avdl2rs concat`, `recodec`).

use std::io::Read;

use crate::block::BlockInfo;
use crate::blocks::Blocks;
use crate::error::Error;
use crate::header::Header;

/// Reads the blocks of a container file one at a time, either as stored (compressed, to
/// copy them into another file of the same codec) or decompressed (to write them in another
/// codec), never decoding a record.
///
/// Memory is bounded by one block, compressed and decompressed, under
/// [`BlockReader::max_block_bytes`]; blocks are decompressed on the calling thread, in
/// order. A damaged block is an [`Error`] naming its number and offset, as for
/// [`crate::Reader`], after which the reader returns `None` until
/// [`BlockReader::skip_damaged`]. A block read as stored is checked only for its framing:
/// its count, its size and the sync marker after it; its data is copied as it is.
///
/// ```
/// use avdl2rs_container::{BlockReader, Codec, WriterBuilder};
///
/// # let schema = r#""long""#;
/// # let mut writer = WriterBuilder::new().codec(Codec::Deflate).build_datums(schema, Vec::new())?;
/// # writer.append_encoded(&[2])?;
/// # let file = writer.finish()?;
/// let mut blocks = BlockReader::new(file.as_slice())?;
/// let mut data = Vec::new();
/// while let Some(block) = blocks.next_decompressed(&mut data)? {
///     println!("block {} holds {} records in {} bytes", block.number, block.count, data.len());
/// }
/// # Ok::<(), avdl2rs_container::Error>(())
/// ```
#[derive(Debug)]
pub struct BlockReader<R> {
    blocks: Blocks<R>,
}

impl<R: Read> BlockReader<R> {
    /// Reads the header of `reader`, checking that its codec is compiled in.
    pub fn new(reader: R) -> Result<Self, Error> {
        let mut blocks = Blocks::open(reader)?;
        blocks.set_threads(0);
        Ok(BlockReader { blocks })
    }

    /// Sets the largest block, compressed or not, the reader accepts (bytes).
    pub fn max_block_bytes(mut self, limit: usize) -> Self {
        self.blocks.set_max_block_bytes(limit);
        self
    }

    /// The file's header: writer schema, codec, metadata and sync marker.
    pub fn header(&self) -> &Header {
        self.blocks.header()
    }

    /// Reads the next block's data as stored in the file, compressed with the header's codec,
    /// into `stored` (replacing its contents); `None` at the end of the file.
    pub fn next_stored(&mut self, stored: &mut Vec<u8>) -> Result<Option<BlockInfo>, Error> {
        self.blocks.next_stored(stored)
    }

    /// Reads and decompresses the next block into `data` (replacing its contents): the
    /// encoded records, one after another; `None` at the end of the file.
    pub fn next_decompressed(&mut self, data: &mut Vec<u8>) -> Result<Option<BlockInfo>, Error> {
        self.blocks.next_block(data)
    }

    /// After an error, moves to the start of the next block, as
    /// [`crate::Reader::skip_damaged`] does; returns the bytes skipped.
    pub fn skip_damaged(&mut self) -> Result<u64, Error> {
        self.blocks.recover()
    }
}
