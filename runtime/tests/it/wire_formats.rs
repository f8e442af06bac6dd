//! The Confluent wire format and Avro single-object encoding: known byte strings, every bad
//! frame with its own error, and apache-avro reading and writing single objects.

use apache_avro::types::Value;
use apache_avro::{GenericSingleObjectReader, GenericSingleObjectWriter, Schema};
use avdl2rs::wire::{self, WireError};
use avdl2rs::{Avro, AvroSchema, DecodeErrorKind};

use crate::wire_support;
use wire_support::{ping, Ping, PING_BODY, PING_SCHEMA};

/// A Confluent-framed message: magic 0, schema id 42, then the body.
fn framed() -> Vec<u8> {
    [&[0x00, 0x00, 0x00, 0x00, 0x2a][..], &PING_BODY].concat()
}

#[test]
fn a_known_confluent_message_decodes() {
    assert_eq!(
        Ping::from_confluent_assume_schema(&framed()).unwrap(),
        (42, ping())
    );
    assert_eq!(
        wire::split_confluent(&framed()).unwrap(),
        (42, &PING_BODY[..])
    );
}

#[test]
fn encoding_gives_the_known_confluent_message() {
    assert_eq!(ping().to_confluent(42).unwrap(), framed());
    let mut out = vec![0xee];
    ping().encode_confluent(42, &mut out).unwrap();
    assert_eq!(out[1..], framed());
    // The id is big-endian and signed.
    assert_eq!(
        ping().to_confluent(-2).unwrap()[..5],
        [0, 0xff, 0xff, 0xff, 0xfe]
    );
}

#[test]
fn each_bad_confluent_frame_has_its_own_error() {
    assert_eq!(
        Ping::from_confluent_assume_schema(&[]).unwrap_err(),
        WireError::Empty
    );
    assert_eq!(
        Ping::from_confluent_assume_schema(&[0x01, 0, 0, 0, 0x2a]).unwrap_err(),
        WireError::BadMagic { found: 0x01 }
    );
    assert_eq!(
        Ping::from_confluent_assume_schema(&[0x00, 0, 0]).unwrap_err(),
        WireError::TruncatedSchemaId { len: 3 }
    );
    let mut cut = framed();
    cut.pop();
    match Ping::from_confluent_assume_schema(&cut).unwrap_err() {
        WireError::Body(error) => {
            assert_eq!(
                error.kind(),
                &DecodeErrorKind::LengthTooLarge {
                    length: 3,
                    remaining: 2
                }
            );
            assert_eq!(error.path(), "shop.Ping.name");
        }
        other => panic!("{other:?}"),
    }
    let mut long = framed();
    long.push(0);
    match Ping::from_confluent_assume_schema(&long).unwrap_err() {
        WireError::Body(error) => assert_eq!(error.kind(), &DecodeErrorKind::TrailingBytes(1)),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        WireError::BadMagic { found: 0xc3 }.to_string(),
        "not a Confluent-framed message: magic byte is 0xc3, expected 0x00"
    );
}

#[test]
fn whole_bodies_round_trip_and_trailing_bytes_are_errors() {
    assert_eq!(ping().to_avro_bytes().unwrap(), PING_BODY);
    assert_eq!(Ping::from_avro_bytes(&PING_BODY).unwrap(), ping());
    let error = Ping::from_avro_bytes(&[&PING_BODY[..], &[1, 2]].concat()).unwrap_err();
    assert_eq!(error.kind(), &DecodeErrorKind::TrailingBytes(2));
    assert_eq!(error.offset(), 5);
}

#[test]
fn single_objects_round_trip_and_match_apache_avro() {
    let ours = ping().to_single_object().unwrap();
    assert_eq!(ours[..2], [0xc3, 0x01]);
    assert_eq!(ours[2..10], Ping::FINGERPRINT.to_le_bytes());
    assert_eq!(ours[10..], PING_BODY);
    assert_eq!(Ping::from_single_object(&ours).unwrap(), ping());

    let schema = Schema::parse_str(PING_SCHEMA).unwrap();
    let value = Value::Record(vec![
        ("id".to_owned(), Value::Long(21)),
        ("name".to_owned(), Value::String("foo".to_owned())),
    ]);
    let mut theirs = Vec::new();
    GenericSingleObjectWriter::new_with_capacity(&schema, 64)
        .unwrap()
        .write_value(value.clone(), &mut theirs)
        .unwrap();
    assert_eq!(theirs, ours);
    let reader = GenericSingleObjectReader::builder()
        .schema(schema)
        .build()
        .unwrap();
    assert_eq!(reader.read_value(&mut ours.as_slice()).unwrap(), value);
}

#[test]
fn each_bad_single_object_frame_has_its_own_error() {
    let good = ping().to_single_object().unwrap();
    assert_eq!(Ping::from_single_object(&[]).unwrap_err(), WireError::Empty);
    assert_eq!(
        Ping::from_single_object(&framed()).unwrap_err(),
        WireError::BadMarker
    );
    assert_eq!(
        Ping::from_single_object(&good[..6]).unwrap_err(),
        WireError::TruncatedFingerprint { len: 6 }
    );
    let mut other = good.clone();
    other[2] ^= 0x01;
    assert_eq!(
        Ping::from_single_object(&other).unwrap_err(),
        WireError::FingerprintMismatch {
            expected: Ping::FINGERPRINT,
            found: Ping::FINGERPRINT ^ 0x01
        }
    );
    assert!(matches!(
        Ping::from_single_object(&good[..12]).unwrap_err(),
        WireError::Body(_)
    ));
    assert_eq!(
        wire::split_single_object(&good).unwrap(),
        (Ping::FINGERPRINT, &PING_BODY[..])
    );
}
