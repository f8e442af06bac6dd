//! Reading a file's data blocks: count, size, data and sync marker, decompressed into one
//! reused buffer, so the memory a reader takes is bounded by its largest block (and by the
//! blocks in flight when they are decompressed ahead on worker threads, see [`Ahead`]).

use std::io::Read;

use crate::ahead::Ahead;
use crate::block::{BlockInfo, Failure};
use crate::codec::Codec;
use crate::decompress::Decompressor;
use crate::error::{Damage, Error};
use crate::header::Header;
use crate::input::{Input, VarintError};

/// The largest block (compressed or not) a reader accepts unless told otherwise.
pub const DEFAULT_MAX_BLOCK_BYTES: usize = 256 << 20;

/// The most worker threads a reader decompresses on unless told otherwise.
const MAX_DEFAULT_THREADS: usize = 4;

/// Records that take no bytes (`null`, empty records) are the one way a block can hold more
/// records than bytes; this many are allowed regardless of the block's size.
const EMPTY_RECORDS: u64 = 1 << 16;

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
    /// The worker threads asked for; 0 decompresses on the reading thread.
    threads: usize,
    ahead: Option<Ahead>,
    state: State,
    /// The record count of the block read last on this thread, once its count was read.
    last_count: Option<u64>,
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
            threads: default_threads(),
            ahead: None,
            state: State::Ready,
            last_count: None,
        })
    }

    pub(crate) fn header(&self) -> &Header {
        &self.header
    }

    /// The record count of the block read last, when its count could be read: after an
    /// error, the records a damaged block took with it (blocks read on this thread only).
    pub(crate) fn last_count(&self) -> Option<u64> {
        self.last_count
    }

    pub(crate) fn set_max_block_bytes(&mut self, limit: usize) {
        self.max_block_bytes = limit;
    }

    /// Decompresses on `threads` worker threads, ahead of the block being decoded (0: on the
    /// reading thread). Takes effect once the blocks already in flight are taken.
    pub(crate) fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
    }

    /// Reads the next block's records into `data` (replacing its contents); `None` at the end
    /// of the file, and after an error until [`Self::recover`].
    pub(crate) fn next_block(&mut self, data: &mut Vec<u8>) -> Result<Option<BlockInfo>, Error> {
        if self.state != State::Ready {
            return Ok(None);
        }
        self.match_workers();
        let block = match self.ahead.take() {
            None => self.read_block(data),
            Some(mut ahead) => {
                let block = self.read_block_ahead(&mut ahead, data);
                self.ahead = Some(ahead);
                block
            }
        };
        self.settle(block)
    }

    /// Reads the next block's data as stored (compressed, not checked) into `stored`; as
    /// [`Self::next_block`] otherwise. Only for a stream without workers: blocks in flight
    /// would come out of order.
    pub(crate) fn next_stored(&mut self, stored: &mut Vec<u8>) -> Result<Option<BlockInfo>, Error> {
        if self.state != State::Ready {
            return Ok(None);
        }
        let block = self.read_raw(stored);
        self.settle(block)
    }

    /// The outcome of reading a block: a failure leaves the stream failed until
    /// [`Self::recover`].
    fn settle(
        &mut self,
        block: Result<Option<BlockInfo>, Failure>,
    ) -> Result<Option<BlockInfo>, Error> {
        block.map_err(|failure| {
            if failure.lost_workers {
                // The blocks in flight are gone; the next ones are read on this thread.
                self.ahead = None;
                self.threads = 0;
            }
            self.state = State::Failed { scan: failure.scan };
            failure.error
        })
    }

    /// Starts, replaces or stops the workers, once none is busy, to match the number asked
    /// for; without effect on uncompressed files, and no workers when none can be started.
    fn match_workers(&mut self) {
        let wanted = match self.header.codec() {
            Codec::Null => 0,
            _ => self.threads,
        };
        match &self.ahead {
            Some(ahead) if ahead.requested() == wanted || !ahead.is_idle() => return,
            None if wanted == 0 => return,
            _ => {}
        }
        self.ahead = match wanted {
            0 => None,
            _ => Ahead::start(self.header.codec(), wanted).ok(),
        };
        if self.ahead.is_none() {
            self.threads = 0;
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

    /// Reads and decompresses the next block on this thread.
    fn read_block(&mut self, data: &mut Vec<u8>) -> Result<Option<BlockInfo>, Failure> {
        if self.header.codec() == Codec::Null {
            // Uncompressed data was checked against the limit as a block size.
            let block = self.read_raw(data)?;
            return block
                .map(|block| check_count(block, data).map(|()| block))
                .transpose();
        }
        let mut compressed = std::mem::take(&mut self.compressed);
        let block = self.read_raw(&mut compressed);
        let decompressed = match block {
            Ok(Some(block)) => self
                .decompressor
                .decompress(&compressed, data, self.max_block_bytes)
                .map_err(|damage| Failure::after(block, damage))
                .and_then(|()| check_count(block, data))
                .map(|()| Some(block)),
            other => other,
        };
        self.compressed = compressed;
        decompressed
    }

    /// The next block from the workers, with blocks read and handed over before and after
    /// it so that the workers stay busy while its records are decoded.
    fn read_block_ahead(
        &mut self,
        ahead: &mut Ahead,
        data: &mut Vec<u8>,
    ) -> Result<Option<BlockInfo>, Failure> {
        // Workers about to be replaced get no more blocks.
        let refill = ahead.requested() == self.threads;
        if refill {
            self.hand_over(ahead);
        }
        let Some(next) = ahead.next(data) else {
            return Ok(None);
        };
        let (block, decompressed) = next?;
        if refill {
            self.hand_over(ahead);
        }
        decompressed
            .map_err(|damage| Failure::after(block, damage))
            .and_then(|()| check_count(block, data))?;
        Ok(Some(block))
    }

    /// Reads blocks and hands them to the workers until as many as they take are in flight,
    /// the file ends or a block cannot be read.
    fn hand_over(&mut self, ahead: &mut Ahead) {
        while ahead.has_room() {
            let mut compressed = ahead.compressed_buffer();
            match self.read_raw(&mut compressed) {
                Ok(Some(block)) => ahead.hand_over(block, compressed, self.max_block_bytes),
                Ok(None) => return ahead.give_back(compressed),
                Err(failure) => {
                    ahead.give_back(compressed);
                    return ahead.fail(failure);
                }
            }
        }
    }
}

impl<R: Read> Blocks<R> {
    /// Reads the next block's record count and data (not decompressed) into `raw`, and
    /// checks its sync marker; `None` at the end of the file.
    fn read_raw(&mut self, raw: &mut Vec<u8>) -> Result<Option<BlockInfo>, Failure> {
        if self.input.at_end().map_err(Failure::io)? {
            return Ok(None);
        }
        let offset = self.input.offset();
        let number = self.next_number;
        self.next_number += 1;
        self.last_count = None;
        match self.read_raw_parts(raw) {
            Ok(count) => Ok(Some(BlockInfo {
                number,
                offset,
                count,
            })),
            Err(BlockFailure::Io(e)) => Err(Failure::io(e)),
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
                Err(Failure {
                    scan,
                    ..Failure::at(number, offset, damage)
                })
            }
        }
    }

    fn read_raw_parts(&mut self, raw: &mut Vec<u8>) -> Result<u64, BlockFailure> {
        let count = self
            .input
            .read_long()
            .map_err(|e| varint(e, Damage::BadCount))?;
        let count =
            u64::try_from(count).map_err(|_| Damage::BadCount(format!("{count} is negative")))?;
        self.last_count = Some(count);
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
        Ok(count)
    }
}

/// The worker threads a reader decompresses on unless told otherwise: one per core (up to
/// [`MAX_DEFAULT_THREADS`]), none on a single core, where they could only take turns with the
/// decoding.
fn default_threads() -> usize {
    match std::thread::available_parallelism().map_or(1, |cores| cores.get()) {
        1 => 0,
        cores => cores.min(MAX_DEFAULT_THREADS),
    }
}

/// A block whose count its data cannot hold is damaged.
fn check_count(block: BlockInfo, data: &[u8]) -> Result<(), Failure> {
    if block.count > data.len() as u64 && block.count > EMPTY_RECORDS {
        return Err(Failure::after(
            block,
            Damage::CountTooLarge {
                count: block.count,
                bytes: data.len(),
            },
        ));
    }
    Ok(())
}

/// Why the parts of a block could not be read.
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
