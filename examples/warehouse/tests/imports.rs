//! The imported types are the ones the protocol uses, with their own namespaces, and a
//! movement survives the binary round trip, timestamps at millisecond precision.

use avdl2rs::chrono::{TimeZone, Utc};
use avdl2rs::{Avro, AvroSchema};
use warehouse::{sample_movement, BusinessEvent, Location, StockMoved, Zone};

#[test]
fn imported_types_keep_their_namespaces() {
    assert_eq!(StockMoved::FULL_NAME, "com.example.warehouse.StockMoved");
    assert_eq!(BusinessEvent::FULL_NAME, "com.example.shared.BusinessEvent");
    assert_eq!(Location::FULL_NAME, "com.example.reference.Location");
    // The event schema carries the imported definitions in full, the first time they occur.
    let schema = StockMoved::SCHEMA_JSON;
    assert!(schema.contains(r#""name":"BusinessEvent""#), "{schema}");
    assert!(
        schema.contains(r#""logicalType":"timestamp-millis""#),
        "{schema}"
    );
}

#[test]
fn a_movement_round_trips() {
    let at = Utc.timestamp_millis_opt(1_764_547_200_123).unwrap();
    let movement = sample_movement(at);
    let bytes = movement.to_avro_bytes().unwrap();
    let decoded = StockMoved::from_avro_bytes(&bytes).unwrap();
    assert_eq!(decoded, movement);
    assert_eq!(
        decoded.event.occurred_at.timestamp_millis(),
        1_764_547_200_123
    );
    assert_eq!(decoded.to.unwrap().zone, Zone::Storage);
}

#[test]
fn defaults_come_from_the_schemas() {
    // `zone = "STORAGE"` in the reference data and the enum's own default.
    assert_eq!(Zone::default(), Zone::Storage);
}
