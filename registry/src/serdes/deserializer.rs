//! The [`Deserializer`]: writer schemas fetched by id (the steps written once in
//! `deserializer_methods!` for both transports) and read through a cached resolution plan.

use std::collections::{BTreeSet, HashMap};
use std::marker::PhantomData;
use std::sync::{Arc, PoisonError, RwLock};

use avdl2rs::resolve::{Consumer, LookupError, ResolveError, SchemaLookup};
use avdl2rs::{AvroDecode, AvroSchema};

use crate::rules::ReadRules;

/// The steps of a [`Deserializer`] that ask the registry, for both transports.
macro_rules! deserializer_methods {
    ($($async:ident)?; $($await:tt)*) => {
        /// The value in `frame`.
        pub $($async)? fn deserialize(&self, frame: &[u8]) -> Result<T, SerdeError> {
            let value = match self.consumer.decode_confluent::<T>(frame) {
                Ok(value) => value,
                Err(e) => match crate::serdes::not_fetched(&e) {
                    Some(id) => {
                        self.fetch_writer(id) $($await)*?;
                        self.consumer.decode_confluent::<T>(frame)?
                    }
                    None => return Err(e.into()),
                },
            };
            self.rules.check(frame)?;
            Ok(value)
        }

        /// Fetches the writer schema of `id`, its references assembled into it.
        $($async)? fn fetch_writer(&self, id: i32) -> Result<(), SerdeError> {
            let lookup = |source: crate::RegistryError| {
                SerdeError::Decode(avdl2rs::resolve::ResolveError::Lookup { id, source: Box::new(source) })
            };
            let schema = self.client.schema_by_id(id) $($await)* .map_err(lookup)?;
            let json = self.client.assembled(&schema) $($await)* .map_err(lookup)?;
            self.rules.insert(id, &schema, &json, Some(T::CANONICAL_FORM), &self.ignored_rule_types);
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

/// The lookup's answer for a writer schema not fetched yet.
#[derive(Debug, thiserror::Error)]
#[error("schema not fetched yet")]
struct NotFetched;

impl SchemaLookup for Writers {
    fn schema_by_id(&self, id: i32) -> Result<Arc<str>, LookupError> {
        let writers = self.0.read().unwrap_or_else(PoisonError::into_inner);
        writers.get(&id).cloned().ok_or_else(|| NotFetched.into())
    }
}

/// The id of the writer schema to fetch, when `error` says it was not fetched yet.
pub(crate) fn not_fetched(error: &ResolveError) -> Option<i32> {
    match error {
        ResolveError::Lookup { id, source } if source.is::<NotFetched>() => Some(*id),
        _ => None,
    }
}

/// Reads Confluent frames into `T`, whatever version of its schema wrote them: the writer
/// schema is fetched by id once, through the client `C`, and the resolution plan for each id
/// is cached. The writer schema's rules are run on each value, or refused (see
/// [`crate::rules`]).
pub struct Deserializer<T, C> {
    pub(crate) client: Arc<C>,
    pub(crate) writers: Arc<Writers>,
    pub(crate) consumer: Consumer<Arc<Writers>>,
    pub(crate) rules: ReadRules,
    pub(crate) ignored_rule_types: BTreeSet<String>,
    _type: PhantomData<fn() -> T>,
}

impl<T: AvroSchema + AvroDecode, C> Deserializer<T, C> {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_schemas_not_fetched_yet_are_fetched() {
        let writers = Writers::default();
        let lookup = |writers: &Writers, id| {
            let source = writers.schema_by_id(id).unwrap_err();
            not_fetched(&ResolveError::Lookup { id, source })
        };
        assert_eq!(lookup(&writers, 3), Some(3));
        writers.insert(3, "\"int\"".to_owned());
        assert_eq!(&*writers.schema_by_id(3).unwrap(), "\"int\"");
        let other = ResolveError::Lookup {
            id: 4,
            source: "the registry is down".into(),
        };
        assert_eq!(not_fetched(&other), None);
    }
}
