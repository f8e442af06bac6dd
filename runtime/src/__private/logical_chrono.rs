//! Date and time logical types as `chrono` values (see the parent module's list).

use std::fmt;

use chrono::{
    DateTime, Datelike, NaiveDate, NaiveDateTime, NaiveTime, SecondsFormat, Timelike, Utc,
};

use super::text_form::TextForm;
use super::units::UnixEpoch;

/// chrono's day number (counted from 0001-01-01 as day 1) of 1970-01-01.
const UNIX_EPOCH_DAYS_FROM_CE: i32 = 719_163;

/// Days since 1970-01-01 of a date; chrono's dates span about ±262,000 years, so it fits.
fn days(value: &NaiveDate) -> i32 {
    value.num_days_from_ce() - UNIX_EPOCH_DAYS_FROM_CE
}

/// The date `days` after 1970-01-01.
fn from_days(days: i32) -> Option<NaiveDate> {
    NaiveDate::from_num_days_from_ce_opt(days.checked_add(UNIX_EPOCH_DAYS_FROM_CE)?)
}

/// Seconds since midnight and nanoseconds (≥ 10^9 in a leap second) of a time of day.
fn time_parts(value: &NaiveTime) -> (u32, u32) {
    (value.num_seconds_from_midnight(), value.nanosecond())
}

/// Seconds since the epoch and nanoseconds of an instant.
fn instant_parts(value: &DateTime<Utc>) -> (i64, u32) {
    (value.timestamp(), value.timestamp_subsec_nanos())
}

/// The instant at `seconds` and `nanos` after the epoch.
fn instant(seconds: i64, nanos: u32) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp(seconds, nanos)
}

/// Seconds and nanoseconds of a wall-clock time, counted as if it were UTC.
fn local_parts(value: &NaiveDateTime) -> (i64, u32) {
    instant_parts(&value.and_utc())
}

/// The wall-clock time at `seconds` and `nanos` after 1970-01-01T00:00.
fn local(seconds: i64, nanos: u32) -> Option<NaiveDateTime> {
    instant(seconds, nanos).map(|t| t.naive_utc())
}

/// The time of day `seconds` (below 86,400) and `nanos` after midnight.
fn from_time_parts(seconds: u32, nanos: u32) -> Option<NaiveTime> {
    NaiveTime::from_num_seconds_from_midnight_opt(seconds, nanos)
}

impl TextForm for NaiveDate {
    /// `2024-02-29`.
    fn write_text(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }

    fn from_text(text: &str) -> Option<Self> {
        text.parse().ok()
    }
}

impl TextForm for NaiveTime {
    /// `13:45:00.25`: fractional seconds only when there are any.
    fn write_text(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }

    fn from_text(text: &str) -> Option<Self> {
        text.parse().ok()
    }
}

impl TextForm for NaiveDateTime {
    /// `2024-02-29T13:45:00.25`, ISO 8601 without an offset.
    fn write_text(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.format("%Y-%m-%dT%H:%M:%S%.f"))
    }

    fn from_text(text: &str) -> Option<Self> {
        text.parse().ok()
    }
}

impl TextForm for DateTime<Utc> {
    /// `2024-02-29T13:45:00.250Z`, RFC 3339 in UTC.
    fn write_text(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_rfc3339_opts(SecondsFormat::AutoSi, true))
    }

    /// Any RFC 3339 offset, converted to UTC.
    fn from_text(text: &str) -> Option<Self> {
        DateTime::parse_from_rfc3339(text)
            .ok()
            .map(|t| t.with_timezone(&Utc))
    }
}

/// chrono's `Default` of each type is its value at the Unix epoch.
macro_rules! unix_epoch_is_default {
    ($($ty:ty),*) => {$(
        impl UnixEpoch for $ty {
            fn unix_epoch() -> Self {
                Self::default()
            }
        }
    )*};
}

unix_epoch_is_default!(NaiveDate, NaiveTime, DateTime<Utc>, NaiveDateTime);

date_time_codecs!(date: NaiveDate, time: NaiveTime, instant: DateTime<Utc>, local: NaiveDateTime);
