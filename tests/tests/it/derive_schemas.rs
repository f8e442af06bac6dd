//! Schemas the derive assembles from several derived types: each named type is defined once
//! (shared types, and logical fixed types used by several records), namespaces stay right
//! when a type without one is nested in one that has one, and apache-avro accepts the result.
//!
//! (A type without namespace can be defined inside a namespaced one but not referred to
//! again from there: the specification resolves a dotless name in the enclosing namespace.)

use avdl2rs::logical::Duration;
use avdl2rs::{Avro, AvroSchema};

#[derive(Avro, Debug, PartialEq)]
struct Leg {
    wait: Duration,
}

#[derive(Avro, Debug, PartialEq)]
struct Trip {
    first: Leg,
    second: Leg,
    total: Duration,
}

#[derive(Avro, Debug, PartialEq)]
#[avro(namespace = "travel")]
struct Stop {
    wait: Duration,
}

#[derive(Avro, Debug, PartialEq)]
#[avro(namespace = "travel")]
struct Booking {
    trip: Trip,
    stops: Vec<Stop>,
    last: Option<Stop>,
}

#[test]
fn a_type_used_twice_is_defined_once_and_named_after() {
    assert_eq!(
        Trip::CANONICAL_FORM,
        concat!(
            r#"{"name":"Trip","type":"record","fields":["#,
            r#"{"name":"first","type":{"name":"Leg","type":"record","fields":[{"name":"wait","type":{"name":"Duration","type":"fixed","size":12}}]}},"#,
            r#"{"name":"second","type":"Leg"},"#,
            r#"{"name":"total","type":"Duration"}]}"#
        )
    );
}

#[test]
fn a_type_without_namespace_inside_a_namespace_says_so() {
    let schema: serde_json::Value = serde_json::from_str(Booking::SCHEMA_JSON).unwrap();
    assert_eq!(schema["namespace"], "travel");
    assert_eq!(schema["fields"][0]["type"]["name"], "Trip");
    assert_eq!(schema["fields"][0]["type"]["namespace"], "");
    let parsed = apache_avro::Schema::parse_str(Booking::SCHEMA_JSON).unwrap();
    let apache_avro::Schema::Record(record) = parsed else {
        panic!("not a record: {parsed:?}");
    };
    let trip = &record.fields[0].schema;
    assert!(
        matches!(trip, apache_avro::Schema::Record(r) if r.name.fullname(None) == "Trip"),
        "{trip:?}"
    );
}

#[test]
fn apache_avro_finds_the_same_canonical_form() {
    for (json, ours) in [
        (Leg::SCHEMA_JSON, Leg::CANONICAL_FORM),
        (Trip::SCHEMA_JSON, Trip::CANONICAL_FORM),
        (Booking::SCHEMA_JSON, Booking::CANONICAL_FORM),
    ] {
        let definitions = ours.matches(r#"{"name":"Duration","type":"fixed""#).count();
        assert_eq!(definitions, 1, "{ours}");
        let theirs = apache_avro::Schema::parse_str(json)
            .unwrap()
            .canonical_form();
        assert_eq!(theirs, ours);
    }
}

#[test]
fn values_round_trip() {
    let leg = |days| Leg {
        wait: Duration {
            months: 0,
            days,
            millis: 5,
        },
    };
    let booking = Booking {
        trip: Trip {
            first: leg(1),
            second: leg(2),
            total: Duration {
                months: 1,
                days: 3,
                millis: 10,
            },
        },
        stops: vec![Stop {
            wait: Duration {
                months: 2,
                days: 0,
                millis: 1,
            },
        }],
        last: None,
    };
    let bytes = booking.to_avro_bytes().unwrap();
    assert_eq!(Booking::from_avro_bytes(&bytes).unwrap(), booking);
}
