//! The index of a `.avsc` or `.avpr` file, read from its JSON with the span of every value
//! (the linter's [`JsonText`]). A file that is not valid JSON indexes as empty.

use std::path::Path;
use std::sync::Arc;

use avdl2rs_lint::json_text::{child, JsonText};
use serde_json::{Map, Value};

use super::model::{
    candidates, full_name, namespace_of, AliasPlace, FieldDef, FileIndex, FileKind, MessageDef,
    Named, Span, TypeDef, TypeKind, TypeUse,
};

/// How deep the walk follows nested schemas: deeper parts of a hostile file are not
/// indexed, rather than exhausting the stack.
const MAX_DEPTH: usize = 256;

/// The primitive type names, which are no reference.
const PRIMITIVES: &[&str] = &[
    "null", "boolean", "int", "long", "float", "double", "bytes", "string",
];

/// Indexes JSON `text` of `kind` (a schema or a protocol), the file at `path`.
pub(crate) fn index(path: &Path, text: Arc<str>, kind: FileKind) -> FileIndex {
    let mut file = FileIndex::empty(path, kind, text.clone());
    let Ok(json) = JsonText::parse(&text) else {
        return file;
    };
    let mut walk = Walk {
        json: &json,
        text: &text,
        file: &mut file,
    };
    match (kind, &json.value) {
        (FileKind::Protocol, Value::Object(protocol)) => walk.protocol(protocol),
        _ => walk.schema(&json.value, "", None, 0),
    }
    file
}

struct Walk<'a> {
    json: &'a JsonText,
    text: &'a str,
    file: &'a mut FileIndex,
}

