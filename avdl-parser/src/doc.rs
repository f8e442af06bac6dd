//! Turning the inside of a `/** … */` comment into the `doc` string, as the reference does:
//! trim, then strip a leading star column (`*` or `**` on every line) or else the common
//! indentation of the lines after the first.

/// The doc string for the raw text between `/**` and `*/`.
pub(crate) fn doc_text(raw: &str) -> String {
    let text = java_trim(raw);
    let lines = split_lines(text);
    if let Some(stripped) = strip_stars(&lines, "**").or_else(|| strip_stars(&lines, "*")) {
        return stripped;
    }
    strip_indent(&lines)
}

/// `String.trim()` of Java: removes every char up to U+0020 at both ends (not Unicode spaces).
fn java_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= ' ')
}

/// Lines with their line break (`\n`, `\r\n` or `\r`) kept at the end.
fn split_lines(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                lines.push(&text[start..=i]);
                start = i + 1;
            }
            b'\r' => {
                let end = if bytes.get(i + 1) == Some(&b'\n') {
                    i + 1
                } else {
                    i
                };
                lines.push(&text[start..=end]);
                i = end;
                start = end + 1;
            }
            _ => {}
        }
        i += 1;
    }
    lines.push(&text[start..]);
    lines
}

fn is_horizontal_space(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\u{A0}' | '\u{1680}' | '\u{180E}' | '\u{2000}'
            ..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

/// Star mode: every line (the first without leading space) starts with `stars`; each line loses
/// its leading space, the stars and one following space or tab.
fn strip_stars(lines: &[&str], stars: &str) -> Option<String> {
    let mut out = String::new();
    for (n, line) in lines.iter().enumerate() {
        let rest = if n == 0 {
            line
        } else {
            line.trim_start_matches(is_horizontal_space)
        };
        let rest = rest.strip_prefix(stars)?;
        let rest = rest.strip_prefix(is_horizontal_space).unwrap_or(rest);
        out.push_str(rest);
    }
    Some(out)
}

/// Indent mode: the leading space of the second line, shortened until every later line starts
/// with it, is removed from all lines after the first.
fn strip_indent(lines: &[&str]) -> String {
    if lines.len() < 2 {
        return lines.concat();
    }
    let second = lines[1];
    let mut indent = &second[..second.len() - second.trim_start_matches(is_horizontal_space).len()];
    for line in &lines[2..] {
        while !line.starts_with(indent) {
            let mut chars = indent.chars();
            chars.next_back();
            indent = chars.as_str();
        }
    }
    let mut out = String::from(lines[0]);
    for line in &lines[1..] {
        out.push_str(&line[indent.len()..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::doc_text;

    #[test]
    fn single_line_keeps_inner_stars() {
        assert_eq!(doc_text(" a **"), "a **");
        assert_eq!(doc_text(" A kind of record. "), "A kind of record.");
        assert_eq!(doc_text(""), "");
    }

    #[test]
    fn star_column_is_removed_with_one_space() {
        assert_eq!(
            doc_text("\n * A simple\n *   indented\n *\n * end.\n "),
            "A simple\n  indented\n\nend."
        );
        assert_eq!(doc_text("* not stars\n * x "), "not stars\nx");
        assert_eq!(
            doc_text("\n *no space\n *   three spaces\n "),
            "no space\n  three spaces"
        );
        assert_eq!(doc_text("\n *\tTabbed\n "), "Tabbed");
    }

    #[test]
    fn crlf_line_breaks_are_kept() {
        assert_eq!(doc_text("\r\n * one\r\n * two\r\n "), "one\r\ntwo");
    }

    #[test]
    fn a_line_without_star_falls_back_to_indent_mode() {
        assert_eq!(doc_text("\n * one\n two\n "), "* one\ntwo");
    }

    #[test]
    fn common_indent_after_the_first_line_is_removed() {
        assert_eq!(
            doc_text("first\n    indented\n      more\n    back\n"),
            "first\nindented\n  more\nback"
        );
        assert_eq!(doc_text("first\n  a\n\n  b"), "first\n  a\n\n  b");
    }
}
