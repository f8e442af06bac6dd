//! The enums of the topic's types, and the one line the consumer prints for each event.

use avdl2rs::AvroOneOf;
use serde_json::Error;

use crate::schema::{OrderCreated, OrderPaid, OrderShipped};
use crate::v1;

/// Any event of an order, as the current release reads and writes it. Each variant is named
/// after its type, and a message goes to the variant its writer schema's full name names,
/// whichever version of that type wrote it.
#[derive(AvroOneOf, Debug, Clone, PartialEq)]
pub enum OrderEvent {
    /// `com.example.orders.OrderCreated`.
    OrderCreated(OrderCreated),
    /// `com.example.orders.OrderPaid`, version 2 (version 1 read with `currency`'s default).
    OrderPaid(OrderPaid),
    /// `com.example.orders.OrderShipped`.
    OrderShipped(OrderShipped),
}

/// The events the first release wrote: the same types, but `OrderPaid` at version 1.
#[derive(AvroOneOf, Debug, Clone, PartialEq)]
pub enum FirstRelease {
    /// `com.example.orders.OrderCreated`.
    OrderCreated(OrderCreated),
    /// `com.example.orders.OrderPaid`, version 1.
    OrderPaid(v1::OrderPaid),
    /// `com.example.orders.OrderShipped`.
    OrderShipped(OrderShipped),
}

/// The line printed for an event: its type's simple name, a space, its value as JSON (the
/// generated type's serde form).
pub fn line(event: &OrderEvent) -> Result<String, Error> {
    let (name, json) = match event {
        OrderEvent::OrderCreated(created) => ("OrderCreated", serde_json::to_string(created)),
        OrderEvent::OrderPaid(paid) => ("OrderPaid", serde_json::to_string(paid)),
        OrderEvent::OrderShipped(shipped) => ("OrderShipped", serde_json::to_string(shipped)),
    };
    Ok(format!("{name} {}", json?))
}
