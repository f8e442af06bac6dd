//! JSON text as Avro files hold it: schema files may carry `//` and `/* */` comments (the Java
//! tools accept them), and serde_json reports errors by line and column. Every reader of JSON
//! schema text (the compiler's imports, the linter's span pass, the CLI's contract files) goes
//! through these two functions, so that comments and positions mean the same everywhere.

/// Byte offset of 1-based `line` and byte `column` (serde_json's convention).
pub fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (line_start + column.saturating_sub(1)).min(text.len())
}

/// `text` with `//` and `/* */` comments outside strings replaced by spaces (line breaks kept),
/// so that positions in the result are positions in the file.
pub fn strip_comments(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for b in &mut out[from..to] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    };
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let end = bytes[i..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(bytes.len(), |p| i + p);
                blank(&mut out, i, end);
                i = end;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |p| i + 2 + p + 2);
                blank(&mut out, i, end);
                i = end;
            }
            _ => i += 1,
        }
    }
    // Only ASCII bytes outside strings were replaced by ASCII spaces, so this stays UTF-8.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_follow_lines_and_columns() {
        let text = "{\n  \"a\": x\n}";
        assert_eq!(offset_of(text, 1, 1), 0);
        assert_eq!(offset_of(text, 2, 8), 9);
        assert_eq!(&text[offset_of(text, 2, 8)..offset_of(text, 2, 8) + 1], "x");
        assert_eq!(offset_of(text, 9, 9), text.len());
    }

    #[test]
    fn comments_outside_strings_become_spaces_and_lines_stay() {
        let text = "{\"a\": \"//not\", // note\n /* two\nlines */ \"b\": 1}";
        let stripped = strip_comments(text);
        assert_eq!(stripped.len(), text.len());
        assert_eq!(
            stripped,
            "{\"a\": \"//not\",        \n       \n         \"b\": 1}"
        );
        let value: serde_json::Value = serde_json::from_str(&stripped).unwrap();
        assert_eq!(value["a"], "//not");
    }
}
