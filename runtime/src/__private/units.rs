//! Unit arithmetic shared by the date and time codecs of every date-time crate: counts of
//! milliseconds, microseconds or nanoseconds to and from whole seconds plus nanoseconds,
//! with every overflow an error.

use crate::error::{DecodeError, EncodeError};

/// The value of a date or time type at a count of 0: 1970-01-01, its midnight, or the Unix
/// epoch. Every type holds it.
pub(crate) trait UnixEpoch {
    fn unix_epoch() -> Self;
}

/// Seconds in a day.
const SECONDS_PER_DAY: i64 = 86_400;

/// The unit of a time or timestamp logical type.
#[derive(Clone, Copy)]
pub(crate) enum Unit {
    /// `*-millis`
    Millis,
    /// `*-micros`
    Micros,
    /// `*-nanos`
    Nanos,
}

impl Unit {
    /// Units in one second.
    fn per_second(self) -> i64 {
        match self {
            Unit::Millis => 1_000,
            Unit::Micros => 1_000_000,
            Unit::Nanos => 1_000_000_000,
        }
    }

    /// Nanoseconds in one unit.
    fn nanos(self) -> u32 {
        match self {
            Unit::Millis => 1_000_000,
            Unit::Micros => 1_000,
            Unit::Nanos => 1,
        }
    }

    /// The count of units in `seconds` plus `subsec_nanos` (below one second), truncated
    /// towards the past; `None` on overflow of `i64`.
    pub(crate) fn count(self, seconds: i64, subsec_nanos: u32) -> Option<i64> {
        seconds
            .checked_mul(self.per_second())?
            .checked_add(i64::from(subsec_nanos / self.nanos()))
    }

    /// Splits a count of units into whole seconds (rounded towards the past) and
    /// nanoseconds below one second.
    pub(crate) fn split(self, count: i64) -> (i64, u32) {
        let seconds = count.div_euclid(self.per_second());
        // rem_euclid is in 0..per_second, so the product is below 10^9.
        let nanos = count.rem_euclid(self.per_second()) as u32 * self.nanos();
        (seconds, nanos)
    }

    /// The count of units since midnight for a time of day, or an error when it is not
    /// below 24 hours (a leap second, shown as nanoseconds ≥ 10^9, is one).
    pub(crate) fn time_of_day(
        self,
        seconds: u32,
        nanos: u32,
        logical_type: &'static str,
    ) -> Result<i64, EncodeError> {
        if i64::from(seconds) >= SECONDS_PER_DAY || nanos >= 1_000_000_000 {
            return Err(EncodeError::out_of_range(
                logical_type,
                format!("time of day {seconds}s + {nanos}ns is not below 24 hours"),
            ));
        }
        Ok(self.count(i64::from(seconds), nanos).unwrap_or(i64::MAX))
    }

    /// Splits a time of day read at byte `offset` into seconds since midnight and
    /// nanoseconds, or an error when it is negative or not below 24 hours.
    pub(crate) fn split_time_of_day(
        self,
        count: i64,
        logical_type: &'static str,
        offset: usize,
    ) -> Result<(u32, u32), DecodeError> {
        if !(0..SECONDS_PER_DAY * self.per_second()).contains(&count) {
            return Err(DecodeError::invalid_logical(
                logical_type,
                format!("{count} is not a time of day (0 to below 24 hours)"),
                offset,
            ));
        }
        let (seconds, nanos) = self.split(count);
        Ok((seconds as u32, nanos))
    }
}

/// The error for a timestamp that does not fit an `i64` count of its unit.
#[cold]
pub(crate) fn timestamp_overflow(logical_type: &'static str) -> EncodeError {
    EncodeError::out_of_range(logical_type, "the instant overflows a 64-bit count")
}

/// The error for a decoded count the date-time type cannot represent.
#[cold]
pub(crate) fn unrepresentable(
    logical_type: &'static str,
    count: i64,
    offset: usize,
) -> DecodeError {
    DecodeError::invalid_logical(
        logical_type,
        format!("{count} is outside the range of the Rust type"),
        offset,
    )
}
