//! Codec definitions shared by the modules of each date-time crate: a module supplies how
//! its types split into (and are built from) days, or seconds and nanoseconds, and
//! [`date_time_codecs`] writes, for every logical type, the encode/decode pair with its
//! range checks and a serde module.

/// Defines all date, time and timestamp codecs for one date-time crate. The calling module
/// provides `days`/`from_days` (dates), `time_parts`/`from_time_parts` (times of day),
/// `instant_parts`/`instant` (timestamps) and `local_parts`/`local` (local timestamps),
/// each between its type and `(seconds, nanoseconds)` (or days).
macro_rules! date_time_codecs {
    (date: $date:ty, time: $time:ty, instant: $instant:ty, local: $local:ty) => {
        use super::units::{unrepresentable, Unit};
        logical_codec!(
            encode_date,
            decode_date,
            serde_date,
            date_count,
            date_from_count,
            date_from_default,
            $date,
            "date",
            read_int,
            i32,
            |value| Ok(i64::from(days(value))),
            |count, offset| i32::try_from(count)
                .ok()
                .and_then(from_days)
                .ok_or_else(|| unrepresentable("date", count, offset))
        );
        time_of_day_codec!(
            encode_time_millis,
            decode_time_millis,
            serde_time_millis,
            time_millis_count,
            time_millis_from_count,
            time_millis_from_default,
            $time,
            Unit::Millis,
            "time-millis",
            read_int,
            i32
        );
        time_of_day_codec!(
            encode_time_micros,
            decode_time_micros,
            serde_time_micros,
            time_micros_count,
            time_micros_from_count,
            time_micros_from_default,
            $time,
            Unit::Micros,
            "time-micros",
            read_long,
            i64
        );
        timestamp_codec!(
            encode_timestamp_millis,
            decode_timestamp_millis,
            serde_timestamp_millis,
            timestamp_millis_count,
            timestamp_millis_from_count,
            timestamp_millis_from_default,
            $instant,
            Unit::Millis,
            "timestamp-millis",
            instant_parts,
            instant
        );
        timestamp_codec!(
            encode_timestamp_micros,
            decode_timestamp_micros,
            serde_timestamp_micros,
            timestamp_micros_count,
            timestamp_micros_from_count,
            timestamp_micros_from_default,
            $instant,
            Unit::Micros,
            "timestamp-micros",
            instant_parts,
            instant
        );
        timestamp_codec!(
            encode_timestamp_nanos,
            decode_timestamp_nanos,
            serde_timestamp_nanos,
            timestamp_nanos_count,
            timestamp_nanos_from_count,
            timestamp_nanos_from_default,
            $instant,
            Unit::Nanos,
            "timestamp-nanos",
            instant_parts,
            instant
        );
        timestamp_codec!(
            encode_local_timestamp_millis,
            decode_local_timestamp_millis,
            serde_local_timestamp_millis,
            local_timestamp_millis_count,
            local_timestamp_millis_from_count,
            local_timestamp_millis_from_default,
            $local,
            Unit::Millis,
            "local-timestamp-millis",
            local_parts,
            local
        );
        timestamp_codec!(
            encode_local_timestamp_micros,
            decode_local_timestamp_micros,
            serde_local_timestamp_micros,
            local_timestamp_micros_count,
            local_timestamp_micros_from_count,
            local_timestamp_micros_from_default,
            $local,
            Unit::Micros,
            "local-timestamp-micros",
            local_parts,
            local
        );
        timestamp_codec!(
            encode_local_timestamp_nanos,
            decode_local_timestamp_nanos,
            serde_local_timestamp_nanos,
            local_timestamp_nanos_count,
            local_timestamp_nanos_from_count,
            local_timestamp_nanos_from_default,
            $local,
            Unit::Nanos,
            "local-timestamp-nanos",
            local_parts,
            local
        );
    };
}

/// A time-of-day logical type: [`logical_codec`] with the conversions through
/// `time_parts`/`from_time_parts` and the 24-hour range check.
macro_rules! time_of_day_codec {
    ($encode:ident, $decode:ident, $serde:ident, $count:ident, $from_count:ident, $default:ident, $ty:ty, $unit:expr, $name:literal, $read:ident, $int:ty) => {
        logical_codec!(
            $encode,
            $decode,
            $serde,
            $count,
            $from_count,
            $default,
            $ty,
            $name,
            $read,
            $int,
            |value| {
                let (seconds, nanos) = time_parts(value);
                $unit.time_of_day(seconds, nanos, $name)
            },
            |count, offset| {
                let (seconds, nanos) = $unit.split_time_of_day(count, $name, offset)?;
                from_time_parts(seconds, nanos).ok_or_else(|| unrepresentable($name, count, offset))
            }
        );
    };
}

/// A timestamp logical type: [`logical_codec`] with the conversions through `$parts` (to
/// seconds and nanoseconds since the epoch) and `$from_parts`.
macro_rules! timestamp_codec {
    ($encode:ident, $decode:ident, $serde:ident, $count:ident, $from_count:ident, $default:ident, $ty:ty, $unit:expr, $name:literal, $parts:ident, $from_parts:ident) => {
        logical_codec!(
            $encode,
            $decode,
            $serde,
            $count,
            $from_count,
            $default,
            $ty,
            $name,
            read_long,
            i64,
            |value| {
                let (seconds, nanos) = $parts(value);
                $unit
                    .count(seconds, nanos)
                    .ok_or_else(|| super::units::timestamp_overflow($name))
            },
            |count, offset| {
                let (seconds, nanos) = $unit.split(count);
                $from_parts(seconds, nanos).ok_or_else(|| unrepresentable($name, count, offset))
            }
        );
    };
}

