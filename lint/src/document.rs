//! One walk over schema JSON (a protocol, a schema, or the array of named types an IDL file
//! without `schema` gives) that lists what the rules look at: named type definitions, record
//! fields, every type node with its JSON Pointer and namespace, and every reference by name.
//! The walk keeps its own stack, so deep nesting cannot exhaust the call stack.

use std::rc::Rc;

use serde_json::{Map, Value};

use crate::pointer::{Pointer, Pointers, Segment};

/// What the document is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// A protocol; whether it declares messages.
    Protocol { has_messages: bool },
    /// One schema (`.avsc`, or an IDL file with `schema`).
    Schema,
    /// An array of named types.
    Types,
}

/// Where schema JSON comes from, which decides what a top-level array is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    /// Compiled from IDL: an array is the named types of a file without `schema`.
    Idl,
    /// A JSON file: an array is a union.
    Json,
}

/// The kind of a named type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DefKind {
    Record,
    Enum,
    Fixed,
}

/// A named type defined in the document.
pub(crate) struct Definition<'v> {
    pub path: Pointer,
    pub full_name: String,
    pub namespace: Option<String>,
    pub kind: DefKind,
    pub json: &'v Map<String, Value>,
}

/// A field of a record.
pub(crate) struct FieldSite<'v> {
    pub path: Pointer,
    /// Index of its record in [`Document::definitions`].
    pub record: usize,
    /// Its place among the record's fields.
    pub index: usize,
    pub name: &'v str,
    pub json: &'v Map<String, Value>,
}

/// A type expression.
pub(crate) struct Node<'v> {
    pub path: Pointer,
    pub json: &'v Value,
    /// The innermost field whose type it is in (an index into [`Document::fields`]).
    pub field: Option<usize>,
}

/// A use of a named type by name, or a definition nested where it is used.
pub(crate) struct Reference {
    pub full_name: String,
    /// The definition it occurs in (an index into [`Document::definitions`]); `None` at the
    /// top level.
    pub owner: Option<usize>,
    /// Whether it occurs in a message or in the main schema.
    pub root: bool,
}

/// What the walk found.
pub(crate) struct Document<'v> {
    pub shape: Shape,
    /// The JSON Pointers of the definitions, fields and nodes.
    pub pointers: Pointers<'v>,
    pub definitions: Vec<Definition<'v>>,
    pub fields: Vec<FieldSite<'v>>,
    pub nodes: Vec<Node<'v>>,
    pub references: Vec<Reference>,
}

/// A type node waiting to be walked. Its namespace is shared with its siblings and the
/// nodes inside it, so passing it on does not copy it.
struct Pending<'v> {
    path: Pointer,
    json: &'v Value,
    namespace: Option<Rc<str>>,
    owner: Option<usize>,
    field: Option<usize>,
    root: bool,
}

/// The type names of Avro's primitive types.
const PRIMITIVES: [&str; 8] = [
    "null", "boolean", "int", "long", "float", "double", "bytes", "string",
];

