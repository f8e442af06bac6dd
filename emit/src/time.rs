//! The date and time logical types ([`TimeKind`]) and the Rust types that hold them
//! ([`TimeCrate`]), shared by code generation and the derive.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::LogicalType;

/// The Rust types of the date and time logical types: the generator's option and the crate
/// of a [`crate::Logical::Time`] value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum TimeCrate {
    /// `chrono` types, re-exported by the runtime as `avdl2rs::chrono` (the default).
    #[default]
    Chrono,
    /// `time` crate types, re-exported by the runtime as `avdl2rs::time` (its feature `time`).
    Time,
    /// The base `i32`/`i64` values, as written: no logical type in the Rust code.
    Raw,
}

impl TimeCrate {
    /// The runtime's `__private` module with this crate's encode, decode and serde helpers.
    ///
    /// # Panics
    ///
    /// For [`TimeCrate::Raw`], whose values are plain integers: a [`crate::Logical::Time`]
    /// never holds it (code generation writes the base type instead).
    pub fn runtime_module(self) -> &'static str {
        match self {
            TimeCrate::Chrono => "logical_chrono",
            TimeCrate::Time => "logical_time",
            TimeCrate::Raw => panic!("raw date and time values have no logical codec"),
        }
    }

    /// The name of the Rust type that holds `kind` in this crate, e.g. `NaiveDate`, or the
    /// base integer type for [`TimeCrate::Raw`]. The derive matches field types by it.
    pub fn type_name(self, kind: TimeKind) -> &'static str {
        use TimeKind as K;
        let (date, time, local, instant) = match self {
            TimeCrate::Chrono => ("NaiveDate", "NaiveTime", "NaiveDateTime", "DateTime"),
            TimeCrate::Time => ("Date", "Time", "PrimitiveDateTime", "OffsetDateTime"),
            TimeCrate::Raw => return if kind.base() == "int" { "i32" } else { "i64" },
        };
        match kind {
            K::Date => date,
            K::TimeMillis | K::TimeMicros => time,
            K::LocalTimestampMillis | K::LocalTimestampMicros | K::LocalTimestampNanos => local,
            K::TimestampMillis | K::TimestampMicros | K::TimestampNanos => instant,
        }
    }

    /// The Rust type that holds `kind`, as generated code writes it: through the runtime at
    /// `runtime` (e.g. `::avdl2rs`), which re-exports both crates.
    pub fn rust_type(self, kind: TimeKind, runtime: &syn::Path) -> TokenStream {
        let name = format_ident!("{}", self.type_name(kind));
        match self {
            TimeCrate::Chrono if name == "DateTime" => {
                quote!(#runtime::chrono::DateTime<#runtime::chrono::Utc>)
            }
            TimeCrate::Chrono => quote!(#runtime::chrono::#name),
            TimeCrate::Time => quote!(#runtime::time::#name),
            TimeCrate::Raw => quote!(#name),
        }
    }
}

/// The date and time logical types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeKind {
    /// `date` on `int`: days since 1970-01-01.
    Date,
    /// `time-millis` on `int`.
    TimeMillis,
    /// `time-micros` on `long`.
    TimeMicros,
    /// `timestamp-millis` on `long`.
    TimestampMillis,
    /// `timestamp-micros` on `long`.
    TimestampMicros,
    /// `timestamp-nanos` on `long`.
    TimestampNanos,
    /// `local-timestamp-millis` on `long`.
    LocalTimestampMillis,
    /// `local-timestamp-micros` on `long`.
    LocalTimestampMicros,
    /// `local-timestamp-nanos` on `long`.
    LocalTimestampNanos,
}

impl TimeKind {
    /// Every date and time logical type.
    pub const ALL: [TimeKind; 9] = [
        TimeKind::Date,
        TimeKind::TimeMillis,
        TimeKind::TimeMicros,
        TimeKind::TimestampMillis,
        TimeKind::TimestampMicros,
        TimeKind::TimestampNanos,
        TimeKind::LocalTimestampMillis,
        TimeKind::LocalTimestampMicros,
        TimeKind::LocalTimestampNanos,
    ];

    /// The logical type of the schema model.
    pub fn logical_type(self) -> LogicalType {
        match self {
            TimeKind::Date => LogicalType::Date,
            TimeKind::TimeMillis => LogicalType::TimeMillis,
            TimeKind::TimeMicros => LogicalType::TimeMicros,
            TimeKind::TimestampMillis => LogicalType::TimestampMillis,
            TimeKind::TimestampMicros => LogicalType::TimestampMicros,
            TimeKind::TimestampNanos => LogicalType::TimestampNanos,
            TimeKind::LocalTimestampMillis => LogicalType::LocalTimestampMillis,
            TimeKind::LocalTimestampMicros => LogicalType::LocalTimestampMicros,
            TimeKind::LocalTimestampNanos => LogicalType::LocalTimestampNanos,
        }
    }

    /// The date or time kind of `logical`, if it is one.
    pub fn of(logical: LogicalType) -> Option<TimeKind> {
        TimeKind::ALL
            .into_iter()
            .find(|kind| kind.logical_type() == logical)
    }

    /// The `logicalType` spelling, e.g. `timestamp-millis` (the schema model's table).
    pub fn name(self) -> &'static str {
        self.logical_type().name()
    }

    /// The logical type spelled `name`, if it is a date or time type.
    pub fn from_name(name: &str) -> Option<TimeKind> {
        TimeKind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// The suffix of the runtime's helpers for the type, e.g. `timestamp_millis`.
    pub fn helper_suffix(self) -> String {
        self.name().replace('-', "_")
    }

    /// The Avro base type: `int` for `date` and `time-millis`, else `long`.
    pub fn base(self) -> &'static str {
        match self {
            TimeKind::Date | TimeKind::TimeMillis => "int",
            _ => "long",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{TimeCrate, TimeKind};

    #[test]
    fn time_kinds_are_named_as_in_the_specification() {
        let names: Vec<&str> = TimeKind::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(
            names,
            [
                "date",
                "time-millis",
                "time-micros",
                "timestamp-millis",
                "timestamp-micros",
                "timestamp-nanos",
                "local-timestamp-millis",
                "local-timestamp-micros",
                "local-timestamp-nanos",
            ]
        );
        for kind in TimeKind::ALL {
            assert_eq!(TimeKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(TimeKind::from_name("uuid"), None);
        // The base types of the specification's "Logical Types" section.
        assert_eq!(TimeKind::Date.base(), "int");
        assert_eq!(TimeKind::TimeMillis.base(), "int");
        assert_eq!(TimeKind::TimeMicros.base(), "long");
        assert_eq!(
            TimeKind::LocalTimestampNanos.helper_suffix(),
            "local_timestamp_nanos"
        );
    }

    #[test]
    fn each_time_crate_names_the_type_that_holds_each_kind() {
        let rt: syn::Path = syn::parse_quote!(::avdl2rs);
        let written = |krate: TimeCrate, kind| krate.rust_type(kind, &rt).to_string();
        assert_eq!(
            written(TimeCrate::Chrono, TimeKind::TimestampMillis),
            ":: avdl2rs :: chrono :: DateTime < :: avdl2rs :: chrono :: Utc >"
        );
        assert_eq!(
            written(TimeCrate::Chrono, TimeKind::LocalTimestampNanos),
            ":: avdl2rs :: chrono :: NaiveDateTime"
        );
        assert_eq!(
            written(TimeCrate::Time, TimeKind::TimeMicros),
            ":: avdl2rs :: time :: Time"
        );
        assert_eq!(
            written(TimeCrate::Time, TimeKind::TimestampNanos),
            ":: avdl2rs :: time :: OffsetDateTime"
        );
        assert_eq!(written(TimeCrate::Raw, TimeKind::Date), "i32");
        assert_eq!(written(TimeCrate::Raw, TimeKind::TimeMicros), "i64");
    }
}
