//! A file compiled as the CLI compiles it (IDL with its imports), reading the indexed text of
//! every file the workspace has (so open, unsaved documents count) and the disk otherwise:
//! what hover's fingerprint and Rust types, and the compatibility check, need.

use std::path::{Path, PathBuf};

use avdl2rs_schema::{Name, Schema, SchemaSet};
use serde_json::Value;

use super::model::{FileIndex, FileKind};
use super::workspace::{key, Workspace};

/// A file's schema JSON: an IDL file compiled with its imports, a JSON file parsed. `None`
/// when it does not compile (the diagnostics say why).
pub fn file_json(workspace: &Workspace, file: &FileIndex) -> Option<Value> {
    match file.kind {
        FileKind::Idl => {
            let options = avdl_parser::ParseOptions {
                include_dirs: workspace.include_dirs().to_vec(),
            };
            let files = Indexed(workspace);
            let parsed = avdl_parser::parse_file_in(&files, &file.path, &options).ok()?;
            Some(parsed.json().clone())
        }
        FileKind::Schema | FileKind::Protocol => serde_json::from_str(&file.text).ok(),
    }
}

/// The named types of a file's JSON, in a set of their own.
pub fn schema_set(json: &Value) -> Option<SchemaSet> {
    let mut set = SchemaSet::new();
    set.parse_file_value(json).ok()?;
    Some(set)
}

/// The CRC-64-AVRO fingerprint of the Parsing Canonical Form of `full_name` in `set`.
pub fn fingerprint(set: &SchemaSet, full_name: &str) -> Option<u64> {
    set.get(full_name)?;
    let schema = Schema::named(Name::parse(full_name, None));
    Some(set.fingerprint(&schema))
}

/// The Rust type the code generator (default options) gives each field of `record`.
pub fn field_rust_types(json: &Value, record: &str) -> Option<Vec<(String, String)>> {
    let mut generator = avdl2rs_codegen::Generator::new(avdl2rs_codegen::Options::default());
    generator.add_schema_value(json, "hover").ok()?;
    generator.field_types(record).ok().flatten()
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
