//! The schema node of each generated named type and union enum (the runtime's
//! `__private::derive_schema::Node`), so that a hand-written type with `#[derive(Avro)]` can
//! hold a generated type as a field: the derive assembles its schema from the nodes of the
//! types it holds, and a generated type's node is its own definition with the named types it
//! uses as references to their nodes, so that each is defined once in the assembled schema.

use avdl2rs_emit::node::{self, Nested};
use avdl2rs_schema::{Name, SchemaKind};
use proc_macro2::TokenStream;
use serde_json::Value as Json;

use crate::render::{ident, Renderer};
use crate::space::{DefKind, TypeDef};
use crate::Error;

/// The node statics and the `DerivedSchema` impl of `def`: of every named type, and of the
/// union enums without a `null` branch (with one, the enum is held in an `Option` and has no
/// codec of its own to hold it by).
pub(crate) fn node_items(r: &Renderer<'_>, def: &TypeDef) -> Result<Option<TokenStream>, Error> {
    let (json, node_name, namespace) = match (&def.kind, def.named()) {
        (_, Some(named)) => {
            let full_name = named.name.full_name();
            let json = r.set().named_to_json(&full_name);
            (json, full_name, named.name.namespace.as_deref())
        }
        (
            DefKind::Union {
                null_index: None,
                schema,
                ..
            },
            None,
        ) => (Some(r.set().to_json(schema)), String::new(), None),
        _ => return Ok(None),
    };
    let invalid = |message: String| Error::Unsupported {
        message: format!("the schema node of {}: {message}", def.ident),
    };
    let mut json = json.ok_or_else(|| invalid("not registered".into()))?;
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
    let texts = node::parse(&json, nested.len())
        .map_err(invalid)?
        .texts(&defaults);
    node::node_items(
        &ident(&def.ident),
        &node_name,
        namespace.unwrap_or_default(),
        &texts,
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
