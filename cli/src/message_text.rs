//! Binary messages as text, for the shell: hex (two digits a byte) and standard base64
//! (RFC 4648, with padding), both ways; whitespace between digits is ignored on the way in.

use base64::Engine;

/// Bytes as lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The bytes hex `text` stands for.
pub fn from_hex(text: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if !digits.len().is_multiple_of(2) {
        return Err(format!("{} hex digits: not whole bytes", digits.len()));
    }
    digits
        .chunks_exact(2)
        .enumerate()
        .map(|(at, pair)| {
            std::str::from_utf8(pair)
                .ok()
                .and_then(|pair| u8::from_str_radix(pair, 16).ok())
                .ok_or_else(|| {
                    format!(
                        "byte {at}: {:?} is not two hex digits",
                        String::from_utf8_lossy(pair)
                    )
                })
        })
        .collect()
}

/// Bytes as standard base64.
pub fn base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The bytes standard base64 `text` stands for.
pub fn from_base64(text: &str) -> Result<Vec<u8>, String> {
    let digits: String = text.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    base64::engine::general_purpose::STANDARD
        .decode(digits)
        .map_err(|e| format!("not base64: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_ways() {
        assert_eq!(hex(&[0x00, 0xc3, 0x0f]), "00c30f");
        assert_eq!(from_hex("00 C3\n0f").unwrap(), [0x00, 0xc3, 0x0f]);
        assert!(from_hex("abc").is_err());
        assert_eq!(
            from_hex("zz").unwrap_err(),
            "byte 0: \"zz\" is not two hex digits"
        );
        // RFC 4648's test vectors.
        assert_eq!(base64(b"foob"), "Zm9vYg==");
        assert_eq!(from_base64("Zm9v\nYmFy").unwrap(), b"foobar");
        assert!(from_base64("Zm9").is_err());
    }
}
