//! Errors as the Rust compiler writes them, the one style of every avdl2rs tool:
//!
//! ```text
//! error: unknown keyword `recrod`; did you mean `record`?
//!  --> orders.avdl:3:3
//!   |
//! 3 |   recrod OrderEvent {
//!   |   ^^^^^^
//! ```
//!
//! The command line, the code generator and build scripts all render through here, so an
//! error reads the same wherever it is shown.

use std::borrow::Cow;
use std::io::IsTerminal;
use std::ops::Range;

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

/// Whether a rendered error carries ANSI colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Text only: for files, pipes, build script output and tests.
    Plain,
    /// Coloured like the compiler's errors in a terminal.
    Colored,
}

impl Style {
    /// Coloured when stderr is a terminal and `NO_COLOR` is unset or empty
    /// (<https://no-color.org>), plain otherwise.
    pub fn for_stderr() -> Style {
        Style::choose(
            std::io::stderr().is_terminal(),
            std::env::var_os("NO_COLOR").as_deref(),
        )
    }

    /// [`Style::for_stderr`] for stdout, where a command's findings go.
    pub fn for_stdout() -> Style {
        Style::choose(
            std::io::stdout().is_terminal(),
            std::env::var_os("NO_COLOR").as_deref(),
        )
    }

    /// The style for an output that is a terminal or not, given `NO_COLOR`'s value.
    fn choose(terminal: bool, no_color: Option<&std::ffi::OsStr>) -> Style {
        if terminal && no_color.is_none_or(std::ffi::OsStr::is_empty) {
            Style::Colored
        } else {
            Style::Plain
        }
    }

    fn renderer(self) -> Renderer {
        match self {
            Style::Plain => Renderer::plain(),
            Style::Colored => Renderer::styled(),
        }
    }
}

/// Where in which text an error points.
#[derive(Clone, Debug)]
pub struct Place<'a> {
    /// The file as the message names it.
    pub file: &'a str,
    /// The file's text.
    pub text: &'a str,
    /// The bytes pointed at (empty for a point between two characters).
    pub span: Range<usize>,
}

/// How grave a rendered message is: its first word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// `error: …`
    Error,
    /// `warning: …`
    Warning,
}

/// `error: {message}`, then the place's line with a caret under its span when there is a
/// place, then the help, ending with a line break.
pub fn render(message: &str, place: Option<Place<'_>>, help: Option<&str>, style: Style) -> String {
    Diagnostic {
        severity: Severity::Error,
        code: None,
        message,
        place,
        first_line: 1,
        help,
    }
    .render(style)
}

/// A message of any severity, with an optional code after it as the compiler writes
/// `warning[naming]: …`, so that a linter's findings read like the compiler's errors.
#[derive(Clone, Debug)]
pub struct Diagnostic<'a> {
    /// The first word.
    pub severity: Severity,
    /// The code in brackets after it, if any.
    pub code: Option<&'a str>,
    /// What is wrong.
    pub message: &'a str,
    /// Where, if anywhere.
    pub place: Option<Place<'a>>,
    /// The line number of the first line of the place's text: 1 for a whole file, more for
    /// an excerpt of one (the lines around the span), which spares the renderer a scan of the
    /// whole file for each of many messages.
    pub first_line: usize,
    /// A hint, after the snippet.
    pub help: Option<&'a str>,
}

impl Diagnostic<'_> {
    /// The message as the compiler writes it, ending with a line break.
    pub fn render(&self, style: Style) -> String {
        let level = match self.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };
        let mut title = level.primary_title(self.message);
        if let Some(code) = self.code {
            title = title.id(code);
        }
        let mut group = Group::with_title(title);
        if let Some(place) = &self.place {
            let span = clamp(place.text, place.span.clone());
            // The end of a file that ends its last line is on a line of its own, as the
            // location in messages counts it: give the caret a place there.
            let text = if span.start == place.text.len() && place.text.ends_with('\n') {
                Cow::Owned(format!("{} ", place.text))
            } else {
                Cow::Borrowed(place.text)
            };
            let snippet = Snippet::source(text)
                .line_start(self.first_line)
                .path(place.file)
                .fold(true)
                .annotation(AnnotationKind::Primary.span(span));
            group = group.element(snippet);
        }
        if let Some(help) = self.help {
            group = group.element(Level::HELP.message(help));
        }
        let mut text = style.renderer().render(&[group]);
        text.push('\n');
        text
    }
}

/// `span` within `text` and on character boundaries, as the renderer needs it.
fn clamp(text: &str, span: Range<usize>) -> Range<usize> {
    use crate::offsets::{ceil_char_boundary, floor_char_boundary};
    let start = floor_char_boundary(text, span.start.min(text.len()));
    let end = ceil_char_boundary(text, span.end.clamp(start, text.len()));
    start..end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warnings_with_a_code_from_an_excerpt_keep_the_file_s_line_numbers() {
        let excerpt = "  record order_line {";
        let diagnostic = Diagnostic {
            severity: Severity::Warning,
            code: Some("naming"),
            message: "not PascalCase",
            place: Some(Place {
                file: "orders.avdl",
                text: excerpt,
                span: 9..19,
            }),
            first_line: 12,
            help: None,
        };
        assert_eq!(
            diagnostic.render(Style::Plain),
            "warning[naming]: not PascalCase\n  --> orders.avdl:12:10\n   |\n12 |   record \
             order_line {\n   |          ^^^^^^^^^^\n"
        );
    }

    #[test]
    fn the_compiler_layout() {
        let text = "protocol P {\n  recrod OrderEvent {\n  }\n}\n";
        let place = Place {
            file: "orders.avdl",
            text,
            span: 15..21,
        };
        let rendered = render("unknown keyword", Some(place), Some("a hint"), Style::Plain);
        assert_eq!(
            rendered,
            "error: unknown keyword\n --> orders.avdl:2:3\n  |\n2 |   recrod OrderEvent {\n  \
             |   ^^^^^^\n  |\n  = help: a hint\n"
        );
    }

    #[test]
    fn the_end_of_the_file_is_on_the_line_after_the_last() {
        let text = "protocol P {\n";
        let place = Place {
            file: "f",
            text,
            span: text.len()..text.len(),
        };
        let rendered = render("unexpected end", Some(place), None, Style::Plain);
        assert!(rendered.contains(" --> f:2:1\n"), "{rendered}");
    }

    #[test]
    fn without_a_place_one_line() {
        assert_eq!(
            render("no input", None, None, Style::Plain),
            "error: no input\n"
        );
    }

    #[test]
    fn spans_off_the_text_or_inside_a_character_are_clamped() {
        let rendered = render(
            "m",
            Some(Place {
                file: "f",
                text: "é",
                span: 1..9,
            }),
            None,
            Style::Plain,
        );
        assert!(rendered.contains(" --> f:1:"), "{rendered}");
    }

    #[test]
    fn colour_on_a_terminal_unless_no_color_is_set() {
        let set = Some(std::ffi::OsStr::new("1"));
        let empty = Some(std::ffi::OsStr::new(""));
        assert_eq!(Style::choose(true, None), Style::Colored);
        assert_eq!(Style::choose(true, empty), Style::Colored);
        assert_eq!(Style::choose(true, set), Style::Plain);
        assert_eq!(Style::choose(false, None), Style::Plain);
    }

    #[test]
    fn colour_only_when_asked() {
        let place = Place {
            file: "f",
            text: "x y",
            span: 2..3,
        };
        assert!(!render("m", Some(place.clone()), None, Style::Plain).contains('\x1b'));
        assert!(render("m", Some(place), None, Style::Colored).contains('\x1b'));
    }
}
