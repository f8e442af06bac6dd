//! The index of every schema file of a workspace folder, kept per file.
//!
//! A file's entry depends on its own text only (and on which imported files exist): a
//! reference keeps the full names it may mean, and is resolved against the other files when
//! asked. So a change re-indexes exactly the file that changed; [`Workspace::update`] names
//! the files that import it, whose diagnostics may change with it.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::compiled::{self, Compiled};
use super::model::{FileIndex, FileKind, TypeDef, TypeUse};
use super::{idl, json};

/// Files larger than this are left out of a folder scan (a schema file is much smaller; a
/// data dump with a schema's extension is not worth reading).
const MAX_SCANNED_FILE: u64 = 16 << 20;

/// Folders a scan does not enter: build output and other tools' caches.
const SKIPPED_DIRS: &[&str] = &["target", "node_modules"];

/// Compiled files by path, each with the generation it was compiled in (`None`: it does not
/// compile).
type CompiledFiles = HashMap<PathBuf, (u64, Option<Arc<Compiled>>)>;

/// The index of a workspace's `.avdl`, `.avsc` and `.avpr` files.
#[derive(Debug, Default)]
pub struct Workspace {
    include_dirs: Vec<PathBuf>,
    files: HashMap<PathBuf, FileIndex>,
    /// The files declaring each full name.
    names: HashMap<String, Vec<PathBuf>>,
    /// The files indexed from an editor's text rather than the disk.
    open: HashSet<PathBuf>,
    /// Counts the changes to the index; a compiled file is kept for one generation.
    generation: u64,
    /// Files compiled in a generation, with its number.
    compiled: Mutex<CompiledFiles>,
}

impl Workspace {
    /// An empty index whose IDL imports are looked for beside the importing file, then in
    /// `include_dirs` (the `include` of `avdl2rs.toml`, as the CLI reads it).
    pub fn new(include_dirs: Vec<PathBuf>) -> Workspace {
        Workspace {
            include_dirs: include_dirs.iter().map(|d| key(d)).collect(),
            ..Workspace::default()
        }
    }

    /// Changes the include directories, re-indexing the IDL files (their imports may now
    /// name other files).
    pub fn set_include_dirs(&mut self, include_dirs: Vec<PathBuf>) {
        self.include_dirs = include_dirs.iter().map(|d| key(d)).collect();
        let idl: Vec<(PathBuf, Arc<str>)> = self
            .files
            .values()
            .filter(|f| f.kind == FileKind::Idl)
            .map(|f| (f.path.clone(), f.text.clone()))
            .collect();
        for (path, text) in idl {
            self.insert(&path, text);
        }
    }

