//! Dates and times of generic values as `chrono` or `time` values. A generic value holds a
//! date or time logical type as its base `int` or `long` count (days since 1970-01-01,
//! milliseconds after midnight, microseconds since the Unix epoch...); these read a count as
//! the Rust type of a date-time crate and write one back, through the same conversions the
//! generated code uses, so that a date means the same day on either path.

use crate::error::{DecodeError, EncodeError};
use crate::schema::{LogicalType, SchemaKind};

use super::value::{GenericRecord, GenericValue};

/// A Rust date or time type that Avro's date and time logical types read as: with the
/// `chrono` feature `NaiveDate` (`date`), `NaiveTime` (`time-millis`, `time-micros`),
/// `DateTime<Utc>` (`timestamp-*`) and `NaiveDateTime` (`local-timestamp-*`); with the `time`
/// feature `Date`, `Time`, `OffsetDateTime` and `PrimitiveDateTime` for the same.
pub trait DateTimeValue: sealed::Conversions {}

mod sealed {
    use super::{DecodeError, EncodeError, LogicalType};

    /// A Rust value to its Avro count, and a count read at a byte offset to the value.
    pub type Pair<T> = (
        fn(&T) -> Result<i64, EncodeError>,
        fn(i64, usize) -> Result<T, DecodeError>,
    );

    /// The conversions of a date-time type, outside the public API so that only the types
    /// of this module are [`super::DateTimeValue`]s.
    pub trait Conversions: Sized {
        /// The conversions for `logical`, if this type represents it.
        fn conversions(logical: LogicalType) -> Option<Pair<Self>>;
    }
}

/// Makes `$ty` a [`DateTimeValue`] for each listed logical type, by the count and
/// from-count functions of that name in the date-time crate's module `$module`.
macro_rules! date_time_value {
    ($module:ident, $ty:ty: $($logical:ident => $count:ident, $from:ident);+) => {
        impl sealed::Conversions for $ty {
            fn conversions(logical: LogicalType) -> Option<sealed::Pair<Self>> {
                use crate::__private::$module as m;
                match logical {
                    $(LogicalType::$logical => Some((m::$count, m::$from)),)+
                    _ => None,
                }
            }
        }

        impl DateTimeValue for $ty {}
    };
}

/// The four date-time types of one crate, for the logical types each represents.
macro_rules! date_time_values {
    ($module:ident: $date:ty, $time:ty, $instant:ty, $local:ty) => {
        date_time_value!($module, $date: Date => date_count, date_from_count);
        date_time_value!($module, $time:
            TimeMillis => time_millis_count, time_millis_from_count;
            TimeMicros => time_micros_count, time_micros_from_count);
        date_time_value!($module, $instant:
            TimestampMillis => timestamp_millis_count, timestamp_millis_from_count;
            TimestampMicros => timestamp_micros_count, timestamp_micros_from_count;
            TimestampNanos => timestamp_nanos_count, timestamp_nanos_from_count);
        date_time_value!($module, $local:
            LocalTimestampMillis => local_timestamp_millis_count, local_timestamp_millis_from_count;
            LocalTimestampMicros => local_timestamp_micros_count, local_timestamp_micros_from_count;
            LocalTimestampNanos => local_timestamp_nanos_count, local_timestamp_nanos_from_count);
    };
}

#[cfg(feature = "chrono")]
date_time_values!(logical_chrono: chrono::NaiveDate, chrono::NaiveTime,
    chrono::DateTime<chrono::Utc>, chrono::NaiveDateTime);

#[cfg(feature = "time")]
date_time_values!(logical_time: time::Date, time::Time, time::OffsetDateTime,
    time::PrimitiveDateTime);

/// Whether `logical` annotates an `int` (else a `long`).
fn on_int(logical: LogicalType) -> bool {
    matches!(logical, LogicalType::Date | LogicalType::TimeMillis)
}

