//! [`Salvage`]: what can still be read from a damaged file, block by block, with a report of
//! every block that could not be (the `avdl2rs repair` and `cat --skip-damaged` commands).

use std::io::Read;

use avdl2rs::avro_json::AvroJson;
use serde_json::Value;

use crate::block::BlockInfo;
use crate::blocks::Blocks;
use crate::decode;
use crate::error::{Damage, Error};
use crate::header::Header;

/// Reads a container file's blocks, keeping those whose every record decodes with the
/// file's schema and passing over the damaged ones, each reported as a [`DamagedBlock`].
///
/// A block is damaged when it cannot be read whole (the file ends inside it, its count or
/// size is not a valid number), when its data does not decompress, when the 16 bytes after
/// it are not the file's sync marker, or when its records do not decode and fill its data
/// exactly. A damaged block is dropped whole, since records decoded from damaged data may
/// be wrong without failing. When its end is not known, reading goes on after the next sync
/// marker, and the bytes passed over are reported with it.
///
/// Blocks are read and decompressed on the calling thread. Memory is bounded by one block, as
/// for the other readers, plus its records' JSON values.
///
/// ```
/// use avdl2rs_container::{Salvage, Salvaged, WriterBuilder};
///
/// let mut writer = WriterBuilder::new().build_datums(r#""long""#, Vec::new())?;
/// writer.append_encoded(&[2])?;
/// let file = writer.finish()?;
///
/// let mut salvage = Salvage::new(file.as_slice())?;
/// while let Some(block) = salvage.next_block()? {
///     match block {
///         Salvaged::Intact(block) => println!("{} records", block.records.len()),
///         Salvaged::Damaged(damaged) => eprintln!("{}", damaged.error),
///     }
/// }
/// # Ok::<(), avdl2rs_container::Error>(())
/// ```
#[derive(Debug)]
pub struct Salvage<R> {
    blocks: Blocks<R>,
    json: AvroJson,
}

/// One step of a [`Salvage`]: a block kept, or a damaged one passed over.
#[derive(Debug)]
pub enum Salvaged {
    /// A block whose records all decode.
    Intact(IntactBlock),
    /// A block that could not be read, and what was lost with it.
    Damaged(DamagedBlock),
}

/// A block whose records all decode with the file's schema.
#[derive(Debug, Clone, PartialEq)]
pub struct IntactBlock {
    /// Where the block is and how many records it holds.
    pub info: BlockInfo,
    /// Its data, decompressed: the records' Avro binary encoding, one after another.
    pub data: Vec<u8>,
    /// Its records in the Avro JSON encoding.
    pub records: Vec<Value>,
}

/// A block passed over, as far as its damage lets it be known.
#[derive(Debug)]
pub struct DamagedBlock {
    /// What is wrong, naming the block's number and byte offset ([`Error::Block`] or
    /// [`Error::Record`]).
    pub error: Error,
    /// The records lost with it: its record count, when that could be read.
    pub records: Option<u64>,
    /// The bytes after the block passed over to find the next sync marker (0 when its end
    /// was known); blocks among them are lost too, uncounted.
    pub skipped: u64,
}

impl<R: Read> Salvage<R> {
    /// Reads the header of `reader` and parses its schema. A file whose header cannot be
    /// read has nothing to salvage: that is an error.
    pub fn new(reader: R) -> Result<Self, Error> {
        let mut blocks = Blocks::open(reader)?;
        blocks.set_threads(0);
        let json = AvroJson::new(blocks.header().schema_json()).map_err(Error::Schema)?;
        Ok(Salvage { blocks, json })
    }

    /// Sets the largest block, compressed or not, accepted (bytes); a larger one is damaged.
    pub fn max_block_bytes(mut self, limit: usize) -> Self {
        self.blocks.set_max_block_bytes(limit);
        self
    }

    /// The file's header: writer schema, codec, metadata and sync marker.
    pub fn header(&self) -> &Header {
        self.blocks.header()
    }

    /// The next block, intact or damaged; `None` at the end of the file. An error only when
    /// the file itself cannot be read ([`Error::Io`]).
    pub fn next_block(&mut self) -> Result<Option<Salvaged>, Error> {
        let mut data = Vec::new();
        let info = match self.blocks.next_block(&mut data) {
            Ok(None) => return Ok(None),
            Ok(Some(info)) => info,
            Err(Error::Io(e)) => return Err(Error::Io(e)),
            Err(error) => {
                let records = self.blocks.last_count();
                let skipped = self.blocks.recover()?;
                return Ok(Some(Salvaged::Damaged(DamagedBlock {
                    error,
                    records,
                    skipped,
                })));
            }
        };
        Ok(Some(match self.records(info, &data) {
            Ok(records) => Salvaged::Intact(IntactBlock {
                info,
                data,
                records,
            }),
            Err(error) => Salvaged::Damaged(DamagedBlock {
                error,
                records: Some(info.count),
                skipped: 0,
            }),
        }))
    }

    /// The `info.count` records of a block's `data`, which they must fill exactly, decoded
    /// within one budget for the block as the other readers decode them.
    fn records(&self, info: BlockInfo, data: &[u8]) -> Result<Vec<Value>, Error> {
        let mut budget = decode::block_budget(data.len());
        let mut pos = 0;
        let mut records = Vec::new();
        for record in 0..info.count {
            let (value, used) =
                decode::decode_front(&data[pos..], &mut budget, |r| self.json.decode_from(r))
                    .map_err(|source| Error::Record {
                        block: info.number,
                        offset: info.offset,
                        record,
                        source,
                    })?;
            pos += used;
            records.push(value);
        }
        if pos < data.len() {
            return Err(Error::Block {
                block: info.number,
                offset: info.offset,
                damage: Damage::TrailingBytes(data.len() - pos),
            });
        }
        Ok(records)
    }
}
