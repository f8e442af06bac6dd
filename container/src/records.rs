//! The record iteration shared by the typed [`crate::Reader`] and the [`crate::JsonReader`]:
//! block after block, record after record, with located errors and recovery.

use std::io::Read;

use avdl2rs::codec::{self, DecodeLimits};
use avdl2rs::DecodeError;

use crate::block::BlockInfo;
use crate::blocks::Blocks;
use crate::decode;
use crate::error::{Damage, Error};
use crate::header::Header;

/// How the records of one kind of reader are decoded from a block.
pub(crate) trait RecordDecoder {
    /// What one record decodes to.
    type Item;

    /// Prepares the `count` records of a block (`data`, which it may rewrite) and returns the
    /// range of `data` they occupy.
    fn load(&mut self, data: &mut Vec<u8>, count: u64) -> Result<(usize, usize), Damage>;

    /// Decodes one record from `reader`, which holds the rest of the block and what is left
    /// of its budget.
    fn decode(&self, reader: &mut codec::Reader<'_>) -> Result<Self::Item, DecodeError>;
}

/// Records of a file, decoded by `D`.
#[derive(Debug)]
pub(crate) struct Records<R, D> {
    blocks: Blocks<R>,
    decoder: D,
    data: Vec<u8>,
    /// Where the next record starts in `data`, and where the block's records end.
    pos: usize,
    end: usize,
    /// Records left in the current block, and the index of the next one.
    left: u64,
    index: u64,
    block: Option<BlockInfo>,
    /// What is left of the current block's decode budget.
    budget: DecodeLimits,
}

impl<R: Read, D: RecordDecoder> Records<R, D> {
    pub(crate) fn new(blocks: Blocks<R>, decoder: D) -> Self {
        Records {
            blocks,
            decoder,
            data: Vec::new(),
            pos: 0,
            end: 0,
            left: 0,
            index: 0,
            block: None,
            budget: decode::block_budget(0),
        }
    }

    pub(crate) fn header(&self) -> &Header {
        self.blocks.header()
    }

    pub(crate) fn decoder(&self) -> &D {
        &self.decoder
    }

    pub(crate) fn blocks_mut(&mut self) -> &mut Blocks<R> {
        &mut self.blocks
    }

    /// After an error, drops what is left of the damaged block and moves to the next one.
    pub(crate) fn recover(&mut self) -> Result<u64, Error> {
        self.left = 0;
        self.block = None;
        self.blocks.recover()
    }

    /// The next record, reading blocks as needed.
    pub(crate) fn next_record(&mut self) -> Option<Result<D::Item, Error>> {
        while self.left == 0 {
            if let Some(error) = self.check_block_end() {
                return Some(Err(error));
            }
            match self.blocks.next_block(&mut self.data) {
                Ok(None) => return None,
                Ok(Some(block)) => {
                    if let Err(damage) = self.start_block(block) {
                        return Some(Err(self.damaged(block, damage)));
                    }
                }
                Err(error) => return Some(Err(error)),
            }
        }
        let block = self.block?;
        let decoder = &self.decoder;
        let bytes = &self.data[self.pos..self.end];
        match decode::decode_front(bytes, &mut self.budget, |reader| decoder.decode(reader)) {
            Ok((item, used)) => {
                self.pos += used;
                self.left -= 1;
                self.index += 1;
                Some(Ok(item))
            }
            Err(source) => {
                let record = self.index;
                self.left = 0;
                self.block = None;
                self.blocks.fail_current();
                Some(Err(Error::Record {
                    block: block.number,
                    offset: block.offset,
                    record,
                    source,
                }))
            }
        }
    }

    fn start_block(&mut self, block: BlockInfo) -> Result<(), Damage> {
        let (start, end) = self.decoder.load(&mut self.data, block.count)?;
        self.pos = start;
        self.end = end;
        self.budget = decode::block_budget(end - start);
        self.left = block.count;
        self.index = 0;
        self.block = Some(block);
        Ok(())
    }

    /// After a block's last record: bytes left over mean the count or the data is wrong.
    fn check_block_end(&mut self) -> Option<Error> {
        let block = self.block.take()?;
        let left = self.end - self.pos;
        (left > 0).then(|| self.damaged(block, Damage::TrailingBytes(left)))
    }

    fn damaged(&mut self, block: BlockInfo, damage: Damage) -> Error {
        self.left = 0;
        self.block = None;
        self.blocks.fail_current();
        Error::Block {
            block: block.number,
            offset: block.offset,
            damage,
        }
    }
}
