//! Warehouse events: a protocol that imports a company-wide event envelope (through an
//! include directory) and reference data (beside it), each in its own namespace, generated
//! by `build.rs` into one module per namespace.
//!
//! `forbid(unsafe_code)` proves that generated code, included here, needs no `unsafe`.

#![forbid(unsafe_code)]
/// The generated types: `com::example::{shared, reference, warehouse}`.
pub mod schema {
    avdl2rs::include_generated!("warehouse");
}

pub use schema::com::example::reference::{Location, Sku, Zone};
pub use schema::com::example::shared::{Actor, BusinessEvent};
pub use schema::com::example::warehouse::{MovementLine, StockMoved};

use avdl2rs::chrono::{DateTime, Utc};

/// A movement of two products from receiving to storage, at `at`.
#[must_use]
pub fn sample_movement(at: DateTime<Utc>) -> StockMoved {
    let location = |zone, bin: &str| Location {
        site: "SHA-1".to_string(),
        aisle: 3,
        shelf: 2,
        bin: bin.to_string(),
        zone,
    };
    StockMoved {
        event: BusinessEvent {
            event_id: "0b7e4c1e-6a51-4c55-9a3c-2f6f3b1d9e01".to_string(),
            occurred_at: at,
            source: "warehouse-service".to_string(),
            actor: Some(Actor {
                id: "forklift-17".to_string(),
                on_behalf_of: None,
            }),
            correlation_id: None,
        },
        from: location(Zone::Receiving, "R-01"),
        to: Some(location(Zone::Storage, "S-42")),
        lines: vec![
            MovementLine {
                sku: Sku {
                    code: "SKU-1001".to_string(),
                    description: "Tea, 250 g".to_string(),
                    weight_grams: Some(250),
                },
                quantity: 12,
            },
            MovementLine {
                sku: Sku {
                    code: "SKU-2002".to_string(),
                    description: "Teapot".to_string(),
                    weight_grams: None,
                },
                quantity: 1,
            },
        ],
        labels: [("carrier".to_string(), "internal".to_string())].into(),
    }
}
