//! Recognising `logicalType` attributes (Avro specification, "Logical Types").
//!
//! A valid logical type is taken out of the properties into [`LogicalType`]; an unknown or
//! invalid one stays a plain property and the node reads as its base type, as the
//! specification asks and the Java reference does.

use serde_json::{Map, Value};

use super::{LogicalType, Props};

/// The underlying type a `logicalType` annotates.
#[derive(Clone, Copy)]
pub(crate) enum Base {
    Int,
    Long,
    String,
    Bytes,
    Fixed(usize),
    Other,
}

/// Takes a valid `logicalType` (with its `precision` and `scale`) out of `props`.
pub(crate) fn extract(base: Base, props: &mut Props) -> Option<LogicalType> {
    let name = props.get("logicalType")?.as_str()?;
    let logical = recognise(name, base, props)?;
    props.remove("logicalType");
    if matches!(logical, LogicalType::Decimal { .. }) {
        props.remove("precision");
        props.remove("scale");
    }
    Some(logical)
}

fn recognise(name: &str, base: Base, props: &Props) -> Option<LogicalType> {
    use LogicalType as L;
    let logical = match (name, base) {
        ("decimal", Base::Bytes | Base::Fixed(_)) => return decimal(base, props),
        ("big-decimal", Base::Bytes) => L::BigDecimal,
        ("uuid", Base::String | Base::Fixed(16)) => L::Uuid,
        ("date", Base::Int) => L::Date,
        ("time-millis", Base::Int) => L::TimeMillis,
        ("time-micros", Base::Long) => L::TimeMicros,
        ("timestamp-millis", Base::Long) => L::TimestampMillis,
        ("timestamp-micros", Base::Long) => L::TimestampMicros,
        ("timestamp-nanos", Base::Long) => L::TimestampNanos,
        ("local-timestamp-millis", Base::Long) => L::LocalTimestampMillis,
        ("local-timestamp-micros", Base::Long) => L::LocalTimestampMicros,
        ("local-timestamp-nanos", Base::Long) => L::LocalTimestampNanos,
        ("duration", Base::Fixed(12)) => L::Duration,
        _ => return None,
    };
    Some(logical)
}

/// A decimal is valid when `0 < precision`, `0 <= scale <= precision`, and a fixed is large
/// enough for the precision.
fn decimal(base: Base, props: &Map<String, Value>) -> Option<LogicalType> {
    let precision = u32::try_from(props.get("precision")?.as_u64()?).ok()?;
    let scale = match props.get("scale") {
        None => 0,
        Some(scale) => u32::try_from(scale.as_u64()?).ok()?,
    };
    let fits = match base {
        Base::Fixed(size) => u64::from(precision) <= max_decimal_precision(size),
        _ => true,
    };
    (precision > 0 && scale <= precision && i32::try_from(precision).is_ok() && fits)
        .then_some(LogicalType::Decimal { precision, scale })
}

/// The most base-10 digits a two's-complement number of `size` bytes holds:
/// floor(log10(2^(8 size - 1) - 1)).
fn max_decimal_precision(size: usize) -> u64 {
    if size == 0 {
        return 0;
    }
    let bits = (size as f64) * 8.0 - 1.0;
    (bits * std::f64::consts::LOG10_2).floor() as u64
}

/// The attributes a logical type adds to its node's JSON, in the order the Java tools write
/// them (`logicalType`, then `precision` and `scale` for decimals).
pub(crate) fn attributes(logical: LogicalType) -> Vec<(&'static str, Value)> {
    let mut attributes = vec![("logicalType", Value::from(name(logical)))];
    if let LogicalType::Decimal { precision, scale } = logical {
        attributes.push(("precision", precision.into()));
        attributes.push(("scale", scale.into()));
    }
    attributes
}

/// The `logicalType` name of `logical`.
pub(crate) fn name(logical: LogicalType) -> &'static str {
    use LogicalType as L;
    match logical {
        L::Decimal { .. } => "decimal",
        L::BigDecimal => "big-decimal",
        L::Uuid => "uuid",
        L::Date => "date",
        L::TimeMillis => "time-millis",
        L::TimeMicros => "time-micros",
        L::TimestampMillis => "timestamp-millis",
        L::TimestampMicros => "timestamp-micros",
        L::TimestampNanos => "timestamp-nanos",
        L::LocalTimestampMillis => "local-timestamp-millis",
        L::LocalTimestampMicros => "local-timestamp-micros",
        L::LocalTimestampNanos => "local-timestamp-nanos",
        L::Duration => "duration",
    }
}
