//! The named types of a schema JSON: where each is defined and its full name, found by one walk
//! that follows the specification's namespace inheritance, so that the writer can declare
//! every type once at the top level and refer to it by name elsewhere.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::IdlWriteError;

/// A named type's definition in the JSON.
#[derive(Debug)]
pub(super) struct Named<'a> {
    /// The definition object.
    pub node: &'a Map<String, Value>,
    /// Where it is, as a JSON pointer.
    pub path: String,
    /// Its namespace (`""` for none).
    pub namespace: String,
    /// Its name without the namespace.
    pub name: String,
}

impl Named<'_> {
    /// `namespace.name`, or `name` without a namespace.
    pub fn full_name(&self) -> String {
        full_name(&self.namespace, &self.name)
    }
}

/// `namespace.name`, or `name` in the null namespace (written as an empty namespace here).
pub(super) fn full_name(namespace: &str, name: &str) -> String {
    crate::full_name::join(Some(namespace), name).into_owned()
}

/// Every named type, in the order of their definitions (a type before the types it defines
/// inside it), as Java's protocol lists them.
#[derive(Debug, Default)]
pub(super) struct NameTable<'a> {
    pub order: Vec<Named<'a>>,
    index: HashMap<String, usize>,
}

const PRIMITIVES: [&str; 8] = [
    "null", "boolean", "int", "long", "float", "double", "bytes", "string",
];

/// Whether `name` is a primitive type's name.
pub(super) fn is_primitive(name: &str) -> bool {
    PRIMITIVES.contains(&name)
}

impl<'a> NameTable<'a> {
    /// The type `reference` means when written in `namespace`: the name in that namespace,
    /// else the name as written.
    pub fn resolve(&self, reference: &str, namespace: &str) -> Option<&Named<'a>> {
        let qualified = crate::full_name::qualify(reference, Some(namespace));
        self.index
            .get(&qualified)
            .or_else(|| self.index.get(reference))
            .map(|&i| &self.order[i])
    }

    /// Records the named types defined in `schema` (at `path`, inside `namespace`).
    pub fn collect(
        &mut self,
        schema: &'a Value,
        namespace: &str,
        path: &str,
    ) -> Result<(), IdlWriteError> {
        match schema {
            Value::Array(branches) => branches
                .iter()
                .enumerate()
                .try_for_each(|(i, b)| self.collect(b, namespace, &format!("{path}/{i}"))),
            Value::Object(node) => self.collect_object(node, namespace, path),
            _ => Ok(()),
        }
    }

    fn collect_object(
        &mut self,
        node: &'a Map<String, Value>,
        namespace: &str,
        path: &str,
    ) -> Result<(), IdlWriteError> {
        match node.get("type").and_then(Value::as_str) {
            Some("record" | "error" | "enum" | "fixed") => {
                let own = self.define(node, namespace, path)?;
                let fields = node.get("fields").and_then(Value::as_array);
                for (i, field) in fields.into_iter().flatten().enumerate() {
                    if let Some(ty) = field.get("type") {
                        self.collect(ty, &own, &format!("{path}/fields/{i}/type"))?;
                    }
                }
                Ok(())
            }
            Some("array") => self.collect_child(node, "items", namespace, path),
            Some("map") => self.collect_child(node, "values", namespace, path),
            _ => Ok(()),
        }
    }

    fn collect_child(
        &mut self,
        node: &'a Map<String, Value>,
        key: &str,
        namespace: &str,
        path: &str,
    ) -> Result<(), IdlWriteError> {
        match node.get(key) {
            Some(child) => self.collect(child, namespace, &format!("{path}/{key}")),
            None => Ok(()),
        }
    }

    /// Registers the named type `node`; returns its namespace, the one its members inherit.
    fn define(
        &mut self,
        node: &'a Map<String, Value>,
        enclosing: &str,
        path: &str,
    ) -> Result<String, IdlWriteError> {
        let (namespace, name) = defined_name(node, enclosing, path)?;
        let named = Named {
            node,
            path: path.to_owned(),
            namespace: namespace.clone(),
            name,
        };
        let full = named.full_name();
        if self.index.contains_key(&full) {
            return Err(IdlWriteError::new(
                path,
                &format!("`{full}` is defined a second time"),
            ));
        }
        self.index.insert(full, self.order.len());
        self.order.push(named);
        Ok(namespace)
    }
}

/// `(namespace, name)` of the named type defined by `node` inside `enclosing`: from a dotted
/// name, else its `namespace`, else the enclosing one.
pub(super) fn defined_name(
    node: &Map<String, Value>,
    enclosing: &str,
    path: &str,
) -> Result<(String, String), IdlWriteError> {
    let Some(written) = node.get("name").and_then(Value::as_str) else {
        return Err(IdlWriteError::new(
            path,
            "a named type without a string `name`",
        ));
    };
    Ok(
        match (crate::full_name::split(written), node.get("namespace")) {
            (Some((ns, name)), _) => (ns.to_owned(), name.to_owned()),
            (None, Some(Value::String(ns))) => (ns.clone(), written.to_owned()),
            (None, Some(Value::Null)) => (String::new(), written.to_owned()),
            (None, Some(_)) => {
                return Err(IdlWriteError::new(
                    &format!("{path}/namespace"),
                    "a namespace that is not a string",
                ))
            }
            (None, None) => (enclosing.to_owned(), written.to_owned()),
        },
    )
}
