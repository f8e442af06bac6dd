//! Keys and values read as Avro JSON, with no generated type: a frame is read by the
//! registry's generic deserializer, with the writer schema its id names (fetched once per
//! id), and written in Avro's JSON encoding ([`WriterJson`]).

use std::sync::Arc;

use avdl2rs::wire;
use avdl2rs_kafka::{decode_frame, Decoded, Decoder, Undecodable};
use avdl2rs_registry::nonblocking::{Client, GenericDeserializer};
use serde_json::Value;

/// Reads Confluent frames as Avro JSON with their writer schemas.
pub struct WriterJson(GenericDeserializer);

impl WriterJson {
    /// Fetching writer schemas through `client`.
    pub fn new(client: Arc<Client>) -> Self {
        WriterJson(GenericDeserializer::new(client))
    }
}

impl Decoder<Value> for WriterJson {
    async fn decode(&self, bytes: &[u8]) -> Result<Decoded<Value>, Undecodable> {
        decode_frame(bytes, |id, body| {
            self.0.deserialize_avro_json_body(id, body)
        })
        .await
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
