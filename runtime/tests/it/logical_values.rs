//! UUID, decimal and duration logical types against apache-avro, and the conversions of
//! `Decimal` to `rust_decimal` and `bigdecimal`.

use std::str::FromStr;

use apache_avro::types::Value;
use avdl2rs::__private as p;
use avdl2rs::codec::Reader;
use avdl2rs::logical::{Decimal, Duration};
use avdl2rs::uuid::Uuid;
use avdl2rs::{DecodeErrorKind, EncodeErrorKind};
use proptest::prelude::*;

use crate::codec_support;
use codec_support::{schema, their_bytes, their_value};

const UUID_STRING: &str = r#"{"type": "string", "logicalType": "uuid"}"#;
const UUID_FIXED: &str = r#"{"type": "fixed", "name": "Id", "size": 16, "logicalType": "uuid"}"#;
const DECIMAL_BYTES: &str =
    r#"{"type": "bytes", "logicalType": "decimal", "precision": 30, "scale": 2}"#;
const DECIMAL_FIXED: &str = r#"{"type": "fixed", "name": "Money", "size": 8, "logicalType": "decimal", "precision": 18, "scale": 2}"#;
const DURATION: &str =
    r#"{"type": "fixed", "name": "Span", "size": 12, "logicalType": "duration"}"#;

fn apache_duration(d: Duration) -> Value {
    Value::Duration(apache_avro::Duration::new(
        apache_avro::Months::new(d.months),
        apache_avro::Days::new(d.days),
        apache_avro::Millis::new(d.millis),
    ))
}

proptest! {
    #[test]
    fn uuids_as_strings(bytes in any::<[u8; 16]>()) {
        let uuid = Uuid::from_bytes(bytes);
        let schema = schema(UUID_STRING);
        let mut ours = Vec::new();
        p::encode_uuid_string(&uuid, &mut ours).unwrap();
        prop_assert_eq!(their_value(&schema, &ours), Value::Uuid(uuid));
        prop_assert_eq!(Reader::new(&ours).read_string().unwrap(), uuid.hyphenated().to_string());
        let theirs = their_bytes(&schema, Value::Uuid(uuid));
        prop_assert_eq!(p::decode_uuid_string(&mut Reader::new(&theirs)).unwrap(), uuid);
    }

    #[test]
    fn uuids_as_fixed(bytes in any::<[u8; 16]>()) {
        let uuid = Uuid::from_bytes(bytes);
        let schema = schema(UUID_FIXED);
        let mut ours = Vec::new();
        p::encode_uuid_fixed(&uuid, &mut ours).unwrap();
        prop_assert_eq!(&ours, &bytes.to_vec());
        prop_assert_eq!(their_value(&schema, &ours), Value::Uuid(uuid));
        let theirs = their_bytes(&schema, Value::Uuid(uuid));
        prop_assert_eq!(p::decode_uuid_fixed(&mut Reader::new(&theirs)).unwrap(), uuid);
    }

    #[test]
    fn decimals_on_bytes(unscaled in any::<i64>()) {
        let decimal = Decimal::from_i128(unscaled.into(), 2);
        let schema = schema(DECIMAL_BYTES);
        let mut ours = Vec::new();
        p::encode_decimal_bytes(&decimal, 30, 2, &mut ours).unwrap();
        let expected = Value::Decimal(apache_avro::Decimal::from(decimal.unscaled_bytes().to_vec()));
        prop_assert_eq!(their_value(&schema, &ours), expected.clone());
        let theirs = their_bytes(&schema, expected);
        prop_assert_eq!(p::decode_decimal_bytes(&mut Reader::new(&theirs), 30, 2).unwrap(), decimal);
    }

    #[test]
    fn decimals_on_fixed(unscaled in -999_999_999_999_999_999i64..=999_999_999_999_999_999) {
        let decimal = Decimal::from_i128(unscaled.into(), 2);
        let schema = schema(DECIMAL_FIXED);
        let mut ours = Vec::new();
        p::encode_decimal_fixed(&decimal, 8, 18, 2, &mut ours).unwrap();
        prop_assert_eq!(&ours, &unscaled.to_be_bytes().to_vec());
        let theirs = their_bytes(&schema, Value::Decimal(apache_avro::Decimal::from(unscaled.to_be_bytes().to_vec())));
        prop_assert_eq!(&theirs, &ours);
        prop_assert_eq!(p::decode_decimal_fixed(&mut Reader::new(&theirs), 8, 18, 2).unwrap(), decimal);
    }

    #[test]
    fn durations(months in any::<u32>(), days in any::<u32>(), millis in any::<u32>()) {
        let duration = Duration { months, days, millis };
        let schema = schema(DURATION);
        let mut ours = Vec::new();
        p::encode_duration(&duration, &mut ours).unwrap();
        prop_assert_eq!(their_value(&schema, &ours), apache_duration(duration));
        let theirs = their_bytes(&schema, apache_duration(duration));
        prop_assert_eq!(p::decode_duration(&mut Reader::new(&theirs)).unwrap(), duration);
    }

    #[test]
    fn rust_decimal_round_trips(mantissa in -(1i128 << 95)..(1i128 << 95), scale in 0u32..=28) {
        let value = rust_decimal::Decimal::from_i128_with_scale(mantissa, scale);
        let decimal = Decimal::from(value);
        prop_assert_eq!(decimal.to_i128(), Some(mantissa));
        prop_assert_eq!(decimal.scale(), scale);
        prop_assert_eq!(rust_decimal::Decimal::try_from(&decimal).unwrap(), value);
        prop_assert_eq!(decimal.to_string(), value.to_string());
    }

    #[test]
    fn bigdecimal_round_trips(digits in "-?[1-9][0-9]{0,60}", scale in 0i64..40) {
        let unscaled = bigdecimal::num_bigint::BigInt::from_str(&digits).unwrap();
        let value = bigdecimal::BigDecimal::new(unscaled.clone(), scale);
        let decimal = Decimal::from(&value);
        let bytes = unscaled.to_signed_bytes_be();
        prop_assert_eq!(decimal.unscaled_bytes(), bytes.as_slice());
        prop_assert_eq!(bigdecimal::BigDecimal::from(&decimal), value);
    }
}