impl<'v> Document<'v> {
    /// Walks `root`.
    pub fn walk(root: &'v Value, origin: Origin) -> Document<'v> {
        let mut document = Document {
            shape: Shape::Schema,
            pointers: Pointers::new(),
            definitions: Vec::new(),
            fields: Vec::new(),
            nodes: Vec::new(),
            references: Vec::new(),
        };
        let mut stack = document.top_level(root, origin);
        stack.reverse();
        while let Some(pending) = stack.pop() {
            document.visit(pending, &mut stack);
        }
        document
    }

    /// The type nodes at the top of the document.
    fn top_level(&mut self, root: &'v Value, origin: Origin) -> Vec<Pending<'v>> {
        let pending = |path: Pointer, json, namespace: &Option<Rc<str>>, root| Pending {
            path,
            json,
            namespace: namespace.clone(),
            owner: None,
            field: None,
            root,
        };
        match root {
            Value::Object(object) if member(object, "protocol").is_some() => {
                let namespace = member(object, "namespace").and_then(Value::as_str);
                let namespace = namespace.map(Rc::from);
                let mut out = Vec::new();
                if let Some(Value::Array(types)) = member(object, "types") {
                    let at = self.pointers.child(Pointers::ROOT, Segment::Key("types"));
                    for (i, json) in types.iter().enumerate() {
                        let path = self.pointers.child(at, Segment::Index(i));
                        out.push(pending(path, json, &namespace, false));
                    }
                }
                let messages = member(object, "messages").and_then(Value::as_object);
                self.shape = Shape::Protocol {
                    has_messages: messages.is_some_and(|m| !m.is_empty()),
                };
                let at = self
                    .pointers
                    .child(Pointers::ROOT, Segment::Key("messages"));
                for (name, message) in messages.into_iter().flatten() {
                    let path = self.pointers.child(at, Segment::Key(name));
                    for (path, json) in message_types(&mut self.pointers, path, message) {
                        out.push(pending(path, json, &namespace, true));
                    }
                }
                out
            }
            Value::Array(types) if origin == Origin::Idl && types.iter().all(Value::is_object) => {
                self.shape = Shape::Types;
                let each = types.iter().enumerate();
                each.map(|(i, json)| {
                    let path = self.pointers.child(Pointers::ROOT, Segment::Index(i));
                    pending(path, json, &None, false)
                })
                .collect()
            }
            _ => vec![pending(Pointers::ROOT, root, &None, true)],
        }
    }

    /// Records one type node and pushes the nodes inside it onto `stack`, the first on top.
    fn visit(&mut self, at: Pending<'v>, stack: &mut Vec<Pending<'v>>) {
        let first = stack.len();
        self.inner(&at, stack);
        stack[first..].reverse();
        self.nodes.push(Node {
            path: at.path,
            json: at.json,
            field: at.field,
        });
    }

    /// Pushes the nodes inside the type node `at` onto `out`, recording the references and
    /// definitions there.
    fn inner(&mut self, at: &Pending<'v>, out: &mut Vec<Pending<'v>>) {
        let inner = |path: Pointer, json, namespace: &Option<Rc<str>>, owner| Pending {
            path,
            json,
            namespace: namespace.clone(),
            owner,
            field: at.field,
            root: at.root,
        };
        match at.json {
            Value::String(name) if !PRIMITIVES.contains(&name.as_str()) => {
                self.references.push(Reference {
                    full_name: full_name(name, at.namespace.as_deref()),
                    owner: at.owner,
                    root: at.root,
                });
            }
            Value::Array(branches) => {
                for (i, branch) in branches.iter().enumerate() {
                    let path = self.pointers.child(at.path, Segment::Index(i));
                    out.push(inner(path, branch, &at.namespace, at.owner));
                }
            }
            Value::Object(object) => match member(object, "type") {
                Some(Value::String(kind)) => match kind.as_str() {
                    "record" | "error" => self.define(at, object, DefKind::Record, out),
                    "enum" => self.define(at, object, DefKind::Enum, out),
                    "fixed" => self.define(at, object, DefKind::Fixed, out),
                    "array" | "map" => {
                        let key = if kind == "array" { "items" } else { "values" };
                        let json = member(object, key).unwrap_or(&Value::Null);
                        let path = self.pointers.child(at.path, Segment::Key(key));
                        out.push(inner(path, json, &at.namespace, at.owner));
                    }
                    _ => {}
                },
                Some(json) => {
                    let path = self.pointers.child(at.path, Segment::Key("type"));
                    out.push(inner(path, json, &at.namespace, at.owner));
                }
                None => {}
            },
            _ => {}
        }
    }

    /// Records a named type defined at `at` and pushes its fields' types onto `out`.
    fn define(
        &mut self,
        at: &Pending<'v>,
        object: &'v Map<String, Value>,
        kind: DefKind,
        out: &mut Vec<Pending<'v>>,
    ) {
        let name = member(object, "name").and_then(Value::as_str).unwrap_or("");
        let explicit = member(object, "namespace").and_then(Value::as_str);
        let full = match explicit {
            Some(namespace) if !name.contains('.') => full_name(name, Some(namespace)),
            _ => full_name(name, at.namespace.as_deref()),
        };
        let namespace = full.rfind('.').map(|dot| full[..dot].to_owned());
        let inner_namespace = namespace.as_deref().map(Rc::from);
        let index = self.definitions.len();
        self.references.push(Reference {
            full_name: full.clone(),
            owner: at.owner,
            root: at.root,
        });
        self.definitions.push(Definition {
            path: at.path,
            full_name: full,
            namespace,
            kind,
            json: object,
        });
        let Some(Value::Array(fields)) = member(object, "fields") else {
            return;
        };
        let fields_path = self.pointers.child(at.path, Segment::Key("fields"));
        for (i, field) in fields.iter().enumerate() {
            let Value::Object(json) = field else { continue };
            let path = self.pointers.child(fields_path, Segment::Index(i));
            let site = self.fields.len();
            self.fields.push(FieldSite {
                path,
                record: index,
                index: i,
                name: member(json, "name").and_then(Value::as_str).unwrap_or(""),
                json,
            });
            if let Some(schema) = member(json, "type") {
                out.push(Pending {
                    path: self.pointers.child(path, Segment::Key("type")),
                    json: schema,
                    namespace: inner_namespace.clone(),
                    owner: Some(index),
                    field: Some(site),
                    root: false,
                });
            }
        }
    }

    /// The definition named `full_name`.
    pub fn definition(&self, full_name: &str) -> Option<&Definition<'v>> {
        self.definitions.iter().find(|d| d.full_name == full_name)
    }
}

/// The types a message uses: its parameters', its response and its errors.
fn message_types<'v>(
    pointers: &mut Pointers<'v>,
    path: Pointer,
    message: &'v Value,
) -> Vec<(Pointer, &'v Value)> {
    let mut out = Vec::new();
    if let Some(Value::Array(request)) = message.get("request") {
        let request_path = pointers.child(path, Segment::Key("request"));
        for (i, parameter) in request.iter().enumerate() {
            if let Some(schema) = parameter.get("type") {
                let parameter_path = pointers.child(request_path, Segment::Index(i));
                out.push((pointers.child(parameter_path, Segment::Key("type")), schema));
            }
        }
    }
    if let Some(response) = message.get("response") {
        out.push((pointers.child(path, Segment::Key("response")), response));
    }
    if let Some(Value::Array(errors)) = message.get("errors") {
        let errors_path = pointers.child(path, Segment::Key("errors"));
        for (i, error) in errors.iter().enumerate() {
            out.push((pointers.child(errors_path, Segment::Index(i)), error));
        }
    }
    out
}

