//! Reading data written with another version of a schema (Avro specification, "Schema
//! Resolution").
//!
//! Use a [`ResolutionPlan`] when you know the one writer schema up front, a [`Resolver`] when
//! writer schemas arrive at run time as JSON text (it compiles each pair once and caches the
//! plan), and a [`Consumer`] for Confluent-framed messages, whose writer schema it finds by
//! schema id through a [`SchemaLookup`].
//!
//! A [`ResolutionPlan`] is compiled once from a writer schema and a reader schema. It
//! translates the writer's bytes into the reader's encoding in one pass — copying runs of
//! values both encode alike, promoting numbers, skipping fields only the writer has, adding
//! the reader's defaults (encoded once, when the plan is built), re-indexing enum symbols and
//! union branches — and the reader type's ordinary [`AvroDecode`] reads the result. So any
//! generated or derived type reads old data without code of its own. When writer and reader
//! have the same canonical form the bytes are decoded directly, and when the reader's fields
//! are the writer's first ones, encoded alike (the writer has only added fields at the end),
//! the reader decodes the writer's bytes in place and the plan then passes over the rest.
//! A top-level record whose fields need no nested translation (kept, dropped, promoted or
//! defaulted, also inside nested records read in order) is translated by a shorter path of
//! its own, into a buffer sized once.
//!
//! A writer schema the reader cannot read is refused when the plan is built, with the
//! report of [`crate::compat::can_read`], never turned into wrong values.
//!
//! [`Resolver`] caches plans by (writer, reader) fingerprint; [`Consumer`] adds the
//! Confluent wire format and a [`SchemaLookup`] from schema ids to writer schemas. A Kafka
//! consumer should read through a [`Consumer`]: it is the path on which a message is always
//! decoded with the schema that wrote it.
//!
//! ```
//! use avdl2rs::resolve::{ResolutionPlan, ResolveError};
//! use avdl2rs::Avro;
//!
//! /// The current version: `amount` became a double, `note` was added with a default.
//! #[derive(Avro, Debug, PartialEq)]
//! struct Order {
//!     id: i64,
//!     amount: f64,
//!     note: Option<String>,
//! }
//!
//! // The version data was written with: `amount` an int, no `note`.
//! const V1: &str = r#"{"type":"record","name":"Order","fields":[
//!     {"name":"id","type":"long"},{"name":"amount","type":"int"}]}"#;
//!
//! let plan = ResolutionPlan::reading::<Order>(V1)?;
//! assert!(!plan.is_direct());
//! // id 7 and amount 40, as version 1 writes them (zig-zag varints).
//! let order: Order = plan.decode(&[0x0e, 0x50])?;
//! assert_eq!(order, Order { id: 7, amount: 40.0, note: None });
//!
//! // A writer the reader cannot read is refused when the plan is built, with the reasons.
//! let text_ids = r#"{"type":"record","name":"Order","fields":[{"name":"id","type":"string"}]}"#;
//! assert!(matches!(
//!     ResolutionPlan::reading::<Order>(text_ids),
//!     Err(ResolveError::Incompatible(_))
//! ));
//! # Ok::<(), ResolveError>(())
//! ```

use std::collections::HashMap;
use std::sync::{Arc, PoisonError, RwLock};

use crate::codec::Reader;
use crate::compat::{can_read, Incompatibility, SchemaRef};
use crate::error::DecodeError;
use crate::schema::{SchemaError, SchemaSet};
use crate::wire::{self, WireError};
use crate::{AvroDecode, AvroSchema};
use strategy::Strategy;

mod compile;
mod consumer;
mod flat;
mod one_of;
mod program;
mod run;
mod strategy;

pub use consumer::{Consumer, LookupError, SchemaLookup, REFUSALS_KEPT};
pub use one_of::Resolvable;

