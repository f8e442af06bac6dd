//! Several record types in one Kafka topic: the order service writes `OrderCreated`,
//! `OrderPaid` and `OrderShipped` to one topic, each type under its own subject
//! (TopicRecordNameStrategy: `<topic>-com.example.orders.OrderPaid`, ...), so that each type
//! changes on its own. The consumer reads them as one enum, [`OrderEvent`], and matches on it.
//!
//! Mid-stream `OrderPaid` changes: the first release wrote version 1 ([`v1::OrderPaid`]), the
//! current release adds `currency` with a default. The consumer, on the current release,
//! reads both versions into its `OrderPaid` variant, version 1 payments with the default.
//!
//! The binary (`src/main.rs`) runs [`produce::run`] and [`consume::run`] as its two commands.

/// The generated types of the current release (`schemas/order_events.avdl`).
pub mod schema {
    avdl2rs::include_generated!("order_events");
    pub use com::example::orders::{OrderCreated, OrderPaid, OrderShipped};
}

/// `OrderPaid` as the first release wrote it (`schemas/v1/order_paid.avdl`).
pub mod v1 {
    avdl2rs::include_generated!("order_paid_v1");
    pub use com::example::orders::OrderPaid;
}

pub mod connection;
pub mod consume;
pub mod events;
pub mod failure;
pub mod options;
pub mod produce;

pub use events::OrderEvent;