impl Walk<'_> {
    /// A protocol: its namespace, types and messages.
    fn protocol(&mut self, protocol: &Map<String, Value>) {
        let namespace = protocol.get("namespace").and_then(Value::as_str);
        self.file.namespace = namespace.map(str::to_owned);
        if let Some(Value::String(name)) = protocol.get("protocol") {
            self.file.protocol = Some(Named {
                name: name.clone(),
                span: self.inner("/protocol"),
            });
        }
        if let Some(Value::Array(types)) = protocol.get("types") {
            for (i, ty) in types.iter().enumerate() {
                self.schema(ty, &child("/types", i), namespace, 0);
            }
        }
        let Some(Value::Object(messages)) = protocol.get("messages") else {
            return;
        };
        for (name, message) in messages {
            let pointer = child("/messages", name);
            let start = self.json.span(&pointer).start;
            self.file.messages.push(MessageDef {
                name: name.clone(),
                span: self.key_span(name, start),
                doc: message
                    .get("doc")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            });
            let Value::Object(message) = message else {
                continue;
            };
            if let Some(Value::Array(params)) = message.get("request") {
                for (i, param) in params.iter().enumerate() {
                    if let Some(ty) = param.get("type") {
                        let at = child(&child(&child(&pointer, "request"), i), "type");
                        self.schema(ty, &at, namespace, 0);
                    }
                }
            }
            for key in ["response", "errors"] {
                if let Some(ty) = message.get(key) {
                    self.schema(ty, &child(&pointer, key), namespace, 0);
                }
            }
        }
    }

    /// A schema at `pointer`, in `namespace`: named types declared, references made.
    fn schema(&mut self, schema: &Value, pointer: &str, namespace: Option<&str>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match schema {
            Value::String(name) if !PRIMITIVES.contains(&name.as_str()) => {
                self.file.uses.push(TypeUse {
                    written: name.clone(),
                    candidates: candidates(name, &[namespace]),
                    span: self.inner(pointer),
                });
            }
            Value::Array(branches) => {
                for (i, branch) in branches.iter().enumerate() {
                    self.schema(branch, &child(pointer, i), namespace, depth + 1);
                }
            }
            Value::Object(object) => self.object(object, pointer, namespace, depth + 1),
            _ => {}
        }
    }

    /// A schema object: a named type, an array, a map, or a type with attributes.
    fn object(
        &mut self,
        object: &Map<String, Value>,
        pointer: &str,
        namespace: Option<&str>,
        depth: usize,
    ) {
        let kind = match object.get("type").and_then(Value::as_str) {
            Some("record") => Some(TypeKind::Record),
            Some("error") => Some(TypeKind::Error),
            Some("enum") => Some(TypeKind::Enum),
            Some("fixed") => Some(TypeKind::Fixed),
            Some("array") => return self.nested(object, "items", pointer, namespace, depth),
            Some("map") => return self.nested(object, "values", pointer, namespace, depth),
            _ => None,
        };
        match (kind, object.get("name").and_then(Value::as_str)) {
            (Some(kind), Some(name)) => self.named(kind, name, object, pointer, namespace, depth),
            _ => self.nested(object, "type", pointer, namespace, depth),
        }
    }

    /// The schema under `key` of `object`.
    fn nested(
        &mut self,
        object: &Map<String, Value>,
        key: &str,
        pointer: &str,
        namespace: Option<&str>,
        depth: usize,
    ) {
        if let Some(inner) = object.get(key) {
            self.schema(inner, &child(pointer, key), namespace, depth);
        }
    }

    /// A named type's entry, with its fields (whose types are walked) or symbols.
    fn named(
        &mut self,
        kind: TypeKind,
        name: &str,
        object: &Map<String, Value>,
        pointer: &str,
        namespace: Option<&str>,
        depth: usize,
    ) {
        let own = object.get("namespace").and_then(Value::as_str);
        let full = full_name(name, own.or(namespace));
        let scope = namespace_of(&full).map(str::to_owned);
        let mut ty = TypeDef {
            full_name: full.clone(),
            kind,
            name_span: self.inner(&child(pointer, "name")),
            span: self.json.span(pointer),
            doc: doc(object),
            aliases: strings(object.get("aliases")),
            fields: Vec::new(),
            symbols: Vec::new(),
            size: object.get("size").map(Value::to_string),
            enum_default_at: match (kind, object.get("default")) {
                (TypeKind::Enum, None) => Some(self.json.span(&child(pointer, "symbols")).end),
                _ => None,
            },
            alias_place: self.alias_place(object, pointer),
        };
        let symbols = strings(object.get("symbols"));
        for (i, symbol) in symbols.into_iter().enumerate() {
            let span = self.inner(&child(&child(pointer, "symbols"), i));
            ty.symbols.push(Named { name: symbol, span });
        }
        let fields = match object.get("fields") {
            Some(Value::Array(fields)) => fields.as_slice(),
            _ => &[],
        };
        let mut nested = Vec::new();
        for (i, field) in fields.iter().enumerate() {
            let at = child(&child(pointer, "fields"), i);
            let Some(name) = field.get("name").and_then(Value::as_str) else {
                continue;
            };
            let default = field.get("default").map(|_| child(&at, "default"));
            ty.fields.push(FieldDef {
                name: name.to_owned(),
                name_span: self.inner(&child(&at, "name")),
                ty: field.get("type").map(Value::to_string).unwrap_or_default(),
                ty_span: self.json.span(&child(&at, "type")),
                default_span: default.as_ref().map(|p| self.json.span(p)),
                default: default.map(|p| self.text[self.json.span(&p)].to_owned()),
                doc: field.as_object().and_then(doc),
                aliases: strings(field.get("aliases")),
                alias_place: match field.as_object() {
                    Some(object) => self.alias_place(object, &at),
                    None => AliasPlace::Member(self.json.span(&child(&at, "name")).end),
                },
            });
            if let Some(field_type) = field.get("type") {
                nested.push((field_type, child(&at, "type")));
            }
        }
        self.file.types.push(ty);
        for (field_type, at) in nested {
            self.schema(field_type, &at, scope.as_deref(), depth);
        }
    }

    /// Where another alias of the type or field `object` at `pointer` goes.
    fn alias_place(&self, object: &Map<String, Value>, pointer: &str) -> AliasPlace {
        match object.get("aliases") {
            Some(Value::Array(items)) => AliasPlace::Item {
                at: self.json.span(&child(pointer, "aliases")).start + 1,
                empty: items.is_empty(),
            },
            _ => AliasPlace::Member(self.json.span(&child(pointer, "name")).end),
        }
    }

    /// The span of the string at `pointer`, without its quotes.
    fn inner(&self, pointer: &str) -> Span {
        let span = self.json.span(pointer);
        if span.len() >= 2 && self.text.as_bytes()[span.start] == b'"' {
            span.start + 1..span.end - 1
        } else {
            span
        }
    }

    /// The span of the member key `name` whose value starts at `value_start` (inside its
    /// quotes), found backwards from the value.
    fn key_span(&self, name: &str, value_start: usize) -> Span {
        let quoted = serde_json::to_string(name).unwrap_or_default();
        match self.text[..value_start].rfind(&quoted) {
            Some(at) => at + 1..at + quoted.len() - 1,
            None => value_start..value_start,
        }
    }
}

/// The `doc` of a schema object.
fn doc(object: &Map<String, Value>) -> Option<String> {
    object.get("doc").and_then(Value::as_str).map(str::to_owned)
}

/// The strings of an array value (aliases, symbols).
fn strings(value: Option<&Value>) -> Vec<String> {
    match value {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    }
}
