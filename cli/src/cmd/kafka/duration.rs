//! Durations on the command line as people write them: `30s`, `500ms`, `2m`, or a bare
//! number of seconds (`2.5`).

use std::time::Duration;

/// Parses `text` as a duration: a non-negative number followed by `ms`, `s` or `m`, or by
/// nothing for seconds.
pub fn parse(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let seconds_per_unit = match unit.trim() {
        "" | "s" => 1.0,
        "ms" => 0.001,
        "m" | "min" => 60.0,
        other => return Err(format!("`{other}` is not a unit: use ms, s or m")),
    };
    let number: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a duration such as 30s, 500ms or 2m"))?;
    Duration::try_from_secs_f64(number * seconds_per_unit)
        .map_err(|_| format!("`{text}` is out of range"))
}

/// `duration` as a person would write it: `500ms`, `3s`, `2.5s`.
pub fn show(duration: Duration) -> String {
    if duration.subsec_millis() == 0 && duration.as_secs() > 0 {
        format!("{}s", duration.as_secs())
    } else if duration.as_secs() == 0 {
        format!("{}ms", duration.as_millis())
    } else {
        format!("{}s", duration.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_and_bare_seconds() {
        assert_eq!(parse("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse("3"), Ok(Duration::from_secs(3)));
        assert_eq!(parse("2.5"), Ok(Duration::from_millis(2_500)));
        assert_eq!(parse(" 1 s "), Ok(Duration::from_secs(1)));
    }

    #[test]
    fn what_is_not_a_duration_is_refused() {
        for bad in ["", "s", "-1s", "3h", "1e3", "1.2.3s", "ms500"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn shown_as_written() {
        assert_eq!(show(Duration::from_secs(3)), "3s");
        assert_eq!(show(Duration::from_millis(500)), "500ms");
        assert_eq!(show(Duration::from_millis(2_500)), "2.5s");
    }
}
