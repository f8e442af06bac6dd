//! The [`Deserializer`]: writer schemas fetched by id (the steps written once in
//! `deserializer_methods!` for both transports) and read through a cached resolution plan.

use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::{Arc, PoisonError, RwLock};

use avdl2rs::resolve::{Consumer, LookupError, ResolveError, SchemaLookup};
use avdl2rs::{AvroDecode, AvroSchema};

/// The steps of a [`Deserializer`] that ask the registry, for both transports.
macro_rules! deserializer_methods {
    ($($async:ident)?; $($await:tt)*) => {
        /// The value in `frame`.
        pub $($async)? fn deserialize(&self, frame: &[u8]) -> Result<T, SerdeError> {
            match self.consumer.decode_confluent::<T>(frame) {
                Ok(value) => crate::serdes::writer_found(Ok(value)),
                Err(e) => match crate::serdes::not_fetched(&e) {
                    Some(id) => {
                        crate::metrics::cache_lookup(crate::metrics::WRITERS, false);
                        self.fetch_writer(id) $($await)*?;
                        Ok(self.consumer.decode_confluent::<T>(frame)?)
                    }
                    None => crate::serdes::writer_found(Err(e.into())),
                },
            }
        }

        /// Fetches the writer schema of `id`, its references assembled into it.
        $($async)? fn fetch_writer(&self, id: i32) -> Result<(), SerdeError> {
            let lookup = |source: crate::RegistryError| {
                SerdeError::Decode(avdl2rs::resolve::ResolveError::Lookup { id, source: Box::new(source) })
            };
            let schema = self.client.schema_by_id(id) $($await)* .map_err(lookup)?;
            let json = self.client.assembled(&schema) $($await)* .map_err(lookup)?;
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

/// `read`, the result of a frame whose writer schema was fetched already, after counting a
/// hit of the writers' cache.
pub(crate) fn writer_found<T>(read: T) -> T {
    crate::metrics::cache_lookup(crate::metrics::WRITERS, true);
    read
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
/// is cached.
pub struct Deserializer<T, C> {
    pub(crate) client: Arc<C>,
    pub(crate) writers: Arc<Writers>,
    pub(crate) consumer: Consumer<Arc<Writers>>,
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
            _type: PhantomData,
        }
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
