//! Reading Confluent-framed messages whose writer schema is found by id.

use std::collections::HashMap;
use std::sync::Arc;

use super::{read_lock, write_lock, ResolutionPlan, ResolveError, Resolver};
use crate::wire;
use crate::{AvroDecode, AvroSchema};

/// Why a schema lookup failed (a registry client's own error, or a message).
pub type LookupError = Box<dyn std::error::Error + Send + Sync>;

/// Finds the writer schema (JSON) registered under a schema id: implement it over a Schema
/// Registry client, or use the `HashMap` implementation for a fixed set.
pub trait SchemaLookup {
    /// The schema JSON registered under `id`.
    fn schema_by_id(&self, id: i32) -> Result<Arc<str>, LookupError>;
}

impl SchemaLookup for HashMap<i32, String> {
    fn schema_by_id(&self, id: i32) -> Result<Arc<str>, LookupError> {
        match self.get(&id) {
            Some(json) => Ok(Arc::from(json.as_str())),
            None => Err(format!("no schema is registered under id {id}").into()),
        }
    }
}

/// Decodes Confluent-framed messages into any reader type, whatever schema version wrote
/// them: the writer schema is looked up by the message's id once, and the plan for each
/// (id, reader type) pair is cached.
#[derive(Debug)]
pub struct Consumer<L> {
    lookup: L,
    resolver: Resolver,
    by_id: std::sync::RwLock<HashMap<(i32, u64), Arc<ResolutionPlan>>>,
}

impl<L: SchemaLookup> Consumer<L> {
    /// A consumer finding writer schemas through `lookup`.
    pub fn new(lookup: L) -> Self {
        Consumer {
            lookup,
            resolver: Resolver::new(),
            by_id: Default::default(),
        }
    }

    /// The plan reading data written under schema `id` as a `T`.
    pub fn plan<T: AvroSchema>(&self, id: i32) -> Result<Arc<ResolutionPlan>, ResolveError> {
        if let Some(plan) = read_lock(&self.by_id).get(&(id, T::FINGERPRINT)) {
            return Ok(Arc::clone(plan));
        }
        let json = self
            .lookup
            .schema_by_id(id)
            .map_err(|source| ResolveError::Lookup { id, source })?;
        let plan = self.resolver.plan::<T>(&json)?;
        write_lock(&self.by_id).insert((id, T::FINGERPRINT), Arc::clone(&plan));
        Ok(plan)
    }

    /// Decodes one Confluent-framed message (`0x00`, big-endian schema id, Avro body) as a
    /// `T`, resolving the writer's schema against `T`'s.
    pub fn decode_confluent<T: AvroSchema + AvroDecode>(
        &self,
        frame: &[u8],
    ) -> Result<T, ResolveError> {
        let (id, body) = wire::split_confluent(frame)?;
        self.plan::<T>(id)?.decode(body)
    }
}
