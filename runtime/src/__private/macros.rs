//! Codec definitions shared by the modules of each date-time crate: a module supplies how
//! its types split into (and are built from) days, or seconds and nanoseconds, and
//! [`date_time_codecs`] writes every encode/decode pair with its range checks.

/// Defines all date, time and timestamp codecs for one date-time crate. The calling module
/// provides `days`/`from_days` (dates), `time_parts`/`from_time_parts` (times of day),
/// `instant_parts`/`instant` (timestamps) and `local_parts`/`local` (local timestamps),
/// each between its type and `(seconds, nanoseconds)` (or days).
macro_rules! date_time_codecs {
    (date: $date:ty, time: $time:ty, instant: $instant:ty, local: $local:ty) => {
        use super::units::Unit;
        date_codec!($date, days, from_days);
        time_of_day_codec!(
            encode_time_millis,
            decode_time_millis,
            $time,
            Unit::Millis,
            "time-millis",
            read_int,
            time_parts,
            from_time_parts
        );
        time_of_day_codec!(
            encode_time_micros,
            decode_time_micros,
            $time,
            Unit::Micros,
            "time-micros",
            read_long,
            time_parts,
            from_time_parts
        );
        timestamp_codec!(
            encode_timestamp_millis,
            decode_timestamp_millis,
            $instant,
            Unit::Millis,
            "timestamp-millis",
            instant_parts,
            instant
        );
        timestamp_codec!(
            encode_timestamp_micros,
            decode_timestamp_micros,
            $instant,
            Unit::Micros,
            "timestamp-micros",
            instant_parts,
            instant
        );
        timestamp_codec!(
            encode_timestamp_nanos,
            decode_timestamp_nanos,
            $instant,
            Unit::Nanos,
            "timestamp-nanos",
            instant_parts,
            instant
        );
        timestamp_codec!(
            encode_local_timestamp_millis,
            decode_local_timestamp_millis,
            $local,
            Unit::Millis,
            "local-timestamp-millis",
            local_parts,
            local
        );
        timestamp_codec!(
            encode_local_timestamp_micros,
            decode_local_timestamp_micros,
            $local,
            Unit::Micros,
            "local-timestamp-micros",
            local_parts,
            local
        );
        timestamp_codec!(
            encode_local_timestamp_nanos,
            decode_local_timestamp_nanos,
            $local,
            Unit::Nanos,
            "local-timestamp-nanos",
            local_parts,
            local
        );
    };
}

/// Defines `encode_date`/`decode_date` for `$ty`, given `$days(&$ty) -> i32` (days since
/// 1970-01-01; every date-time crate's range fits `i32`) and `$from_days(i32) -> Option<$ty>`.
macro_rules! date_codec {
    ($ty:ty, $days:path, $from_days:path) => {
        /// Writes a `date`: days since 1970-01-01.
        #[inline]
        pub fn encode_date(
            value: &$ty,
            out: &mut Vec<u8>,
        ) -> Result<(), $crate::error::EncodeError> {
            $crate::codec::write_int(out, $days(value));
            Ok(())
        }

        /// Reads a `date`; an error when the Rust type cannot hold it.
        #[inline]
        pub fn decode_date(
            reader: &mut $crate::codec::Reader<'_>,
        ) -> Result<$ty, $crate::error::DecodeError> {
            let start = reader.position();
            let days = reader.read_int()?;
            $from_days(days)
                .ok_or_else(|| super::units::unrepresentable("date", days.into(), start))
        }
    };
}

/// Defines the encode/decode pair of a time-of-day logical type (`time-millis`,
/// `time-micros`) for `$ty`, given `$parts(&$ty) -> (seconds since midnight, nanoseconds)`
/// and `$from_parts(seconds, nanoseconds) -> Option<$ty>`.
macro_rules! time_of_day_codec {
    ($encode:ident, $decode:ident, $ty:ty, $unit:expr, $name:literal, $read:ident, $parts:path, $from_parts:path) => {
        #[doc = concat!("Writes a `", $name, "`, truncating finer precision; an error at 24 hours or more.")]
        #[inline]
        pub fn $encode(value: &$ty, out: &mut Vec<u8>) -> Result<(), $crate::error::EncodeError> {
            let (seconds, nanos) = $parts(value);
            // Below one day in the unit, so a `time-millis` count fits its `int`.
            $crate::codec::write_long(out, $unit.time_of_day(seconds, nanos, $name)?);
            Ok(())
        }

        #[doc = concat!("Reads a `", $name, "`; an error outside 0 to below 24 hours.")]
        #[inline]
        pub fn $decode(
            reader: &mut $crate::codec::Reader<'_>,
        ) -> Result<$ty, $crate::error::DecodeError> {
            let start = reader.position();
            let count = i64::from(reader.$read()?);
            let (seconds, nanos) = $unit.split_time_of_day(count, $name, start)?;
            $from_parts(seconds, nanos)
                .ok_or_else(|| super::units::unrepresentable($name, count, start))
        }
    };
}

/// Defines the encode/decode pair of a timestamp logical type for `$ty`, given
/// `$parts(&$ty) -> (seconds since the epoch, nanoseconds)` and
/// `$from_parts(seconds, nanoseconds) -> Option<$ty>`.
macro_rules! timestamp_codec {
    ($encode:ident, $decode:ident, $ty:ty, $unit:expr, $name:literal, $parts:path, $from_parts:path) => {
        #[doc = concat!("Writes a `", $name, "`, truncating finer precision towards the past.")]
        #[inline]
        pub fn $encode(value: &$ty, out: &mut Vec<u8>) -> Result<(), $crate::error::EncodeError> {
            let (seconds, nanos) = $parts(value);
            let count = $unit
                .count(seconds, nanos)
                .ok_or_else(|| super::units::timestamp_overflow($name))?;
            $crate::codec::write_long(out, count);
            Ok(())
        }

        #[doc = concat!("Reads a `", $name, "`.")]
        #[inline]
        pub fn $decode(
            reader: &mut $crate::codec::Reader<'_>,
        ) -> Result<$ty, $crate::error::DecodeError> {
            let start = reader.position();
            let count = reader.read_long()?;
            let (seconds, nanos) = $unit.split(count);
            $from_parts(seconds, nanos)
                .ok_or_else(|| super::units::unrepresentable($name, count, start))
        }
    };
}
