//! The schema node of each generated named type and union enum (the runtime's
//! `__private::Node`): its own definition with the named types it uses as references to
//! their nodes, so that each is defined once in an assembled schema. The runtime assembles a
//! generated type's `SCHEMA_JSON` from them, and a hand-written type with `#[derive(Avro)]`
//! that holds a generated type its own.

use avdl2rs_emit::node::{self, NodeText};
use avdl2rs_schema::{Name, SchemaKind, SchemaSet};
use serde_json::Value as Json;

/// The node of a named type, as the generator computes it from the schemas.
pub(crate) struct TypeNode {
    /// The type's name.
    pub name: Name,
    /// Its texts, with the named types it uses as [`node::Piece::Nested`].
    pub texts: NodeText,
    /// The full names of those types, in the order of their placeholders.
    pub nested: Vec<String>,
    /// What [`node::named_types`] counts in the type's own definition: the type, and any
    /// object of its docs, defaults or properties that looks like a named type's definition.
    /// The count for a standalone schema is the sum over the types it defines.
    pub named_types: usize,
}

/// The node of the named type `full_name` of `set`.
pub(crate) fn type_node(set: &SchemaSet, full_name: &str) -> Result<TypeNode, String> {
    let (Some(named), Some(json)) = (set.get(full_name), set.definition_to_json(full_name)) else {
        return Err("not registered".into());
    };
    let named_types = node::named_types(&json);
    let name = named.name.clone();
    let (texts, nested) = node_texts(json, name.namespace.as_deref())?;
    Ok(TypeNode {
        name,
        texts,
        nested,
        named_types,
    })
}

/// The node texts of the schema `json`, and the full names of the named types it uses
/// (defined inline or by name) in the order of their placeholders.
pub(crate) fn node_texts(
    mut json: Json,
    namespace: Option<&str>,
) -> Result<(NodeText, Vec<String>), String> {
    let mut used = Vec::new();
    let mut defaults = Vec::new();
    if let Some(fields) = json.get_mut("fields").and_then(Json::as_array_mut) {
        for (index, field) in fields.iter_mut().enumerate() {
            let Json::Object(field) = field else { continue };
            // Defaults are added after validation: the placeholders cannot hold them.
            if let Some(default) = field.remove("default") {
                defaults.push((index, default));
            }
            if let Some(ty) = field.get_mut("type") {
                cut_nested(ty, namespace, &mut used);
            }
        }
    } else if json.is_array() {
        cut_nested(&mut json, namespace, &mut used);
    }
    let texts = node::parse(&json, used.len())?.texts(&defaults);
    Ok((texts, used))
}

/// Replaces every named type that the schema `ty` (inside `namespace`) uses, defined inline
/// or referred to by name, by the placeholder of its full name's position in `used`.
fn cut_nested(ty: &mut Json, namespace: Option<&str>, used: &mut Vec<String>) {
    let name = match ty {
        Json::String(name) if SchemaKind::primitive(name).is_none() => Name::parse(name, namespace),
        Json::Array(branches) => {
            branches
                .iter_mut()
                .for_each(|b| cut_nested(b, namespace, used));
            return;
        }
        Json::Object(object) => match object.get("type").and_then(Json::as_str) {
            Some("record" | "error" | "enum" | "fixed") => {
                let own = match object.get("namespace").and_then(Json::as_str) {
                    Some("") => None,
                    Some(own) => Some(own),
                    None => namespace,
                };
                Name::parse(object["name"].as_str().unwrap_or_default(), own)
            }
            Some("array") => {
                if let Some(items) = object.get_mut("items") {
                    cut_nested(items, namespace, used);
                }
                return;
            }
            Some("map") => {
                if let Some(values) = object.get_mut("values") {
                    cut_nested(values, namespace, used);
                }
                return;
            }
            _ => return,
        },
        _ => return,
    };
    let full_name = name.full_name();
    let position = match used.iter().position(|n| *n == full_name) {
        Some(position) => position,
        None => {
            used.push(full_name);
            used.len() - 1
        }
    };
    *ty = Json::String(node::placeholder(position));
}
