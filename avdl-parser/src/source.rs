//! The files read during one parse, and spans pointing into them.
//!
//! Positions are kept as byte offsets; line and column are computed only when an error is
//! reported, so a large valid file never pays for them.

use std::path::PathBuf;
use std::sync::Arc;

use crate::error::{Error, ErrorKind};

/// A byte range in one of the files of a [`Sources`] table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Span {
    pub file: u32,
    pub start: u32,
    pub end: u32,
}

/// One file's text and the name it is reported under.
#[derive(Debug)]
pub(crate) struct SourceFile {
    /// The name shown in error messages: the path as given, or the display name of a string.
    pub name: String,
    /// The file's path on disk (`None` for text parsed from a string).
    pub path: Option<PathBuf>,
    pub text: Arc<str>,
}

/// Every source read during one parse, indexed by [`Span::file`].
#[derive(Debug, Default)]
pub(crate) struct Sources {
    files: Vec<SourceFile>,
}

impl Sources {
    /// Adds a file and returns its index for spans.
    pub fn add(&mut self, name: String, path: Option<PathBuf>, text: Arc<str>) -> u32 {
        self.files.push(SourceFile { name, path, text });
        u32::try_from(self.files.len() - 1).unwrap_or(u32::MAX)
    }

    /// Adds a file's bytes, without a leading byte order mark, and returns its index; bytes
    /// that are not UTF-8 are an error at the first bad one.
    pub fn add_bytes(
        &mut self,
        name: String,
        path: Option<PathBuf>,
        bytes: Vec<u8>,
    ) -> Result<u32, Error> {
        let bytes = bytes
            .strip_prefix(b"\xEF\xBB\xBF")
            .map(<[u8]>::to_vec)
            .unwrap_or(bytes);
        match String::from_utf8(bytes) {
            Ok(text) => Ok(self.add(name, path, Arc::from(text))),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let lossy = String::from_utf8_lossy(e.as_bytes()).into_owned();
                let file = self.add(name, path, Arc::from(lossy));
                let span = Span {
                    file,
                    start: at as u32,
                    end: at as u32 + 1,
                };
                Err(self.error(
                    ErrorKind::InvalidUtf8,
                    span,
                    "invalid UTF-8: the file must be UTF-8 text",
                ))
            }
        }
    }

    pub fn get(&self, file: u32) -> &SourceFile {
        &self.files[file as usize]
    }

    /// An error located at `span`, with the snippet of its file.
    pub fn error(&self, kind: ErrorKind, span: Span, message: impl Into<String>) -> Error {
        let file = self.get(span.file);
        Error::located(
            kind,
            message.into(),
            &file.name,
            file.text.clone(),
            span.start,
            span.end,
        )
    }
}
