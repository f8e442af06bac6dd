//! Date and time logical types as `time` crate values, against apache-avro (feature `time`).

use apache_avro::types::Value;
use avdl2rs::__private::logical_time as lt;
use avdl2rs::codec::Reader;
use avdl2rs::time::{Date, Duration, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};
use avdl2rs::DecodeErrorKind;
use proptest::prelude::*;

use crate::codec_support;
use codec_support::{check, schema, their_bytes, their_value};

fn long_schema(logical: &str) -> String {
    format!(r#"{{"type": "long", "logicalType": "{logical}"}}"#)
}

fn at_nanos(nanos: i64) -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp_nanos(nanos.into()).unwrap()
}

proptest! {
    #[test]
    fn dates(days in -2_000_000i32..2_000_000) { // `time` dates end in year ±9999
        let date = Date::from_calendar_date(1970, time::Month::January, 1).unwrap() + Duration::days(days.into());
        check(r#"{"type": "int", "logicalType": "date"}"#, &date, Value::Date(days), lt::encode_date, lt::decode_date);
    }

    #[test]
    fn times_of_day(millis in 0i32..86_400_000, extra_micros in 0i64..1000) {
        let time = Time::MIDNIGHT + Duration::milliseconds(millis.into());
        check(r#"{"type": "int", "logicalType": "time-millis"}"#, &time, Value::TimeMillis(millis), lt::encode_time_millis, lt::decode_time_millis);
        let micros = i64::from(millis) * 1000 + extra_micros;
        let time = Time::MIDNIGHT + Duration::microseconds(micros);
        check(&long_schema("time-micros"), &time, Value::TimeMicros(micros), lt::encode_time_micros, lt::decode_time_micros);
    }

    #[test]
    fn timestamps(count in -9_000_000_000_000_000i64..9_000_000_000_000_000) {
        let (millis, micros) = (count / 1_000_000, count / 1000);
        check(&long_schema("timestamp-millis"), &at_nanos(millis * 1_000_000), Value::TimestampMillis(millis), lt::encode_timestamp_millis, lt::decode_timestamp_millis);
        check(&long_schema("timestamp-micros"), &at_nanos(micros * 1000), Value::TimestampMicros(micros), lt::encode_timestamp_micros, lt::decode_timestamp_micros);
        check(&long_schema("timestamp-nanos"), &at_nanos(count), Value::TimestampNanos(count), lt::encode_timestamp_nanos, lt::decode_timestamp_nanos);
    }

    #[test]
    fn local_timestamps(count in -9_000_000_000_000_000i64..9_000_000_000_000_000) {
        let local = |at: OffsetDateTime| PrimitiveDateTime::new(at.date(), at.time());
        let (millis, micros) = (count / 1_000_000, count / 1000);
        check(&long_schema("local-timestamp-millis"), &local(at_nanos(millis * 1_000_000)), Value::LocalTimestampMillis(millis), lt::encode_local_timestamp_millis, lt::decode_local_timestamp_millis);
        check(&long_schema("local-timestamp-micros"), &local(at_nanos(micros * 1000)), Value::LocalTimestampMicros(micros), lt::encode_local_timestamp_micros, lt::decode_local_timestamp_micros);
        check(&long_schema("local-timestamp-nanos"), &local(at_nanos(count)), Value::LocalTimestampNanos(count), lt::encode_local_timestamp_nanos, lt::decode_local_timestamp_nanos);
    }
}

#[test]
fn an_offset_is_taken_into_account() {
    // 12:00 at UTC+2 is 10:00 UTC: the specification's example, 946720800000 ms.
    let noon = PrimitiveDateTime::new(
        Date::from_calendar_date(2000, time::Month::January, 1).unwrap(),
        Time::from_hms(12, 0, 0).unwrap(),
    )
    .assume_offset(UtcOffset::from_hms(2, 0, 0).unwrap());
    let mut out = Vec::new();
    lt::encode_timestamp_millis(&noon, &mut out).unwrap();
    assert_eq!(Reader::new(&out).read_long().unwrap(), 946_720_800_000);
}

#[test]
fn out_of_range_values_are_errors() {
    let mut out = Vec::new();
    avdl2rs::codec::write_long(&mut out, 86_400_000);
    let error = lt::decode_time_millis(&mut Reader::new(&out)).unwrap_err();
    assert!(matches!(
        error.kind(),
        DecodeErrorKind::InvalidLogicalValue {
            logical_type: "time-millis",
            ..
        }
    ));
    // `time` ends in year 9999 by default: the largest millisecond count is beyond it.
    out.clear();
    avdl2rs::codec::write_long(&mut out, i64::MAX);
    let error = lt::decode_timestamp_millis(&mut Reader::new(&out)).unwrap_err();
    assert!(matches!(
        error.kind(),
        DecodeErrorKind::InvalidLogicalValue {
            logical_type: "timestamp-millis",
            ..
        }
    ));
    // Nanoseconds since the epoch overflow i64 in 2262.
    let late = PrimitiveDateTime::new(
        Date::from_calendar_date(2300, time::Month::January, 1).unwrap(),
        Time::MIDNIGHT,
    );
    assert!(lt::encode_local_timestamp_nanos(&late, &mut Vec::new()).is_err());
}

/// A struct as generated code derives it, with the serde modules on its logical fields.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Shipment {
    #[serde(with = "avdl2rs::__private::logical_time::serde_date")]
    day: Date,
    #[serde(with = "avdl2rs::__private::logical_time::serde_time_micros")]
    cutoff: Time,
    #[serde(with = "avdl2rs::__private::logical_time::serde_timestamp_millis::option")]
    sent: Option<OffsetDateTime>,
}

#[test]
fn serde_modules_give_the_shape_apache_avro_reads_and_writes() {
    let schema = schema(
        r#"{"type": "record", "name": "Shipment", "fields": [
            {"name": "day", "type": {"type": "int", "logicalType": "date"}},
            {"name": "cutoff", "type": {"type": "long", "logicalType": "time-micros"}},
            {"name": "sent", "type": ["null", {"type": "long", "logicalType": "timestamp-millis"}]}
        ]}"#,
    );
    let shipment = Shipment {
        day: Date::from_calendar_date(1969, time::Month::December, 31).unwrap(),
        cutoff: Time::from_hms_micro(23, 59, 59, 999_999).unwrap(),
        sent: Some(at_nanos(-1_000_000)),
    };
    let value = apache_avro::to_value(&shipment)
        .unwrap()
        .resolve(&schema)
        .unwrap();
    let bytes = their_bytes(&schema, value);
    let mut reader = Reader::new(&bytes);
    assert_eq!(reader.read_int().unwrap(), -1);
    assert_eq!(reader.read_long().unwrap(), 86_399_999_999);
    assert_eq!(reader.read_union_index(2).unwrap(), 1);
    assert_eq!(reader.read_long().unwrap(), -1);
    let back: Shipment = apache_avro::from_value(&their_value(&schema, &bytes)).unwrap();
    assert_eq!(back, shipment);
}
