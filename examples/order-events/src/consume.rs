//! `order-events consume`: the topic's events from its beginning, each matched to its
//! variant of [`OrderEvent`] and printed as one line.

use std::io::Write;

use avdl2rs_kafka::{Raw, TypedConsumer};
use avdl2rs_registry::nonblocking::Deserializer;

use crate::connection::Connection;
use crate::events::{line, OrderEvent};
use crate::failure::Failure;

/// Reads `topic` from its beginning and prints a line per event ([`line`]) to stdout, a
/// line per message it cannot read to stderr; stops after `count` messages, or, without a
/// count, once none came within the timeout. Fewer than `count` messages within the timeout
/// is an error, so is any message that could not be read.
pub async fn run(
    connection: &Connection,
    topic: &str,
    count: Option<usize>,
) -> Result<(), Failure> {
    let value = Deserializer::new(connection.registry.clone());
    let consumer =
        TypedConsumer::<String, OrderEvent, Raw>::new(&connection.consumer(), Raw, value)
            .map_err(|e| Failure::cannot("consumer", e))?;
    consumer
        .subscribe(&[topic])
        .map_err(|e| Failure::cannot("subscribe", e))?;
    let (mut read, mut unreadable) = (0, 0);
    while count.is_none_or(|count| read < count) {
        let next = match tokio::time::timeout(connection.timeout, consumer.recv()).await {
            Ok(next) => next.map_err(|e| Failure::cannot(topic, e))?,
            Err(_) => match count {
                None => break,
                Some(count) => {
                    let waited = connection.timeout;
                    let read = format!("only {read} of {count} messages within {waited:?}");
                    return Err(Failure::cannot(topic, read));
                }
            },
        };
        read += 1;
        match next {
            Ok(record) => match record.value {
                Some(event) => print(&event)?,
                None => eprintln!("{}: no value", record.position),
            },
            Err(poison) => {
                eprintln!("cannot read {poison}");
                unreadable += 1;
            }
        }
    }
    match unreadable {
        0 => Ok(()),
        _ => Err(Failure::Unreadable(unreadable)),
    }
}

fn print(event: &OrderEvent) -> Result<(), Failure> {
    let text = line(event).map_err(|e| Failure::cannot("json", e))?;
    writeln!(std::io::stdout(), "{text}").map_err(|e| Failure::cannot("stdout", e))
}
