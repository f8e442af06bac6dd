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
    let logical = if name == LogicalType::DECIMAL {
        decimal(base, props)?
    } else {
        LogicalType::WITHOUT_PARAMETERS
            .into_iter()
            .find(|logical| logical.name() == name)?
    };
    logical.annotates(base).then_some(logical)
}

impl LogicalType {
    /// The spelling of `decimal`, the one logical type with parameters.
    const DECIMAL: &'static str = "decimal";

    /// Every logical type but `decimal`, whose spelling alone names it.
    const WITHOUT_PARAMETERS: [LogicalType; 12] = [
        LogicalType::BigDecimal,
        LogicalType::Uuid,
        LogicalType::Date,
        LogicalType::TimeMillis,
        LogicalType::TimeMicros,
        LogicalType::TimestampMillis,
        LogicalType::TimestampMicros,
        LogicalType::TimestampNanos,
        LogicalType::LocalTimestampMillis,
        LogicalType::LocalTimestampMicros,
        LogicalType::LocalTimestampNanos,
        LogicalType::Duration,
    ];

    /// The `logicalType` spelling, e.g. `timestamp-millis`: the one table of the names, which
    /// parsing, writing, code generation and the derive all read.
    pub fn name(self) -> &'static str {
        use LogicalType as L;
        match self {
            L::Decimal { .. } => Self::DECIMAL,
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

    /// Whether the logical type may annotate a node of type `base` (the specification's
    /// "Logical Types"; a `decimal` on a fixed also needs room for its precision).
    fn annotates(self, base: Base) -> bool {
        use LogicalType as L;
        match self {
            L::Decimal { .. } => matches!(base, Base::Bytes | Base::Fixed(_)),
            L::BigDecimal => matches!(base, Base::Bytes),
            L::Uuid => matches!(base, Base::String | Base::Fixed(16)),
            L::Date | L::TimeMillis => matches!(base, Base::Int),
            L::TimeMicros
            | L::TimestampMillis
            | L::TimestampMicros
            | L::TimestampNanos
            | L::LocalTimestampMillis
            | L::LocalTimestampMicros
            | L::LocalTimestampNanos => matches!(base, Base::Long),
            L::Duration => matches!(base, Base::Fixed(12)),
        }
    }
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
    let mut attributes = vec![("logicalType", Value::from(logical.name()))];
    if let LogicalType::Decimal { precision, scale } = logical {
        attributes.push(("precision", precision.into()));
        attributes.push(("scale", scale.into()));
    }
    attributes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each spelling of the table reads back as its logical type, on a base it annotates.
    #[test]
    fn every_logical_type_is_recognised_by_its_name() {
        let bases = [
            Base::Int,
            Base::Long,
            Base::String,
            Base::Bytes,
            Base::Fixed(16),
            Base::Fixed(12),
        ];
        for logical in LogicalType::WITHOUT_PARAMETERS {
            let base = bases.into_iter().find(|&b| logical.annotates(b)).unwrap();
            assert_eq!(
                recognise(logical.name(), base, &Props::new()),
                Some(logical)
            );
            assert_eq!(recognise(logical.name(), Base::Other, &Props::new()), None);
        }
        let mut props = Props::new();
        props.insert("precision".into(), 4.into());
        assert_eq!(
            recognise("decimal", Base::Bytes, &props),
            Some(LogicalType::Decimal {
                precision: 4,
                scale: 0
            })
        );
        assert_eq!(recognise("decimal", Base::Int, &props), None);
    }
}
