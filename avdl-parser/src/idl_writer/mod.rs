//! Schema JSON (`.avsc`, `.avpr`) to Avro IDL, laid out as Java's IDL writer (`IdlUtils`)
//! lays it out, with a configurable indent.
//!
//! Every named type is declared once at the top level, in the order Java's writer declares
//! them, and referred to by name everywhere else. What IDL cannot say (a property on a union,
//! a name that is not an identifier, a doc comment that would read back differently, a
//! property name IDL reserves at that place) is an [`IdlWriteError`] naming the JSON path,
//! never a silently different schema.
//!
//! The input is expected to be a valid schema (check it with the schema model first); the walk
//! recurses as deep as the JSON nests, so a `Value` from untrusted text should be read with
//! serde_json's nesting limit, as `avdl2rs toidl` does.
//!
//! ```
//! let json = serde_json::json!({"type": "record", "name": "Ping", "namespace": "net",
//!     "fields": [{"name": "at", "type": "long"}]});
//! let idl = avdl_parser::idl_writer::schema_idl(&json, Default::default()).unwrap();
//! assert_eq!(idl, "namespace net;\n\nschema Ping;\n\nrecord Ping {\n  long at;\n}\n");
//! ```

mod declarations;
pub mod layout;
mod messages;
mod names;
mod types;

use std::collections::{HashSet, VecDeque};
use std::fmt;

use serde_json::{Map, Value};

use crate::full_name;
pub use layout::Indent;
use names::NameTable;

/// Something a schema JSON says that IDL cannot, at a JSON path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdlWriteError {
    /// Where, as a JSON pointer into the input (`""` for the whole document).
    pub path: String,
    /// What IDL cannot say there.
    pub message: String,
}

impl IdlWriteError {
    pub(crate) fn new(path: &str, message: &str) -> IdlWriteError {
        IdlWriteError {
            path: path.to_owned(),
            message: message.to_owned(),
        }
    }
}

impl fmt::Display for IdlWriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() {
            "/"
        } else {
            &self.path
        };
        write!(f, "at {path}: {}", self.message)
    }
}

impl std::error::Error for IdlWriteError {}

/// The IDL of a protocol (`.avpr` JSON) when `json` is one, else of a schema (`.avsc` JSON).
pub fn to_idl(json: &Value, indent: Indent) -> Result<String, IdlWriteError> {
    if json.get("protocol").is_some() {
        protocol_idl(json, indent)
    } else {
        schema_idl(json, indent)
    }
}

/// A schema file (`namespace n; schema T;` then the named types) for a schema's JSON; a JSON
/// array of named types alone gives the file of those types without a `schema` line.
pub fn schema_idl(schema: &Value, indent: Indent) -> Result<String, IdlWriteError> {
    let mut table = NameTable::default();
    table.collect(schema, "", "")?;
    let list = named_list(schema);
    // The namespace of the main type, or of the first type of a list.
    let namespace = match table.order.first() {
        Some(first) if list.is_some() || first.path.is_empty() => first.namespace.clone(),
        _ => String::new(),
    };
    let mut writer = Writer::new(&table, indent);
    if !namespace.is_empty() {
        writer.out.push_str(&format!("namespace {namespace};\n\n"));
    }
    match list {
        Some(all) => (0..all).for_each(|i| writer.request(table.order[i].full_name())),
        None => {
            let main = writer.type_ref(schema, &namespace, "", true)?;
            writer.out.push_str(&format!("schema {main};\n\n"));
        }
    }
    writer.declare_queued(0, &namespace)?;
    Ok(writer.out)
}

/// How many named types a JSON array of named types holds, if `schema` is one (the form IDL
/// gives a schema file without a `schema` line).
fn named_list(schema: &Value) -> Option<usize> {
    let items = schema.as_array()?;
    let named = |item: &Value| {
        matches!(
            item.get("type").and_then(Value::as_str),
            Some("record" | "error" | "enum" | "fixed")
        )
    };
    (!items.is_empty() && items.iter().all(named)).then_some(items.len())
}

/// A protocol file for a protocol's JSON.
pub fn protocol_idl(protocol: &Value, indent: Indent) -> Result<String, IdlWriteError> {
    let Some(object) = protocol.as_object() else {
        return Err(IdlWriteError::new("", "a protocol must be a JSON object"));
    };
    let mut table = NameTable::default();
    let types = object.get("types").and_then(Value::as_array);
    let (namespace, name) = protocol_name(object)?;
    for (i, ty) in types.into_iter().flatten().enumerate() {
        table.collect(ty, &namespace, &format!("/types/{i}"))?;
    }
    let messages = messages::messages(object)?;
    for (key, message) in &messages {
        messages::collect(&mut table, message, &namespace, key)?;
    }
    let mut writer = Writer::new(&table, indent);
    writer.protocol_head(object, &namespace, &name)?;
    for named in &table.order {
        writer.request(named.full_name());
    }
    writer.declare_queued(1, &namespace)?;
    if !table.order.is_empty() && !messages.is_empty() {
        writer.out.push('\n');
    }
    for (key, message) in &messages {
        writer.message(key, message, &namespace)?;
    }
    writer.out.push_str("}\n");
    Ok(writer.out)
}

/// `(namespace, name)` of a protocol.
fn protocol_name(object: &Map<String, Value>) -> Result<(String, String), IdlWriteError> {
    let Some(full) = object.get("protocol").and_then(Value::as_str) else {
        return Err(IdlWriteError::new(
            "/protocol",
            "the protocol name must be a string",
        ));
    };
    let declared = object.get("namespace").and_then(Value::as_str);
    let (name, namespace) = full_name::name_in(full, declared);
    Ok((namespace.unwrap_or("").to_owned(), name.to_owned()))
}

/// The text being written and which named types are declared or waiting to be.
struct Writer<'t, 'a> {
    table: &'t NameTable<'a>,
    indent: Indent,
    out: String,
    /// Types declared or waiting in `queue`.
    seen: HashSet<String>,
    /// Types referred to but not declared yet, in the order of first reference.
    queue: VecDeque<String>,
}

impl<'t, 'a> Writer<'t, 'a> {
    fn new(table: &'t NameTable<'a>, indent: Indent) -> Self {
        Writer {
            table,
            indent,
            out: String::new(),
            seen: HashSet::new(),
            queue: VecDeque::new(),
        }
    }

    /// Asks for `full_name` to be declared, unless it is or will be.
    fn request(&mut self, full_name: String) {
        if self.seen.insert(full_name.clone()) {
            self.queue.push_back(full_name);
        }
    }

    /// Declares the waiting types, and those they refer to, `depth` levels deep, separated
    /// by blank lines.
    fn declare_queued(&mut self, depth: usize, namespace: &str) -> Result<(), IdlWriteError> {
        let mut first = true;
        while let Some(full) = self.queue.pop_front() {
            if !first {
                self.out.push('\n');
            }
            first = false;
            let named = self
                .table
                .resolve(&full, "")
                .expect("queued names come from the table");
            self.declaration(named, depth, namespace)?;
        }
        Ok(())
    }
}
