//! Schemas parsed for the compatibility tests, each with the set that holds its named types.

use avdl2rs::compat::SchemaRef;
use avdl2rs::schema::{Schema, SchemaSet};

/// One parsed schema and its own set of named types.
pub struct Parsed {
    set: SchemaSet,
    schema: Schema,
}

impl Parsed {
    /// The schema as the compatibility checks take it.
    pub fn as_ref(&self) -> SchemaRef<'_> {
        SchemaRef::new(&self.set, &self.schema)
    }
}

/// Parses `json`, panicking with the schema text when it is invalid.
pub fn parse(json: &str) -> Parsed {
    let mut set = SchemaSet::new();
    let schema = set
        .parse_str(json)
        .unwrap_or_else(|e| panic!("{json}: {e}"));
    Parsed { set, schema }
}
