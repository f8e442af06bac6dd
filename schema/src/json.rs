//! Writing the model back to schema JSON, the way the Java tools write it.
//!
//! Key order follows the Java reference (records: `type, name, namespace, doc, fields`, props,
//! `aliases`); a named type is written in full at its first use and by name afterwards, so the
//! output is self-contained; `namespace` is written only where it differs from the enclosing
//! one (`""` for the null namespace inside a named one).

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::{logical, Field, Name, NamedKind, NamedSchema, Order, Schema, SchemaKind, SchemaSet};

impl SchemaSet {
    /// The full JSON of `schema`: docs, defaults, aliases, orders and custom properties kept,
    /// each named type defined at its first use.
    pub fn to_json(&self, schema: &Schema) -> Value {
        JsonWriter::new(self).schema(schema, None)
    }

    /// The standalone JSON of the named type `full_name`, or `None` when it is not registered.
    pub fn named_to_json(&self, full_name: &str) -> Option<Value> {
        let named = self.get(full_name)?;
        Some(JsonWriter::new(self).named(named, None))
    }

    /// The definition of the named type `full_name` alone, every other named type it uses
    /// written by name (a name of the null namespace inside another one as `.Name`), or
    /// `None` when it is not registered: what [`Self::named_to_json`] writes with a name in
    /// place of each nested definition, in the time of the type's own JSON rather than of
    /// all the types it holds.
    pub fn definition_to_json(&self, full_name: &str) -> Option<Value> {
        let named = self.get(full_name)?;
        Some(JsonWriter::by_name(self).named(named, None))
    }

    /// [`Self::to_json`] with every named type `schema` uses written by its full name.
    pub fn to_json_by_name(&self, schema: &Schema) -> Value {
        JsonWriter::by_name(self).schema(schema, None)
    }
}

/// Writes schemas, remembering which named types it has already defined.
pub(crate) struct JsonWriter<'a> {
    set: &'a SchemaSet,
    defined: HashSet<String>,
    /// Whether every named type counts as defined already, except the one `named` writes.
    by_name: bool,
}

impl<'a> JsonWriter<'a> {
    pub(crate) fn new(set: &'a SchemaSet) -> Self {
        JsonWriter {
            set,
            defined: HashSet::new(),
            by_name: false,
        }
    }

    /// A writer that writes every named type it meets by name.
    fn by_name(set: &'a SchemaSet) -> Self {
        JsonWriter {
            by_name: true,
            ..JsonWriter::new(set)
        }
    }

    /// Whether the named type `full_name` has been written in full already.
    pub(crate) fn is_defined(&self, full_name: &str) -> bool {
        self.by_name || self.defined.contains(full_name)
    }

    /// `schema` inside a scope whose namespace is `namespace`.
    pub(crate) fn schema(&mut self, schema: &Schema, namespace: Option<&str>) -> Value {
        let type_name = match &schema.kind {
            SchemaKind::Named(name) => return self.reference(name, namespace),
            SchemaKind::Union(branches) => {
                return branches.iter().map(|b| self.schema(b, namespace)).collect();
            }
            SchemaKind::Array(_) => "array",
            SchemaKind::Map(_) => "map",
            primitive => primitive.primitive_name().unwrap_or_default(),
        };
        if schema.props.is_empty()
            && schema.logical_type.is_none()
            && schema.kind.primitive_name().is_some()
        {
            return type_name.into();
        }
        let mut object = Map::new();
        object.insert("type".into(), type_name.into());
        match &schema.kind {
            SchemaKind::Array(items) => {
                object.insert("items".into(), self.schema(items, namespace));
            }
            SchemaKind::Map(values) => {
                object.insert("values".into(), self.schema(values, namespace));
            }
            _ => {}
        }
        write_logical_and_props(&mut object, schema.logical_type, &schema.props);
        Value::Object(object)
    }

    /// A use of a named type: its definition the first time, its name afterwards.
    fn reference(&mut self, name: &Name, namespace: Option<&str>) -> Value {
        match self.set.get(&name.full_name()) {
            // Never defined in this text, a name of the null namespace inside another one
            // would read as a name of that one: it takes a leading dot.
            _ if self.by_name && name.namespace.is_none() && namespace.is_some() => {
                format!(".{}", name.name).into()
            }
            Some(named) if !self.is_defined(&name.full_name()) => self.named(named, namespace),
            _ => name.relative_to(namespace).into(),
        }
    }

    /// The definition of `named` inside a scope whose namespace is `enclosing`.
    pub(crate) fn named(&mut self, named: &NamedSchema, enclosing: Option<&str>) -> Value {
        self.defined.insert(named.name.full_name());
        let own = named.name.namespace.as_deref();
        let mut object = Map::new();
        object.insert("type".into(), named.kind.type_name().into());
        object.insert("name".into(), named.name.name.clone().into());
        if own != enclosing {
            object.insert("namespace".into(), own.unwrap_or_default().into());
        }
        if let Some(doc) = &named.doc {
            object.insert("doc".into(), doc.clone().into());
        }
        match &named.kind {
            NamedKind::Record { fields, .. } => {
                let fields = fields.iter().map(|f| self.field(f, own)).collect();
                object.insert("fields".into(), Value::Array(fields));
            }
            NamedKind::Enum { symbols, default } => {
                object.insert("symbols".into(), symbols.clone().into());
                if let Some(default) = default {
                    object.insert("default".into(), default.clone().into());
                }
            }
            NamedKind::Fixed { size } => {
                object.insert("size".into(), (*size).into());
            }
        }
        write_logical_and_props(&mut object, named.logical_type, &named.props);
        if !named.aliases.is_empty() {
            let aliases = named
                .aliases
                .iter()
                .map(|a| Value::from(a.relative_to(own)));
            object.insert("aliases".into(), aliases.collect());
        }
        Value::Object(object)
    }

    /// A record field or message parameter inside a scope whose namespace is `namespace`.
    pub(crate) fn field(&mut self, field: &Field, namespace: Option<&str>) -> Value {
        let mut object = Map::new();
        object.insert("name".into(), field.name.clone().into());
        object.insert("type".into(), self.schema(&field.schema, namespace));
        if let Some(doc) = &field.doc {
            object.insert("doc".into(), doc.clone().into());
        }
        if let Some(default) = &field.default {
            object.insert("default".into(), default.clone());
        }
        if field.order != Order::Ascending {
            object.insert("order".into(), field.order.as_str().into());
        }
        if !field.aliases.is_empty() {
            object.insert("aliases".into(), field.aliases.clone().into());
        }
        object.extend(field.props.clone());
        Value::Object(object)
    }
}

fn write_logical_and_props(
    object: &mut Map<String, Value>,
    logical_type: Option<super::LogicalType>,
    props: &super::Props,
) {
    if let Some(logical_type) = logical_type {
        for (key, value) in logical::attributes(logical_type) {
            object.insert(key.into(), value);
        }
    }
    object.extend(props.clone());
}
