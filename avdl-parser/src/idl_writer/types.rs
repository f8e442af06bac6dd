//! Types where they are used (field types, array items, union branches, message results):
//! a primitive or logical-type keyword, `array<…>`, `map<…>`, `union{…}` or `T?`, or the name
//! of a named type, which is then asked to be declared.

use serde_json::{Map, Value};

use crate::annotations::Place;

use super::declarations::identifier;
use super::names::{defined_name, full_name, is_primitive};
use super::{IdlWriteError, Writer};

impl Writer<'_, '_> {
    /// The IDL of `schema` used inside `namespace`; `T?` is allowed for a union of null and
    /// `T` when `optional` (a field whose default is absent or null).
    pub(super) fn type_ref(
        &mut self,
        schema: &Value,
        namespace: &str,
        path: &str,
        optional: bool,
    ) -> Result<String, IdlWriteError> {
        match schema {
            Value::String(name) if is_primitive(name) => Ok(name.clone()),
            Value::String(name) => self.named_ref(name, namespace, path),
            Value::Array(branches) => self.union(branches, namespace, path, optional),
            Value::Object(node) => self.object_type(node, namespace, path),
            _ => Err(IdlWriteError::new(path, "not a schema")),
        }
    }

    /// A reference to the named type `name` written inside `namespace`.
    fn named_ref(
        &mut self,
        name: &str,
        namespace: &str,
        path: &str,
    ) -> Result<String, IdlWriteError> {
        let Some(named) = self.table.resolve(name, namespace) else {
            return Err(IdlWriteError::new(path, &format!("unknown type `{name}`")));
        };
        let (target_namespace, simple) = (named.namespace.clone(), named.name.clone());
        self.request(full_name(&target_namespace, &simple));
        let simple = identifier(&simple, path)?;
        if target_namespace == namespace {
            Ok(simple)
        } else if target_namespace.is_empty() {
            Err(IdlWriteError::new(
                path,
                &format!("IDL cannot refer to `{simple}`, which has no namespace, from inside namespace `{namespace}`"),
            ))
        } else {
            Ok(format!("{target_namespace}.{simple}"))
        }
    }

    fn union(
        &mut self,
        branches: &[Value],
        namespace: &str,
        path: &str,
        optional: bool,
    ) -> Result<String, IdlWriteError> {
        if let [Value::String(null), other] = branches {
            if null == "null" && optional && !cannot_be_optional(other) {
                return Ok(format!(
                    "{}?",
                    self.type_ref(other, namespace, &format!("{path}/1"), false)?
                ));
            }
        }
        if branches.is_empty() {
            return Err(IdlWriteError::new(path, "IDL cannot write an empty union"));
        }
        let written = branches
            .iter()
            .enumerate()
            .map(|(i, b)| self.type_ref(b, namespace, &format!("{path}/{i}"), false))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(format!("union{{{}}}", written.join(", ")))
    }

    fn object_type(
        &mut self,
        node: &Map<String, Value>,
        namespace: &str,
        path: &str,
    ) -> Result<String, IdlWriteError> {
        let Some(kind) = node.get("type").and_then(Value::as_str) else {
            return Err(IdlWriteError::new(
                path,
                "IDL can only write a `type` that is a string here",
            ));
        };
        match kind {
            "record" | "error" | "enum" | "fixed" => {
                let (ns, name) = defined_name(node, namespace, path)?;
                self.named_ref(&full_name(&ns, &name), namespace, path)
            }
            "array" => self.container(node, "array", "items", namespace, path),
            "map" => self.container(node, "map", "values", namespace, path),
            primitive if is_primitive(primitive) => self.primitive(node, primitive, path),
            _ => Err(IdlWriteError::new(
                path,
                &format!("IDL can only write a type `{kind}` by its name"),
            )),
        }
    }

    fn container(
        &mut self,
        node: &Map<String, Value>,
        keyword: &str,
        key: &str,
        namespace: &str,
        path: &str,
    ) -> Result<String, IdlWriteError> {
        let Some(inner) = node.get(key) else {
            return Err(IdlWriteError::new(
                path,
                &format!("an {keyword} without `{key}`"),
            ));
        };
        let inner = self.type_ref(inner, namespace, &format!("{path}/{key}"), true)?;
        let annotations = self.type_annotations(node, &["type", key], path)?;
        Ok(format!("{annotations}{keyword}<{inner}>"))
    }

    /// A primitive type with properties: a logical-type keyword where Java's writer uses one,
    /// the other properties as annotations before it.
    fn primitive(
        &mut self,
        node: &Map<String, Value>,
        primitive: &str,
        path: &str,
    ) -> Result<String, IdlWriteError> {
        let (keyword, used): (String, &[&str]) = match keyword(node, primitive) {
            Some((keyword, used)) => (keyword, used),
            None => (primitive.to_owned(), &["type"]),
        };
        let annotations = self.type_annotations(node, used, path)?;
        Ok(format!("{annotations}{keyword}"))
    }

    /// The annotations (each followed by a space) for the properties of an unnamed type.
    fn type_annotations(
        &mut self,
        node: &Map<String, Value>,
        known: &[&str],
        path: &str,
    ) -> Result<String, IdlWriteError> {
        let start = self.out.len();
        self.properties(node, known, Place::Type.reserved(), path, |p| {
            format!("{p} ")
        })?;
        Ok(self.out.split_off(start))
    }
}

/// The keyword Java's writer uses for a primitive with a logical type, and the keys it says.
fn keyword(
    node: &Map<String, Value>,
    primitive: &str,
) -> Option<(String, &'static [&'static str])> {
    const LOGICAL: &[&str] = &["type", "logicalType"];
    match (node.get("logicalType")?.as_str()?, primitive) {
        ("date", "int") => Some(("date".to_owned(), LOGICAL)),
        ("time-millis", "int") => Some(("time_ms".to_owned(), LOGICAL)),
        ("timestamp-millis", "long") => Some(("timestamp_ms".to_owned(), LOGICAL)),
        ("decimal", "bytes") => {
            let precision = node.get("precision")?.as_u64()?;
            let scale = node.get("scale")?.as_u64()?;
            (precision > 0 && scale <= precision).then(|| {
                (
                    format!("decimal({precision},{scale})"),
                    &["type", "logicalType", "precision", "scale"][..],
                )
            })
        }
        _ => None,
    }
}

/// Whether `schema` is an array, map, union or `null`, which `T?` cannot make nullable.
fn cannot_be_optional(schema: &Value) -> bool {
    schema.is_array()
        || matches!(
            schema.get("type").and_then(Value::as_str),
            Some("array" | "map")
        )
        || schema.as_str() == Some("null")
}
