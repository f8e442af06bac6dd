//! Container files read the way a tool reads a damaged file: every record or block, and
//! after an error the reader skips to the next block and goes on.

use avdl2rs::{AvroDecode, AvroSchema};
use avdl2rs_container::{BlockInfo, BlockReader, Error, JsonReader, Reader};
use serde_json::Value;

use crate::generated::{Expr, LinkedList, Shapes, Tree};
use crate::{EVERY_TYPE, LINKED_LIST_V0, NULLS, TREE_V0};

/// The schemas `container_codecs` writes files of, picked by index.
pub const SCHEMAS: [&str; 8] = [
    Tree::SCHEMA_JSON,
    LinkedList::SCHEMA_JSON,
    TREE_V0,
    LINKED_LIST_V0,
    Expr::SCHEMA_JSON,
    Shapes::SCHEMA_JSON,
    EVERY_TYPE,
    NULLS,
];

/// The sync marker of the files the fuzz crate writes, so that the dictionary can name it.
pub const SYNC: [u8; 16] = *b"avdl2rs-fuzzsync";

/// Items taken from one reader before it is dropped. A valid file can hold any number of
/// records that take no bytes (nulls, empty records), so reading to the end is not
/// always possible; what one item costs is what is under test.
const MAX_ITEMS: usize = 100_000;

/// Errors after which a reader is still asked to skip to the next block.
const MAX_RECOVERIES: usize = 16;

/// A reader that can go on past a damaged block.
pub trait Recover: Iterator {
    /// Skips to the next block after an error (`skip_damaged`).
    fn recover(&mut self) -> Result<u64, Error>;
}

impl<T: AvroSchema + AvroDecode, R: std::io::Read> Recover for Reader<T, R> {
    fn recover(&mut self) -> Result<u64, Error> {
        self.skip_damaged()
    }
}

impl<R: std::io::Read> Recover for JsonReader<R> {
    fn recover(&mut self) -> Result<u64, Error> {
        self.skip_damaged()
    }
}

/// Takes every item of `items`, skipping damaged blocks; returns the values read.
pub fn drain<V>(mut items: impl Recover<Item = Result<V, Error>>) -> Vec<V> {
    let mut values = Vec::new();
    let mut recoveries = 0;
    for _ in 0..MAX_ITEMS {
        match items.next() {
            None => break,
            Some(Ok(value)) => values.push(value),
            Some(Err(_)) => {
                recoveries += 1;
                if recoveries > MAX_RECOVERIES || items.recover().is_err() {
                    break;
                }
            }
        }
    }
    values
}

/// Reads `file`'s records as `T`s, directly or through resolution, decompressing on
/// `threads` worker threads (0: on the calling thread).
pub fn read_typed<T: AvroSchema + AvroDecode>(file: &[u8], threads: usize) {
    if let Ok(reader) = Reader::<T, _>::new(file) {
        drop(drain(reader.decompression_threads(threads)));
    }
}

/// Reads `file`'s records as Avro JSON, driven by the file's own schema.
pub fn read_json(file: &[u8]) -> Option<Vec<Value>> {
    JsonReader::new(file).ok().map(drain)
}

/// Reads `file`'s blocks, decompressed when `decompress`, otherwise as stored; returns each
/// block's record count and data.
pub fn read_blocks(file: &[u8], decompress: bool) -> Option<Vec<(u64, Vec<u8>)>> {
    let mut reader = BlockReader::new(file).ok()?;
    let mut blocks = Vec::new();
    let mut recoveries = 0;
    for _ in 0..MAX_ITEMS {
        let mut data = Vec::new();
        let next: Result<Option<BlockInfo>, Error> = if decompress {
            reader.next_decompressed(&mut data)
        } else {
            reader.next_stored(&mut data)
        };
        match next {
            Ok(None) => break,
            Ok(Some(block)) => blocks.push((block.count, data)),
            Err(_) => {
                recoveries += 1;
                if recoveries > MAX_RECOVERIES || reader.skip_damaged().is_err() {
                    break;
                }
            }
        }
    }
    Some(blocks)
}