    /// Indexes every schema file under `root` as it is on disk (hidden folders and build
    /// output left out). Unreadable files are skipped: they have nothing to offer.
    pub fn scan(&mut self, root: &Path) {
        let mut pending = vec![root.to_path_buf()];
        while let Some(dir) = pending.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                let name = entry.file_name();
                let name = name.to_string_lossy();
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                if kind.is_dir() && !name.starts_with('.') && !SKIPPED_DIRS.contains(&&*name) {
                    pending.push(path);
                } else if kind.is_file() && FileKind::of(&path).is_some() {
                    self.load(&path);
                }
            }
        }
    }

    /// Indexes the file at `path` as it is on disk (after an editor closes it, or when it
    /// changed outside the editor); a file that is gone leaves the index.
    pub fn load(&mut self, path: &Path) {
        let small = std::fs::metadata(path).is_ok_and(|m| m.len() <= MAX_SCANNED_FILE);
        match std::fs::read_to_string(path) {
            Ok(text) if small => {
                self.update(path, &text);
            }
            _ => self.remove(path),
        }
    }

    /// Indexes `text` as the content of `path` (an open document), and returns the other
    /// files that import it. Files of other kinds are ignored.
    pub fn update(&mut self, path: &Path, text: &str) -> Vec<PathBuf> {
        let path = key(path);
        if FileKind::of(&path).is_none() {
            return Vec::new();
        }
        self.insert(&path, Arc::from(text));
        self.dependents(&path)
    }

    /// Brings the index in step with the documents an editor has `open` (path and text):
    /// a document whose text differs from the indexed one is indexed again, and a file no
    /// longer open is read from disk again. Comparing texts costs a pass over them, far less
    /// than indexing; unchanged files are left as they are.
    pub fn sync_open<'a>(&mut self, open: impl IntoIterator<Item = (&'a Path, &'a str)>) {
        let mut now = HashSet::new();
        for (path, text) in open {
            let path = key(path);
            if self.files.get(&path).is_none_or(|f| &*f.text != text) {
                self.update(&path, text);
            }
            now.insert(path);
        }
        let closed: Vec<PathBuf> = self.open.difference(&now).cloned().collect();
        for path in closed {
            self.load(&path);
        }
        self.open = now;
    }

    /// Forgets the file at `path`.
    pub fn remove(&mut self, path: &Path) {
        let path = key(path);
        if let Some(old) = self.files.remove(&path) {
            self.generation += 1;
            self.forget_names(&old);
        }
    }

    /// The entry of the file at `path`.
    pub fn file(&self, path: &Path) -> Option<&FileIndex> {
        self.files.get(path).or_else(|| self.files.get(&key(path)))
    }

    /// Every indexed file, in no particular order.
    pub fn files(&self) -> impl Iterator<Item = &FileIndex> {
        self.files.values()
    }

    /// The include directories imports are looked for in.
    pub fn include_dirs(&self) -> &[PathBuf] {
        &self.include_dirs
    }

    /// Every declaration of `full_name`, with its file.
    pub fn definitions<'a>(
        &'a self,
        full_name: &str,
    ) -> impl Iterator<Item = (&'a FileIndex, &'a TypeDef)> + 'a {
        let full_name = full_name.to_owned();
        let paths = self.names.get(&full_name).map_or(&[][..], Vec::as_slice);
        paths.iter().filter_map(move |path| {
            let file = self.files.get(path)?;
            Some((file, file.type_named(&full_name)?))
        })
    }

    /// The declaration a reference in `from` means: the first of its candidate names that is
    /// declared, in `from` itself, else in a file it imports (directly or not), else
    /// anywhere in the workspace.
    pub fn resolve<'a>(
        &'a self,
        from: &FileIndex,
        reference: &TypeUse,
    ) -> Option<(&'a FileIndex, &'a TypeDef)> {
        let imported = self.imported(from);
        reference.candidates.iter().find_map(|name| {
            let found: Vec<_> = self.definitions(name).collect();
            let rank = |file: &FileIndex| {
                if file.path == from.path {
                    0
                } else if imported.contains(&file.path) {
                    1
                } else {
                    2
                }
            };
            found.into_iter().min_by_key(|(file, _)| rank(file))
        })
    }

    /// The files `from` imports, directly or through other imports.
    pub fn imported(&self, from: &FileIndex) -> HashSet<PathBuf> {
        let mut seen = HashSet::new();
        let mut pending: Vec<PathBuf> = targets(from).collect();
        while let Some(path) = pending.pop() {
            if seen.insert(path.clone()) {
                if let Some(file) = self.files.get(&path) {
                    pending.extend(targets(file));
                }
            }
        }
        seen
    }

    /// The files importing `path` directly.
    pub fn dependents(&self, path: &Path) -> Vec<PathBuf> {
        let path = key(path);
        let mut out: Vec<PathBuf> = self
            .files
            .values()
            .filter(|f| targets(f).any(|t| t == path))
            .map(|f| f.path.clone())
            .collect();
        out.sort();
        out
    }

    /// The compiled schemas of `file` (its imports read from the workspace's texts first),
    /// from the cache when no indexed file changed since; `None` when it does not compile
    /// (the diagnostics say why).
    pub fn compiled(&self, file: &FileIndex) -> Option<Arc<Compiled>> {
        let path = file.path.as_path();
        if let Some((generation, found)) = self.compiled_cache().get(path) {
            if *generation == self.generation {
                return found.clone();
            }
        }
        let found = compiled::compile(&Indexed(self), self.include_dirs(), file);
        let mut cache = self.compiled_cache();
        cache.retain(|_, (generation, _)| *generation == self.generation);
        cache.insert(path.to_path_buf(), (self.generation, found.clone()));
        found
    }

    /// The cache of compiled files (a panic while it was held leaves nothing half done: an
    /// entry is inserted whole).
    fn compiled_cache(&self) -> MutexGuard<'_, CompiledFiles> {
        self.compiled.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Replaces the entry of `path` (a key already) by the index of `text`.
    fn insert(&mut self, path: &Path, text: Arc<str>) {
        self.generation += 1;
        let Some(kind) = FileKind::of(path) else {
            return;
        };
        let mut file = match kind {
            FileKind::Idl => idl::index(path, text, &self.include_dirs),
            FileKind::Schema | FileKind::Protocol => json::index(path, text, kind),
        };
        for import in &mut file.imports {
            import.target = import.target.as_deref().map(key);
        }
        if let Some(old) = self.files.remove(path) {
            self.forget_names(&old);
        }
        for ty in &file.types {
            let paths = self.names.entry(ty.full_name.clone()).or_default();
            if !paths.iter().any(|p| p == path) {
                paths.push(path.to_path_buf());
            }
        }
        self.files.insert(path.to_path_buf(), file);
    }

    fn forget_names(&mut self, old: &FileIndex) {
        for ty in &old.types {
            if let Some(paths) = self.names.get_mut(&ty.full_name) {
                paths.retain(|p| *p != old.path);
                if paths.is_empty() {
                    self.names.remove(&ty.full_name);
                }
            }
        }
    }
}

/// The files a file's imports name.
fn targets(file: &FileIndex) -> impl Iterator<Item = PathBuf> + '_ {
    file.imports.iter().filter_map(|i| i.target.clone())
}

/// The one name of a file in the index: its real path when it exists, else its path made
/// absolute with `.` and `..` removed and its existing folders resolved (an open document not
/// yet saved).
pub fn key(path: &Path) -> PathBuf {
    avdl2rs_lint::git::absolute(path)
}

/// The workspace's texts first, the file system for the rest.
struct Indexed<'a>(&'a Workspace);

impl avdl_parser::SourceFiles for Indexed<'_> {
    fn is_file(&self, path: &Path) -> bool {
        self.0.file(path).is_some() || path.is_file()
    }

    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        match self.0.file(path) {
            Some(file) => Ok(file.text.as_bytes().to_vec()),
            None => std::fs::read(path),
        }
    }

    fn identity(&self, path: &Path) -> PathBuf {
        key(path)
    }
}
