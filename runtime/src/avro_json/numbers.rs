//! Numbers in JSON: what `float` and `double` values are written as, and which JSON values
//! are read as each numeric type.

use serde_json::{Number, Value};

use super::error::JsonError;

/// A `float` as the shortest decimal that reads back as the same `float`, the digits Java's
/// `JsonEncoder` writes (`Float.toString`): `0.1`, not the `0.10000000149011612` its exact
/// widening to `double` would print. The decimal is kept as the `double` nearest to it, which
/// narrows back to the same `float`; where it would not, the exact widening is kept instead.
pub(super) fn from_float(value: f32) -> Value {
    let shortest = value.to_string().parse::<f64>().ok();
    let wide = shortest
        .filter(|&wide| wide as f32 == value)
        .unwrap_or(f64::from(value));
    from_double(wide)
}

/// A `double` as a JSON number, or the string Java's `JsonEncoder` writes for one that is not
/// finite.
pub(super) fn from_double(value: f64) -> Value {
    match Number::from_f64(value) {
        Some(number) => Value::Number(number),
        None if value.is_nan() => Value::from("NaN"),
        None if value > 0.0 => Value::from("Infinity"),
        None => Value::from("-Infinity"),
    }
}

/// An `int`: a JSON number of whole value within `i32`.
pub(super) fn to_int(json: &Value) -> Result<i32, JsonError> {
    let whole = whole_number(json, "int")?;
    i32::try_from(whole).map_err(|_| out_of_range(json, "int"))
}

/// A `long`: a JSON number of whole value within `i64`.
pub(super) fn to_long(json: &Value) -> Result<i64, JsonError> {
    let whole = whole_number(json, "long")?;
    i64::try_from(whole).map_err(|_| out_of_range(json, "long"))
}

/// A `float`: any number, rounded to the nearest `float` (to an infinity beyond its range,
/// as Java's `JsonDecoder` reads it), or one of the strings for values that are not finite.
pub(super) fn to_float(json: &Value) -> Result<f32, JsonError> {
    real(json, "float").map(|value| value as f32)
}

/// A `double`: any number, or one of the strings for values that are not finite.
pub(super) fn to_double(json: &Value) -> Result<f64, JsonError> {
    real(json, "double")
}

/// The value of a JSON number that is a whole number, written as an integer or, as Java's
/// `JsonDecoder` also takes it, with a fraction or exponent (`1.0`, `1e3`). Wider than `i64`,
/// so that the caller can tell a number out of range from one that is not whole.
fn whole_number(json: &Value, what: &str) -> Result<i128, JsonError> {
    let Value::Number(number) = json else {
        return Err(JsonError::expected(what, json));
    };
    if let Some(n) = number.as_i64() {
        return Ok(i128::from(n));
    }
    if let Some(n) = number.as_u64() {
        return Ok(i128::from(n));
    }
    match number.as_f64() {
        // Saturates far beyond `i64`, which the caller then refuses as out of range.
        Some(n) if n.fract() == 0.0 => Ok(n as i128),
        _ => Err(JsonError::expected(what, json)),
    }
}

#[cold]
fn out_of_range(json: &Value, what: &str) -> JsonError {
    JsonError::new(format!("{json} is out of the range of {what}"))
}

/// A `float` or `double` as a `f64`.
fn real(json: &Value, what: &str) -> Result<f64, JsonError> {
    let value = match json {
        Value::Number(number) => number.as_f64(),
        Value::String(text) => match text.as_str() {
            "NaN" => Some(f64::NAN),
            "Infinity" => Some(f64::INFINITY),
            "-Infinity" => Some(f64::NEG_INFINITY),
            _ => None,
        },
        _ => None,
    };
    value.ok_or_else(|| JsonError::expected(what, json))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn floats_are_written_in_their_shortest_decimal() {
        assert_eq!(from_float(0.1).to_string(), "0.1");
        assert_eq!(from_float(1234.0).to_string(), "1234.0");
        assert_eq!(from_float(f32::MAX).as_f64().unwrap() as f32, f32::MAX);
        assert_eq!(
            from_float(f32::MIN_POSITIVE).as_f64().unwrap() as f32,
            f32::MIN_POSITIVE
        );
        let tiny = f32::from_bits(1);
        assert_eq!(from_float(tiny).as_f64().unwrap() as f32, tiny);
        assert_eq!(from_float(f32::NAN), json!("NaN"));
        assert_eq!(from_float(f32::NEG_INFINITY), json!("-Infinity"));
        assert_eq!(from_double(f64::INFINITY), json!("Infinity"));
    }

    #[test]
    fn whole_numbers_are_ints_in_any_notation() {
        assert_eq!(to_int(&json!(-2147483648)).unwrap(), i32::MIN);
        assert_eq!(to_int(&json!(1.0)).unwrap(), 1);
        assert_eq!(to_long(&json!(1e18)).unwrap(), 1_000_000_000_000_000_000);
        assert_eq!(
            to_long(&json!(u64::MAX)).unwrap_err().message(),
            "18446744073709551615 is out of the range of long"
        );
        assert_eq!(
            to_int(&json!(2147483648u32)).unwrap_err().message(),
            "2147483648 is out of the range of int"
        );
        assert_eq!(
            to_long(&json!(1e300)).unwrap_err().message(),
            "1e+300 is out of the range of long"
        );
        assert_eq!(
            to_int(&json!(1.5)).unwrap_err().message(),
            "expected int, found 1.5"
        );
        assert_eq!(
            to_int(&json!("1")).unwrap_err().message(),
            r#"expected int, found "1""#
        );
    }

    #[test]
    fn reals_take_any_number_and_the_non_finite_strings() {
        assert_eq!(to_double(&json!(3)).unwrap(), 3.0);
        assert!(to_double(&json!("NaN")).unwrap().is_nan());
        assert_eq!(to_float(&json!("-Infinity")).unwrap(), f32::NEG_INFINITY);
        assert_eq!(to_float(&json!(1e39)).unwrap(), f32::INFINITY);
        assert_eq!(
            to_double(&json!("nan")).unwrap_err().message(),
            r#"expected double, found "nan""#
        );
        assert_eq!(
            to_float(&json!(null)).unwrap_err().message(),
            "expected float, found null"
        );
    }
}
