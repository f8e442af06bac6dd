//! A file compiled as the CLI compiles it (IDL with its imports), reading the indexed text of
//! every file the workspace has (so open, unsaved documents count) and the disk otherwise:
//! what hover's fingerprint and Rust types, and the compatibility check, need.
//!
//! Compiling a large protocol takes far longer than a hover may, so each file's result is
//! kept until any indexed file changes (the workspace's generation), and the Rust types of
//! its fields are worked out once, on the first hover that asks.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use avdl2rs_schema::{Name, Schema, SchemaSet};
use serde_json::Value;

use super::model::{FileIndex, FileKind};

/// The stack of the thread that compiles, fingerprints and checks: reserved, not committed,
/// until a deep schema (a chain of thousands of nested records) uses it.
const DEEP_STACK: usize = 1 << 30;

/// Runs `work` on a thread with a stack deep schemas cannot exhaust: compiling, the
/// canonical form and the compatibility check recurse as deep as the schema nests.
pub(crate) fn deep<T: Send>(work: impl FnOnce() -> T + Send) -> Option<T> {
    std::thread::scope(|scope| {
        let thread = std::thread::Builder::new()
            .stack_size(DEEP_STACK)
            .spawn_scoped(scope, work)
            .ok()?;
        thread.join().ok()
    })
}

/// A file's schemas, compiled.
#[derive(Debug)]
pub struct Compiled {
    /// The file's schema JSON.
    pub json: Value,
    /// Its named types.
    pub set: SchemaSet,
    /// The Rust type of each field, by record, then field: filled on first use.
    rust_types: OnceLock<HashMap<String, HashMap<String, String>>>,
    /// The fingerprints worked out so far (a type deep in a chain of records has a canonical
    /// form as long as the chain).
    fingerprints: Mutex<HashMap<String, Option<u64>>>,
}

impl Compiled {
    /// The CRC-64-AVRO fingerprint of the Parsing Canonical Form of `full_name`.
    pub fn fingerprint(&self, full_name: &str) -> Option<u64> {
        let known = |cache: &Mutex<HashMap<String, Option<u64>>>| {
            cache
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get(full_name)
                .copied()
        };
        if let Some(found) = known(&self.fingerprints) {
            return found;
        }
        let schema = Schema::named(Name::parse(full_name, None));
        let found = match self.set.get(full_name) {
            Some(_) => deep(|| self.set.fingerprint(&schema)),
            None => None,
        };
        let mut cache = self
            .fingerprints
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        cache.insert(full_name.to_owned(), found);
        found
    }

    /// The Rust type the code generator (default options) gives field `field` of `record`.
    pub fn rust_type(&self, record: &str, field: &str) -> Option<&str> {
        let types = self.rust_types.get_or_init(|| {
            let mut generator =
                avdl2rs_codegen::Generator::new(avdl2rs_codegen::Options::default());
            let records = match generator.add_schema_value(&self.json, "hover") {
                Ok(()) => generator.field_types().unwrap_or_default(),
                Err(_) => Vec::new(),
            };
            records
                .into_iter()
                .map(|(name, fields)| (name, fields.into_iter().collect()))
                .collect()
        });
        types.get(record)?.get(field).map(String::as_str)
    }
}

/// The compiled schemas of `file`, reading imports through `files`; `None` when it does not
/// compile (the diagnostics say why). Run where deep schemas cannot overflow the stack.
pub(super) fn compile(
    files: &(dyn avdl_parser::SourceFiles + Sync),
    include_dirs: &[PathBuf],
    file: &FileIndex,
) -> Option<Arc<Compiled>> {
    let (json, set) = deep(|| {
        let json = file_json(files, include_dirs, file)?;
        let set = schema_set(&json)?;
        Some((json, set))
    })??;
    Some(Arc::new(Compiled {
        json,
        set,
        rust_types: OnceLock::new(),
        fingerprints: Mutex::default(),
    }))
}

/// A file's schema JSON: an IDL file compiled with its imports, a JSON file parsed.
fn file_json(
    files: &dyn avdl_parser::SourceFiles,
    include_dirs: &[PathBuf],
    file: &FileIndex,
) -> Option<Value> {
    match file.kind {
        FileKind::Idl => {
            let options = avdl_parser::ParseOptions {
                include_dirs: include_dirs.to_vec(),
            };
            let parsed = avdl_parser::parse_file_in(files, &file.path, &options).ok()?;
            Some(parsed.json().clone())
        }
        FileKind::Schema | FileKind::Protocol => {
            avdl2rs_lint::json_text::JsonText::parse(&file.text)
                .ok()
                .map(|json| json.value)
        }
    }
}

/// The named types of schema JSON, in a set of their own.
pub fn schema_set(json: &Value) -> Option<SchemaSet> {
    let mut set = SchemaSet::new();
    set.parse_file_value(json).ok()?;
    Some(set)
}