/// Why data could not be read through a plan.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ResolveError {
    /// The writer schema is not a valid schema.
    #[error("invalid writer schema: {0}")]
    WriterSchema(#[source] SchemaError),
    /// The reader type's schema is not a valid schema.
    #[error("invalid reader schema: {0}")]
    ReaderSchema(#[source] SchemaError),
    /// The reader cannot read the writer's data; every reason is listed.
    #[error("the reader schema cannot read the writer's data: {}", list(.0))]
    Incompatible(Vec<Incompatibility>),
    /// The plan could not be built for another reason (a default that cannot be encoded).
    #[error("cannot resolve: {0}")]
    Plan(String),
    /// A plan was used with a type whose schema it was not built for.
    #[error("the plan reads schema {expected:#018x}, not {found:#018x}")]
    WrongReader {
        /// The reader fingerprint of the plan.
        expected: u64,
        /// The fingerprint of the type asked for.
        found: u64,
    },
    /// The writer's bytes are not a valid value of the writer schema (offsets count from the
    /// first byte of the writer's body).
    #[error("bad writer data: {0}")]
    Translate(#[source] DecodeError),
    /// The reader type rejected the translated value (offsets count in the translated bytes).
    /// Damage in values the plan copies without walking them (the top-level record's last
    /// run of values both schemas encode alike, or a whole value encoded alike) shows here.
    #[error("cannot read the resolved value: {0}")]
    Decode(#[source] DecodeError),
    /// The message framing is wrong.
    #[error(transparent)]
    Wire(#[from] WireError),
    /// The writer schema names a type that no variant of the [`crate::OneOf`] enum read is,
    /// and the enum has no catch-all variant.
    #[error("schema id {id} writes {full_name}, which is none of the types read")]
    UnknownType {
        /// The schema id of the message.
        id: i32,
        /// The writer type's full name (or `union`, `long`, ... for an unnamed schema).
        full_name: String,
    },
    /// The writer schema of a message could not be looked up.
    #[error("cannot look up the writer schema of id {id}: {source}")]
    Lookup {
        /// The schema id of the message.
        id: i32,
        /// Why the lookup failed.
        source: LookupError,
    },
}

fn list(incompatibilities: &[Incompatibility]) -> String {
    let items: Vec<String> = incompatibilities.iter().map(ToString::to_string).collect();
    items.join("; ")
}

/// A compiled way to read data written with one schema as another.
#[derive(Debug)]
pub struct ResolutionPlan {
    /// `None` when both schemas have the same canonical form: the bytes are read directly.
    /// Else the compiled translation, with how it decodes a message.
    program: Option<(program::Program, Strategy)>,
    writer_fingerprint: u64,
    reader_fingerprint: u64,
}

thread_local! {
    /// The translation buffer, reused between messages of one thread.
    static BUFFER: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
    /// The output room of flat translations ([`flat::Flat`]), reused between messages of one
    /// thread: its length only grows (up to [`KEPT_BUFFER`]), so it is zeroed only then.
    static ROOM: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Buffers larger than this are dropped after use rather than kept for the next message.
const KEPT_BUFFER: usize = 1 << 20;

impl ResolutionPlan {
    /// Compiles the plan that reads `writer` data as `reader` data, refusing pairs the
    /// compatibility check rejects.
    pub fn new(reader: SchemaRef<'_>, writer: SchemaRef<'_>) -> Result<Self, ResolveError> {
        let reader_fingerprint = reader.set.fingerprint(reader.schema);
        Self::with_reader_fingerprint(reader, writer, reader_fingerprint)
    }

    fn with_reader_fingerprint(
        reader: SchemaRef<'_>,
        writer: SchemaRef<'_>,
        reader_fingerprint: u64,
    ) -> Result<Self, ResolveError> {
        let writer_fingerprint = writer.set.fingerprint(writer.schema);
        let same =
            writer.set.canonical_form(writer.schema) == reader.set.canonical_form(reader.schema);
        let program = if same {
            None
        } else {
            let problems = can_read(reader, writer);
            if !problems.is_empty() {
                return Err(ResolveError::Incompatible(problems));
            }
            let program = compile::compile(reader, writer).map_err(ResolveError::Plan)?;
            let strategy = Strategy::of(&program);
            Some((program, strategy))
        };
        Ok(ResolutionPlan {
            program,
            writer_fingerprint,
            reader_fingerprint,
        })
    }

    /// The plan with which the type `Reader` reads data written with `writer_json`.
    pub fn reading<Reader: AvroSchema>(writer_json: &str) -> Result<Self, ResolveError> {
        let mut writer_set = SchemaSet::new();
        let writer = writer_set
            .parse_str(writer_json)
            .map_err(ResolveError::WriterSchema)?;
        Self::reading_from::<Reader>(&writer_set, &writer)
    }

    /// The plan that translates the encoding of the type `Writer` into that of
    /// `reader_json`: the other direction of [`ResolutionPlan::reading`], for a producer whose
    /// messages must be written in a schema other than its type's (the latest registered
    /// version, say).
    pub fn writing<Writer: AvroSchema>(reader_json: &str) -> Result<Self, ResolveError> {
        let mut reader_set = SchemaSet::new();
        let reader = reader_set
            .parse_str(reader_json)
            .map_err(ResolveError::ReaderSchema)?;
        let mut writer_set = SchemaSet::new();
        let writer = writer_set
            .parse_str(Writer::SCHEMA_JSON)
            .map_err(ResolveError::WriterSchema)?;
        Self::new(
            SchemaRef::new(&reader_set, &reader),
            SchemaRef::new(&writer_set, &writer),
        )
    }

    /// Renamed to [`ResolutionPlan::reading`], which says that `T` is the reader.
    #[deprecated(note = "renamed to `ResolutionPlan::reading`")]
    pub fn for_type<T: AvroSchema>(writer_json: &str) -> Result<Self, ResolveError> {
        Self::reading::<T>(writer_json)
    }

    /// Renamed to [`ResolutionPlan::writing`], which says that `T` is the writer.
    #[deprecated(note = "renamed to `ResolutionPlan::writing`")]
    pub fn from_type<T: AvroSchema>(reader_json: &str) -> Result<Self, ResolveError> {
        Self::writing::<T>(reader_json)
    }

    fn reading_from<T: AvroSchema>(
        writer_set: &SchemaSet,
        writer: &crate::schema::Schema,
    ) -> Result<Self, ResolveError> {
        let mut reader_set = SchemaSet::new();
        let reader = reader_set
            .parse_str(T::SCHEMA_JSON)
            .map_err(ResolveError::ReaderSchema)?;
        Self::with_reader_fingerprint(
            SchemaRef::new(&reader_set, &reader),
            SchemaRef::new(writer_set, writer),
            T::FINGERPRINT,
        )
    }

    /// Whether writer and reader have the same canonical form, so no translation happens.
    pub fn is_direct(&self) -> bool {
        self.program.is_none()
    }

    /// The fingerprint of the writer schema.
    pub fn writer_fingerprint(&self) -> u64 {
        self.writer_fingerprint
    }

    /// The fingerprint of the reader schema.
    pub fn reader_fingerprint(&self) -> u64 {
        self.reader_fingerprint
    }

    /// Appends to `out` the reader's encoding of the writer value that spans all of `bytes`.
    pub fn translate(&self, bytes: &[u8], out: &mut Vec<u8>) -> Result<(), DecodeError> {
        match &self.program {
            Some((program, _)) => run::translate(program, bytes, out),
            None => {
                out.extend_from_slice(bytes);
                Ok(())
            }
        }
    }

    /// Reads the writer value that spans all of `bytes` as a `T`, which must be the type the
    /// plan was built for.
    pub fn decode<T: AvroSchema + AvroDecode>(&self, bytes: &[u8]) -> Result<T, ResolveError> {
        if T::FINGERPRINT != self.reader_fingerprint {
            return Err(ResolveError::WrongReader {
                expected: self.reader_fingerprint,
                found: T::FINGERPRINT,
            });
        }
        let Some((program, strategy)) = &self.program else {
            return wire::decode_body(bytes).map_err(ResolveError::Decode);
        };
        match strategy {
            Strategy::InPlace(rest) => decode_in_place(program, rest, bytes),
            Strategy::Flat(flat) => decode_flat(program, flat, bytes),
            Strategy::Translate => decode_buffered(program, bytes),
        }
    }
}

/// Decodes a `T` from the translation of the whole value into a reused thread-local buffer
/// ([`Strategy::Translate`]).
fn decode_buffered<T: AvroDecode>(
    program: &program::Program,
    bytes: &[u8],
) -> Result<T, ResolveError> {
    let mut buffer = BUFFER.take();
    buffer.clear();
    let result = match run::translate(program, bytes, &mut buffer) {
        Ok(()) => wire::decode_body(&buffer).map_err(ResolveError::Decode),
        Err(e) => Err(ResolveError::Translate(e)),
    };
    if buffer.capacity() <= KEPT_BUFFER {
        BUFFER.set(buffer);
    }
    result
}

/// Decodes a `T` straight from the writer's bytes, whose first values are the reader's
/// encoding of it ([`Strategy::InPlace`]), then passes over the `rest` of the
/// writer's values. Errors in the reader's values are [`ResolveError::Decode`], in the rest
/// [`ResolveError::Translate`], both with offsets in `bytes`.
fn decode_in_place<T: AvroDecode>(
    program: &program::Program,
    rest: &[program::Pass],
    bytes: &[u8],
) -> Result<T, ResolveError> {
    let mut reader = Reader::new(bytes);
    let value = T::decode(&mut reader).map_err(ResolveError::Decode)?;
    run::pass_rest(program, rest, &mut reader).map_err(ResolveError::Translate)?;
    Ok(value)
}

/// Decodes a `T` from the translation of a flat top-level record ([`flat::Flat`]), written
/// on the stack when it fits [`STACK_ROOM`], else in a reused thread-local buffer.
fn decode_flat<T: AvroDecode>(
    program: &program::Program,
    flat: &flat::Flat,
    bytes: &[u8],
) -> Result<T, ResolveError> {
    let needed = flat.room(bytes.len());
    if needed <= STACK_ROOM {
        return decode_translated(program, flat, bytes, &mut [0; STACK_ROOM]);
    }
    let mut room = ROOM.take();
    if room.len() < needed {
        room.resize(needed, 0);
    }
    let result = decode_translated(program, flat, bytes, &mut room);
    if room.len() <= KEPT_BUFFER {
        ROOM.set(room);
    }
    result
}

/// The output room of a flat translation small enough to be on the stack.
const STACK_ROOM: usize = 256;

/// Translates into `room`, then decodes the translation. Inlined into both branches of
/// [`decode_flat`] (about 20 instructions a decode fewer on the larger benchmark shapes).
#[inline(always)]
fn decode_translated<T: AvroDecode>(
    program: &program::Program,
    flat: &flat::Flat,
    bytes: &[u8],
    room: &mut [u8],
) -> Result<T, ResolveError> {
    match flat.translate(program, bytes, room) {
        Ok(translated) => wire::decode_body(translated).map_err(ResolveError::Decode),
        Err(e) => Err(ResolveError::Translate(e)),
    }
}

/// A cache of resolution plans, keyed by the fingerprints of writer and reader schema (and
/// by writer schema text, so a repeated schema is not parsed again).
#[derive(Debug, Default)]
pub struct Resolver {
    writer_fingerprints: RwLock<HashMap<Box<str>, u64>>,
    plans: RwLock<HashMap<(u64, u64), Arc<ResolutionPlan>>>,
}

impl Resolver {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// The plan reading `writer_json` data as a `T`, built on first use and cached.
    pub fn plan<T: AvroSchema>(
        &self,
        writer_json: &str,
    ) -> Result<Arc<ResolutionPlan>, ResolveError> {
        let known = read_lock(&self.writer_fingerprints)
            .get(writer_json)
            .copied();
        if let Some(plan) = known.and_then(|fp| self.cached(fp, T::FINGERPRINT)) {
            return Ok(plan);
        }
        let mut writer_set = SchemaSet::new();
        let writer = writer_set
            .parse_str(writer_json)
            .map_err(ResolveError::WriterSchema)?;
        let writer_fp = writer_set.fingerprint(&writer);
        let plan = match self.cached(writer_fp, T::FINGERPRINT) {
            Some(plan) => plan,
            None => {
                let plan = Arc::new(ResolutionPlan::reading_from::<T>(&writer_set, &writer)?);
                write_lock(&self.plans).insert((writer_fp, T::FINGERPRINT), Arc::clone(&plan));
                plan
            }
        };
        write_lock(&self.writer_fingerprints).insert(writer_json.into(), writer_fp);
        Ok(plan)
    }

    fn cached(&self, writer: u64, reader: u64) -> Option<Arc<ResolutionPlan>> {
        read_lock(&self.plans).get(&(writer, reader)).cloned()
    }

    /// Reads `bytes`, written with the schema `writer_json`, as a `T`.
    pub fn decode<T: AvroSchema + AvroDecode>(
        &self,
        writer_json: &str,
        bytes: &[u8],
    ) -> Result<T, ResolveError> {
        self.plan::<T>(writer_json)?.decode(bytes)
    }
}

/// Reads a lock; a panic elsewhere while writing cannot leave a half-inserted entry, so a
/// poisoned lock is used as is.
pub(crate) fn read_lock<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(PoisonError::into_inner)
}

pub(crate) fn write_lock<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(PoisonError::into_inner)
}
