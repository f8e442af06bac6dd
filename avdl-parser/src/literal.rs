//! Values of IDL literals: Java-style string escapes and Java-style numbers
//! (`Long.decode` for integers, so a leading zero means octal; `Double.parseDouble` for floats).

use serde_json::{Number, Value};

/// The text of a string literal (with its quotes) with escapes resolved.
/// `Err` carries a message for a `\u` escape that is not a valid code point, or for a
/// literal cut off before its closing quote.
pub(crate) fn unescape(literal: &str) -> Result<String, String> {
    // The syntax tree keeps a literal cut off by the end of the file (`"`, `"é`) as a token.
    let inner = literal
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .ok_or_else(|| "unterminated string".to_owned())?;
    if !inner.contains('\\') {
        return Ok(inner.to_owned());
    }
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars().peekable();
    let mut pending_high: Option<u32> = None;
    while let Some(c) = chars.next() {
        if c != '\\' {
            flush_surrogate(&mut pending_high)?;
            out.push(c);
            continue;
        }
        let e = chars.next().unwrap_or('\\');
        if e == 'u' {
            let hex: String = chars.by_ref().take(4).collect();
            let unit =
                u32::from_str_radix(&hex, 16).map_err(|_| format!("invalid escape \\u{hex}"))?;
            push_utf16_unit(unit, &mut pending_high, &mut out)?;
            continue;
        }
        flush_surrogate(&mut pending_high)?;
        match e {
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{C}'),
            't' => out.push('\t'),
            '0'..='7' => {
                let mut value = e.to_digit(8).unwrap_or(0);
                let max_digits = if e <= '3' { 2 } else { 1 };
                for _ in 0..max_digits {
                    match chars.peek().and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            value = value * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.push(char::from_u32(value).unwrap_or('\u{FFFD}'));
            }
            other => out.push(other),
        }
    }
    flush_surrogate(&mut pending_high)?;
    Ok(out)
}

fn push_utf16_unit(
    unit: u32,
    pending_high: &mut Option<u32>,
    out: &mut String,
) -> Result<(), String> {
    match (pending_high.take(), unit) {
        (Some(high), 0xDC00..=0xDFFF) => {
            let c = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00);
            out.push(char::from_u32(c).ok_or("invalid surrogate pair")?);
        }
        (Some(_), _) => return Err("unpaired UTF-16 surrogate in \\u escape".into()),
        (None, 0xD800..=0xDBFF) => *pending_high = Some(unit),
        (None, 0xDC00..=0xDFFF) => return Err("unpaired UTF-16 surrogate in \\u escape".into()),
        (None, c) => out.push(char::from_u32(c).ok_or("invalid \\u escape")?),
    }
    Ok(())
}

fn flush_surrogate(pending_high: &mut Option<u32>) -> Result<(), String> {
    match pending_high.take() {
        Some(_) => Err("unpaired UTF-16 surrogate in \\u escape".into()),
        None => Ok(()),
    }
}

/// The value of an integer literal (`-`, decimal/hex/octal digits, optional `l`/`L`).
pub(crate) fn integer(literal: &str) -> Result<i64, String> {
    let digits = literal.trim_end_matches(['l', 'L']);
    let (negative, digits) = match digits.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, digits),
    };
    let (radix, digits) = if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        (16, hex)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(format!("invalid integer literal `{literal}`"));
    }
    let too_big = || format!("integer literal `{literal}` does not fit in 64 bits");
    let magnitude = u64::from_str_radix(digits, radix).map_err(|_| too_big())?;
    let value = if negative {
        0i64.checked_sub_unsigned(magnitude)
    } else {
        i64::try_from(magnitude).ok()
    };
    value.ok_or_else(too_big)
}

/// The value of a floating-point literal as JSON: a number, or the strings `"NaN"`,
/// `"Infinity"`, `"-Infinity"` for non-finite values (what the reference writes).
pub(crate) fn float(literal: &str) -> Result<Value, String> {
    let value = parse_float(literal).ok_or_else(|| format!("invalid number `{literal}`"))?;
    Ok(float_value(value))
}

/// A double as JSON, non-finite values as strings.
pub(crate) fn float_value(value: f64) -> Value {
    match Number::from_f64(value) {
        Some(n) => Value::Number(n),
        None if value.is_nan() => Value::String("NaN".into()),
        None if value > 0.0 => Value::String("Infinity".into()),
        None => Value::String("-Infinity".into()),
    }
}

fn parse_float(literal: &str) -> Option<f64> {
    let (sign, body) = match literal.as_bytes().first() {
        Some(b'-') => (-1.0, &literal[1..]),
        Some(b'+') => (1.0, &literal[1..]),
        _ => (1.0, literal),
    };
    let magnitude = match body {
        "NaN" => f64::NAN,
        "Infinity" => f64::INFINITY,
        _ if body.starts_with("0x") || body.starts_with("0X") => hex_float(&body[2..])?,
        _ => body
            .trim_end_matches(['f', 'F', 'd', 'D'])
            .parse::<f64>()
            .ok()?,
    };
    Some(sign * magnitude)
}

/// `h.hhhp±e` without the `0x` prefix.
fn hex_float(text: &str) -> Option<f64> {
    let text = text.trim_end_matches(['f', 'F', 'd', 'D']);
    let (mantissa, exponent) = text.split_once(['p', 'P'])?;
    let exponent: i32 = exponent.parse().ok()?;
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut value = 0f64;
    for c in int_part.chars() {
        value = value * 16.0 + f64::from(c.to_digit(16)?);
    }
    let mut scale = 1.0 / 16.0;
    for c in frac_part.chars() {
        value += f64::from(c.to_digit(16)?) * scale;
        scale /= 16.0;
    }
    Some(value * 2f64.powi(exponent))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn integers_follow_long_decode() {
        assert_eq!(integer("010"), Ok(8));
        assert_eq!(integer("0777L"), Ok(511));
        assert_eq!(integer("0x10"), Ok(16));
        assert_eq!(integer("-1"), Ok(-1));
        assert_eq!(integer("0"), Ok(0));
        assert_eq!(integer("-9223372036854775808"), Ok(i64::MIN));
        assert!(integer("99999999999999999999").is_err());
        assert!(integer("09").is_err());
    }

    #[test]
    fn floats_follow_parse_double() {
        assert_eq!(float("-.5e-3"), Ok(json!(-5.0e-4)));
        assert_eq!(float("0x1.8p1"), Ok(json!(3.0)));
        assert_eq!(float("1D"), Ok(json!(1.0)));
        assert_eq!(float("1e400"), Ok(json!("Infinity")));
        assert_eq!(float("-Infinity"), Ok(json!("-Infinity")));
        assert_eq!(float("NaN"), Ok(json!("NaN")));
    }

    #[test]
    fn java_escapes() {
        assert_eq!(unescape(r#""a\tb\n\"\'\\""#).unwrap(), "a\tb\n\"'\\");
        assert_eq!(unescape(r#""\101\0\377""#).unwrap(), "A\0\u{ff}");
        assert_eq!(
            unescape(r#""\u00ff\ud83d\ude00""#).unwrap(),
            "\u{ff}\u{1F600}"
        );
        assert!(unescape(r#""\ud83d""#).is_err());
        for cut in ["\"", "\"\u{e9}", "\"abc", ""] {
            assert!(unescape(cut).is_err(), "{cut:?}");
        }
    }
}
