//! The schema node of each generated named type and union enum (the runtime's
//! `__private::derive_schema::Node`), so that a hand-written type with `#[derive(Avro)]` can
//! hold a generated type as a field: the derive assembles its schema from the nodes of the
//! types it holds, and a generated type's node is its own definition with the named types it
//! uses as references to their nodes, so that each is defined once in the assembled schema.

use avdl2rs_emit::node::{self, Nested, NodeText};
use avdl2rs_schema::{Name, SchemaKind, SchemaSet};
use proc_macro2::TokenStream;
use serde_json::Value as Json;

use crate::render::{ident, Renderer};
use crate::space::{DefKind, TypeDef};
use crate::Error;

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
fn node_texts(mut json: Json, namespace: Option<&str>) -> Result<(NodeText, Vec<String>), String> {
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

/// The node statics and the `DerivedSchema` impl of `def`: of every named type, and of the
/// union enums without a `null` branch (with one, the enum is held in an `Option` and has no
/// codec of its own to hold it by).
pub(crate) fn node_items(r: &Renderer<'_>, def: &TypeDef) -> Result<Option<TokenStream>, Error> {
    let invalid = |message: String| Error::Unsupported {
        message: format!("the schema node of {}: {message}", def.ident),
    };
    let union_node;
    let (texts, used, node_name, namespace) = match (&def.kind, def.named()) {
        (_, Some(named)) => {
            let full_name = named.name.full_name();
            let node = r.type_node(&full_name)?;
            let namespace = named.name.namespace.as_deref();
            (&node.texts, &node.nested, full_name, namespace)
        }
        (
            DefKind::Union {
                null_index: None,
                schema,
                ..
            },
            None,
        ) => {
            union_node = node_texts(r.set().to_json_by_name(schema), None).map_err(invalid)?;
            (&union_node.0, &union_node.1, String::new(), None)
        }
        _ => return Ok(None),
    };
    let nested: Vec<Nested> = used
        .iter()
        .map(|name| match r.named_type(name) {
            Some(id) => Ok(Nested::Type(r.path_to(id, &def.module))),
            // A fixed under a logical type has no Rust type of its own.
            None => r
                .set()
                .named_to_json(name)
                .map(Nested::Fixed)
                .ok_or_else(|| invalid(format!("{name} is not registered"))),
        })
        .collect::<Result<_, _>>()?;
    node::node_items(
        &ident(&def.ident),
        &node_name,
        namespace.unwrap_or_default(),
        texts,
        &nested,
    )
    .map(Some)
    .map_err(invalid)
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