impl GenericValue {
    /// This `int` or `long` count read as the date-time logical type `logical`, as the Rust
    /// type `T`; `None` when `T` does not represent `logical` (a `NaiveDate` is only a
    /// `date`), when the value is not the base type of `logical` (a `date` is an `int`), or
    /// when the count is outside what `T` can hold or, for a time of day, not below 24 hours.
    /// [`GenericRecord::get_date_time`] takes the logical type from the record's schema.
    ///
    /// ```
    /// use avdl2rs::chrono::{DateTime, NaiveDate, NaiveTime, Utc};
    /// use avdl2rs::generic::GenericValue;
    /// use avdl2rs::schema::LogicalType;
    /// // Days since 1970-01-01, milliseconds after midnight, microseconds since the epoch.
    /// let date = GenericValue::Int(19_782).as_date_time::<NaiveDate>(LogicalType::Date);
    /// assert_eq!(date, NaiveDate::from_ymd_opt(2024, 2, 29));
    /// let time = GenericValue::Int(3_600_250).as_date_time(LogicalType::TimeMillis);
    /// assert_eq!(time, NaiveTime::from_hms_milli_opt(1, 0, 0, 250));
    /// let instant = GenericValue::Long(-1).as_date_time::<DateTime<Utc>>(LogicalType::TimestampMicros);
    /// assert_eq!(instant.unwrap().to_rfc3339(), "1969-12-31T23:59:59.999999+00:00");
    /// // A day has 86,400,000 milliseconds: no time of day for this count.
    /// let late = GenericValue::Int(86_400_000).as_date_time::<NaiveTime>(LogicalType::TimeMillis);
    /// assert_eq!(late, None);
    /// ```
    pub fn as_date_time<T: DateTimeValue>(&self, logical: LogicalType) -> Option<T> {
        let (_, from_count) = T::conversions(logical)?;
        let count = match self {
            GenericValue::Int(count) if on_int(logical) => i64::from(*count),
            GenericValue::Long(count) if !on_int(logical) => *count,
            _ => return None,
        };
        from_count(count, 0).ok()
    }

    /// The `int` or `long` count of `value` as the date-time logical type `logical`: an
    /// `Int` for `date` and `time-millis`, a `Long` for the others. Finer precision than the
    /// logical type's unit is truncated towards the past, as the generated code writes it;
    /// an error when `T` does not represent `logical` or the count overflows its type.
    ///
    /// ```
    /// use avdl2rs::chrono::{NaiveDate, NaiveDateTime};
    /// use avdl2rs::generic::GenericValue;
    /// use avdl2rs::schema::LogicalType;
    /// let day = NaiveDate::from_ymd_opt(1969, 12, 31).unwrap();
    /// assert_eq!(GenericValue::from_date_time(&day, LogicalType::Date)?, GenericValue::Int(-1));
    /// let noon = day.and_hms_opt(12, 0, 0).unwrap();
    /// let value = GenericValue::from_date_time(&noon, LogicalType::LocalTimestampMillis)?;
    /// assert_eq!(value, GenericValue::Long(-43_200_000));
    /// assert!(GenericValue::from_date_time(&day, LogicalType::TimestampMillis).is_err());
    /// # Ok::<(), avdl2rs::EncodeError>(())
    /// ```
    pub fn from_date_time<T: DateTimeValue>(
        value: &T,
        logical: LogicalType,
    ) -> Result<GenericValue, EncodeError> {
        let Some((count, _)) = T::conversions(logical) else {
            let message = format!(
                "{} is not a Rust type of the logical type {}",
                std::any::type_name::<T>(),
                logical.name()
            );
            return Err(EncodeError::custom(message));
        };
        let count = count(value)?;
        if !on_int(logical) {
            return Ok(GenericValue::Long(count));
        }
        i32::try_from(count).map(GenericValue::Int).map_err(|_| {
            EncodeError::out_of_range(logical.name(), format!("{count} is beyond int"))
        })
    }
}

impl GenericRecord {
    /// The field named `name` read as `T` by the date-time logical type its schema gives
    /// (the branch's, for a union such as `["null", {"type": "long", "logicalType":
    /// "timestamp-millis"}]`); `None` when there is no such field, the field (or the union's
    /// branch) has no logical type `T` represents, or its count is out of `T`'s range
    /// ([`GenericValue::as_date_time`]).
    ///
    /// ```
    /// use avdl2rs::chrono::{DateTime, NaiveDate, Utc};
    /// let schema = avdl2rs::generic::GenericSchema::new(r#"{"type":"record","name":"R",
    ///     "fields":[{"name":"day","type":{"type":"int","logicalType":"date"}},
    ///     {"name":"at","type":["null",{"type":"long","logicalType":"timestamp-millis"}]}]}"#)?;
    /// // day 2 (zig-zag 4), branch 1 (2), 1,500 milliseconds (zig-zag 3,000: b8 17).
    /// let value = schema.decode(&[4, 2, 0xb8, 0x17])?;
    /// let record = value.as_record().unwrap();
    /// assert_eq!(record.get_date_time::<NaiveDate>("day"), NaiveDate::from_ymd_opt(1970, 1, 3));
    /// let at = record.get_date_time::<DateTime<Utc>>("at").unwrap();
    /// assert_eq!(at.timestamp_millis(), 1_500);
    /// assert_eq!(record.get_date_time::<DateTime<Utc>>("day"), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get_date_time<T: DateTimeValue>(&self, name: &str) -> Option<T> {
        let (field, value) = self.field_named(name)?;
        let (schema, value) = match (&field.schema.kind, value) {
            (SchemaKind::Union(branches), GenericValue::Union(index, value)) => {
                (branches.get(*index as usize)?, &**value)
            }
            _ => (&field.schema, value),
        };
        value.as_date_time(schema.logical_type?)
    }
}

