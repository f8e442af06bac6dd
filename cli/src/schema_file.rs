//! One schema from a file: IDL (`.avdl`, with its imports), or JSON (`.avsc`, `.avpr`, or an
//! IDL-produced array of named types), with `--type` choosing among several named types.

use std::path::{Path, PathBuf};

use avdl2rs::avro_json::AvroJson;
use avdl2rs::schema::{Name, Schema, SchemaSet};
use avdl_parser::ParseOptions;
use serde_json::Value;

use crate::io::Failure;
use avdl2rs_lint::git::Revision;

/// Parses the schema file `path`, from the working tree or from a git `revision`: IDL for
/// `.avdl` (imports searched beside it, then in `include_dirs`), else JSON (read without
/// serde_json's nesting limit, as the schema model reads it). Returns its named types and its
/// main schema, when it has one (a `.avsc`, or an IDL file with a `schema` line). Errors are
/// prefixed with `label`, except IDL errors, which carry their own location.
pub fn parse(
    path: &Path,
    label: &str,
    include_dirs: &[PathBuf],
    revision: Option<&Revision>,
) -> Result<(SchemaSet, Option<Schema>), Failure> {
    let invalid = |e: avdl2rs::schema::SchemaError| Failure::Message(format!("{label}: {e}"));
    let mut set = SchemaSet::new();
    let main = if path.extension().is_some_and(|e| e == "avdl") {
        let options = ParseOptions {
            include_dirs: include_dirs.to_vec(),
        };
        let parsed = match revision {
            Some(revision) => avdl_parser::parse_file_in(revision, path, &options),
            None => avdl_parser::parse_file(path, &options),
        };
        match parsed.map_err(Failure::Invalid)?.json() {
            // A schema file without a `schema` line: its named types, one by one.
            Value::Array(types) => {
                for named in types {
                    set.parse_value(named).map_err(invalid)?;
                }
                None
            }
            json => set.parse_file_value(json).map_err(invalid)?,
        }
    } else {
        let text = match revision {
            Some(revision) => revision.read_text(path)?,
            None => std::fs::read_to_string(path)
                .map_err(|e| Failure::Message(format!("cannot read {}: {e}", path.display())))?,
        };
        set.parse_file_text(&text).map_err(invalid)?
    };
    Ok((set, main))
}

/// A schema file as a command names it.
#[derive(Debug, clap::Args)]
pub struct SchemaFile {
    /// The schema file (.avdl, .avsc or .avpr).
    #[arg(value_name = "FILE")]
    pub path: PathBuf,
    /// The named type to use, for protocols and IDL files that define several (a full name,
    /// or a simple name that is unique).
    #[arg(long = "type", value_name = "FULL_NAME")]
    pub type_name: Option<String>,
}

/// A loaded schema with the named types it uses.
pub struct Loaded {
    /// The named types.
    pub set: SchemaSet,
    /// The chosen schema.
    pub schema: Schema,
}

impl Loaded {
    /// The self-contained JSON of the schema, each named type defined at its first use.
    pub fn json(&self) -> String {
        self.set.to_json(&self.schema).to_string()
    }

    /// The schema's Parsing Canonical Form.
    pub fn canonical_form(&self) -> String {
        self.set.canonical_form(&self.schema)
    }

    /// The schema, ready to read and write values in the Avro JSON encoding.
    pub fn into_avro_json(self) -> AvroJson {
        AvroJson::from_schema(self.set, self.schema)
    }
}

impl SchemaFile {
    /// Reads and parses the file (IDL imports not beside the importing file are searched in
    /// `include_dirs`), and chooses the schema.
    pub fn load(&self, include_dirs: &[PathBuf]) -> Result<Loaded, Failure> {
        let label = self.path.display().to_string();
        let (set, main) = parse(&self.path, &label, include_dirs, None)?;
        let schema = match (main, &self.type_name) {
            (Some(schema), None) => schema,
            _ => self.choose(&set, &label)?,
        };
        Ok(Loaded { set, schema })
    }

    /// The named type `--type` names, or the only one there is.
    fn choose(&self, set: &SchemaSet, label: &str) -> Result<Schema, Failure> {
        if let Some(wanted) = &self.type_name {
            return select(set, wanted, label).map(Schema::named);
        }
        let names: Vec<&Name> = set.iter().map(|named| &named.name).collect();
        match names.as_slice() {
            [name] => Ok(Schema::named((*name).clone())),
            [] => Err(Failure::Message(format!("{label} defines no type at all"))),
            several => {
                let names: Vec<String> = several.iter().map(|n| n.full_name()).collect();
                Err(Failure::Message(format!(
                    "{label} defines several types ({}): name one with --type",
                    names.join(", ")
                )))
            }
        }
    }
}

/// The named type `--type` names: a full name, or a simple name that is unique.
pub fn select(set: &SchemaSet, wanted: &str, label: &str) -> Result<Name, Failure> {
    if let Some(named) = set.get(wanted) {
        return Ok(named.name.clone());
    }
    let chosen: Vec<&Name> = set
        .iter()
        .map(|n| &n.name)
        .filter(|n| n.name == wanted)
        .collect();
    match chosen.as_slice() {
        [name] => Ok((*name).clone()),
        [] => Err(Failure::Message(format!(
            "{label} defines no type {wanted}"
        ))),
        several => {
            let list: Vec<String> = several.iter().map(|n| n.full_name()).collect();
            Err(Failure::Message(format!(
                "{label} defines several types named {wanted} ({}): give the full name",
                list.join(", ")
            )))
        }
    }
}

/// The schema of a data command, given as `--schema FILE` beside its data, with `--type`
/// and the include directories of its IDL imports.
#[derive(Debug, clap::Args)]
pub struct SchemaOption {
    /// The schema file (.avdl, .avsc or .avpr).
    #[arg(long = "schema", value_name = "FILE")]
    pub path: PathBuf,
    /// The named type to use, for protocols and IDL files that define several (a full name,
    /// or a simple name that is unique).
    #[arg(long = "type", value_name = "FULL_NAME")]
    pub type_name: Option<String>,
    /// Directory searched for IDL imports not found beside the importing file (repeatable).
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
}

impl SchemaOption {
    /// Reads, parses and chooses the schema.
    pub fn load(&self) -> Result<Loaded, Failure> {
        let file = SchemaFile {
            path: self.path.clone(),
            type_name: self.type_name.clone(),
        };
        file.load(&self.include_dirs)
    }

    /// The schema, ready to read and write values in the Avro JSON encoding.
    pub fn avro_json(&self) -> Result<AvroJson, Failure> {
        self.load().map(Loaded::into_avro_json)
    }
}
