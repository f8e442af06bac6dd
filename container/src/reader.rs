//! [`Reader`]: the records of a file as values of a generated or derived type.

use std::io::Read;
use std::marker::PhantomData;

use avdl2rs::codec;
use avdl2rs::compat::SchemaRef;
use avdl2rs::resolve::{ResolutionPlan, ResolveError};
use avdl2rs::schema::{Schema, SchemaKind, SchemaSet};
use avdl2rs::{AvroDecode, AvroSchema, DecodeError};

use crate::blocks::Blocks;
use crate::decode;
use crate::error::{Damage, Error};
use crate::header::Header;
use crate::records::{RecordDecoder, Records};

/// Reads the records of a container file as `T`s: an iterator of `Result<T, Error>`.
///
/// When the file's schema has `T`'s canonical form, records are decoded directly by `T`'s
/// generated codec. Otherwise the file was written with another version of the schema and
/// each block is first translated by the runtime's [`ResolutionPlan`] (defaults for fields
/// the file lacks, promotions, fields only the file has skipped), compiled once when the
/// reader is opened; a schema `T` cannot read is refused then.
///
/// Memory is bounded by one block, and by the blocks in flight when they are decompressed on
/// worker threads ([`Reader::decompression_threads`]): [`Reader::max_block_bytes`] (256 MiB
/// unless changed) caps a block's compressed and uncompressed size. A damaged block or record ends the iteration
/// with a located [`Error`]; [`Reader::skip_damaged`] moves to the next block and lets it go on.
///
/// ```
/// use avdl2rs_container::{Reader, Writer};
///
/// #[derive(avdl2rs::Avro, Debug, PartialEq)]
/// #[avro(namespace = "shop")]
/// struct Ping {
///     id: i64,
/// }
///
/// let mut writer = Writer::new(Vec::new())?;
/// writer.extend([&Ping { id: 1 }, &Ping { id: 2 }])?;
/// let file = writer.finish()?;
///
/// let pings: Vec<Ping> = Reader::new(file.as_slice())?.collect::<Result<_, _>>()?;
/// assert_eq!(pings, [Ping { id: 1 }, Ping { id: 2 }]);
/// # Ok::<(), avdl2rs_container::Error>(())
/// ```
#[derive(Debug)]
pub struct Reader<T, R> {
    records: Records<R, Typed<T>>,
}

impl<T: AvroSchema + AvroDecode, R: Read> Reader<T, R> {
    /// Reads the header of `reader` and prepares to decode its records as `T`s.
    ///
    /// The stream is buffered internally; pass a `File` as it is.
    pub fn new(reader: R) -> Result<Self, Error> {
        let blocks = Blocks::open(reader)?;
        let plan = plan_for::<T>(blocks.header().schema_json())?;
        Ok(Reader {
            records: Records::new(
                blocks,
                Typed {
                    plan,
                    framed: Vec::new(),
                    _type: PhantomData,
                },
            ),
        })
    }

    /// Sets the largest block, compressed or not, the reader accepts (bytes).
    pub fn max_block_bytes(mut self, limit: usize) -> Self {
        self.records.blocks_mut().set_max_block_bytes(limit);
        self
    }

    /// Decompresses blocks on `threads` worker threads, ahead of the records being decoded;
    /// 0 decompresses each block on the calling thread when its records are reached. By
    /// default a reader uses one worker per core, up to 4, and none on a single core.
    ///
    /// Blocks are independent, so the workers decompress several at once (at most two each
    /// in flight) while the calling thread decodes: with a free core per worker, a file
    /// whose decompression costs more than its decoding (bzip2, xz) is read up to
    /// `threads` times as fast. Memory grows by the blocks in flight: at most `2 × threads`
    /// more blocks, each bounded by [`Reader::max_block_bytes`] compressed and decompressed.
    /// Errors, their locations and [`Reader::skip_damaged`] are as on one thread: a block that
    /// cannot be read stops the reading ahead and is reported after the blocks before it.
    /// Uncompressed files are always read on the calling thread; if the system cannot start
    /// a thread, so are compressed ones. A change takes effect once the blocks in flight are
    /// taken.
    pub fn decompression_threads(mut self, threads: usize) -> Self {
        self.records.blocks_mut().set_threads(threads);
        self
    }

    /// The file's header: writer schema, codec, metadata and sync marker.
    pub fn header(&self) -> &Header {
        self.records.header()
    }

    /// Whether records are decoded directly (the file's schema is `T`'s) rather than
    /// translated from another schema version.
    pub fn is_direct(&self) -> bool {
        self.records.decoder().plan.is_none()
    }

    /// After an error, drops the rest of the damaged block and moves to the next block (past
    /// the next sync marker when the damaged block's end is not known), so that iteration
    /// goes on. Returns how many bytes of the file were skipped to find it.
    pub fn skip_damaged(&mut self) -> Result<u64, Error> {
        self.records.recover()
    }
}

impl<T: AvroSchema + AvroDecode, R: Read> Iterator for Reader<T, R> {
    type Item = Result<T, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        self.records.next_record()
    }
}

/// The plan translating the file's records to `T`'s encoding; `None` when they are `T`'s.
///
/// A block is translated as a whole: its records framed as one array of the writer schema,
/// read as an array of `T`'s schema, so the plan also finds where each record ends.
fn plan_for<T: AvroSchema>(writer_json: &str) -> Result<Option<ResolutionPlan>, Error> {
    let mut writer_set = SchemaSet::new();
    let writer = writer_set.parse_str(writer_json).map_err(Error::Schema)?;
    if writer_set.fingerprint(&writer) == T::FINGERPRINT {
        return Ok(None);
    }
    let mut reader_set = SchemaSet::new();
    let reader = reader_set
        .parse_str(T::SCHEMA_JSON)
        .map_err(|e| Error::Resolve(ResolveError::ReaderSchema(e)))?;
    let array = |schema: Schema| Schema::new(SchemaKind::Array(Box::new(schema)));
    let (writer, reader) = (array(writer), array(reader));
    ResolutionPlan::new(
        SchemaRef::new(&reader_set, &reader),
        SchemaRef::new(&writer_set, &writer),
    )
    .map(Some)
    .map_err(Error::Resolve)
}

/// Decodes `T`s, translating each block first when the file has another schema.
#[derive(Debug)]
struct Typed<T> {
    plan: Option<ResolutionPlan>,
    /// The block framed as an array of writer records.
    framed: Vec<u8>,
    _type: PhantomData<fn() -> T>,
}

impl<T: AvroDecode> RecordDecoder for Typed<T> {
    type Item = T;

    fn load(&mut self, data: &mut Vec<u8>, count: u64) -> Result<(usize, usize), Damage> {
        let Some(plan) = &self.plan else {
            return Ok((0, data.len()));
        };
        // An empty block is the empty array; data after it is then left over and an error.
        self.framed.clear();
        codec::write_long(&mut self.framed, count as i64);
        self.framed.extend_from_slice(data);
        if count > 0 {
            codec::write_long(&mut self.framed, 0);
        }
        data.clear();
        plan.translate(&self.framed, data)
            .map_err(|e| Damage::Records(e.to_string()))?;
        // The translated array: its count (when not empty), the records, the final 0.
        let start = if count > 0 {
            decode::long_len(data).map_err(|e| Damage::Records(e.to_string()))?
        } else {
            0
        };
        Ok((start, data.len() - 1))
    }

    #[inline]
    fn decode(&self, reader: &mut codec::Reader<'_>) -> Result<T, DecodeError> {
        T::decode(reader)
    }
}