#[test]
fn a_known_decimal_encoding() {
    // -1.23 at scale 2: unscaled -123 = 0x85 in one byte of two's complement.
    let decimal = Decimal::from_i128(-123, 2);
    let mut out = Vec::new();
    p::encode_decimal_bytes(&decimal, 3, 2, &mut out).unwrap();
    assert_eq!(out, [0x02, 0x85]);
    out.clear();
    p::encode_decimal_fixed(&decimal, 4, 3, 2, &mut out).unwrap();
    assert_eq!(out, [0xff, 0xff, 0xff, 0x85]);
    assert_eq!(
        rust_decimal::Decimal::try_from(&decimal).unwrap(),
        rust_decimal::Decimal::from_str("-1.23").unwrap()
    );
    assert_eq!(
        bigdecimal::BigDecimal::from(&decimal),
        bigdecimal::BigDecimal::from_str("-1.23").unwrap()
    );
}

#[test]
fn a_decimal_too_wide_for_its_fixed_is_an_error() {
    let decimal = Decimal::from_i128(1 << 40, 0);
    let error = p::encode_decimal_fixed(&decimal, 4, 15, 0, &mut Vec::new()).unwrap_err();
    assert_eq!(
        error.kind(),
        &EncodeErrorKind::DecimalTooWide { size: 4, needed: 6 }
    );
    assert_eq!(
        error.to_string(),
        "cannot encode: decimal needs 6 bytes but its fixed has 4"
    );
    // rust_decimal holds 96 bits and 28 digits of scale.
    assert!(rust_decimal::Decimal::try_from(&Decimal::from_i128(1 << 100, 0)).is_err());
    assert!(rust_decimal::Decimal::try_from(&Decimal::from_i128(1, 29)).is_err());
}

#[test]
fn big_decimals_hold_their_scale() {
    let decimal = Decimal::from_i128(-98_765, 3);
    let mut out = Vec::new();
    p::encode_big_decimal(&decimal, &mut out).unwrap();
    // bytes(4) { bytes(3) 0xfe 0x7e 0x33, int 3 }
    assert_eq!(out, [0x0a, 0x06, 0xfe, 0x7e, 0x33, 0x06]);
    assert_eq!(
        p::decode_big_decimal(&mut Reader::new(&out)).unwrap(),
        decimal
    );
    let error = p::decode_big_decimal(&mut Reader::new(&[0x04, 0x02, 0x01])).unwrap_err();
    assert!(matches!(
        error.kind(),
        DecodeErrorKind::InvalidLogicalValue {
            logical_type: "big-decimal",
            ..
        }
    ));
}

