//! [`JsonReader`]: any file's records in the Avro JSON encoding, driven by the file's own
//! schema, for when no generated type exists (the `avdl2rs cat` command).

use std::io::Read;

use avdl2rs::avro_json::AvroJson;
use avdl2rs::codec;
use avdl2rs::DecodeError;
use serde_json::Value;

use crate::blocks::Blocks;
use crate::error::{Damage, Error};
use crate::header::Header;
use crate::records::{RecordDecoder, Records};

/// Reads the records of any container file as JSON values in the Avro JSON encoding
/// (Avro specification, "JSON Encoding", as [`avdl2rs::avro_json`] writes it): an iterator
/// of `Result<Value, Error>`.
///
/// Memory and errors are as for [`crate::Reader`]; the records of a block are read within
/// one runtime decode budget for the whole block, so the items a file can describe grow
/// linearly with its size.
#[derive(Debug)]
pub struct JsonReader<R> {
    records: Records<R, JsonRecords>,
}

impl<R: Read> JsonReader<R> {
    /// Reads the header of `reader` and parses its schema.
    pub fn new(reader: R) -> Result<Self, Error> {
        let blocks = Blocks::open(reader)?;
        let json = AvroJson::new(blocks.header().schema_json()).map_err(Error::Schema)?;
        Ok(JsonReader {
            records: Records::new(blocks, JsonRecords(json)),
        })
    }

    /// The file's header: writer schema, codec, metadata and sync marker.
    pub fn header(&self) -> &Header {
        self.records.header()
    }

    /// After an error, moves to the next block, as [`crate::Reader::skip_damaged`] does.
    pub fn skip_damaged(&mut self) -> Result<u64, Error> {
        self.records.recover()
    }
}

impl<R: Read> Iterator for JsonReader<R> {
    type Item = Result<Value, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        self.records.next_record()
    }
}

/// Decodes records with the runtime's JSON encoding of the writer schema.
#[derive(Debug)]
struct JsonRecords(AvroJson);

impl RecordDecoder for JsonRecords {
    type Item = Value;

    fn load(&mut self, data: &mut Vec<u8>, _count: u64) -> Result<(usize, usize), Damage> {
        Ok((0, data.len()))
    }

    fn decode(&self, reader: &mut codec::Reader<'_>) -> Result<Value, DecodeError> {
        self.0.decode_from(reader)
    }
}