/// What a type node stands for, as far as the rules ask without the schema model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TypeShape<'v> {
    /// A primitive type, by name.
    Primitive(&'v str),
    /// A union, with its branches.
    Union(&'v [Value]),
    /// A named type, an array or a map.
    Other,
}

/// The shape of type node `json`, looking through `{"type": …}` wrappers as the schema model
/// does (`{"type": "double", "logicalType": …}` is a `double`).
pub(crate) fn type_shape(json: &Value) -> TypeShape<'_> {
    let mut json = json;
    loop {
        match json {
            Value::String(name) if PRIMITIVES.contains(&name.as_str()) => {
                return TypeShape::Primitive(name)
            }
            Value::Array(branches) => return TypeShape::Union(branches),
            Value::Object(object) => match member(object, "type") {
                Some(nested @ (Value::Array(_) | Value::Object(_))) => json = nested,
                Some(Value::String(name)) if PRIMITIVES.contains(&name.as_str()) => {
                    return TypeShape::Primitive(name)
                }
                _ => return TypeShape::Other,
            },
            _ => return TypeShape::Other,
        }
    }
}

/// Member `key` of a JSON object. A schema's objects have a handful of members each, and
/// comparing that many keys costs less than hashing `key` as the map's lookup does.
pub(crate) fn member<'v>(object: &'v Map<String, Value>, key: &str) -> Option<&'v Value> {
    const SCANNED: usize = 8;
    if object.len() > SCANNED {
        return object.get(key);
    }
    object
        .iter()
        .find_map(|(k, value)| (k == key).then_some(value))
}

/// The full name of `name` used in `namespace`.
pub(crate) fn full_name(name: &str, namespace: Option<&str>) -> String {
    match namespace {
        Some(namespace) if !name.contains('.') && !namespace.is_empty() => {
            // Joined by hand: `format!` costs several times the copying.
            let mut full = String::with_capacity(namespace.len() + 1 + name.len());
            full.push_str(namespace);
            full.push('.');
            full.push_str(name);
            full
        }
        _ => name.to_owned(),
    }
}

/// The simple name in a full name.
pub(crate) fn simple_name(full_name: &str) -> &str {
    full_name.rsplit('.').next().unwrap_or(full_name)
}
