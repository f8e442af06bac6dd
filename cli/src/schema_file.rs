//! One schema from a file: IDL (`.avdl`, with its imports), or JSON (`.avsc`, `.avpr`, or an
//! IDL-produced array of named types), with `--type` choosing among several named types.

use std::path::PathBuf;

use avdl2rs::schema::{Schema, SchemaSet};
use avdl_parser::ParseOptions;
use serde_json::Value;

use crate::io::Failure;

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
}

impl SchemaFile {
    /// Reads and parses the file (IDL imports not beside the importing file are searched in
    /// `include_dirs`), and chooses the schema.
    pub fn load(&self, include_dirs: &[PathBuf]) -> Result<Loaded, Failure> {
        let label = self.path.display().to_string();
        let message = |e: &dyn std::fmt::Display| Failure::Message(format!("{label}: {e}"));
        let json = if self.path.extension().is_some_and(|e| e == "avdl") {
            self.idl_json(include_dirs)?
        } else {
            let text = std::fs::read_to_string(&self.path).map_err(|e| message(&e))?;
            serde_json::from_str(&text).map_err(|e| message(&e))?
        };
        let mut set = SchemaSet::new();
        let top = match &json {
            Value::Object(object) if object.contains_key("protocol") => {
                set.parse_protocol_value(&json).map_err(|e| message(&e))?;
                None
            }
            Value::Array(types) => {
                for named in types {
                    set.parse_value(named).map_err(|e| message(&e))?;
                }
                None
            }
            _ => Some(set.parse_value(&json).map_err(|e| message(&e))?),
        };
        let schema = match (top, &self.type_name) {
            (Some(schema), None) => schema,
            _ => self.choose(&set, &label)?,
        };
        Ok(Loaded { set, schema })
    }

    fn idl_json(&self, include_dirs: &[PathBuf]) -> Result<Value, Failure> {
        let mut include_dirs = include_dirs.to_vec();
        if let Some(dir) = self.path.parent() {
            include_dirs.push(dir.to_path_buf());
        }
        let options = ParseOptions { include_dirs };
        let file = avdl_parser::parse_file(&self.path, &options).map_err(Failure::Invalid)?;
        Ok(file.to_json())
    }

    /// The named type `--type` names, or the only one there is.
    fn choose(&self, set: &SchemaSet, label: &str) -> Result<Schema, Failure> {
        let wanted = self.type_name.as_deref();
        let matching: Vec<_> = set
            .iter()
            .map(|named| &named.name)
            .filter(|name| wanted.is_none_or(|w| name.full_name() == w || name.name == w))
            .collect();
        match matching.as_slice() {
            [name] => Ok(Schema::named((*name).clone())),
            [] => Err(Failure::Message(format!(
                "{label} defines no type {}",
                wanted.unwrap_or("at all")
            ))),
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
