//! The one error type of the parser: what went wrong, where, and the source snippet.

use std::fmt;
use std::sync::Arc;

use crate::render::{render, Place, Style};

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
/// `build.rs` that unwraps one still shows where the problem is. [`Error::render`] writes it
/// with the source line, as the compiler does.
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
    text: Arc<str>,
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
        let start = crate::offsets::floor_char_boundary(&text, start as usize);
        let end = crate::offsets::floor_char_boundary(&text, (end as usize).max(start));
        let (line, column) = crate::offsets::line_column(&text, start);
        let location = Location {
            file: file.to_owned(),
            line,
            column,
            start,
            end,
            text,
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
    /// defaults), reported together with this one up to a limit. [`Error::render`] writes
    /// them after this error, each with its snippet.
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

    /// The bytes of the file the error is about (empty where something is missing), for
    /// tools that place it themselves, such as an editor's language server.
    pub fn span(&self) -> Option<std::ops::Range<usize>> {
        self.0.location.as_ref().map(|l| l.start..l.end)
    }

    /// The error as the compiler writes one (`error: …`, ` --> file:line:col`, the source
    /// line with the span underlined, the help), then each related error the same way after
    /// a blank line.
    pub fn render(&self, style: Style) -> String {
        let rendered: Vec<String> = std::iter::once(self)
            .chain(&self.0.related)
            .map(|error| error.render_one(style))
            .collect();
        rendered.join("\n")
    }

    /// This error alone, without its related errors.
    fn render_one(&self, style: Style) -> String {
        let place = self.0.location.as_ref().map(|l| Place {
            file: &l.file,
            text: &l.text,
            span: l.start..l.end,
        });
        render(&self.0.message, place, self.help_text(), style)
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
