//! A producer and a consumer of order events through a Schema Registry: the producer's
//! [`Serializer`] registers the schema of the generated `OrderEvent` (once; the id is
//! cached) and frames each event with that id; the consumer's [`Deserializer`] fetches the
//! writer schema by the frame's id (once) and decodes into its own `OrderEvent`.

use std::sync::Arc;

use avdl2rs_registry::blocking::Client;
use avdl2rs_registry::{ClientConfig, Deserializer, RegistryError, Serializer, SerializerConfig};

/// The generated types, one module per Avro namespace.
pub mod schema {
    avdl2rs::include_generated!("orders");
}

pub use schema::com::example::orders::OrderEvent;

/// A few orders to publish.
pub fn orders() -> Vec<OrderEvent> {
    (1..=3)
        .map(|n| OrderEvent {
            id: n,
            amount: 10.0 * f64::from(n),
            user_id: 7,
            currency: "CNY".to_owned(),
            discount: (n % 2 == 0).then_some(1.5),
        })
        .collect()
}

/// What one run did: the frames written, and the events read back from them.
pub struct Run {
    /// The schema id the frames carry.
    pub schema_id: i32,
    /// The framed messages, as a Kafka producer would send them.
    pub frames: Vec<Vec<u8>>,
    /// The events the consumer read from the frames.
    pub consumed: Vec<OrderEvent>,
}

/// Produces [`orders`] on `topic` through the registry at `config`, then consumes them.
pub fn produce_and_consume(
    config: ClientConfig,
    topic: &str,
) -> Result<Run, Box<dyn std::error::Error>> {
    let client = Arc::new(Client::new(config)?);
    let producer = Serializer::<OrderEvent>::new(Arc::clone(&client), SerializerConfig::default());
    let consumer = Deserializer::<OrderEvent>::new(client);
    let mut frames = Vec::new();
    let mut buffer = Vec::new();
    for order in orders() {
        producer.serialize_into(topic, &order, &mut buffer)?;
        frames.push(buffer.clone());
    }
    let consumed = frames
        .iter()
        .map(|frame| consumer.deserialize(frame))
        .collect::<Result<_, _>>()?;
    Ok(Run {
        schema_id: producer.schema_id(topic)?,
        frames,
        consumed,
    })
}

/// The client settings from the environment, or why there are none.
pub fn config_from_env() -> Result<ClientConfig, RegistryError> {
    ClientConfig::from_env()
}
