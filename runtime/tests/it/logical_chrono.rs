//! Date and time logical types as chrono values, against apache-avro: we encode, apache-avro
//! reads the count it expects; apache-avro encodes, we read the chrono value back. Values
//! out of range are errors on both sides.

use apache_avro::types::Value;
use avdl2rs::__private::logical_chrono as lc;
use avdl2rs::chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, TimeDelta, Utc};
use avdl2rs::codec::Reader;
use avdl2rs::{DecodeErrorKind, EncodeErrorKind};
use proptest::prelude::*;

use crate::codec_support;
use codec_support::{check, schema, their_bytes, their_value};

fn epoch() -> NaiveDate {
    NaiveDate::from_ymd_opt(1970, 1, 1).unwrap()
}

const DATE: &str = r#"{"type": "int", "logicalType": "date"}"#;

fn long_schema(logical: &str) -> String {
    format!(r#"{{"type": "long", "logicalType": "{logical}"}}"#)
}

proptest! {
    #[test]
    fn dates(days in -3_000_000i32..3_000_000) {
        let date = epoch() + TimeDelta::days(days.into());
        check(DATE, &date, Value::Date(days), lc::encode_date, lc::decode_date);
    }

    #[test]
    fn times_of_day(millis in 0i32..86_400_000, extra_micros in 0i64..1000) {
        let time = NaiveTime::MIN + TimeDelta::milliseconds(millis.into());
        check(r#"{"type": "int", "logicalType": "time-millis"}"#, &time, Value::TimeMillis(millis), lc::encode_time_millis, lc::decode_time_millis);
        let micros = i64::from(millis) * 1000 + extra_micros;
        let time = NaiveTime::MIN + TimeDelta::microseconds(micros);
        check(&long_schema("time-micros"), &time, Value::TimeMicros(micros), lc::encode_time_micros, lc::decode_time_micros);
    }

    #[test]
    fn timestamps(count in -9_000_000_000_000_000i64..9_000_000_000_000_000) {
        let millis = count / 1_000_000;
        let micros = count / 1000;
        let at = DateTime::from_timestamp_millis(millis).unwrap();
        check(&long_schema("timestamp-millis"), &at, Value::TimestampMillis(millis), lc::encode_timestamp_millis, lc::decode_timestamp_millis);
        let at = DateTime::from_timestamp_micros(micros).unwrap();
        check(&long_schema("timestamp-micros"), &at, Value::TimestampMicros(micros), lc::encode_timestamp_micros, lc::decode_timestamp_micros);
        let at = DateTime::from_timestamp_nanos(count);
        check(&long_schema("timestamp-nanos"), &at, Value::TimestampNanos(count), lc::encode_timestamp_nanos, lc::decode_timestamp_nanos);
    }

    #[test]
    fn local_timestamps(count in -9_000_000_000_000_000i64..9_000_000_000_000_000) {
        let local = |at: DateTime<Utc>| at.naive_utc();
        let millis = count / 1_000_000;
        let micros = count / 1000;
        check(&long_schema("local-timestamp-millis"), &local(DateTime::from_timestamp_millis(millis).unwrap()), Value::LocalTimestampMillis(millis), lc::encode_local_timestamp_millis, lc::decode_local_timestamp_millis);
        check(&long_schema("local-timestamp-micros"), &local(DateTime::from_timestamp_micros(micros).unwrap()), Value::LocalTimestampMicros(micros), lc::encode_local_timestamp_micros, lc::decode_local_timestamp_micros);
        check(&long_schema("local-timestamp-nanos"), &local(DateTime::from_timestamp_nanos(count)), Value::LocalTimestampNanos(count), lc::encode_local_timestamp_nanos, lc::decode_local_timestamp_nanos);
    }
}

#[test]
fn the_specification_examples_of_timestamps() {
    // Noon on 2000-01-01 in Helsinki (UTC+2) is 10:00 UTC: 946720800000 ms; as a local
    // timestamp, noon itself: 946728000000 ms.
    let utc = NaiveDate::from_ymd_opt(2000, 1, 1)
        .unwrap()
        .and_hms_opt(10, 0, 0)
        .unwrap()
        .and_utc();
    let mut out = Vec::new();
    lc::encode_timestamp_millis(&utc, &mut out).unwrap();
    assert_eq!(Reader::new(&out).read_long().unwrap(), 946_720_800_000);
    let local: NaiveDateTime = NaiveDate::from_ymd_opt(2000, 1, 1)
        .unwrap()
        .and_hms_opt(12, 0, 0)
        .unwrap();
    out.clear();
    lc::encode_local_timestamp_millis(&local, &mut out).unwrap();
    assert_eq!(Reader::new(&out).read_long().unwrap(), 946_728_000_000);
}

#[test]
fn finer_precision_is_truncated_towards_the_past() {
    let before_epoch = DateTime::from_timestamp_nanos(-1);
    let mut out = Vec::new();
    lc::encode_timestamp_millis(&before_epoch, &mut out).unwrap();
    assert_eq!(Reader::new(&out).read_long().unwrap(), -1);
}

fn encoded_long(value: i64) -> Vec<u8> {
    let mut out = Vec::new();
    avdl2rs::codec::write_long(&mut out, value);
    out
}

#[test]
fn times_of_day_of_24_hours_or_negative_are_refused() {
    for millis in [86_400_000, -1] {
        let error = lc::decode_time_millis(&mut Reader::new(&encoded_long(millis))).unwrap_err();
        assert!(
            matches!(
                error.kind(),
                DecodeErrorKind::InvalidLogicalValue {
                    logical_type: "time-millis",
                    ..
                }
            ),
            "{error}"
        );
    }
    let error =
        lc::decode_time_micros(&mut Reader::new(&encoded_long(86_400_000_000))).unwrap_err();
    assert_eq!(
        error.to_string(),
        "cannot decode at byte 0: invalid time-micros value: 86400000000 is not a time of day (0 to below 24 hours)"
    );
    // A leap second (nanoseconds of 10^9 or more) has no Avro time of day.
    let leap = NaiveTime::from_hms_nano_opt(23, 59, 59, 1_500_000_000).unwrap();
    let error = lc::encode_time_millis(&leap, &mut Vec::new()).unwrap_err();
    assert!(matches!(
        error.kind(),
        EncodeErrorKind::OutOfRange {
            logical_type: "time-millis",
            ..
        }
    ));
}

#[test]
fn instants_beyond_the_range_are_errors_not_panics() {
    // i64 nanoseconds end in 2262.
    let late = NaiveDate::from_ymd_opt(2300, 1, 1)
        .unwrap()
        .and_hms_opt(0, 0, 0)
        .unwrap();
    let error = lc::encode_timestamp_nanos(&late.and_utc(), &mut Vec::new()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "cannot encode: timestamp-nanos value out of range: the instant overflows a 64-bit count"
    );
    assert!(lc::encode_local_timestamp_nanos(&late, &mut Vec::new()).is_err());
    // chrono ends near year 262143.
    for decode in [lc::decode_timestamp_millis, lc::decode_timestamp_micros] {
        let error = decode(&mut Reader::new(&encoded_long(i64::MAX))).unwrap_err();
        assert!(
            matches!(error.kind(), DecodeErrorKind::InvalidLogicalValue { .. }),
            "{error}"
        );
    }
    let error = lc::decode_date(&mut Reader::new(&encoded_long(i64::from(i32::MAX)))).unwrap_err();
    assert!(matches!(
        error.kind(),
        DecodeErrorKind::InvalidLogicalValue {
            logical_type: "date",
            ..
        }
    ));
    // The extreme chrono dates still encode.
    for date in [NaiveDate::MIN, NaiveDate::MAX] {
        let mut out = Vec::new();
        lc::encode_date(&date, &mut out).unwrap();
        assert_eq!(lc::decode_date(&mut Reader::new(&out)).unwrap(), date);
    }
}

/// A struct as generated code derives it, with the serde modules on its logical fields.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Shipment {
    #[serde(with = "avdl2rs::__private::logical_chrono::serde_date")]
    day: NaiveDate,
    #[serde(with = "avdl2rs::__private::logical_chrono::serde_time_millis")]
    cutoff: NaiveTime,
    #[serde(with = "avdl2rs::__private::logical_chrono::serde_timestamp_micros::option")]
    sent: Option<DateTime<Utc>>,
    #[serde(with = "avdl2rs::__private::logical_chrono::serde_local_timestamp_nanos::option")]
    local: Option<NaiveDateTime>,
}

const SHIPMENT: &str = r#"{"type": "record", "name": "Shipment", "fields": [
    {"name": "day", "type": {"type": "int", "logicalType": "date"}},
    {"name": "cutoff", "type": {"type": "int", "logicalType": "time-millis"}},
    {"name": "sent", "type": ["null", {"type": "long", "logicalType": "timestamp-micros"}]},
    {"name": "local", "type": ["null", {"type": "long", "logicalType": "local-timestamp-nanos"}]}
]}"#;

