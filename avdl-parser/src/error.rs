//! The one error type of the parser: what went wrong, where, and the source snippet.

use std::fmt;
use std::sync::Arc;

use miette::{
    Diagnostic, LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents,
};

/// What kind of mistake an [`Error`] reports; stable for programs that react to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The text does not follow the IDL grammar.
    Syntax,
    /// Bytes that are not UTF-8.
    InvalidUtf8,
    /// Brackets nested deeper than the parser accepts.
    TooDeep,
    /// A reference to a type that is never defined.
    UndefinedName,
    /// A second, different definition of a named type.
    Redefinition,
    /// A type, field, namespace or symbol name that Avro does not allow.
    InvalidName,
    /// A default value that does not match the type of its field or parameter.
    InvalidDefault,
    /// `decimal(p, s)` with an invalid precision or scale.
    InvalidDecimal,
    /// An annotation on a reference to a named type.
    AnnotatedReference,
    /// An annotation with a value or name that is not allowed where it is written.
    InvalidAnnotation,
    /// A `oneway` message that returns something.
    OnewayNotVoid,
    /// A union inside a union, a duplicate branch or a `null?`.
    InvalidUnion,
    /// A duplicate field, parameter or enum symbol, or an enum default that is not a symbol.
    Duplicate,
    /// A number literal out of range or malformed.
    InvalidNumber,
    /// An imported file that exists nowhere it was searched for.
    ImportNotFound,
    /// A file that cannot be read.
    Io,
    /// An imported `.avsc`/`.avpr` file that is not valid JSON or not a valid schema.
    InvalidJson,
    /// A file that defines neither a protocol nor any schema.
    Empty,
}

/// A parse error: message, kind, and (when it has one) the file, line and column with a snippet.
///
/// `Display` and `Debug` both read like a compiler diagnostic (`file:line:col: message`), so a
/// `build.rs` that unwraps one still shows where the problem is. Render it with miette for the
/// snippet.
pub struct Error(Box<Inner>);

/// Boxed so that `Result<T, Error>` stays small on the happy path.
struct Inner {
    kind: ErrorKind,
    message: String,
    help: Option<String>,
    location: Option<Location>,
    /// Further errors of the same file, found by the same pass.
    related: Vec<Error>,
}

struct Location {
    file: String,
    line: usize,
    column: usize,
    start: usize,
    end: usize,
    source: Snippet,
}

/// A file's text as the snippet of an error reads it: whole lines around the error, but only
/// a window of a very long line (a minified JSON file is one line of any length).
struct Snippet {
    name: String,
    text: Arc<str>,
}

impl Snippet {
    /// Lines longer than this are cut to a window around the error.
    const LONG_LINE: usize = 240;
    /// How much of a long line is shown on each side of the error.
    const WINDOW: usize = 80;

    /// The part of the error's line(s) within [`Self::WINDOW`] bytes of `span`, with its
    /// 0-based line and column.
    fn window(&self, span: &SourceSpan) -> (std::ops::Range<usize>, usize, usize) {
        use crate::source::{ceil_char_boundary, floor_char_boundary, line_column};
        let text = &*self.text;
        let start = floor_char_boundary(text, span.offset().min(text.len()));
        let end = floor_char_boundary(text, (span.offset() + span.len()).min(text.len()));
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
        let from = ceil_char_boundary(text, start.saturating_sub(Self::WINDOW).max(line_start));
        let to = floor_char_boundary(text, (end + Self::WINDOW).min(line_end));
        let (line, column) = line_column(text, from);
        (from..to.max(end), line - 1, column - 1)
    }
}

