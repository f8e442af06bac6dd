//! Keys and values read as Avro JSON, with no generated type: a frame is read with the
//! writer schema its id names, fetched from the registry once per id ([`WriterJson`]).

use std::collections::HashMap;
use std::sync::{Arc, PoisonError, RwLock};

use avdl2rs::avro_json::AvroJson;
use avdl2rs::resolve::ResolveError;
use avdl2rs::wire;
use avdl2rs_kafka::{Decoded, Decoder, PoisonReason, Undecodable};
use avdl2rs_registry::nonblocking::Client;
use serde_json::Value;

/// Reads Confluent frames as Avro JSON with their writer schemas.
pub struct WriterJson {
    client: Arc<Client>,
    schemas: RwLock<HashMap<i32, Arc<AvroJson>>>,
}

impl WriterJson {
    /// Fetching writer schemas through `client`.
    pub fn new(client: Arc<Client>) -> Self {
        WriterJson {
            client,
            schemas: RwLock::default(),
        }
    }

    fn known(&self, id: i32) -> Option<Arc<AvroJson>> {
        let known = self.schemas.read().unwrap_or_else(PoisonError::into_inner);
        known.get(&id).cloned()
    }

    /// The writer schema of `id`, fetched (with its references) when first asked for.
    async fn schema(&self, id: i32) -> Result<Arc<AvroJson>, Undecodable> {
        if let Some(schema) = self.known(id) {
            return Ok(schema);
        }
        let unreachable = |e: avdl2rs_registry::RegistryError| match e.is_retriable() {
            true => Undecodable::Unavailable(e),
            false => Undecodable::Poison(PoisonReason::UnknownSchema {
                id,
                source: Box::new(e),
            }),
        };
        let schema = self.client.schema_by_id(id).await.map_err(unreachable)?;
        let json = self.client.assembled(&schema).await.map_err(unreachable)?;
        let schema = AvroJson::new(&json).map_err(|e| {
            let source = ResolveError::WriterSchema(e);
            Undecodable::Poison(PoisonReason::Refused { id, source })
        })?;
        let schema = Arc::new(schema);
        let mut known = self.schemas.write().unwrap_or_else(PoisonError::into_inner);
        known.insert(id, Arc::clone(&schema));
        Ok(schema)
    }
}

impl Decoder<Value> for WriterJson {
    async fn decode(&self, bytes: &[u8]) -> Result<Decoded<Value>, Undecodable> {
        let (id, body) = wire::split_confluent(bytes)
            .map_err(|e| Undecodable::Poison(PoisonReason::NotFramed(e)))?;
        let schema = self.schema(id).await?;
        let value = schema.decode(body).map_err(|e| {
            let source = ResolveError::Translate(e);
            Undecodable::Poison(PoisonReason::Damaged { id, source })
        })?;
        Ok(Decoded {
            value,
            schema_id: Some(id),
        })
    }
}

/// Keys as JSON: a Confluent frame as its Avro JSON, anything else as a string (UTF-8
/// text, or one code point per byte, as the JSON encoding writes bytes).
pub struct KeyJson(pub Arc<WriterJson>);

impl Decoder<Value> for KeyJson {
    async fn decode(&self, bytes: &[u8]) -> Result<Decoded<Value>, Undecodable> {
        if wire::split_confluent(bytes).is_ok() {
            return self.0.decode(bytes).await;
        }
        let text = match std::str::from_utf8(bytes) {
            Ok(text) => text.to_owned(),
            Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
        };
        Ok(Decoded {
            value: Value::String(text),
            schema_id: None,
        })
    }
}
