//! Errors of reading schemas and generating code, written as diagnostics: each names the
//! file (or other origin) and the place in the schema.

use std::fmt;
use std::path::PathBuf;

/// Why schemas could not be read or code could not be generated.
///
/// `Debug` prints the same text as `Display`, because `build.rs` scripts `unwrap()` it.
pub enum Error {
    /// A file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A file's extension is none of `.avdl`, `.avsc`, `.avpr`.
    UnknownExtension {
        /// The file.
        path: PathBuf,
    },
    /// An IDL file could not be parsed (the message locates it as `file:line:col`).
    Idl {
        /// The parser's diagnostic, with its location and help (e.g. the closest type name).
        source: avdl_parser::Error,
    },
    /// A schema or protocol JSON is invalid.
    Schema {
        /// Where the JSON came from (a file path or a caller-given origin).
        origin: String,
        /// The error, located by a JSON Pointer.
        source: avdl2rs_schema::SchemaError,
    },
    /// A field default does not fit the field's type.
    InvalidDefault {
        /// Where the record was read from.
        origin: String,
        /// The full name of the record.
        record: String,
        /// The Avro field name.
        field: String,
        /// What does not fit.
        message: String,
    },
    /// An option value is invalid (an extra derive or the runtime path is not a Rust path).
    InvalidOption {
        /// What is wrong.
        message: String,
    },
    /// A schema uses something the generator cannot represent.
    Unsupported {
        /// What and where.
        message: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, source } => write!(f, "cannot read {}: {source}", path.display()),
            Error::UnknownExtension { path } => write!(
                f,
                "{}: unknown schema file type (expected .avdl, .avsc or .avpr)",
                path.display()
            ),
            Error::Idl { source } => write!(f, "{source}"),
            Error::Schema { origin, source } => write!(f, "{origin}: {source}"),
            Error::InvalidDefault {
                origin,
                record,
                field,
                message,
            } => {
                write!(f, "{origin}: {record}.{field}: invalid default: {message}")
            }
            Error::InvalidOption { message } => write!(f, "invalid option: {message}"),
            Error::Unsupported { message } => write!(f, "unsupported schema: {message}"),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            Error::Schema { source, .. } => Some(source),
            Error::Idl { source } => Some(source),
            _ => None,
        }
    }
}
