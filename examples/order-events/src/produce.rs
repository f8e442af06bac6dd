//! `order-events produce`: the events of two orders, written through one serializer of the
//! whole enum, each variant under its own subject (`<topic>-<full name>`). The first order's
//! events come from the first release (`OrderPaid` version 1), the second's from the current
//! one (version 2): the subject of `OrderPaid` gets a second version mid-stream.

use std::io::Write;

use avdl2rs::{OneOf, SubjectNameStrategy};
use avdl2rs_kafka::{Raw, TypedProducer};
use avdl2rs_registry::nonblocking::Client;
use avdl2rs_registry::{OneOfSerializer, SerializerConfig};

use crate::connection::Connection;
use crate::events::{FirstRelease, OrderEvent};
use crate::failure::Failure;
use crate::schema::{OrderCreated, OrderPaid, OrderShipped};
use crate::v1;

/// A producer of events keyed by their order's number.
type Producer<E> = TypedProducer<str, E, Raw, OneOfSerializer<E, Client>>;

/// Creates `topic` if it is missing and writes [`first_release`], then [`current_release`],
/// in that order, each event keyed by its order's number; prints a line per event sent: its
/// type's full name and where the broker stored it.
pub async fn run(connection: &Connection, topic: &str) -> Result<(), Failure> {
    connection.create_topic(topic).await?;
    send_all(connection, topic, &first_release()).await?;
    send_all(connection, topic, &current_release()).await
}

/// The number of the order the first release writes, also its events' key.
pub const FIRST_ORDER: &str = "o-1";
/// The number of the order the current release writes.
pub const SECOND_ORDER: &str = "o-2";

/// The first order, as the first release wrote it.
pub fn first_release() -> Vec<(&'static str, FirstRelease)> {
    vec![
        (
            FIRST_ORDER,
            FirstRelease::OrderCreated(OrderCreated {
                order_id: FIRST_ORDER.into(),
                customer: "ann".into(),
                items: 2,
            }),
        ),
        (
            FIRST_ORDER,
            FirstRelease::OrderPaid(v1::OrderPaid {
                order_id: FIRST_ORDER.into(),
                amount: 25.5,
            }),
        ),
        (
            FIRST_ORDER,
            FirstRelease::OrderShipped(OrderShipped {
                order_id: FIRST_ORDER.into(),
                carrier: "dhl".into(),
            }),
        ),
    ]
}

/// The second order, as the current release writes it: paid in dollars.
pub fn current_release() -> Vec<(&'static str, OrderEvent)> {
    vec![
        (
            SECOND_ORDER,
            OrderEvent::OrderCreated(OrderCreated {
                order_id: SECOND_ORDER.into(),
                customer: "bob".into(),
                items: 1,
            }),
        ),
        (
            SECOND_ORDER,
            OrderEvent::OrderPaid(OrderPaid {
                order_id: SECOND_ORDER.into(),
                amount: 12.75,
                currency: "USD".into(),
            }),
        ),
        (
            SECOND_ORDER,
            OrderEvent::OrderShipped(OrderShipped {
                order_id: SECOND_ORDER.into(),
                carrier: "ups".into(),
            }),
        ),
    ]
}

/// Sends `events` one after the other (each waits for its delivery report, so the topic
/// holds them in this order) through a producer of their enum.
async fn send_all<E>(
    connection: &Connection,
    topic: &str,
    events: &[(&str, E)],
) -> Result<(), Failure>
where
    E: OneOf + Sync,
{
    let config = SerializerConfig::default().subject_strategy(SubjectNameStrategy::TopicRecordName);
    let value = OneOfSerializer::new(connection.registry.clone(), config);
    let producer: Producer<E> = TypedProducer::new(&connection.kafka(), Raw, value)
        .map_err(|e| Failure::cannot("producer", e))?;
    for (key, event) in events {
        let name = event.variant().map_or("?", |index| E::VARIANTS[index]);
        let sending = format!("send {name}");
        let delivered = connection
            .within(&sending, producer.send(topic, key, event))
            .await?
            .map_err(|e| Failure::cannot(&sending, e))?;
        let (partition, offset) = (delivered.partition, delivered.offset);
        writeln!(
            std::io::stdout(),
            "{name} partition {partition} offset {offset}"
        )
        .map_err(|e| Failure::cannot("stdout", e))?;
    }
    Ok(())
}
