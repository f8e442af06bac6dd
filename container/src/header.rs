//! The file header: the magic bytes `Obj\x01`, the metadata map (`avro.schema`,
//! `avro.codec` and user entries) and the 16-byte sync marker.

use std::collections::BTreeMap;
use std::io::Read;

use avdl2rs::codec;

use crate::codec::Codec;
use crate::error::Error;
use crate::input::{Input, VarintError};

/// The four bytes every container file starts with.
pub const MAGIC: [u8; 4] = *b"Obj\x01";

/// The metadata key of the writer schema.
pub const SCHEMA_KEY: &str = "avro.schema";

/// The metadata key of the codec name.
pub const CODEC_KEY: &str = "avro.codec";

/// The most bytes the metadata map of a header may take; beyond it the file is refused
/// rather than read into memory.
const MAX_METADATA_BYTES: u64 = 64 << 20;

/// What the header of a container file says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    schema_json: String,
    codec: Codec,
    metadata: BTreeMap<String, Vec<u8>>,
    sync: [u8; 16],
}

impl Header {
    /// A header for records of `schema_json`, compressed with `codec`, with the user
    /// `metadata` beside the reserved entries.
    pub(crate) fn new(
        schema_json: &str,
        codec: Codec,
        user: BTreeMap<String, Vec<u8>>,
        sync: [u8; 16],
    ) -> Self {
        let mut metadata = user;
        metadata.insert(SCHEMA_KEY.into(), schema_json.as_bytes().to_vec());
        metadata.insert(CODEC_KEY.into(), codec.name().as_bytes().to_vec());
        Header {
            schema_json: schema_json.to_owned(),
            codec,
            metadata,
            sync,
        }
    }

    /// The writer schema, as the JSON text of `avro.schema`.
    pub fn schema_json(&self) -> &str {
        &self.schema_json
    }

    /// The codec of the blocks.
    pub fn codec(&self) -> Codec {
        self.codec
    }

    /// Every metadata entry, `avro.schema` and `avro.codec` included, by key.
    pub fn metadata(&self) -> &BTreeMap<String, Vec<u8>> {
        &self.metadata
    }

    /// The value of the metadata entry `key`.
    pub fn get(&self, key: &str) -> Option<&[u8]> {
        self.metadata.get(key).map(Vec::as_slice)
    }

    /// The sync marker that follows every block.
    pub fn sync(&self) -> [u8; 16] {
        self.sync
    }

    /// The encoded header.
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        codec::write_long(&mut out, self.metadata.len() as i64);
        for (key, value) in &self.metadata {
            codec::write_string(&mut out, key);
            codec::write_bytes(&mut out, value);
        }
        codec::write_long(&mut out, 0);
        out.extend_from_slice(&self.sync);
        out
    }

    /// Reads a header from the start of `input`.
    pub(crate) fn read<R: Read>(input: &mut Input<R>) -> Result<Header, Error> {
        let mut magic = [0; 4];
        let got = input.read_full(&mut magic)?;
        if got < 4 || magic != MAGIC {
            return Err(Error::BadMagic {
                found: magic[..got].to_vec(),
            });
        }
        let metadata = read_metadata(input)?;
        let mut sync = [0; 16];
        if input.read_full(&mut sync)? < 16 {
            return Err(header_error(input, "the file ends inside the sync marker"));
        }
        let schema_json = match metadata.get(SCHEMA_KEY) {
            Some(bytes) => String::from_utf8(bytes.clone())
                .map_err(|_| header_error(input, "avro.schema is not UTF-8"))?,
            None => return Err(header_error(input, "no avro.schema entry")),
        };
        let codec = match metadata.get(CODEC_KEY) {
            None => Codec::Null,
            Some(name) => Codec::from_name(&String::from_utf8_lossy(name))?,
        };
        Ok(Header {
            schema_json,
            codec,
            metadata,
            sync,
        })
    }
}

fn header_error<R: Read>(input: &Input<R>, message: impl Into<String>) -> Error {
    Error::Header {
        offset: input.offset(),
        message: message.into(),
    }
}

/// Reads the metadata map (`map<bytes>`), in either block form.
fn read_metadata<R: Read>(input: &mut Input<R>) -> Result<BTreeMap<String, Vec<u8>>, Error> {
    let start = input.offset();
    let mut metadata = BTreeMap::new();
    loop {
        let count = read_number(input, "metadata count")?;
        if count == 0 {
            return Ok(metadata);
        }
        if count < 0 {
            read_number(input, "metadata block size")?;
        }
        for _ in 0..count.unsigned_abs() {
            let key = read_chunk(input, start, "metadata key")?;
            let key = String::from_utf8(key)
                .map_err(|_| header_error(input, "a metadata key is not UTF-8"))?;
            let value = read_chunk(input, start, "metadata value")?;
            metadata.insert(key, value);
        }
    }
}

fn read_number<R: Read>(input: &mut Input<R>, what: &str) -> Result<i64, Error> {
    input.read_long().map_err(|e| match e {
        VarintError::Io(e) => Error::Io(e),
        other => header_error(input, format!("{what}: {other}")),
    })
}

/// Reads a length-prefixed key or value, keeping the whole map under its byte limit.
fn read_chunk<R: Read>(input: &mut Input<R>, start: u64, what: &str) -> Result<Vec<u8>, Error> {
    let len = read_number(input, what)?;
    let left = MAX_METADATA_BYTES.saturating_sub(input.offset() - start);
    let len = match u64::try_from(len) {
        Ok(len) if len <= left => len,
        _ => {
            return Err(header_error(
                input,
                format!("{what} length {len} is negative or beyond the {MAX_METADATA_BYTES}-byte metadata limit"),
            ))
        }
    };
    let mut out = Vec::new();
    if (input.read_up_to(len, &mut out)? as u64) < len {
        return Err(header_error(
            input,
            format!("the file ends inside a {what}"),
        ));
    }
    Ok(out)
}

/// A fresh sync marker: 16 bytes from the standard library's randomly seeded hasher, mixed
/// with the time and a counter so that two writers in one process differ too.
pub(crate) fn new_sync() -> [u8; 16] {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mut sync = [0; 16];
    for half in sync.chunks_exact_mut(8) {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u128(nanos);
        hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
        half.copy_from_slice(&hasher.finish().to_le_bytes());
    }
    sync
}
