//! [`DatumWriter`]: container files of a schema given at run time, for records already
//! encoded as Avro binary (from JSON, from a generator, from another file's blocks).

use std::io::Write;

use crate::block::BlockInfo;
use crate::codec::Codec;
use crate::error::Error;
use crate::sink::BlockSink;

/// Writes records already encoded as Avro binary to a container file, and blocks taken
/// whole from other files; made by [`crate::WriterBuilder::build_datums`].
///
/// It has no type to check the records against: each datum must be the encoding of one
/// value of the schema the header names, as [`avdl2rs::avro_json::AvroJson::encode`]
/// writes it. Blocks are complete, written and flushed as for [`crate::Writer`]; every block
/// ends with this file's own sync marker, the copied ones too, as readers check it.
///
/// ```
/// use avdl2rs::avro_json::AvroJson;
/// use avdl2rs_container::{JsonReader, WriterBuilder};
/// use serde_json::json;
///
/// let schema = r#"{"type":"record","name":"Ping","fields":[{"name":"id","type":"long"}]}"#;
/// let json = AvroJson::new(schema)?;
/// let mut writer = WriterBuilder::new().build_datums(schema, Vec::new())?;
/// let mut datum = Vec::new();
/// json.encode(&json!({"id": 7}), &mut datum)?;
/// writer.append_encoded(&datum)?;
/// let file = writer.finish()?;
///
/// let records: Vec<_> = JsonReader::new(file.as_slice())?.collect::<Result<_, _>>()?;
/// assert_eq!(records, [json!({"id": 7})]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct DatumWriter<W: Write> {
    sink: BlockSink<W>,
}

impl<W: Write> DatumWriter<W> {
    pub(crate) fn new(sink: BlockSink<W>) -> Self {
        DatumWriter { sink }
    }

    /// The codec blocks are compressed with.
    pub fn codec(&self) -> Codec {
        self.sink.codec()
    }

    /// Adds one record, the Avro binary encoding `datum` of a value of the file's schema.
    ///
    /// Readers take a block's records within one item budget for the block's bytes
    /// ([`avdl2rs::codec::DecodeLimits`]); a record whose arrays or maps hold items that
    /// take no bytes (`null`, empty records) can spend it. Add such records with
    /// [`Self::append_encoded_counted`], which keeps blocks readable.
    pub fn append_encoded(&mut self, datum: &[u8]) -> Result<(), Error> {
        self.sink.append_counted(datum, 0)
    }

    /// Adds one record holding `items` array items and map entries (as
    /// [`avdl2rs::avro_json::AvroJson::encode`] returns them): the block is written first
    /// when the record would take it past the item budget readers give its bytes, and a
    /// record past the budget of its own bytes is [`Error::TooManyItems`], with nothing
    /// written.
    pub fn append_encoded_counted(&mut self, datum: &[u8], items: usize) -> Result<(), Error> {
        self.sink.append_counted(datum, items)
    }

    /// Writes a block of `block.count` records whose uncompressed data is `data` (as
    /// [`crate::BlockReader::next_decompressed`] reads it), compressed with this file's
    /// codec, after the records added so far: a block of another file kept whole, in another
    /// codec.
    pub fn append_block(&mut self, block: &BlockInfo, data: &[u8]) -> Result<(), Error> {
        self.sink.write_records(block.count, data)
    }

    /// Copies a block of `block.count` records whose data `stored` is already compressed
    /// with `codec` (as [`crate::BlockReader::next_stored`] reads it), after the records added
    /// so far, without decompressing it. The codec must be this file's: another is
    /// [`Error::CodecMismatch`], and then nothing is written.
    pub fn copy_block(
        &mut self,
        block: &BlockInfo,
        codec: Codec,
        stored: &[u8],
    ) -> Result<(), Error> {
        if codec != self.sink.codec() {
            return Err(Error::CodecMismatch {
                block: codec,
                file: self.sink.codec(),
            });
        }
        self.sink.copy_block(block.count, stored)
    }

    /// Writes the records added so far as a block and flushes the output.
    pub fn flush(&mut self) -> Result<(), Error> {
        self.sink.flush()
    }

    /// Flushes and returns the output.
    pub fn finish(self) -> Result<W, Error> {
        self.sink.finish()
    }

    /// The output.
    pub fn get_ref(&self) -> &W {
        self.sink.get_ref()
    }
}
