//! Schema nodes: a type's own schema text, as pieces between references to the nodes of the
//! named types it uses, from which the runtime assembles (at compile time) the schema of a
//! derived type — whose nested types are known only at their own expansion — and into which
//! generated types enter as fields of derived ones.
//!
//! The JSON, with each nested type written as a placeholder name, is parsed by the schema
//! model (which validates it) with every placeholder registered as a dummy fixed type, then
//! written back by the model as full JSON and as Parsing Canonical Form — exactly as generated
//! code's consts are written. Each placeholder's definition is then cut out of the texts,
//! leaving the pieces that surround the nested types' own schemas.

use avdl2rs_schema::{NamedKind, Schema, SchemaSet};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::{json, Value as Json};

/// The namespace of placeholder names, which no user type may take.
pub const PLACEHOLDER_NAMESPACE: &str = "__avdl2rs_placeholder";

/// A part of a schema text.
#[derive(Debug, PartialEq, Eq)]
pub enum Piece {
    /// Literal text.
    Text(String),
    /// The schema of the `n`th nested type.
    Nested(usize),
    /// The `namespace` key of a named type, which the runtime writes only where the namespace
    /// differs from the enclosing one.
    Namespace,
}

/// The texts of a node (see the runtime's `__private::derive_schema::Node`).
#[derive(Debug)]
pub struct NodeText {
    /// The full JSON.
    pub json: Vec<Piece>,
    /// The Parsing Canonical Form.
    pub canonical: Vec<Piece>,
}

/// A schema parsed by the model.
pub struct Parsed {
    set: SchemaSet,
    schema: Schema,
}

const PLACEHOLDER_SIZE: usize = 1;

/// The placeholder name standing for the `n`th nested type.
pub fn placeholder(n: usize) -> String {
    format!("{PLACEHOLDER_NAMESPACE}.N{n}")
}

/// Parses `json`, in which `placeholders` nested types appear as placeholder names.
pub fn parse(json: &Json, placeholders: usize) -> Result<Parsed, String> {
    let mut set = SchemaSet::new();
    for n in 0..placeholders {
        let dummy = json!({"type": "fixed", "name": placeholder(n), "size": PLACEHOLDER_SIZE});
        set.parse_value(&dummy).map_err(|e| e.to_string())?;
    }
    let schema = set.parse_value(json).map_err(|e| e.to_string())?;
    Ok(Parsed { set, schema })
}

impl Parsed {
    /// Whether `value` is a valid default for field `index` of the parsed record.
    pub fn is_valid_default(&self, index: usize, value: &Json) -> bool {
        match self.set.resolve(&self.schema).map(|n| &n.kind) {
            Some(NamedKind::Record { fields, .. }) => fields
                .get(index)
                .is_some_and(|f| self.set.is_valid_default(&f.schema, value)),
            _ => false,
        }
    }

    /// The node texts, with `defaults` (field index, value) added to the record's fields.
    pub fn texts(&self, defaults: &[(usize, Json)]) -> NodeText {
        let mut full = self.set.to_json(&self.schema);
        strip_placeholder_definitions(&mut full);
        if let Some(fields) = full.get_mut("fields").and_then(Json::as_array_mut) {
            for (index, value) in defaults {
                if let Some(Json::Object(field)) = fields.get_mut(*index) {
                    // Where the schema model writes it: after `doc`, or else after `type`, so
                    // that an assembled text equals the one written out.
                    let at = ["doc", "type"]
                        .iter()
                        .find_map(|key| field.keys().position(|k| k == key))
                        .map_or(field.len(), |position| position + 1);
                    field.shift_insert(at, "default".into(), value.clone());
                }
            }
        }
        let json = with_null_namespace(&full).to_string();
        let mut canonical = self.set.canonical_form(&self.schema);
        let mut n = 0;
        loop {
            let definition = format!(
                r#"{{"name":"{}","type":"fixed","size":{PLACEHOLDER_SIZE}}}"#,
                placeholder(n)
            );
            if !canonical.contains(&definition) {
                break;
            }
            canonical = canonical.replace(&definition, &format!("\"{}\"", placeholder(n)));
            n += 1;
        }
        NodeText {
            json: cut_namespace(&json, full.get("name").is_some()),
            canonical: split(&canonical),
        }
    }
}

/// Replaces each placeholder's definition by its name.
fn strip_placeholder_definitions(json: &mut Json) {
    match json {
        Json::Object(object) => {
            let is_placeholder = object.get("namespace").and_then(Json::as_str)
                == Some(PLACEHOLDER_NAMESPACE)
                && object.get("type").and_then(Json::as_str) == Some("fixed");
            if is_placeholder {
                let name = object["name"].as_str().unwrap_or_default();
                *json = Json::String(format!("{PLACEHOLDER_NAMESPACE}.{name}"));
                return;
            }
            object.values_mut().for_each(strip_placeholder_definitions);
        }
        Json::Array(items) => items.iter_mut().for_each(strip_placeholder_definitions),
        _ => {}
    }
}