#[test]
fn serde_modules_give_the_shape_apache_avro_reads_and_writes() {
    let shipment = Shipment {
        day: NaiveDate::from_ymd_opt(2024, 2, 29).unwrap(),
        cutoff: NaiveTime::from_hms_milli_opt(17, 30, 0, 250).unwrap(),
        sent: DateTime::from_timestamp_micros(1_709_222_400_123_456),
        local: None,
    };
    let schema = schema(SHIPMENT);
    let value = apache_avro::to_value(&shipment).unwrap();
    let bytes = their_bytes(&schema, value);

    // The bytes apache-avro wrote from the serde value are what our codecs read.
    let mut reader = Reader::new(&bytes);
    assert_eq!(lc::decode_date(&mut reader).unwrap(), shipment.day);
    assert_eq!(
        lc::decode_time_millis(&mut reader).unwrap(),
        shipment.cutoff
    );
    assert_eq!(reader.read_union_index(2).unwrap(), 1);
    assert_eq!(
        lc::decode_timestamp_micros(&mut reader).unwrap(),
        shipment.sent.unwrap()
    );
    assert_eq!(reader.read_union_index(2).unwrap(), 0);
    assert!(reader.is_empty());

    // And apache-avro's value of those bytes deserializes back.
    let back: Shipment = apache_avro::from_value(&their_value(&schema, &bytes)).unwrap();
    assert_eq!(back, shipment);
}
