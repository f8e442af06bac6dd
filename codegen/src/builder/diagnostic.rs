//! A generation error as a compiler-style diagnostic: the message, then for a located IDL
//! error the source line with a caret under the column, so that a failing build script
//! shows the mistake without a debug dump.

use std::fmt;
use std::path::Path;

use crate::Error;

/// Where an error points: the file as named in the message, 1-based line and column.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Location {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

/// Writes `error` with its snippet (when the location and the source line can be found).
pub(super) fn write(f: &mut fmt::Formatter<'_>, error: &Error) -> fmt::Result {
    let message = error.to_string();
    f.write_str(&message)?;
    let parser_error = parser_error(error);
    write_details(f, parser_error, &message)?;
    // The parser reports every error of a pass at once: each with its own snippet.
    for related in parser_error.map_or(&[][..], avdl_parser::Error::related_errors) {
        let message = related.to_string();
        write!(f, "\n{message}")?;
        write_details(f, Some(related), &message)?;
    }
    Ok(())
}

/// The snippet and help of an error whose first line is `message`.
fn write_details(
    f: &mut fmt::Formatter<'_>,
    parser_error: Option<&avdl_parser::Error>,
    message: &str,
) -> fmt::Result {
    let location = parser_error
        .and_then(location_of_parser_error)
        .or_else(|| location_in_message(message));
    if let Some(location) = location {
        if let Some(line) = source_line(&location) {
            write_snippet(f, &location, &line)?;
        }
    }
    if let Some(help) = parser_error.and_then(avdl_parser::Error::help_text) {
        if !message.contains(help) {
            write!(f, "\n  = help: {help}")?;
        }
    }
    Ok(())
}

/// The parser's own error, when the generator kept it as the cause.
fn parser_error(error: &Error) -> Option<&avdl_parser::Error> {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(error);
    while let Some(current) = cause {
        if let Some(found) = current.downcast_ref::<avdl_parser::Error>() {
            return Some(found);
        }
        cause = current.source();
    }
    None
}

fn location_of_parser_error(error: &avdl_parser::Error) -> Option<Location> {
    let (line, column) = error.line_column()?;
    Some(Location {
        file: error.file()?.to_string(),
        line,
        column,
    })
}

/// The `file:line:col: ` prefix that located parser messages start with.
pub(super) fn location_in_message(message: &str) -> Option<Location> {
    let first_line = message.lines().next()?;
    let mut search_from = 0;
    while let Some(offset) = first_line[search_from..].find(':') {
        let colon = search_from + offset;
        if let Some((line, column)) = line_and_column(&first_line[colon + 1..]) {
            return Some(Location {
                file: first_line[..colon].to_string(),
                line,
                column,
            });
        }
        search_from = colon + 1;
    }
    None
}

/// Parses `<line>:<col>: …` at the start of `rest`.
fn line_and_column(rest: &str) -> Option<(usize, usize)> {
    let (line, rest) = rest.split_once(':')?;
    let (column, _) = rest.split_once(": ")?;
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    Some((number(line)?, number(column)?))
}

/// The text of the location's line, read from its file.
fn source_line(location: &Location) -> Option<String> {
    let text = std::fs::read_to_string(Path::new(&location.file)).ok()?;
    text.lines()
        .nth(location.line.checked_sub(1)?)
        .map(str::to_string)
}

/// ```text
///   --> file:3:9
///    |
///  3 |     int id
///    |         ^
/// ```
fn write_snippet(f: &mut fmt::Formatter<'_>, location: &Location, line: &str) -> fmt::Result {
    let number = location.line.to_string();
    let gutter = " ".repeat(number.len());
    // Keep tabs so the caret lines up with the source as a terminal shows it.
    let pad: String = line
        .chars()
        .take(location.column.saturating_sub(1))
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    write!(
        f,
        "\n{gutter}--> {}:{}:{}\n{gutter} |\n{number} | {line}\n{gutter} | {pad}^",
        location.file, location.line, location.column
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_location_prefix_even_with_colons_in_the_path() {
        let found = location_in_message("C:\\x\\a.avdl:12:5: unexpected `}`").unwrap();
        assert_eq!(
            found,
            Location {
                file: "C:\\x\\a.avdl".to_string(),
                line: 12,
                column: 5
            }
        );
    }

    #[test]
    fn a_message_without_a_location_has_none() {
        assert_eq!(location_in_message("a.avsc: /fields/0: unknown type"), None);
        assert_eq!(location_in_message("x:1:y: z"), None);
    }
}
