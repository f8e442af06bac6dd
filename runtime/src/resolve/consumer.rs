//! Reading Confluent-framed messages whose writer schema is found by id.

use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasher;
use std::sync::Arc;

use super::one_of::Choice;
use super::one_of::Resolvable;
use super::{read_lock, write_lock, ResolutionPlan, ResolveError, Resolver};
use crate::wire;
use crate::AvroSchema;

/// Why a schema lookup failed (a registry client's own error, or a message).
pub type LookupError = Box<dyn std::error::Error + Send + Sync>;

/// Finds the writer schema (JSON) registered under a schema id.
///
/// Implemented for a Schema Registry client of your own, for fixed sets (`HashMap` and
/// `BTreeMap` from id to schema text), for `Arc` of a lookup (to share one between
/// consumers), and for closures `Fn(i32) -> Result<S, E>` where `S` converts into
/// `Arc<str>` (`String`, `&str`, `Arc<str>`) and `E` into a [`LookupError`]:
///
/// ```
/// use std::sync::Arc;
/// use avdl2rs::resolve::{LookupError, SchemaLookup};
///
/// let registry = |id: i32| match id {
///     1 => Ok(r#"{"type":"record","name":"Ping","fields":[{"name":"id","type":"long"}]}"#),
///     _ => Err(format!("no schema under id {id}")),
/// };
/// assert!(registry.schema_by_id(1).unwrap().contains("Ping"));
/// assert!(registry.schema_by_id(2).is_err());
/// let shared = Arc::new(registry);
/// assert!(shared.schema_by_id(1).is_ok());
/// ```
pub trait SchemaLookup {
    /// The schema JSON registered under `id`.
    fn schema_by_id(&self, id: i32) -> Result<Arc<str>, LookupError>;
}

fn not_registered(id: i32) -> LookupError {
    format!("no schema is registered under id {id}").into()
}

impl<V: AsRef<str>, H: BuildHasher> SchemaLookup for HashMap<i32, V, H> {
    fn schema_by_id(&self, id: i32) -> Result<Arc<str>, LookupError> {
        let json = self.get(&id).ok_or_else(|| not_registered(id))?;
        Ok(Arc::from(json.as_ref()))
    }
}

impl<V: AsRef<str>> SchemaLookup for BTreeMap<i32, V> {
    fn schema_by_id(&self, id: i32) -> Result<Arc<str>, LookupError> {
        let json = self.get(&id).ok_or_else(|| not_registered(id))?;
        Ok(Arc::from(json.as_ref()))
    }
}

impl<L: SchemaLookup + ?Sized> SchemaLookup for Arc<L> {
    fn schema_by_id(&self, id: i32) -> Result<Arc<str>, LookupError> {
        (**self).schema_by_id(id)
    }
}

impl<F, S, E> SchemaLookup for F
where
    F: Fn(i32) -> Result<S, E>,
    S: Into<Arc<str>>,
    E: Into<LookupError>,
{
    fn schema_by_id(&self, id: i32) -> Result<Arc<str>, LookupError> {
        self(id).map(Into::into).map_err(Into::into)
    }
}

/// The most refused (id, reader type) pairs a [`Consumer`] remembers; past it the memory of
/// refusals starts again, so ids that never stop changing cannot grow it without end.
pub const REFUSALS_KEPT: usize = 1024;