/// Defines, for a logical type `$name` on an Avro `int` or `long` held in Rust as `$ty`:
/// the count conversions `$count` (`$to`) and `$from_count` (`$from`), `$default` (the value
/// of a count checked when the code was generated, for the defaults of fields), the codec pair
/// `$encode`/`$decode`, and the serde module `$serde` (with an `option` submodule), which
/// gives a field the shape `apache_avro::to_value`/`from_value` use: the count as `$int`.
macro_rules! logical_codec {
    ($encode:ident, $decode:ident, $serde:ident, $count:ident, $from_count:ident, $default:ident, $ty:ty, $name:literal, $read:ident, $int:ty, $to:expr, $from:expr) => {
        /// The Avro count of a value, or why it has none (also for generic values).
        #[inline]
        pub(crate) fn $count(value: &$ty) -> Result<i64, $crate::error::EncodeError> {
            let to: fn(&$ty) -> Result<i64, $crate::error::EncodeError> = $to;
            to(value)
        }

        /// The value of an Avro count read at byte `offset`, or why there is none (also for
        /// generic values).
        #[inline]
        pub(crate) fn $from_count(count: i64, offset: usize) -> Result<$ty, $crate::error::DecodeError> {
            let from: fn(i64, usize) -> Result<$ty, $crate::error::DecodeError> = $from;
            from(count, offset)
        }

        /// The value of a count the generator checked, when it wrote a field's default, to be
        /// one the Rust type holds: generated code builds the default from its count without
        /// an error to handle. Any other count gives the Unix epoch (midnight for a time of
        /// day), which no generated code asks for.
        #[doc(hidden)]
        #[inline]
        pub fn $default(count: i64) -> $ty {
            $from_count(count, 0).unwrap_or_else(|_| super::units::UnixEpoch::unix_epoch())
        }

        #[doc = concat!("Writes a `", $name, "`; finer precision is truncated towards the past, a value out of range is an error.")]
        #[inline]
        pub fn $encode(value: &$ty, out: &mut Vec<u8>) -> Result<(), $crate::error::EncodeError> {
            // An `int` count is in `i32` range, and then the two encodings are the same.
            $crate::codec::write_long(out, $count(value)?);
            Ok(())
        }

        #[doc = concat!("Reads a `", $name, "`; a count the Rust type cannot hold is an error.")]
        #[inline]
        pub fn $decode(
            reader: &mut $crate::codec::Reader<'_>,
        ) -> Result<$ty, $crate::error::DecodeError> {
            let start = reader.position();
            let count = i64::from(reader.$read()?);
            $from_count(count, start)
        }

        #[doc = concat!("`#[serde(with = \"...\")]` for a `", $name, "` field: ISO 8601 (RFC 3339) text in human-readable formats such as JSON, else the Avro count as `", stringify!($int), "`, as `apache_avro::to_value` and `from_value` expect. Use `", stringify!($serde), "::option` for an optional field.")]
        pub mod $serde {
            use super::*;
            use $crate::__private::serde::{de::Error as _, ser::Error as _, Deserialize, Deserializer, Serialize, Serializer};
            use $crate::__private::text_form;

            /// The count, in the Avro type's width.
            fn count(value: &$ty) -> Result<$int, String> {
                let count = $count(value).map_err(|e| e.to_string())?;
                <$int>::try_from(count).map_err(|e| e.to_string())
            }

            /// Serializes the value as text or as its count.
            pub fn serialize<S: Serializer>(value: &$ty, serializer: S) -> Result<S::Ok, S::Error> {
                if serializer.is_human_readable() {
                    return serializer.collect_str(&text_form::Shown(value));
                }
                count(value).map_err(S::Error::custom)?.serialize(serializer)
            }

            /// Deserializes a value from its text or its count.
            pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<$ty, D::Error> {
                if deserializer.is_human_readable() {
                    return text_form::deserialize(deserializer, $name);
                }
                let count = <$int>::deserialize(deserializer)?;
                $from_count(count.into(), 0).map_err(|e| D::Error::custom(e.kind()))
            }

            /// The same for an `Option` of the value (a union with `null`).
            pub mod option {
                use super::*;

                /// The value in the form of the enclosing module.
                struct Field<T>(T);

                impl Serialize for Field<&$ty> {
                    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                        super::serialize(self.0, serializer)
                    }
                }

                impl<'de> Deserialize<'de> for Field<$ty> {
                    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                        super::deserialize(deserializer).map(Field)
                    }
                }

                /// Serializes `None` as none and a value as text or its count.
                pub fn serialize<S: Serializer>(value: &Option<$ty>, serializer: S) -> Result<S::Ok, S::Error> {
                    value.as_ref().map(Field).serialize(serializer)
                }

                /// Deserializes none as `None` and text or a count as its value.
                pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<$ty>, D::Error> {
                    Ok(Option::<Field<$ty>>::deserialize(deserializer)?.map(|field| field.0))
                }
            }
        }
    };
}
