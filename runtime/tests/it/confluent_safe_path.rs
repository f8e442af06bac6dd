//! Confluent frames are read with their writer's schema: a message of another version read
//! through the `Consumer` gets the right values, the id-checked shortcut refuses it, and only
//! the shortcut named for it assumes the reader's schema. Lookups come from maps, closures
//! and `Arc`s, and a writer schema the reader cannot read is checked once, not per message.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use avdl2rs::resolve::{Consumer, LookupError, ResolveError, SchemaLookup, REFUSALS_KEPT};
use avdl2rs::wire::WireError;
use avdl2rs::{Avro, AvroSchema};

/// Version 2 of a person: `last` before `first` (version 1 has them the other way round)
/// and a `country` with a default, which version 1 lacks.
#[derive(Avro, Debug, PartialEq)]
struct Person {
    last: String,
    first: String,
    #[avro(default = "NL")]
    country: String,
}

const V1: &str = r#"{"type":"record","name":"Person","fields":[{"name":"first","type":"string"},{"name":"last","type":"string"}]}"#;

/// A record the reader cannot read as a `Person`: `first` is a long.
const UNREADABLE: &str = r#"{"type":"record","name":"Person","fields":[{"name":"first","type":"long"},{"name":"last","type":"string"}]}"#;

/// `{"first": "Ada", "last": "Lovelace"}` written with version 1 under id 1.
fn v1_message() -> Vec<u8> {
    let mut message = vec![0, 0, 0, 0, 1];
    avdl2rs::codec::write_string(&mut message, "Ada");
    avdl2rs::codec::write_string(&mut message, "Lovelace");
    message
}

fn ada() -> Person {
    Person {
        last: "Lovelace".into(),
        first: "Ada".into(),
        country: "NL".into(),
    }
}

#[test]
fn the_consumer_reads_an_older_version_with_its_own_schema() {
    let consumer = Consumer::new(BTreeMap::from([(1, V1), (2, Person::SCHEMA_JSON)]));
    assert_eq!(
        consumer.decode_confluent::<Person>(&v1_message()).unwrap(),
        ada()
    );
    // The current version is read directly.
    let current = ada().to_confluent(2).unwrap();
    assert_eq!(
        consumer.decode_confluent::<Person>(&current).unwrap(),
        ada()
    );
    assert!(consumer.plan::<Person>(2).unwrap().is_direct());
}

#[test]
fn the_id_checked_shortcut_refuses_another_version() {
    assert_eq!(
        Person::from_confluent_expecting(&v1_message(), 2).unwrap_err(),
        WireError::UnexpectedSchemaId {
            expected: 2,
            found: 1
        }
    );
    let current = ada().to_confluent(2).unwrap();
    assert_eq!(
        Person::from_confluent_expecting(&current, 2).unwrap(),
        ada()
    );
}

#[test]
fn only_the_shortcut_named_for_it_assumes_the_readers_schema() {
    // Version 1's bytes read as version 2: the two strings land in swapped fields, and the
    // missing `country` makes the body too short. That is why the name says "assume".
    let error = Person::from_confluent_assume_schema(&v1_message()).unwrap_err();
    assert!(matches!(error, WireError::Body(_)), "{error}");
    let mut without_default = v1_message();
    avdl2rs::codec::write_string(&mut without_default, "UK");
    let (id, wrong) = Person::from_confluent_assume_schema(&without_default).unwrap();
    assert_eq!(
        (id, wrong.last.as_str(), wrong.first.as_str()),
        (1, "Ada", "Lovelace")
    );
}

#[test]
fn lookups_come_from_maps_closures_and_arcs() {
    fn reads(lookup: impl SchemaLookup) {
        let consumer = Consumer::new(lookup);
        assert_eq!(
            consumer.decode_confluent::<Person>(&v1_message()).unwrap(),
            ada()
        );
    }
    reads(BTreeMap::from([(1, V1.to_string())]));
    reads(HashMap::from([(1, V1)]));
    reads(HashMap::from([(1, Arc::<str>::from(V1))]));
    reads(|id: i32| if id == 1 { Ok(V1) } else { Err("unknown id") });
    reads(Arc::new(BTreeMap::from([(1, V1)])));
    let shared: Arc<dyn SchemaLookup + Send + Sync> = Arc::new(HashMap::from([(1, V1)]));
    reads(shared);
}

#[test]
fn an_unreadable_writer_schema_is_checked_once() {
    let lookups = AtomicUsize::new(0);
    let consumer = Consumer::new(|id: i32| -> Result<&str, LookupError> {
        lookups.fetch_add(1, Ordering::Relaxed);
        match id {
            1 => Ok(UNREADABLE),
            _ => Err("registry unavailable".into()),
        }
    });
    let mut message = vec![0, 0, 0, 0, 1, 2];
    avdl2rs::codec::write_string(&mut message, "Lovelace");
    for _ in 0..10_000 {
        let error = consumer.decode_confluent::<Person>(&message).unwrap_err();
        assert!(matches!(error, ResolveError::Incompatible(_)), "{error}");
    }
    assert_eq!(lookups.load(Ordering::Relaxed), 1);
    // A failed lookup may succeed later, so it is asked again.
    let other = [0, 0, 0, 0, 2, 0];
    for _ in 0..3 {
        assert!(consumer.decode_confluent::<Person>(&other).is_err());
    }
    assert_eq!(lookups.load(Ordering::Relaxed), 4);
}

#[test]
fn the_memory_of_refusals_is_bounded() {
    let lookups = AtomicUsize::new(0);
    let consumer = Consumer::new(|_: i32| -> Result<&str, LookupError> {
        lookups.fetch_add(1, Ordering::Relaxed);
        Ok(UNREADABLE)
    });
    let ids: i32 = i32::try_from(REFUSALS_KEPT).unwrap() + 1;
    for id in 0..ids {
        let mut message = vec![0];
        message.extend(id.to_be_bytes());
        assert!(consumer.decode_confluent::<Person>(&message).is_err());
    }
    // The first refusals were forgotten when the cache filled: id 0 is checked again,
    // the last one is not.
    let before = lookups.load(Ordering::Relaxed);
    assert!(consumer.plan::<Person>(0).is_err());
    assert!(consumer.plan::<Person>(ids - 1).is_err());
    assert_eq!(lookups.load(Ordering::Relaxed), before + 1);
}
