//! [`Ahead`]: the next blocks of a file decompressed on worker threads while the records of
//! the current block are decoded.
//!
//! Blocks are independent, so several can be decompressed at once. They are handed to the
//! workers in turn (block `i` of the file to worker `i mod n`) and taken back in the same
//! order, so the blocks come out in file order without sorting. At most [`Ahead::depth`]
//! blocks are in flight: memory is bounded by that many blocks (compressed and decompressed)
//! besides the one being decoded.
//!
//! A block that cannot be read (truncated, a bad size, a bad sync marker, an I/O error) stops
//! the reading ahead: it is kept and reported after the blocks before it, so that errors come
//! in file order and the stream is where a reader on one thread would have left it.

use std::collections::VecDeque;

use crate::block::{BlockInfo, Failure};
use crate::codec::Codec;
use crate::error::Damage;
use crate::worker::Worker;

/// Blocks in flight per worker: one being decompressed and one waiting, so that a worker
/// never waits for the reading thread to hand over its next block.
const PER_WORKER: usize = 2;

/// Decompression on worker threads, ahead of the block being decoded.
#[derive(Debug)]
pub(crate) struct Ahead {
    workers: Vec<Worker>,
    /// The number of workers asked for (fewer start if the system refuses threads).
    requested: usize,
    /// The blocks handed over, in file order.
    in_flight: VecDeque<BlockInfo>,
    /// How many blocks were taken back: the next comes from worker `taken mod n`.
    taken: usize,
    /// Why the block after the last one in flight could not be read; nothing is read after it.
    failed: Option<Failure>,
    /// Buffers of blocks taken back, reused for the next blocks.
    spare_compressed: Vec<Vec<u8>>,
    spare_out: Vec<Vec<u8>>,
}

/// The next block out of [`Ahead`]: where it is, and whether it decompressed.
pub(crate) type Decompressed = (BlockInfo, Result<(), Damage>);

impl Ahead {
    /// Starts `threads` workers (at least one) decompressing `codec`'s blocks; fails only when
    /// not even one thread can be started.
    pub(crate) fn start(codec: Codec, threads: usize) -> std::io::Result<Ahead> {
        let mut workers = Vec::with_capacity(threads);
        for _ in 0..threads.max(1) {
            match Worker::start(codec) {
                Ok(worker) => workers.push(worker),
                Err(e) if workers.is_empty() => return Err(e),
                Err(_) => break,
            }
        }
        Ok(Ahead {
            workers,
            requested: threads,
            in_flight: VecDeque::new(),
            taken: 0,
            failed: None,
            spare_compressed: Vec::new(),
            spare_out: Vec::new(),
        })
    }

    /// The number of workers this was started with.
    pub(crate) fn requested(&self) -> usize {
        self.requested
    }

    /// The most blocks in flight at once.
    pub(crate) fn depth(&self) -> usize {
        self.workers.len() * PER_WORKER
    }

    /// Whether no block is in flight and no failure waits to be reported.
    pub(crate) fn is_idle(&self) -> bool {
        self.in_flight.is_empty() && self.failed.is_none()
    }

    /// Whether another block may be read and handed over.
    pub(crate) fn has_room(&self) -> bool {
        self.in_flight.len() < self.depth() && self.failed.is_none()
    }

    /// A buffer to read the next block's compressed data into.
    pub(crate) fn compressed_buffer(&mut self) -> Vec<u8> {
        self.spare_compressed.pop().unwrap_or_default()
    }

    /// Takes back a buffer from [`Self::compressed_buffer`] that was not handed over.
    pub(crate) fn give_back(&mut self, compressed: Vec<u8>) {
        self.spare_compressed.push(compressed);
    }

    /// Hands over `block`, whose data is `compressed`, to be decompressed to at most `limit`
    /// bytes.
    pub(crate) fn hand_over(&mut self, block: BlockInfo, compressed: Vec<u8>, limit: usize) {
        let worker = (self.taken + self.in_flight.len()) % self.workers.len();
        let out = self.spare_out.pop().unwrap_or_default();
        self.workers[worker].hand_over(compressed, out, limit);
        self.in_flight.push_back(block);
    }

    /// Records why the block after those in flight could not be read; it is reported after
    /// them, and nothing more is read until then.
    pub(crate) fn fail(&mut self, failure: Failure) {
        self.failed = Some(failure);
    }

    /// The next block in file order, decompressed into `data` (whose buffer is kept for a
    /// later block); the failure to read it; or `None` when nothing is in flight.
    /// An error of a worker (one that stopped) is a failure too, after which the blocks in
    /// flight are lost and this must not be used again.
    pub(crate) fn next(&mut self, data: &mut Vec<u8>) -> Option<Result<Decompressed, Failure>> {
        let Some(block) = self.in_flight.pop_front() else {
            return self.failed.take().map(Err);
        };
        let worker = self.taken % self.workers.len();
        self.taken += 1;
        let job = match self.workers[worker].wait() {
            Ok(job) => job,
            Err(e) => return Some(Err(Failure::lost_workers(e))),
        };
        self.spare_compressed.push(job.compressed);
        self.spare_out.push(std::mem::replace(data, job.out));
        Some(Ok((block, job.result)))
    }
}