impl SourceCode for Snippet {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let whole = self
            .text
            .read_span(span, context_lines_before, context_lines_after)?;
        let longest = whole.data().split(|&b| b == b'\n').map(<[u8]>::len).max();
        let (data, data_span, line, column, lines) = if longest.unwrap_or(0) <= Self::LONG_LINE {
            let lines = whole.line_count();
            (
                whole.data(),
                *whole.span(),
                whole.line(),
                whole.column(),
                lines,
            )
        } else {
            let (range, line, column) = self.window(span);
            let data = &self.text.as_bytes()[range.clone()];
            let lines = data.iter().filter(|&&b| b == b'\n').count() + 1;
            (data, range.into(), line, column, lines)
        };
        let name = self.name.clone();
        let contents = MietteSpanContents::new_named(name, data, data_span, line, column, lines);
        Ok(Box::new(contents))
    }
}

impl Error {
    /// An error that has no position (e.g. an unreadable root file).
    pub(crate) fn unlocated(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error(Box::new(Inner {
            kind,
            message: message.into(),
            help: None,
            location: None,
            related: Vec::new(),
        }))
    }

    /// An error at bytes `start..end` of the file `file` whose text is `text`.
    pub(crate) fn located(
        kind: ErrorKind,
        message: String,
        file: &str,
        text: Arc<str>,
        start: u32,
        end: u32,
    ) -> Error {
        let start = crate::source::floor_char_boundary(&text, start as usize);
        let end = crate::source::floor_char_boundary(&text, (end as usize).max(start));
        let (line, column) = crate::source::line_column(&text, start);
        let source = Snippet {
            name: file.to_owned(),
            text,
        };
        let location = Location {
            file: file.to_owned(),
            line,
            column,
            start,
            end,
            source,
        };
        Error(Box::new(Inner {
            kind,
            message,
            help: None,
            location: Some(location),
            related: Vec::new(),
        }))
    }

    /// Adds a hint shown under the snippet.
    pub(crate) fn with_help(mut self, help: impl Into<String>) -> Error {
        self.0.help = Some(help.into());
        self
    }

    /// The first of `errors` with the others (and their related errors) as related errors,
    /// to report several problems of one file at once; `None` when there is none.
    pub fn join(errors: Vec<Error>) -> Option<Error> {
        let mut errors = errors.into_iter();
        let mut first = errors.next()?;
        for mut other in errors {
            let related = std::mem::take(&mut other.0.related);
            first.0.related.push(other);
            first.0.related.extend(related);
        }
        Some(first)
    }

    /// Further errors found in the same pass over the file (undefined names, invalid
    /// defaults), reported together with this one up to a limit. Rendered with miette they
    /// follow this error, each with its snippet.
    pub fn related_errors(&self) -> &[Error] {
        &self.0.related
    }

    /// The kind of mistake.
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }

    /// The message without location, e.g. `Can't redefine: ns.Foo`.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The hint, when there is one (closest defined name, places searched for an import).
    pub fn help_text(&self) -> Option<&str> {
        self.0.help.as_deref()
    }

    /// The file the error is in, as it was named to the parser.
    pub fn file(&self) -> Option<&str> {
        self.0.location.as_ref().map(|l| l.file.as_str())
    }

    /// 1-based line and column (in characters) of the error.
    pub fn line_column(&self) -> Option<(usize, usize)> {
        self.0.location.as_ref().map(|l| (l.line, l.column))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0.location {
            Some(l) => write!(f, "{}:{}:{}: {}", l.file, l.line, l.column, self.0.message),
            None => f.write_str(&self.0.message),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)?;
        if let Some(help) = &self.0.help {
            write!(f, "\n  help: {help}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

impl Diagnostic for Error {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        None
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.0
            .help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.0
            .location
            .as_ref()
            .map(|l| &l.source as &dyn SourceCode)
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        if self.0.related.is_empty() {
            return None;
        }
        Some(Box::new(
            self.0.related.iter().map(|e| e as &dyn Diagnostic),
        ))
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let l = self.0.location.as_ref()?;
        let span = LabeledSpan::new_with_span(Some("here".to_owned()), l.start..l.end);
        Some(Box::new(std::iter::once(span)))
    }
}
