//! Date and time logical types as `time` crate values (see the parent module's list).

use std::fmt;

use time::format_description::well_known::{Iso8601, Rfc3339};
use time::{Date, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};

use super::text_form::TextForm;
use super::units::UnixEpoch;

/// The Julian day number of 1970-01-01.
const UNIX_EPOCH_JULIAN_DAY: i32 = 2_440_588;

/// Days since 1970-01-01 of a date; `time` dates span at most ±999,999 years, so it fits.
fn days(value: &Date) -> i32 {
    value.to_julian_day() - UNIX_EPOCH_JULIAN_DAY
}

/// The date `days` after 1970-01-01.
fn from_days(days: i32) -> Option<Date> {
    Date::from_julian_day(days.checked_add(UNIX_EPOCH_JULIAN_DAY)?).ok()
}

/// Seconds since midnight and nanoseconds of a time of day.
fn time_parts(value: &Time) -> (u32, u32) {
    let (hours, minutes, seconds, nanos) = value.as_hms_nano();
    let seconds = u32::from(hours) * 3600 + u32::from(minutes) * 60 + u32::from(seconds);
    (seconds, nanos)
}

/// The time of day `seconds` (below 86,400) and `nanos` after midnight.
fn from_time_parts(seconds: u32, nanos: u32) -> Option<Time> {
    let [hours, minutes, seconds] =
        [seconds / 3600, seconds / 60 % 60, seconds % 60].map(|part| u8::try_from(part).ok());
    Time::from_hms_nano(hours?, minutes?, seconds?, nanos).ok()
}

/// Seconds since the epoch and nanoseconds of an instant.
fn instant_parts(value: &OffsetDateTime) -> (i64, u32) {
    (value.unix_timestamp(), value.nanosecond())
}

/// The instant (in UTC) at `seconds` and `nanos` after the epoch.
fn instant(seconds: i64, nanos: u32) -> Option<OffsetDateTime> {
    OffsetDateTime::from_unix_timestamp(seconds)
        .ok()?
        .checked_add(time::Duration::nanoseconds(nanos.into()))
}

/// Seconds and nanoseconds of a wall-clock time, counted as if it were UTC.
fn local_parts(value: &PrimitiveDateTime) -> (i64, u32) {
    instant_parts(&value.assume_offset(UtcOffset::UTC))
}

/// The wall-clock time at `seconds` and `nanos` after 1970-01-01T00:00.
fn local(seconds: i64, nanos: u32) -> Option<PrimitiveDateTime> {
    instant(seconds, nanos).map(|t| PrimitiveDateTime::new(t.date(), t.time()))
}

/// Writes the text the `time` crate formatted.
fn write_formatted(
    f: &mut fmt::Formatter<'_>,
    formatted: Result<String, time::error::Format>,
) -> fmt::Result {
    f.write_str(&formatted.map_err(|_| fmt::Error)?)
}

impl TextForm for Date {
    /// `2024-02-29`.
    fn write_text(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_formatted(f, self.format(&Iso8601::DATE))
    }

    fn from_text(text: &str) -> Option<Self> {
        Date::parse(text, &Iso8601::DATE).ok()
    }
}

impl TextForm for Time {
    /// `13:45:00.250000000`.
    fn write_text(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_formatted(f, self.format(&Iso8601::TIME))
    }

    fn from_text(text: &str) -> Option<Self> {
        Time::parse(text, &Iso8601::TIME).ok()
    }
}

impl TextForm for PrimitiveDateTime {
    /// `2024-02-29T13:45:00.250000000`, ISO 8601 without an offset.
    fn write_text(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_formatted(f, self.format(&Iso8601::DATE_TIME))
    }

    fn from_text(text: &str) -> Option<Self> {
        PrimitiveDateTime::parse(text, &Iso8601::DATE_TIME).ok()
    }
}

impl TextForm for OffsetDateTime {
    /// `2024-02-29T13:45:00.25Z`, RFC 3339 in the value's offset.
    fn write_text(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_formatted(f, self.format(&Rfc3339))
    }

    /// Any RFC 3339 offset, converted to UTC as decoding gives.
    fn from_text(text: &str) -> Option<Self> {
        OffsetDateTime::parse(text, &Rfc3339)
            .ok()
            .map(|t| t.to_offset(UtcOffset::UTC))
    }
}

impl UnixEpoch for Date {
    fn unix_epoch() -> Self {
        OffsetDateTime::UNIX_EPOCH.date()
    }
}

impl UnixEpoch for Time {
    fn unix_epoch() -> Self {
        Time::MIDNIGHT
    }
}

impl UnixEpoch for OffsetDateTime {
    fn unix_epoch() -> Self {
        OffsetDateTime::UNIX_EPOCH
    }
}

impl UnixEpoch for PrimitiveDateTime {
    fn unix_epoch() -> Self {
        OffsetDateTime::UNIX_EPOCH.date().midnight()
    }
}

date_time_codecs!(date: Date, time: Time, instant: OffsetDateTime, local: PrimitiveDateTime);
