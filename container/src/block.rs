//! One block as the readers see it: where it is in its file, and why it could not be read.
//! A leaf below both the block stream and the decompression ahead of it.

use crate::error::{Damage, Error};

/// Where a block is in its file and how many records it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockInfo {
    /// The block number, from 0.
    pub number: u64,
    /// The offset of the block's first byte (its record count) in the file.
    pub offset: u64,
    /// The record count.
    pub count: u64,
}

/// Why a block could not be read, located, and whether the stream is left inside it.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) error: Error,
    /// Whether recovering must scan for the next sync marker.
    pub(crate) scan: bool,
    /// Whether the decompression workers stopped (and the blocks in flight are lost).
    pub(crate) lost_workers: bool,
}

impl Failure {
    pub(crate) fn io(error: std::io::Error) -> Failure {
        Failure {
            error: Error::Io(error),
            scan: true,
            lost_workers: false,
        }
    }

    /// A decompression worker stopped.
    pub(crate) fn lost_workers(error: std::io::Error) -> Failure {
        Failure {
            lost_workers: true,
            ..Failure::io(error)
        }
    }

    /// Damage found once the whole block was read.
    pub(crate) fn after(block: BlockInfo, damage: Damage) -> Failure {
        Failure::at(block.number, block.offset, damage)
    }

    /// Damage of block `number`, which starts at `offset`; the stream is past its end.
    pub(crate) fn at(number: u64, offset: u64, damage: Damage) -> Failure {
        Failure {
            error: Error::Block {
                block: number,
                offset,
                damage,
            },
            scan: false,
            lost_workers: false,
        }
    }
}