#[cfg(all(test, feature = "chrono", feature = "time"))]
mod tests {
    use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};
    use time::{Month, OffsetDateTime, PrimitiveDateTime};

    use super::*;
    use crate::generic::GenericSchema;

    fn chrono_date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    fn time_date(y: i32, m: u8, d: u8) -> time::Date {
        time::Date::from_calendar_date(y, Month::try_from(m).unwrap(), d).unwrap()
    }

    fn time_of_day(h: u8, m: u8, s: u8, nanos: u32) -> time::Time {
        time::Time::from_hms_nano(h, m, s, nanos).unwrap()
    }

    #[test]
    fn a_date_is_days_since_1970_01_01() {
        // 2000-01-01 is 30 years of 365 days and 7 leap days after the epoch.
        let cases = [
            (0, (1970, 1, 1)),
            (-1, (1969, 12, 31)),
            (30 * 365 + 7, (2000, 1, 1)),
        ];
        for (days, (y, m, d)) in cases {
            let value = GenericValue::Int(days);
            assert_eq!(
                value.as_date_time(LogicalType::Date),
                Some(chrono_date(y, m, d))
            );
            let expected = time_date(y, m as u8, d as u8);
            assert_eq!(value.as_date_time(LogicalType::Date), Some(expected));
            let back = GenericValue::from_date_time(&chrono_date(y, m, d), LogicalType::Date);
            assert_eq!(back.unwrap(), value);
            assert_eq!(
                GenericValue::from_date_time(&expected, LogicalType::Date).unwrap(),
                value
            );
        }
    }

    #[test]
    fn times_of_day_count_units_after_midnight_below_24_hours() {
        let last_micro = NaiveTime::from_hms_micro_opt(23, 59, 59, 999_999).unwrap();
        let value = GenericValue::Long(86_400_000_000 - 1);
        assert_eq!(
            value.as_date_time(LogicalType::TimeMicros),
            Some(last_micro)
        );
        assert_eq!(
            value.as_date_time(LogicalType::TimeMicros),
            Some(time_of_day(23, 59, 59, 999_999_000))
        );
        let millis = GenericValue::Int(45_296_789); // 12:34:56.789
        assert_eq!(
            millis.as_date_time(LogicalType::TimeMillis),
            Some(time_of_day(12, 34, 56, 789_000_000))
        );
        // Midnight of the next day, and before midnight, are no times of day.
        for count in [86_400_000, -1] {
            let value = GenericValue::Int(count);
            assert_eq!(
                value.as_date_time::<NaiveTime>(LogicalType::TimeMillis),
                None
            );
            assert_eq!(
                value.as_date_time::<time::Time>(LogicalType::TimeMillis),
                None
            );
        }
        // A time-micros is a long: an int is not one.
        let int = GenericValue::Int(1);
        assert_eq!(int.as_date_time::<NaiveTime>(LogicalType::TimeMicros), None);
        // Finer than the unit is truncated.
        let fine = NaiveTime::from_hms_nano_opt(0, 0, 1, 1_999_999).unwrap();
        let value = GenericValue::from_date_time(&fine, LogicalType::TimeMillis).unwrap();
        assert_eq!(value, GenericValue::Int(1_001));
    }

    #[test]
    fn timestamps_count_units_since_the_epoch_in_utc_and_local_ones_on_the_wall_clock() {
        // 2000-02-29T00:00:00Z: 11,016 days after the epoch.
        let millis = GenericValue::Long(11_016 * 86_400_000);
        let at = chrono_date(2000, 2, 29).and_hms_opt(0, 0, 0).unwrap();
        assert_eq!(
            millis.as_date_time(LogicalType::TimestampMillis),
            Some(at.and_utc())
        );
        assert_eq!(
            millis.as_date_time(LogicalType::TimestampMillis),
            Some(time_date(2000, 2, 29).midnight().assume_utc())
        );
        assert_eq!(
            millis.as_date_time(LogicalType::LocalTimestampMillis),
            Some(at)
        );
        assert_eq!(
            millis.as_date_time(LogicalType::LocalTimestampMillis),
            Some(time_date(2000, 2, 29).midnight())
        );
        let before = GenericValue::Long(-1);
        let nano_before = before.as_date_time::<DateTime<Utc>>(LogicalType::TimestampNanos);
        assert_eq!(
            nano_before.unwrap().to_rfc3339(),
            "1969-12-31T23:59:59.999999999+00:00"
        );
        let micro_before = before.as_date_time::<OffsetDateTime>(LogicalType::TimestampMicros);
        assert_eq!(
            micro_before,
            Some(
                time_date(1969, 12, 31)
                    .with_time(time_of_day(23, 59, 59, 999_999_000))
                    .assume_utc()
            )
        );
        let value = GenericValue::from_date_time(&at, LogicalType::LocalTimestampMicros);
        assert_eq!(value.unwrap(), GenericValue::Long(11_016 * 86_400_000_000));
    }

    #[test]
    fn counts_out_of_range_read_as_none_and_instants_beyond_a_long_do_not_write() {
        let far = GenericValue::Long(i64::MAX);
        assert_eq!(
            far.as_date_time::<DateTime<Utc>>(LogicalType::TimestampMicros),
            None
        );
        assert_eq!(
            far.as_date_time::<PrimitiveDateTime>(LogicalType::LocalTimestampMillis),
            None
        );
        let days = GenericValue::Int(i32::MIN);
        assert_eq!(days.as_date_time::<NaiveDate>(LogicalType::Date), None);
        assert_eq!(days.as_date_time::<time::Date>(LogicalType::Date), None);
        let error =
            GenericValue::from_date_time(&DateTime::<Utc>::MAX_UTC, LogicalType::TimestampNanos)
                .unwrap_err();
        assert!(error.to_string().contains("timestamp-nanos"), "{error}");
        let year_one = time_date(1, 1, 1).midnight().assume_utc();
        let error =
            GenericValue::from_date_time(&year_one, LogicalType::TimestampNanos).unwrap_err();
        assert!(error.to_string().contains("overflows"), "{error}");
    }

    #[test]
    fn a_type_reads_only_the_logical_types_it_represents() {
        let value = GenericValue::Long(0);
        assert_eq!(
            value.as_date_time::<NaiveDate>(LogicalType::TimestampMillis),
            None
        );
        assert_eq!(
            value.as_date_time::<NaiveDateTime>(LogicalType::TimestampMillis),
            None
        );
        assert_eq!(value.as_date_time::<DateTime<Utc>>(LogicalType::Uuid), None);
        let error = GenericValue::from_date_time(&chrono_date(2024, 1, 1), LogicalType::TimeMillis)
            .unwrap_err();
        assert!(error.to_string().contains("time-millis"), "{error}");
    }

    #[test]
    fn a_record_reads_its_fields_by_their_schemas_logical_types() {
        let schema = GenericSchema::new(
            r#"{"type":"record","name":"R","fields":[
                {"name":"day","type":{"type":"int","logicalType":"date"}},
                {"name":"plain","type":"long"},
                {"name":"at","type":["null",{"type":"long","logicalType":"timestamp-micros"}]}]}"#,
        )
        .unwrap();
        // day -1 (zig-zag 1), plain 0, branch 1 (2) and 1 microsecond (2), then the null branch.
        let value = schema.decode(&[1, 0, 2, 2]).unwrap();
        let record = value.as_record().unwrap();
        assert_eq!(record.get_date_time("day"), Some(chrono_date(1969, 12, 31)));
        assert_eq!(record.get_date_time::<NaiveDate>("plain"), None);
        assert_eq!(record.get_date_time::<NaiveDate>("missing"), None);
        let at = record.get_date_time::<OffsetDateTime>("at").unwrap();
        assert_eq!(
            at,
            time_date(1970, 1, 1)
                .with_time(time_of_day(0, 0, 0, 1_000))
                .assume_utc()
        );
        let null = schema.decode(&[1, 0, 0]).unwrap();
        let record = null.as_record().unwrap();
        assert_eq!(record.get_date_time::<OffsetDateTime>("at"), None);
    }
}
