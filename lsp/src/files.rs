//! The files a check reads: the open documents as the editor has them (unsaved changes
//! included), else the file system; and which files a check read, so that a change to one of
//! them checks again the documents that import it.

use std::cell::RefCell;
use std::io;
use std::path::{Path, PathBuf};

use avdl_parser::{FileSystem, SourceFiles};

use crate::documents::{Document, Documents};

/// The open documents over the file system, recording what is read.
pub struct Overlay<'d> {
    documents: &'d Documents,
    /// The identities of the files read, in the order read.
    read: RefCell<Vec<PathBuf>>,
}

impl<'d> Overlay<'d> {
    /// Files as `documents` has them, and as the disk has the others.
    pub fn new(documents: &'d Documents) -> Overlay<'d> {
        Overlay {
            documents,
            read: RefCell::new(Vec::new()),
        }
    }

    /// The identities of the files read so far.
    pub fn into_read(self) -> Vec<PathBuf> {
        self.read.into_inner()
    }

    /// The open document at `path`.
    fn open(&self, path: &Path) -> Option<&'d Document> {
        let identity = FileSystem.identity(path);
        self.documents
            .iter()
            .find(|document| document.path.as_deref() == Some(identity.as_path()))
    }
}

impl SourceFiles for Overlay<'_> {
    fn is_file(&self, path: &Path) -> bool {
        self.open(path).is_some() || FileSystem.is_file(path)
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        self.read.borrow_mut().push(FileSystem.identity(path));
        match self.open(path) {
            Some(document) => Ok(document.text.as_bytes().to_vec()),
            None => FileSystem.read(path),
        }
    }

    fn identity(&self, path: &Path) -> PathBuf {
        FileSystem.identity(path)
    }
}