/// Decodes Confluent-framed messages into any reader type, whatever schema version wrote
/// them: the writer schema is looked up by the message's id once, then read directly when it
/// is the reader's schema or through a cached [`ResolutionPlan`] when it is another version.
/// A writer schema the reader cannot read is refused with the reasons, and the refusal is
/// cached too (up to [`REFUSALS_KEPT`] pairs), so a topic full of unreadable messages costs
/// one lookup and one check per writer schema, not one per message. Failed lookups are not
/// cached: a registry that is down may be back for the next message.
///
/// ```
/// use std::collections::BTreeMap;
/// use avdl2rs::resolve::{Consumer, ResolveError};
/// use avdl2rs::Avro;
///
/// /// Version 2 of a record: `id` and `amount` swapped, and a `currency` with a default.
/// #[derive(Avro, Debug, PartialEq)]
/// struct Payment {
///     amount: i64,
///     id: String,
///     #[avro(default = "EUR")]
///     currency: String,
/// }
///
/// const V1: &str = r#"{"type":"record","name":"Payment","fields":[
///     {"name":"id","type":"string"},{"name":"amount","type":"long"}]}"#;
///
/// // What the Schema Registry knows: id 1 is version 1.
/// let consumer = Consumer::new(BTreeMap::from([(1, V1)]));
/// // A version 1 message: magic byte, id 1, then "p7" and 250.
/// let message = [0, 0, 0, 0, 1, 4, b'p', b'7', 0xf4, 0x03];
/// let payment: Payment = consumer.decode_confluent(&message)?;
/// assert_eq!(payment, Payment { amount: 250, id: "p7".into(), currency: "EUR".into() });
///
/// // An id the registry does not know is an error, not a guess.
/// let unknown = [0, 0, 0, 0, 9, 4, b'p', b'7', 0xf4, 0x03];
/// assert!(matches!(
///     consumer.decode_confluent::<Payment>(&unknown),
///     Err(ResolveError::Lookup { id: 9, .. })
/// ));
/// # Ok::<(), ResolveError>(())
/// ```
#[derive(Debug)]
pub struct Consumer<L> {
    pub(super) lookup: L,
    resolver: Resolver,
    by_id: std::sync::RwLock<HashMap<(i32, u64), Arc<ResolutionPlan>>>,
    refused: std::sync::RwLock<HashMap<(i32, u64), ResolveError>>,
    /// What each writer schema's messages become in each [`crate::OneOf`] enum read.
    pub(super) choices: std::sync::RwLock<HashMap<(i32, std::any::TypeId), Arc<Choice>>>,
}

impl<L: SchemaLookup> Consumer<L> {
    /// A consumer finding writer schemas through `lookup`.
    pub fn new(lookup: L) -> Self {
        Consumer {
            lookup,
            resolver: Resolver::new(),
            by_id: Default::default(),
            refused: Default::default(),
            choices: Default::default(),
        }
    }

    /// The plan reading data written under schema `id` as a `T`.
    pub fn plan<T: AvroSchema>(&self, id: i32) -> Result<Arc<ResolutionPlan>, ResolveError> {
        let key = (id, T::FINGERPRINT);
        if let Some(plan) = read_lock(&self.by_id).get(&key) {
            return Ok(Arc::clone(plan));
        }
        if let Some(refusal) = read_lock(&self.refused).get(&key) {
            return Err(again(refusal));
        }
        let json = self
            .lookup
            .schema_by_id(id)
            .map_err(|source| ResolveError::Lookup { id, source })?;
        match self.resolver.plan::<T>(&json) {
            Ok(plan) => {
                write_lock(&self.by_id).insert(key, Arc::clone(&plan));
                Ok(plan)
            }
            Err(refusal) => {
                let mut refused = write_lock(&self.refused);
                if refused.len() >= REFUSALS_KEPT {
                    refused.clear();
                }
                refused.insert(key, again(&refusal));
                Err(refusal)
            }
        }
    }

    /// Decodes one Confluent-framed message (`0x00`, big-endian schema id, Avro body) as a
    /// `T`, resolving the writer's schema against `T`'s (or, for a [`crate::OneOf`] enum,
    /// against the type of the variant the writer schema names).
    pub fn decode_confluent<T: Resolvable>(&self, frame: &[u8]) -> Result<T, ResolveError> {
        let (id, body) = wire::split_confluent(frame)?;
        T::decode_written(self, id, body)
    }
}

/// The same refusal, to report it again for the next message with that writer schema.
fn again(refusal: &ResolveError) -> ResolveError {
    match refusal {
        ResolveError::WriterSchema(e) => ResolveError::WriterSchema(e.clone()),
        ResolveError::ReaderSchema(e) => ResolveError::ReaderSchema(e.clone()),
        ResolveError::Incompatible(reasons) => ResolveError::Incompatible(reasons.clone()),
        other => ResolveError::Plan(other.to_string()),
    }
}
