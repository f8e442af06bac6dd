//! The [`Deserializer`]: writer schemas fetched by id (the steps written once in
//! `deserializer_methods!` for both transports) and read through a cached resolution plan.

use std::collections::{BTreeSet, HashMap};
use std::marker::PhantomData;
use std::sync::{Arc, PoisonError, RwLock};

use avdl2rs::resolve::{Consumer, LookupError, Resolvable, ResolveError, SchemaLookup};

use crate::rules::ReadRules;

/// The steps of a [`Deserializer`] that ask the registry, for both transports.
macro_rules! deserializer_methods {
    ($($async:ident)?; $($await:tt)*) => {
        /// The value in `frame`.
        pub $($async)? fn deserialize(&self, frame: &[u8]) -> Result<T, SerdeError> {
            let (id, body) = avdl2rs::wire::split_confluent(frame).map_err(avdl2rs::resolve::ResolveError::Wire)?;
            self.deserialize_body(id, body) $($await)*
        }

        /// The value in `body`, the part of a Confluent frame after its header, written under
        /// schema `id`: for callers that have split the frame already.
        pub $($async)? fn deserialize_body(&self, id: i32, body: &[u8]) -> Result<T, SerdeError> {
            let decoding = self.decode(id, body);
            let known = !matches!(decoding, Ok(crate::serdes::Decoding::NotFetched));
            crate::metrics::writer_lookup(known);
            let value = match decoding? {
                crate::serdes::Decoding::Value(value) => value,
                crate::serdes::Decoding::NotFetched => {
                    self.fetch_writer(id) $($await)*?;
                    self.decode_fetched(id, body)?
                }
            };
            self.rules.check(id, body)?;
            Ok(value)
        }

        /// Fetches the writer schema of `id`, its references assembled into it.
        $($async)? fn fetch_writer(&self, id: i32) -> Result<(), SerdeError> {
            let lookup = |source: crate::RegistryError| {
                SerdeError::Decode(avdl2rs::resolve::ResolveError::Lookup { id, source: Box::new(source) })
            };
            let schema = self.client.schema_by_id(id) $($await)* .map_err(lookup)?;
            let json = self.client.assembled(&schema) $($await)* .map_err(lookup)?;
            self.rules.insert(id, &schema, &json, T::reads_unchanged, &self.ignored_rule_types);
            self.writers.insert(id, json);
            Ok(())
        }
    };
}

pub(crate) use deserializer_methods;

/// The writer schemas a [`Deserializer`] has fetched, assembled: its consumer's lookup,
/// which asks nothing, so the fetching can be blocking or async outside it.
#[derive(Default)]
pub(crate) struct Writers(RwLock<HashMap<i32, Arc<str>>>);

impl Writers {
    pub(crate) fn insert(&self, id: i32, json: String) {
        let mut writers = self.0.write().unwrap_or_else(PoisonError::into_inner);
        writers.insert(id, Arc::from(json));
    }
}

impl Writers {
    fn has(&self, id: i32) -> bool {
        let writers = self.0.read().unwrap_or_else(PoisonError::into_inner);
        writers.contains_key(&id)
    }
}

impl SchemaLookup for Writers {
    fn schema_by_id(&self, id: i32) -> Result<Arc<str>, LookupError> {
        let writers = self.0.read().unwrap_or_else(PoisonError::into_inner);
        let missing = || format!("the writer schema of id {id} was not fetched").into();
        writers.get(&id).cloned().ok_or_else(missing)
    }
}

/// What a [`Deserializer`] makes of a body before asking the registry anything.
pub(crate) enum Decoding<T> {
    /// The value, its writer schema known.
    Value(T),
    /// The writer schema has not been fetched yet.
    NotFetched,
}

/// Reads Confluent frames into `T`, whatever version of its schema wrote them: the writer
/// schema is fetched by id once, through the client `C`, and the resolution plan for each id
/// is cached. `T` is a generated or derived type, or a [`avdl2rs::OneOf`] enum of several,
/// whose variant is the type the writer schema names (a topic of several record types
/// under RecordNameStrategy or TopicRecordNameStrategy), or for a union writer schema the type
/// of the branch written (their union under TopicNameStrategy). The writer schema's rules are run
/// on each value, or refused (see [`crate::rules`]).
pub struct Deserializer<T, C> {
    pub(crate) client: Arc<C>,
    pub(crate) writers: Arc<Writers>,
    pub(crate) consumer: Consumer<Arc<Writers>>,
    pub(crate) rules: ReadRules,
    pub(crate) ignored_rule_types: BTreeSet<String>,
    _type: PhantomData<fn() -> T>,
}

impl<T: Resolvable, C> Deserializer<T, C> {
    /// A deserializer fetching writer schemas through `client`.
    pub fn new(client: Arc<C>) -> Self {
        let writers = Arc::new(Writers::default());
        Deserializer {
            client,
            consumer: Consumer::new(Arc::clone(&writers)),
            writers,
            rules: ReadRules::default(),
            ignored_rule_types: BTreeSet::new(),
            _type: PhantomData,
        }
    }

    /// Skipping the rules of these types (`ENCRYPT`, `CEL`...) instead of running them or
    /// refusing to read: values are then handed out without what those rules would do.
    pub fn ignore_rule_types(mut self, types: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.ignored_rule_types = types.into_iter().map(Into::into).collect();
        self
    }

    /// The value in `body`, written under schema `id`, or that the writer schema must be
    /// fetched first.
    pub(crate) fn decode(&self, id: i32, body: &[u8]) -> Result<Decoding<T>, ResolveError> {
        if !self.writers.has(id) {
            return Ok(Decoding::NotFetched);
        }
        self.decode_fetched(id, body).map(Decoding::Value)
    }

    /// The value in `body`, written under schema `id`, whose writer schema was fetched.
    pub(crate) fn decode_fetched(&self, id: i32, body: &[u8]) -> Result<T, ResolveError> {
        T::decode_written(&self.consumer, id, body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use avdl2rs::AvroSchema;

    #[derive(avdl2rs::Avro, Debug, PartialEq)]
    struct Ping {
        id: i64,
    }

    #[test]
    fn a_body_is_decoded_once_its_writer_schema_is_fetched() {
        let deserializer = Deserializer::<Ping, ()>::new(Arc::new(()));
        let body = [0x2a];
        assert!(matches!(
            deserializer.decode(3, &body),
            Ok(Decoding::NotFetched)
        ));
        deserializer.writers.insert(3, Ping::SCHEMA_JSON.to_owned());
        assert!(matches!(
            deserializer.decode(3, &body),
            Ok(Decoding::Value(Ping { id: 21 }))
        ));
        assert!(matches!(
            deserializer.decode(4, &body),
            Ok(Decoding::NotFetched)
        ));
    }
}