/// A named type's JSON as written inside a namespace: with `"namespace": ""` when it has none.
fn with_null_namespace(json: &Json) -> Json {
    let Json::Object(object) = json else {
        return json.clone();
    };
    if object.contains_key("namespace") || !object.contains_key("name") {
        return json.clone();
    }
    let mut out = serde_json::Map::new();
    for (key, value) in object {
        out.insert(key.clone(), value.clone());
        if key == "name" {
            out.insert("namespace".into(), json!(""));
        }
    }
    Json::Object(out)
}

/// The pieces of a JSON text; for a named type (`named`), with its `namespace` key (the first
/// one, after `type` and `name`) cut out as a [`Piece::Namespace`].
fn cut_namespace(json: &str, named: bool) -> Vec<Piece> {
    const KEY: &str = ",\"namespace\":\"";
    let Some(start) = json.find(KEY).filter(|_| named) else {
        return split(json);
    };
    let after = &json[start + KEY.len()..];
    let end = after
        .find('"')
        .map_or(json.len(), |n| start + KEY.len() + n + 1);
    let mut pieces = split(&json[..start]);
    pieces.push(Piece::Namespace);
    pieces.extend(split(&json[end..]));
    pieces
}

/// Splits a text at its placeholder names (`"__avdl2rs_placeholder.N3"`).
fn split(text: &str) -> Vec<Piece> {
    let marker = format!("\"{PLACEHOLDER_NAMESPACE}.N");
    let mut pieces = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(&marker) {
        let after = &rest[start + marker.len()..];
        let digits = after.find('"').unwrap_or(after.len());
        let Ok(n) = after[..digits].parse() else {
            break;
        };
        if start > 0 {
            pieces.push(Piece::Text(rest[..start].to_owned()));
        }
        pieces.push(Piece::Nested(n));
        rest = &after[(digits + 1).min(after.len())..];
    }
    if !rest.is_empty() {
        pieces.push(Piece::Text(rest.to_owned()));
    }
    pieces
}

/// A type a node refers to.
pub enum Nested {
    /// A type with a node of its own (derived, or generated): its Rust path.
    Type(TokenStream),
    /// A named fixed under a logical type, which has no Rust type (its full JSON definition):
    /// its node is defined beside the referring one.
    Fixed(Json),
}

