//! `bytes` and `fixed` in JSON: a string of one code point per byte, U+0000 to U+00FF (the
//! specification's rule for defaults, which the JSON encoding shares).

use serde_json::Value;

use super::error::JsonError;

/// The string standing for `bytes`.
pub(super) fn to_json(bytes: &[u8]) -> Value {
    Value::String(bytes.iter().map(|&byte| char::from(byte)).collect())
}

/// The bytes `text` stands for; a code point above U+00FF is an error naming it and its
/// position among the string's characters.
pub(super) fn from_json(text: &str) -> Result<Vec<u8>, JsonError> {
    text.chars()
        .enumerate()
        .map(|(at, c)| {
            u8::try_from(c).map_err(|_| {
                JsonError::new(format!(
                    "character {at} is U+{:04X}, above U+00FF: not a byte",
                    u32::from(c)
                ))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_is_its_own_code_point() {
        let bytes: Vec<u8> = (0..=255).collect();
        let json = to_json(&bytes);
        let text = json.as_str().unwrap();
        assert_eq!(text.chars().count(), 256);
        assert!(text.chars().zip(0u32..).all(|(c, n)| u32::from(c) == n));
        assert_eq!(from_json(text).unwrap(), bytes);
    }

    #[test]
    fn code_points_above_255_are_refused() {
        let error = from_json("ab\u{100}").unwrap_err();
        assert_eq!(
            error.message(),
            "character 2 is U+0100, above U+00FF: not a byte"
        );
        assert!(from_json("\u{1F600}").is_err());
    }
}
