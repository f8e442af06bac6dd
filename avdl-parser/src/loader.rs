//! Reading files: the root, and imports resolved relative to the importing file, then in the
//! include directories. Every file is read at most once, which also ends import cycles.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::ast::NamedType;
use crate::error::{Error, ErrorKind};
use crate::files::SourceFiles;
use crate::json_import;
use crate::reader::{FileOutcome, FileReader};
use crate::source::{Sources, Span};
use crate::table::Definitions;
use crate::writer;

/// How deeply imports may nest (a file importing a file importing …).
const MAX_IMPORT_DEPTH: usize = 200;

/// The three import statements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ImportKind {
    Idl,
    Protocol,
    Schema,
}

/// State shared by the root file and everything it imports.
pub(crate) struct Loader<'o> {
    pub sources: Sources,
    pub defs: Definitions,
    include_dirs: &'o [PathBuf],
    files: &'o dyn SourceFiles,
    seen: HashSet<PathBuf>,
    /// Every file read, in the order read.
    pub files_read: Vec<PathBuf>,
    /// How many IDL files are being read inside each other.
    depth: usize,
}

impl<'o> Loader<'o> {
    pub fn new(include_dirs: &'o [PathBuf], files: &'o dyn SourceFiles) -> Loader<'o> {
        Loader {
            sources: Sources::default(),
            defs: Definitions::default(),
            include_dirs,
            files,
            seen: HashSet::new(),
            files_read: Vec::new(),
            depth: 0,
        }
    }

    /// Reads the root IDL file at `path`.
    pub fn read_root_file(&mut self, path: &Path) -> Result<FileOutcome, Error> {
        let name = self.files.display_name(path);
        let bytes = self
            .files
            .read(path)
            .map_err(|e| Error::unlocated(ErrorKind::Io, format!("cannot read {name}: {e}")))?;
        self.mark_seen(path);
        let file = self
            .sources
            .add_bytes(name, Some(path.to_path_buf()), bytes)?;
        self.read_idl(file, true)
    }

    /// Reads root IDL text that has no file (imports resolve in the include directories only).
    pub fn read_root_str(&mut self, text: &str, name: &str) -> Result<FileOutcome, Error> {
        let file = self.sources.add(
            name.to_owned(),
            None,
            Arc::from(text.strip_prefix('\u{FEFF}').unwrap_or(text)),
        );
        self.read_idl(file, true)
    }

    fn read_idl(&mut self, file: u32, keep_messages: bool) -> Result<FileOutcome, Error> {
        if self.depth >= MAX_IMPORT_DEPTH {
            return Err(Error::unlocated(
                ErrorKind::TooDeep,
                format!("imports nested more than {MAX_IMPORT_DEPTH} levels deep"),
            ));
        }
        self.depth += 1;
        let outcome = FileReader::read(self, file, keep_messages);
        self.depth -= 1;
        outcome
    }

    /// Records that `path` is read; `false` when it was read before.
    fn mark_seen(&mut self, path: &Path) -> bool {
        let key = self.files.identity(path);
        if !self.seen.insert(key) {
            return false;
        }
        self.files_read.push(path.to_path_buf());
        true
    }

    /// Handles `import <kind> "<path>";` written at `span` in the file being read.
    pub fn import(
        &mut self,
        kind: ImportKind,
        path: &str,
        span: Span,
        keep_messages: bool,
    ) -> Result<(), Error> {
        let found = self.resolve(path, span)?;
        if !self.mark_seen(&found) {
            return Ok(());
        }
        let name = self.files.display_name(&found);
        let bytes = self.files.read(&found).map_err(|e| {
            self.sources
                .error(ErrorKind::Io, span, format!("cannot read {name}: {e}"))
        })?;
        let file = self.sources.add_bytes(name, Some(found), bytes)?;
        match kind {
            ImportKind::Idl => self.read_idl(file, keep_messages).map(drop),
            ImportKind::Protocol => json_import::protocol(self, file, keep_messages),
            ImportKind::Schema => json_import::schema(self, file),
        }
    }

    /// Registers a named type. Defining the same name again is accepted when the definitions
    /// are equal apart from docs (the first one is kept), and an error otherwise.
    pub fn register(&mut self, named: NamedType) -> Result<(), Error> {
        let full = named.full_name();
        match self.defs.lookup(&full) {
            None => {
                self.defs.insert(full, named);
                Ok(())
            }
            Some(existing) if writer::same_definition(&self.defs.types[existing], &named) => Ok(()),
            Some(_) => Err(self.sources.error(
                ErrorKind::Redefinition,
                named.span,
                format!("Can't redefine: {full}"),
            )),
        }
    }

    /// Finds an imported file: beside the importing file, else in each include directory.
    fn resolve(&self, path: &str, span: Span) -> Result<PathBuf, Error> {
        let mut searched = Vec::new();
        let importer = self.sources.get(span.file).path.as_deref();
        if Path::new(path).is_absolute() {
            searched.push(PathBuf::from(path));
        } else {
            if let Some(dir) = importer.and_then(Path::parent) {
                searched.push(dir.join(path));
            }
            searched.extend(self.include_dirs.iter().map(|dir| dir.join(path)));
        }
        if let Some(found) = searched.iter().find(|p| self.files.is_file(p)) {
            return Ok(found.clone());
        }
        let places: Vec<String> = searched
            .iter()
            .map(|p| self.files.display_name(p))
            .collect();
        let help = if places.is_empty() {
            "no place to search: the input has no directory and no include directory (-I) was given"
                .to_owned()
        } else {
            format!("searched: {}", places.join(", "))
        };
        Err(self
            .sources
            .error(
                ErrorKind::ImportNotFound,
                span,
                format!("import not found: \"{path}\""),
            )
            .with_help(help))
    }
}
