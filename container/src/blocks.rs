//! Reading a file's data blocks: count, size, data and sync marker, decompressed into one
//! reused buffer, so the memory a reader takes is bounded by its largest block.

use std::io::Read;

use crate::decompress::Decompressor;
use crate::error::{Damage, Error};
use crate::header::Header;
use crate::input::{Input, VarintError};

/// The largest block (compressed or not) a reader accepts unless told otherwise.
pub const DEFAULT_MAX_BLOCK_BYTES: usize = 256 << 20;

/// Records that take no bytes (`null`, empty records) are the one way a block can hold more
/// records than bytes; this many are allowed regardless of the block's size.
const EMPTY_RECORDS: u64 = 1 << 16;

/// Where a block is in the file and how many records it holds.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BlockInfo {
    /// The block number, from 0.
    pub(crate) number: u64,
    /// The offset of the block's first byte.
    pub(crate) offset: u64,
    /// The record count.
    pub(crate) count: u64,
}

/// Whether the stream can go on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// At the start of a block.
    Ready,
    /// After a damaged block, until [`Blocks::recover`]; `scan` when the stream is not known
    /// to be just past a sync marker.
    Failed { scan: bool },
}

/// The blocks of a file after its header.
#[derive(Debug)]
pub(crate) struct Blocks<R> {
    input: Input<R>,
    header: Header,
    max_block_bytes: usize,
    next_number: u64,
    compressed: Vec<u8>,
    decompressor: Decompressor,
    state: State,
}

impl<R: Read> Blocks<R> {
    /// Reads the header of `reader`, checking that its codec is compiled in.
    pub(crate) fn open(reader: R) -> Result<Self, Error> {
        let mut input = Input::new(reader, 0);
        let header = Header::read(&mut input)?;
        header.codec().check_enabled()?;
        let decompressor = Decompressor::new(header.codec());
        Ok(Blocks {
            input,
            header,
            max_block_bytes: DEFAULT_MAX_BLOCK_BYTES,
            next_number: 0,
            compressed: Vec::new(),
            decompressor,
            state: State::Ready,
        })
    }

    pub(crate) fn header(&self) -> &Header {
        &self.header
    }

    pub(crate) fn set_max_block_bytes(&mut self, limit: usize) {
        self.max_block_bytes = limit;
    }

    /// Reads the next block's records into `data` (replacing its contents); `None` at the end
    /// of the file, and after an error until [`Self::recover`].
    pub(crate) fn next_block(&mut self, data: &mut Vec<u8>) -> Result<Option<BlockInfo>, Error> {
        if self.state != State::Ready || self.input.at_end()? {
            return Ok(None);
        }
        let info_offset = self.input.offset();
        let number = self.next_number;
        self.next_number += 1;
        match self.read_block(data) {
            Ok(count) => Ok(Some(BlockInfo {
                number,
                offset: info_offset,
                count,
            })),
            Err(BlockFailure::Io(e)) => {
                self.state = State::Failed { scan: true };
                Err(Error::Io(e))
            }
            Err(BlockFailure::Damage(damage)) => {
                // Damage found after the sync marker was checked leaves the stream at the
                // next block. So does, most likely, a wrong sync marker after data of the
                // right size: if the size was wrong instead, the next block fails too and
                // the scan for a sync marker starts there. Anything else leaves the stream
                // somewhere inside this block.
                let scan = matches!(
                    damage,
                    Damage::Truncated | Damage::BadCount(_) | Damage::BadSize(_)
                );
                self.state = State::Failed { scan };
                Err(Error::Block {
                    block: number,
                    offset: info_offset,
                    damage,
                })
            }
        }
    }

    /// Marks the current block as damaged (a record in it could not be decoded); the stream
    /// is already past its sync marker.
    pub(crate) fn fail_current(&mut self) {
        self.state = State::Failed { scan: false };
    }

    /// After an error, moves to the start of the next block: past the next sync marker when
    /// the damaged block's end is not known. Returns the bytes skipped.
    pub(crate) fn recover(&mut self) -> Result<u64, Error> {
        let start = self.input.offset();
        if self.state == (State::Failed { scan: true }) {
            let sync = self.header.sync();
            let mut window = [0u8; 16];
            let mut seen = 0usize;
            let mut byte = [0u8; 1];
            while window != sync || seen < 16 {
                if self.input.read_full(&mut byte)? == 0 {
                    break;
                }
                window.copy_within(1.., 0);
                window[15] = byte[0];
                seen += 1;
            }
        }
        self.state = State::Ready;
        Ok(self.input.offset() - start)
    }

    fn read_block(&mut self, data: &mut Vec<u8>) -> Result<u64, BlockFailure> {
        let count = self
            .input
            .read_long()
            .map_err(|e| varint(e, Damage::BadCount))?;
        let count =
            u64::try_from(count).map_err(|_| Damage::BadCount(format!("{count} is negative")))?;
        let size = self
            .input
            .read_long()
            .map_err(|e| varint(e, Damage::BadSize))?;
        let limit = self.max_block_bytes;
        let size = match usize::try_from(size) {
            Ok(size) if size <= limit => size,
            _ => {
                return Err(Damage::BadSize(format!(
                    "{size} is negative or above the limit of {limit} bytes"
                ))
                .into())
            }
        };
        let codec = self.header.codec();
        let raw = if codec == crate::Codec::Null {
            &mut *data
        } else {
            &mut self.compressed
        };
        raw.clear();
        if self.input.read_up_to(size as u64, raw)? < size {
            return Err(Damage::Truncated.into());
        }
        let mut sync = [0; 16];
        if self.input.read_full(&mut sync)? < 16 {
            return Err(Damage::Truncated.into());
        }
        if sync != self.header.sync() {
            return Err(Damage::BadSync.into());
        }
        if codec != crate::Codec::Null {
            self.decompressor
                .decompress(&self.compressed, data, limit)?;
        }
        if count > data.len() as u64 && count > EMPTY_RECORDS {
            return Err(Damage::CountTooLarge {
                count,
                bytes: data.len(),
            }
            .into());
        }
        Ok(count)
    }
}

/// Why a block could not be read.
enum BlockFailure {
    Io(std::io::Error),
    Damage(Damage),
}

impl From<Damage> for BlockFailure {
    fn from(damage: Damage) -> Self {
        BlockFailure::Damage(damage)
    }
}

impl From<std::io::Error> for BlockFailure {
    fn from(error: std::io::Error) -> Self {
        BlockFailure::Io(error)
    }
}

/// A bad count or size varint: the end of the file is truncation, anything else `damage`.
fn varint(error: VarintError, damage: fn(String) -> Damage) -> BlockFailure {
    match error {
        VarintError::Eof => Damage::Truncated.into(),
        VarintError::Io(e) => BlockFailure::Io(e),
        other => damage(other.to_string()).into(),
    }
}

/// Counts the records of a file by reading its blocks (decompressing each, so a damaged block
/// is an error) without decoding the records.
pub fn count_records<R: Read>(reader: R) -> Result<u64, Error> {
    let mut blocks = Blocks::open(reader)?;
    let mut data = Vec::new();
    let mut total = 0u64;
    while let Some(block) = blocks.next_block(&mut data)? {
        total = total.saturating_add(block.count);
    }
    Ok(total)
}
