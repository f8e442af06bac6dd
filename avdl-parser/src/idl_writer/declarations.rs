//! Named type declarations (`record`, `error`, `enum`, `fixed`) and record fields, with their
//! docs and annotations.

use serde_json::{Map, Value};

use super::layout::{annotation, doc_comment, is_annotation_name, is_identifier_part, quoted_name};
use super::names::Named;
use super::{IdlWriteError, Writer};

/// Keys IDL reserves on a named type: no annotation can give them.
const NAMED_RESERVED: [&str; 9] = [
    "doc", "fields", "items", "name", "size", "symbols", "values", "type", "default",
];

/// The keys of a field that are not properties.
const FIELD_KEYS: [&str; 6] = ["name", "type", "doc", "default", "order", "aliases"];

impl Writer<'_, '_> {
    /// The declaration of `named`, `depth` levels deep, in a file whose namespace is
    /// `default_namespace`.
    pub(super) fn declaration(
        &mut self,
        named: &Named<'_>,
        depth: usize,
        default_namespace: &str,
    ) -> Result<(), IdlWriteError> {
        let node = named.node;
        let path = named.path.as_str();
        let kind = node.get("type").and_then(Value::as_str).unwrap_or_default();
        let own: &[&str] = match kind {
            "enum" => &["symbols", "default"],
            "fixed" => &["size"],
            _ => &["fields"],
        };
        let indent = self.indent.at(depth);
        self.doc(node, &indent, path)?;
        let known = ["type", "name", "namespace", "doc", "aliases"];
        self.properties(
            node,
            &[&known[..], own].concat(),
            &NAMED_RESERVED,
            path,
            |p| format!("{indent}{p}\n"),
        )?;
        if named.namespace != default_namespace {
            let ns = Value::String(named.namespace.clone());
            self.out
                .push_str(&format!("{indent}{}\n", annotation("namespace", &ns)));
        }
        if let Some(aliases) = node.get("aliases") {
            let full = type_aliases(aliases, &named.namespace, &format!("{path}/aliases"))?;
            self.out
                .push_str(&format!("{indent}{}\n", annotation("aliases", &full)));
        }
        let name = declared_name(&named.name, &format!("{path}/name"))?;
        match kind {
            "enum" => self.enum_body(node, &name, depth, path),
            "fixed" => self.fixed_body(node, &name, &indent, path),
            _ => self.record_body(named, kind, &name, depth),
        }
    }

    fn record_body(
        &mut self,
        named: &Named<'_>,
        kind: &str,
        name: &str,
        depth: usize,
    ) -> Result<(), IdlWriteError> {
        let indent = self.indent.at(depth);
        self.out.push_str(&format!("{indent}{kind} {name} {{\n"));
        let path = &named.path;
        let Some(fields) = named.node.get("fields").and_then(Value::as_array) else {
            return Err(IdlWriteError::new(
                path,
                "a record without a `fields` array",
            ));
        };
        for (i, field) in fields.iter().enumerate() {
            let field_path = format!("{path}/fields/{i}");
            self.field(field, &named.namespace, Some(depth + 1), &field_path)?;
            self.out.push_str(";\n");
        }
        self.out.push_str(&format!("{indent}}}\n"));
        Ok(())
    }

    fn enum_body(
        &mut self,
        node: &Map<String, Value>,
        name: &str,
        depth: usize,
        path: &str,
    ) -> Result<(), IdlWriteError> {
        let Some(symbols) = node.get("symbols").and_then(Value::as_array) else {
            return Err(IdlWriteError::new(
                path,
                "an enum without a `symbols` array",
            ));
        };
        let symbols = symbols
            .iter()
            .enumerate()
            .map(|(i, s)| identifier_value(s, &format!("{path}/symbols/{i}")))
            .collect::<Result<Vec<_>, _>>()?;
        let (indent, inner) = (self.indent.at(depth), self.indent.at(depth + 1));
        let default = match node.get("default") {
            Some(symbol) => format!(
                " = {};",
                identifier_value(symbol, &format!("{path}/default"))?
            ),
            None => String::new(),
        };
        self.out.push_str(&format!(
            "{indent}enum {name} {{\n{inner}{}\n{indent}}}{default}\n",
            symbols.join(", ")
        ));
        Ok(())
    }

    fn fixed_body(
        &mut self,
        node: &Map<String, Value>,
        name: &str,
        indent: &str,
        path: &str,
    ) -> Result<(), IdlWriteError> {
        let Some(size) = node.get("size").and_then(Value::as_u64) else {
            return Err(IdlWriteError::new(
                path,
                "a fixed type without an integer `size`",
            ));
        };
        self.out
            .push_str(&format!("{indent}fixed {name}({size});\n"));
        Ok(())
    }

