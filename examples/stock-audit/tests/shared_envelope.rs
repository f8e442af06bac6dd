//! The envelope is the warehouse crate's own type, and the audit event round-trips with it.

use avdl2rs::chrono::{TimeZone, Utc};
use avdl2rs::{Avro, AvroSchema};
use stock_audit::CountDiffered;
use warehouse::{sample_movement, BusinessEvent};

#[test]
fn the_envelope_of_a_warehouse_event_goes_into_an_audit_unchanged() {
    let at = Utc.timestamp_millis_opt(1_764_547_200_123).unwrap();
    // `event` is `warehouse::BusinessEvent`: this compiles only if the field has that type.
    let event: BusinessEvent = sample_movement(at).event;
    let audit = CountDiffered::new(event.clone(), "A-03-2".into(), 12, 11);
    assert_eq!(audit.event, event);
    let decoded = CountDiffered::from_avro_bytes(&audit.to_avro_bytes().unwrap()).unwrap();
    assert_eq!(decoded, audit);
}

/// What the generated compile-time check asserts, recomputed: the envelope inside the audit
/// schema has the warehouse type's fingerprint.
#[test]
fn the_audit_schema_holds_the_envelope_the_warehouse_crate_uses() {
    let mut set = avdl2rs::schema::SchemaSet::new();
    set.parse_str(CountDiffered::SCHEMA_JSON).unwrap();
    let envelope = set.get("com.example.shared.BusinessEvent").unwrap();
    let canonical = set.canonical_form(&avdl2rs::schema::Schema::named(envelope.name.clone()));
    assert_eq!(
        avdl2rs::fingerprint::rabin_fingerprint(canonical.as_bytes()),
        BusinessEvent::FINGERPRINT
    );
}
