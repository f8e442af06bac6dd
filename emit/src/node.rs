//! The texts of schema nodes: a type's own schema, as pieces between references to the nodes
//! of the named types it uses, from which the runtime assembles (at compile time) the
//! standalone schema of the type — for a derived type, whose nested types are known only at
//! their own expansion, and for a generated type, whose schema would otherwise repeat every
//! type it holds.
//!
//! The JSON, with each nested type written as a placeholder name, is parsed by the schema
//! model (which validates it) with every placeholder registered as a dummy fixed type, then
//! written back by the model as full JSON and as Parsing Canonical Form — exactly as the
//! model writes a standalone schema. Each placeholder's definition is then cut out of the
//! texts, leaving the pieces that surround the nested types' own schemas.

use avdl2rs_schema::{NamedKind, Schema, SchemaSet};
use proc_macro2::TokenStream;
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
}

/// The texts of a node (see the runtime's `__private::Node`).
#[derive(Debug)]
pub struct NodeText {
    /// The full JSON, a named type's as it stands alone (with its `namespace` key where it
    /// has a namespace), which the runtime's assembly adjusts to where it goes.
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
        let json = full.to_string();
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
            json: split(&json),
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
            texts.json[..2],
            [
                Piece::Text(
                    r#"{"type":"record","name":"A","namespace":"x","fields":[{"name":"b","type":"#
                        .into()
                ),
                Piece::Nested(0),
            ]
        );
        assert_eq!(texts.json.len(), 5);
    }

    /// The JSON is the type's as it stands alone: the runtime adds `"namespace":""` where a
    /// type of the null namespace goes inside another one.
    #[test]
    fn a_type_without_namespace_has_no_namespace_key() {
        let schema = json!({"type": "enum", "name": "E", "symbols": ["A"]});
        let texts = parse(&schema, 0).unwrap().texts(&[]);
        assert_eq!(
            texts.json,
            [Piece::Text(
                r#"{"type":"enum","name":"E","symbols":["A"]}"#.into()
            )]
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
            texts.json,
            [Piece::Text(
                r#"{"type":"record","name":"R","fields":[{"name":"a","type":"int","default":3}]}"#
                    .into()
            )]
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
        assert_eq!(texts.json, [Piece::Text(model)]);
    }
}
