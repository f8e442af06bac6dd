//! Parsing Canonical Form (Avro specification, "Transforming into Parsing Canonical Form").
//!
//! Primitives as bare names, full names without `namespace`, only the attributes that affect
//! parsing (`name, type, fields, symbols, items, values, size`, in that order — so
//! `logicalType`, `doc`, `aliases`, `default` and `order` go), no whitespace. A named type is
//! defined at its first occurrence and written as its full name afterwards.

use std::collections::HashSet;
use std::fmt::Write;

use serde_json::Value;

use super::{NamedKind, Schema, SchemaKind, SchemaSet};

impl SchemaSet {
    /// The Parsing Canonical Form of `schema`.
    pub fn canonical_form(&self, schema: &Schema) -> String {
        let mut out = String::new();
        Canonical {
            set: self,
            defined: HashSet::new(),
            out: &mut out,
        }
        .schema(schema);
        out
    }

    /// The CRC-64-AVRO (Rabin) fingerprint of the Parsing Canonical Form of `schema`, the
    /// identity single-object encoding and schema caches use.
    pub fn fingerprint(&self, schema: &Schema) -> u64 {
        crate::fingerprint::rabin_fingerprint(self.canonical_form(schema).as_bytes())
    }
}

struct Canonical<'a> {
    set: &'a SchemaSet,
    defined: HashSet<String>,
    out: &'a mut String,
}

impl Canonical<'_> {
    fn schema(&mut self, schema: &Schema) {
        match &schema.kind {
            SchemaKind::Array(items) => {
                self.out.push_str(r#"{"type":"array","items":"#);
                self.schema(items);
                self.out.push('}');
            }
            SchemaKind::Map(values) => {
                self.out.push_str(r#"{"type":"map","values":"#);
                self.schema(values);
                self.out.push('}');
            }
            SchemaKind::Union(branches) => {
                self.out.push('[');
                for (i, branch) in branches.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.schema(branch);
                }
                self.out.push(']');
            }
            SchemaKind::Named(name) => self.named(&name.full_name()),
            primitive => self.string(primitive.primitive_name().unwrap_or_default()),
        }
    }

    fn named(&mut self, full_name: &str) {
        let Some(named) = self.set.get(full_name) else {
            return self.string(full_name);
        };
        if !self.defined.insert(full_name.to_owned()) {
            return self.string(full_name);
        }
        self.out.push_str(r#"{"name":"#);
        self.string(full_name);
        self.out.push_str(r#","type":"#);
        // Errors are records as far as parsing data goes.
        let type_name = match named.kind {
            NamedKind::Record { .. } => "record",
            _ => named.kind.type_name(),
        };
        self.string(type_name);
        match &named.kind {
            NamedKind::Record { fields, .. } => {
                self.out.push_str(r#","fields":["#);
                for (i, field) in fields.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.out.push_str(r#"{"name":"#);
                    self.string(&field.name);
                    self.out.push_str(r#","type":"#);
                    self.schema(&field.schema);
                    self.out.push('}');
                }
                self.out.push(']');
            }
            NamedKind::Enum { symbols, .. } => {
                self.out.push_str(r#","symbols":["#);
                for (i, symbol) in symbols.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.string(symbol);
                }
                self.out.push(']');
            }
            NamedKind::Fixed { size } => {
                let _ = write!(self.out, r#","size":{size}"#);
            }
        }
        self.out.push('}');
    }

    /// A JSON string literal: only `"`, `\` and control characters escaped, everything else
    /// as UTF-8.
    fn string(&mut self, s: &str) {
        self.out.push_str(&Value::from(s).to_string());
    }
}
