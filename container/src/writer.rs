//! [`Writer`]: container files of a generated or derived type's records.

use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom, Write};
use std::marker::PhantomData;

use avdl2rs::schema::SchemaSet;
use avdl2rs::{AvroEncode, AvroSchema};

use crate::codec::Codec;
use crate::datums::DatumWriter;
use crate::error::Error;
use crate::header::{self, Header};
use crate::input::Input;
use crate::sink::{AppendError, BlockSink};

/// The uncompressed block size a writer aims for unless told otherwise, as Java's default
/// sync interval.
pub const DEFAULT_BLOCK_BYTES: usize = 64_000;

/// Options of a [`Writer`]: codec, user metadata and when a block is complete.
#[derive(Debug, Clone)]
pub struct WriterBuilder {
    codec: Codec,
    metadata: BTreeMap<String, Vec<u8>>,
    block_bytes: usize,
    block_records: u64,
    sync: Option<[u8; 16]>,
}

impl Default for WriterBuilder {
    fn default() -> Self {
        WriterBuilder {
            codec: Codec::Null,
            metadata: BTreeMap::new(),
            block_bytes: DEFAULT_BLOCK_BYTES,
            block_records: u64::MAX,
            sync: None,
        }
    }
}

impl WriterBuilder {
    /// Uncompressed blocks of about 64 kB, no user metadata, a random sync marker.
    pub fn new() -> Self {
        Self::default()
    }

    /// Compresses blocks with `codec` (its feature must be enabled).
    pub fn codec(mut self, codec: Codec) -> Self {
        self.codec = codec;
        self
    }

    /// Adds the user metadata entry `key` (keys starting with `avro.` are reserved).
    pub fn metadata(mut self, key: impl Into<String>, value: impl Into<Vec<u8>>) -> Self {
        self.metadata.insert(key.into(), value.into());
        self
    }

    /// Ends a block once its uncompressed records reach `bytes` (at least one record each).
    pub fn block_bytes(mut self, bytes: usize) -> Self {
        self.block_bytes = bytes;
        self
    }

    /// Ends a block once it holds `records` records (whichever limit comes first).
    pub fn block_records(mut self, records: u64) -> Self {
        self.block_records = records.max(1);
        self
    }

    /// Uses `sync` as the sync marker instead of a random one, for reproducible files.
    pub fn sync_marker(mut self, sync: [u8; 16]) -> Self {
        self.sync = Some(sync);
        self
    }

    /// Writes the header of a new file of `T` records to `out`.
    pub fn build<T: AvroSchema + AvroEncode, W: Write>(
        self,
        out: W,
    ) -> Result<Writer<T, W>, Error> {
        Ok(Writer {
            sink: self.start(T::SCHEMA_JSON, out)?,
            _type: PhantomData,
        })
    }

    /// Writes the header of a new file of `schema_json` records to `out`, for records
    /// already encoded as Avro binary; the schema is parsed and validated first.
    pub fn build_datums<W: Write>(
        self,
        schema_json: &str,
        out: W,
    ) -> Result<DatumWriter<W>, Error> {
        SchemaSet::new()
            .parse_str(schema_json)
            .map_err(Error::Schema)?;
        self.start(schema_json, out).map(DatumWriter::new)
    }

    /// Checks the options, writes the header of a file of `schema_json` records to `out` and
    /// returns the sink of its blocks.
    fn start<W: Write>(self, schema_json: &str, mut out: W) -> Result<BlockSink<W>, Error> {
        self.codec.check_enabled()?;
        if let Some(key) = self.metadata.keys().find(|key| key.starts_with("avro.")) {
            return Err(Error::Header {
                offset: 0,
                message: format!("the metadata key {key:?} is reserved (it starts with avro.)"),
            });
        }
        let sync = self.sync.unwrap_or_else(header::new_sync);
        let header = Header::new(schema_json, self.codec, self.metadata.clone(), sync);
        out.write_all(&header.to_bytes())?;
        Ok(self.sink(out, &header))
    }

    /// Opens an existing file of `T` records to add blocks at its end, with the file's codec
    /// and sync marker; the file's schema must have `T`'s canonical form. The builder's
    /// codec, metadata and sync marker are not used (a file has one header).
    pub fn append_to<T: AvroSchema + AvroEncode, W: Read + Write + Seek>(
        self,
        mut file: W,
    ) -> Result<Writer<T, W>, Error> {
        file.seek(SeekFrom::Start(0))?;
        let header = Header::read(&mut Input::new(&mut file, 0))?;
        header.codec().check_enabled()?;
        let mut set = SchemaSet::new();
        let schema = set.parse_str(header.schema_json()).map_err(Error::Schema)?;
        let found = set.fingerprint(&schema);
        if found != T::FINGERPRINT {
            return Err(Error::SchemaMismatch {
                expected: T::FINGERPRINT,
                found,
            });
        }
        file.seek(SeekFrom::End(0))?;
        Ok(Writer {
            sink: self.sink(file, &header),
            _type: PhantomData,
        })
    }

    fn sink<W: Write>(&self, out: W, header: &Header) -> BlockSink<W> {
        BlockSink::new(out, header, self.block_bytes, self.block_records)
    }
}

/// Writes `T` records to a container file: header first, then blocks of records.
///
/// Records are encoded by `T`'s generated codec into the current block, which is compressed
/// and written as one piece when it is complete (see [`WriterBuilder::block_bytes`] and
/// [`WriterBuilder::block_records`]), on [`Writer::flush`] and on [`Writer::finish`]: the
/// output never holds part of a block, so a file is readable after every flush. Dropping a
/// writer flushes too, ignoring errors; call [`Writer::finish`] to see them.
#[derive(Debug)]
pub struct Writer<T: AvroSchema + AvroEncode, W: Write> {
    sink: BlockSink<W>,
    _type: PhantomData<fn(&T)>,
}

impl<T: AvroSchema + AvroEncode, W: Write> Writer<T, W> {
    /// A new file with the default options of [`WriterBuilder::new`].
    pub fn new(out: W) -> Result<Self, Error> {
        WriterBuilder::new().build(out)
    }

    /// Adds one record; a record that cannot be encoded is an error and leaves nothing behind.
    pub fn append(&mut self, value: &T) -> Result<(), Error> {
        self.sink
            .append(|block| value.encode(block))
            .map_err(|e| match e {
                AppendError::Encode(e) => Error::Encode(e),
                AppendError::Write(e) => e,
            })
    }

    /// Adds every record of `values`, stopping at the first that cannot be encoded.
    pub fn extend<'a>(&mut self, values: impl IntoIterator<Item = &'a T>) -> Result<(), Error>
    where
        T: 'a,
    {
        values.into_iter().try_for_each(|value| self.append(value))
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