/// The `static NODE` of type `ident` (and those of its logical fixed types), and its
/// `DerivedSchema` impl. `node_name` is the full name (empty for a union) and `namespace` its
/// namespace (empty for none); `nested` are the types its placeholders stand for, in order.
/// The items name the runtime through the alias `__avro` (see [`crate::type_impls`]), so they
/// belong in the same block as the type's codec.
pub fn node_items(
    ident: &syn::Ident,
    node_name: &str,
    namespace: &str,
    texts: &NodeText,
    nested: &[Nested],
) -> Result<TokenStream, String> {
    let mut statics = Vec::new();
    let mut refs = Vec::new();
    for (n, nested) in nested.iter().enumerate() {
        refs.push(match nested {
            Nested::Type(ty) => quote!(__avro::NodeRef::of::<#ty>()),
            Nested::Fixed(json) => {
                let texts = parse(json, 0)?.texts(&[]);
                let static_name = format_ident!("FIXED_{n}");
                let namespace = json
                    .get("namespace")
                    .and_then(Json::as_str)
                    .unwrap_or_default();
                let name = json["name"].as_str().unwrap_or_default();
                let full_name = match namespace {
                    "" => name.to_owned(),
                    namespace => format!("{namespace}.{name}"),
                };
                statics.push(node_static(
                    &static_name,
                    &full_name,
                    namespace,
                    &texts,
                    &[],
                ));
                quote!(__avro::NodeRef::from_static(&#static_name))
            }
        });
    }
    let name = format_ident!("NODE");
    let node = node_static(&name, node_name, namespace, texts, &refs);
    Ok(quote! {
        #(#statics)*
        #node
        // SAFETY: `NODE` is a static.
        #[automatically_derived]
        unsafe impl __avro::DerivedSchema for #ident {
            const NODE: *const __avro::Node = &NODE;
        }
    })
}

/// The `SCHEMA_JSON` and `CANONICAL_FORM` values of a generated type (inside its
/// `AvroSchema` impl), assembled from its node when a program reads them: calls of the
/// runtime's `schema_json`/`canonical_form` with the lengths of the two texts, `json_len`
/// and `canonical_len`, and the capacity the assembly needs (see [`assembly_capacity`]),
/// through the alias `__avro`.
pub fn assembled_texts(
    json_len: usize,
    canonical_len: usize,
    capacity: usize,
) -> (TokenStream, TokenStream) {
    let text = |function: TokenStream, len: usize| {
        let len = proc_macro2::Literal::usize_unsuffixed(len);
        let capacity = proc_macro2::Literal::usize_unsuffixed(capacity);
        quote!(__avro::#function::<Self, #len, #capacity>())
    };
    (
        text(quote!(schema_json), json_len),
        text(quote!(canonical_form), canonical_len),
    )
}

/// The capacity the runtime's assembly needs for a schema that defines `named_types` named
/// types: a power of two at least twice that, plus two.
pub fn assembly_capacity(named_types: usize) -> usize {
    (2 * named_types + 2).next_power_of_two()
}

/// The number of named types the schema `json` defines.
pub fn named_types(json: &Json) -> usize {
    match json {
        Json::Object(object) => {
            let own = match object.get("type").and_then(Json::as_str) {
                Some("record" | "error" | "enum" | "fixed") => 1,
                _ => 0,
            };
            own + object.values().map(named_types).sum::<usize>()
        }
        Json::Array(items) => items.iter().map(named_types).sum(),
        _ => 0,
    }
}

/// The `static` holding one node; `refs` are the node references its placeholders stand for.
fn node_static(
    name: &syn::Ident,
    full_name: &str,
    namespace: &str,
    texts: &NodeText,
    refs: &[TokenStream],
) -> TokenStream {
    let pieces = |pieces: &[Piece]| {
        let pieces = pieces.iter().map(|piece| match piece {
            Piece::Text(text) => {
                let text = crate::raw_str(text);
                quote!(__avro::Piece::Text(#text))
            }
            Piece::Nested(n) => {
                let node = &refs[*n];
                quote!(__avro::Piece::Type(#node))
            }
            Piece::Namespace => quote!(__avro::Piece::Namespace),
        });
        quote!(&[#(#pieces),*])
    };
    let json = pieces(&texts.json);
    let canonical = pieces(&texts.canonical);
    quote! {
        static #name: __avro::Node = __avro::Node {
            full_name: #full_name,
            namespace: #namespace,
            json: #json,
            canonical: #canonical,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_types_are_cut_out_of_every_text() {
        let schema = json!({"type": "record", "name": "A", "namespace": "x", "fields": [
            {"name": "b", "type": placeholder(0)},
            {"name": "c", "type": {"type": "array", "items": placeholder(1)}},
        ]});
        let texts = parse(&schema, 2).unwrap().texts(&[]);
        assert_eq!(
            texts.canonical,
            vec![
                Piece::Text(
                    r#"{"name":"x.A","type":"record","fields":[{"name":"b","type":"#.into()
                ),
                Piece::Nested(0),
                Piece::Text(r#"},{"name":"c","type":{"type":"array","items":"#.into()),
                Piece::Nested(1),
                Piece::Text("}}]}".into()),
            ]
        );
        assert_eq!(
            texts.json[..3],
            [
                Piece::Text(r#"{"type":"record","name":"A""#.into()),
                Piece::Namespace,
                Piece::Text(r#","fields":[{"name":"b","type":"#.into()),
            ]
        );
        assert!(matches!(texts.json[3], Piece::Nested(0)));
        assert_eq!(texts.json.len(), 7);
    }

    #[test]
    fn a_type_without_namespace_has_the_key_of_the_null_namespace() {
        let schema = json!({"type": "enum", "name": "E", "symbols": ["A"]});
        let texts = parse(&schema, 0).unwrap().texts(&[]);
        assert_eq!(
            texts.json,
            vec![
                Piece::Text(r#"{"type":"enum","name":"E""#.into()),
                Piece::Namespace,
                Piece::Text(r#","symbols":["A"]}"#.into()),
            ]
        );
    }

    #[test]
    fn defaults_are_checked_and_written() {
        let schema =
            json!({"type": "record", "name": "R", "fields": [{"name": "a", "type": "int"}]});
        let parsed = parse(&schema, 0).unwrap();
        assert!(parsed.is_valid_default(0, &json!(3)));
        assert!(!parsed.is_valid_default(0, &json!("x")));
        let texts = parsed.texts(&[(0, json!(3))]);
        assert_eq!(
            texts.json[2],
            Piece::Text(r#","fields":[{"name":"a","type":"int","default":3}]}"#.into())
        );
    }

    /// A default goes where the schema model writes it, before a field's other attributes,
    /// so that a text assembled from the node equals the one written out.
    #[test]
    fn defaults_are_written_where_the_model_writes_them() {
        let field = |default: Option<Json>| {
            let mut field = json!({"name": "a", "type": "int", "doc": "A.", "order": "descending",
                "aliases": ["b"], "x-unit": "cm"});
            if let Some(default) = default {
                field["default"] = default;
            }
            json!({"type": "record", "name": "R", "fields": [field]})
        };
        let mut set = SchemaSet::new();
        let with_default = set.parse_value(&field(Some(json!(3)))).unwrap();
        let model = set.to_json(&with_default).to_string();
        let texts = parse(&field(None), 0).unwrap().texts(&[(0, json!(3))]);
        let assembled: String = texts
            .json
            .iter()
            .map(|piece| match piece {
                Piece::Text(text) => text.as_str(),
                _ => "",
            })
            .collect();
        assert_eq!(assembled, model);
    }
}