#[test]
fn uuid_strings_must_be_hyphenated() {
    let mut out = Vec::new();
    avdl2rs::codec::write_string(&mut out, "67e5504410b1426f9247bb680e5fe0c8");
    let error = p::decode_uuid_string(&mut Reader::new(&out)).unwrap_err();
    assert!(matches!(
        error.kind(),
        DecodeErrorKind::InvalidLogicalValue {
            logical_type: "uuid",
            ..
        }
    ));
    out.clear();
    avdl2rs::codec::write_string(&mut out, "67E55044-10B1-426F-9247-BB680E5FE0C8");
    assert_eq!(
        p::decode_uuid_string(&mut Reader::new(&out)).unwrap(),
        Uuid::from_str("67e55044-10b1-426f-9247-bb680e5fe0c8").unwrap()
    );
}

#[test]
fn decimal_and_duration_serde_matches_apache_avro() {
    let decimal = Decimal::from_i128(-123, 2);
    assert_eq!(
        apache_avro::to_value(&decimal).unwrap(),
        apache_avro::to_value(apache_avro::Decimal::from(vec![0x85])).unwrap()
    );
    let back: Decimal = apache_avro::from_value(&Value::Bytes(vec![0x85])).unwrap();
    assert_eq!(back.with_scale(2), decimal);

    let duration = Duration {
        months: 1,
        days: 2,
        millis: 3,
    };
    let theirs = apache_avro::Duration::new(
        apache_avro::Months::new(1),
        apache_avro::Days::new(2),
        apache_avro::Millis::new(3),
    );
    assert_eq!(
        apache_avro::to_value(duration).unwrap(),
        apache_avro::to_value(theirs).unwrap()
    );
    let back: Duration = apache_avro::from_value(&apache_avro::to_value(theirs).unwrap()).unwrap();
    assert_eq!(back, duration);
}

/// A struct as generated code derives it, with the decimal serde helpers on its fields.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Price {
    #[serde(
        serialize_with = "avdl2rs::__private::serde_decimal::serialize::<_, 2, 2>",
        deserialize_with = "avdl2rs::__private::serde_decimal::deserialize::<_, 2, 2>"
    )]
    amount: Decimal,
    #[serde(
        serialize_with = "avdl2rs::__private::serde_decimal::option::serialize::<_, 2, 2>",
        deserialize_with = "avdl2rs::__private::serde_decimal::option::deserialize::<_, 2, 2>"
    )]
    discount: Option<Decimal>,
}

#[test]
fn decimal_fields_keep_the_schema_scale_through_apache_avro_serde() {
    let schema = schema(
        r#"{"type": "record", "name": "Price", "fields": [
            {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 2, "scale": 2}},
            {"name": "discount", "type": ["null", {"type": "bytes", "logicalType": "decimal", "precision": 2, "scale": 2}]}
        ]}"#,
    );
    // apache-avro's resolve refuses a decimal whose bytes could hold fewer digits than the
    // precision, so the serialized bytes are as long as the precision needs.
    for discount in [None, Some(Decimal::from_i128(-5, 2))] {
        let price = Price {
            amount: Decimal::from_i128(99, 2),
            discount,
        };
        // apache-avro's writer wants the serde value resolved against the schema first
        // (bytes become a decimal), as its container writer does.
        let value = apache_avro::to_value(&price)
            .unwrap()
            .resolve(&schema)
            .unwrap();
        let bytes = their_bytes(&schema, value);
        let mut reader = Reader::new(&bytes);
        assert_eq!(
            p::decode_decimal_bytes(&mut reader, 2, 2).unwrap(),
            price.amount
        );
        let back: Price = apache_avro::from_value(&their_value(&schema, &bytes)).unwrap();
        assert_eq!(back, price);
    }
}

/// A struct with UUID fields as generated code derives it.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Ids {
    #[serde(with = "avdl2rs::__private::serde_uuid_string")]
    id: Uuid,
    #[serde(with = "avdl2rs::__private::serde_uuid_string::option")]
    parent: Option<Uuid>,
}

#[test]
fn uuid_fields_through_apache_avro_serde() {
    let schema = schema(
        r#"{"type": "record", "name": "Ids", "fields": [
            {"name": "id", "type": {"type": "string", "logicalType": "uuid"}},
            {"name": "parent", "type": ["null", {"type": "string", "logicalType": "uuid"}]}
        ]}"#,
    );
    for parent in [None, Some(Uuid::from_bytes([9; 16]))] {
        let ids = Ids {
            id: Uuid::from_bytes([7; 16]),
            parent,
        };
        let value = apache_avro::to_value(&ids)
            .unwrap()
            .resolve(&schema)
            .unwrap();
        let bytes = their_bytes(&schema, value);
        let mut reader = Reader::new(&bytes);
        assert_eq!(p::decode_uuid_string(&mut reader).unwrap(), ids.id);
        let back: Ids = apache_avro::from_value(&their_value(&schema, &bytes)).unwrap();
        assert_eq!(back, ids);
    }
}