    /// A field or message parameter, `depth` levels deep on a line of its own with its doc,
    /// or inline (`None`, without doc), with type names relative to `namespace`; the
    /// separator after it is the caller's.
    pub(super) fn field(
        &mut self,
        field: &Value,
        namespace: &str,
        depth: Option<usize>,
        path: &str,
    ) -> Result<(), IdlWriteError> {
        let Some(object) = field.as_object() else {
            return Err(IdlWriteError::new(path, "a field must be a JSON object"));
        };
        if let Some(depth) = depth {
            let indent = self.indent.at(depth);
            self.doc(object, &indent, path)?;
            self.out.push_str(&indent);
        }
        let Some(ty) = object.get("type") else {
            return Err(IdlWriteError::new(path, "a field without a `type`"));
        };
        let default = object.get("default");
        let ty = self.type_ref(
            ty,
            namespace,
            &format!("{path}/type"),
            default.is_none_or(Value::is_null),
        )?;
        self.out.push_str(&ty);
        self.out.push(' ');
        if let Some(aliases) = object.get("aliases") {
            self.out
                .push_str(&format!("{} ", annotation("aliases", aliases)));
        }
        if let Some(order) = object.get("order") {
            let upper = order.as_str().map(str::to_uppercase).map(Value::String);
            let Some(upper) = upper else {
                return Err(IdlWriteError::new(
                    &format!("{path}/order"),
                    "an order that is not a string",
                ));
            };
            self.out
                .push_str(&format!("{} ", annotation("order", &upper)));
        }
        self.properties(object, &FIELD_KEYS, &[], path, |p| format!("{p} "))?;
        let name = object.get("name").unwrap_or(&Value::Null);
        self.out
            .push_str(&identifier_value(name, &format!("{path}/name"))?);
        if let Some(default) = default {
            self.out
                .push_str(&format!(" = {}", super::layout::json_text(default)));
        }
        Ok(())
    }

    /// The doc of `node`, if it has one, as a doc comment that reads back as the same doc.
    pub(super) fn doc(
        &mut self,
        node: &Map<String, Value>,
        indent: &str,
        path: &str,
    ) -> Result<(), IdlWriteError> {
        let Some(doc) = node.get("doc") else {
            return Ok(());
        };
        let path = format!("{path}/doc");
        let Some(doc) = doc.as_str() else {
            return Err(IdlWriteError::new(&path, "a doc that is not a string"));
        };
        let comment = doc_comment(indent, doc);
        let inner = comment
            .trim_end()
            .strip_prefix(indent)
            .and_then(|c| c.strip_prefix("/**"))
            .and_then(|c| c.strip_suffix("*/"));
        if doc.contains("*/") || inner.map(crate::doc::doc_text).as_deref() != Some(doc) {
            return Err(IdlWriteError::new(
                &path,
                "this doc cannot be written as a doc comment that reads back the same \
                 (it contains `*/`, or has blank or indented lines, or spaces at its ends)",
            ));
        }
        self.out.push_str(&comment);
        Ok(())
    }

    /// Annotations for the keys of `node` that are not in `known`, each laid out by `line`;
    /// a key in `reserved` or not spelt like an identifier is an error.
    pub(super) fn properties(
        &mut self,
        node: &Map<String, Value>,
        known: &[&str],
        reserved: &[&str],
        path: &str,
        line: impl Fn(String) -> String,
    ) -> Result<(), IdlWriteError> {
        for (key, value) in node {
            if known.contains(&key.as_str()) {
                continue;
            }
            let at = format!("{path}/{}", key.replace('~', "~0").replace('/', "~1"));
            if reserved.contains(&key.as_str()) {
                return Err(IdlWriteError::new(
                    &at,
                    &format!("IDL cannot give the property `{key}` here"),
                ));
            }
            if !is_annotation_name(key) {
                return Err(IdlWriteError::new(
                    &at,
                    &format!("the property name `{key}` cannot be written as an IDL annotation"),
                ));
            }
            self.out.push_str(&line(annotation(key, value)));
        }
        Ok(())
    }
}

/// A named type's aliases as Java's writer gives them: full names, qualified with the type's
/// namespace where they have none.
fn type_aliases(aliases: &Value, namespace: &str, path: &str) -> Result<Value, IdlWriteError> {
    let Some(list) = aliases.as_array() else {
        return Err(IdlWriteError::new(path, "aliases that are not an array"));
    };
    let full = list.iter().map(|alias| match alias.as_str() {
        Some(alias) => Value::String(crate::full_name::qualify(alias, Some(namespace))),
        None => alias.clone(),
    });
    Ok(Value::Array(full.collect()))
}

/// A simple name as IDL writes it, or an error if no spelling of it is an IDL identifier.
pub(super) fn identifier(name: &str, path: &str) -> Result<String, IdlWriteError> {
    if is_identifier_part(name) {
        Ok(quoted_name(name))
    } else {
        Err(IdlWriteError::new(
            path,
            &format!("`{name}` is not a name IDL can write, even in backticks"),
        ))
    }
}

/// [`identifier`] of a declared type or protocol, whose name IDL refuses when it is a
/// built-in type's keyword (`int`, `date`, …).
pub(super) fn declared_name(name: &str, path: &str) -> Result<String, IdlWriteError> {
    crate::names::check_protocol_name(name).map_err(|_| {
        IdlWriteError::new(
            path,
            &format!("IDL cannot declare a type or protocol named `{name}`, a built-in type"),
        )
    })?;
    identifier(name, path)
}

/// [`identifier`] of a JSON value that must be a string.
fn identifier_value(value: &Value, path: &str) -> Result<String, IdlWriteError> {
    match value.as_str() {
        Some(name) => identifier(name, path),
        None => Err(IdlWriteError::new(path, "a name that is not a string")),
    }
}
