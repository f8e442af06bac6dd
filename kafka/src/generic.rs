//! Generic records ([`avdl2rs::generic`]) as keys and values: the registry's
//! `GenericSerializer` and `GenericDeserializer` are an [`Encoder`] and a [`Decoder`] of
//! [`GenericValue`], so a `TypedProducer<K, GenericValue, _, GenericSerializer>` and a
//! `TypedConsumer<K, GenericValue, _, GenericDeserializer>` move records whose schema is
//! known only at run time (the writer's, fetched by id, or a reader schema they resolve to).

use std::future::Future;

use avdl2rs::generic::GenericValue;
use avdl2rs_registry::nonblocking::{GenericDeserializer, GenericSerializer};
use avdl2rs_registry::SerdeError;

use crate::format::{decode_frame, Decoded, Decoder, Encoder, Undecodable};

impl Encoder<GenericValue> for GenericSerializer {
    type Error = SerdeError;

    fn encode(
        &self,
        topic: &str,
        value: &GenericValue,
        out: &mut Vec<u8>,
    ) -> impl Future<Output = Result<(), SerdeError>> + Send {
        self.serialize_into(topic, value, out)
    }
}

impl Decoder<GenericValue> for GenericDeserializer {
    async fn decode(&self, bytes: &[u8]) -> Result<Decoded<GenericValue>, Undecodable> {
        decode_frame(bytes, |id, body| self.deserialize_body(id, body)).await
    }
}
