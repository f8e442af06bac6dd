//! Lowering to JSON with the reference's layout: key order, namespace and reference spelling,
//! and each named type defined in full at its first use and referenced by name afterwards.

use serde_json::{Map, Value};

use crate::ast::{split_full_name, Field, Message, NamedKind, NamedType, ProtocolHeader, TypeExpr};
use crate::names;
use crate::source::Span;
use crate::table::Definitions;

/// How deeply schemas may nest in the output (named types inlined inside each other count);
/// bounds the recursion of this writer and of whoever serializes or drops the result.
pub(crate) const MAX_DEPTH: usize = 1000;

/// The output nested deeper than [`MAX_DEPTH`]; the span is the reference where it happened.
#[derive(Debug)]
pub(crate) struct TooDeep(pub Span);

type Result<T> = std::result::Result<T, TooDeep>;

/// One output document: remembers which named types it has already defined.
struct Writer<'a> {
    defs: &'a Definitions,
    written: Vec<bool>,
    depth: usize,
    /// Fingerprint mode: references stay names and docs are left out.
    shallow: bool,
}

impl<'a> Writer<'a> {
    fn new(defs: &'a Definitions) -> Writer<'a> {
        Writer {
            defs,
            written: vec![false; defs.types.len()],
            depth: 0,
            shallow: false,
        }
    }

    /// A writer in fingerprint mode, which needs no definitions: references stay names.
    fn shallow(defs: &'a Definitions) -> Writer<'a> {
        Writer {
            shallow: true,
            ..Writer::new(defs)
        }
    }

    fn schema(&mut self, ty: &TypeExpr, enclosing: Option<&str>) -> Result<Value> {
        // Inlined definitions nest as deep as the chain of first uses, which the source does
        // not bound: grow the stack on the heap instead of overflowing it.
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
            self.schema_on_stack(ty, enclosing)
        })
    }

    fn schema_on_stack(&mut self, ty: &TypeExpr, enclosing: Option<&str>) -> Result<Value> {
        self.depth += 1;
        let value = match ty {
            TypeExpr::Primitive { name, props } if props.is_empty() => Value::from(*name),
            TypeExpr::Primitive { name, props } => {
                let mut obj = object([("type", Value::from(*name))]);
                extend(&mut obj, props);
                Value::Object(obj)
            }
            TypeExpr::Array { items, props } => {
                let items = self.schema(items, enclosing)?;
                let mut obj = object([("type", Value::from("array")), ("items", items)]);
                extend(&mut obj, props);
                Value::Object(obj)
            }
            TypeExpr::Map { values, props } => {
                let values = self.schema(values, enclosing)?;
                let mut obj = object([("type", Value::from("map")), ("values", values)]);
                extend(&mut obj, props);
                Value::Object(obj)
            }
            TypeExpr::Union { branches } => Value::Array(
                branches
                    .iter()
                    .map(|b| self.schema(b, enclosing))
                    .collect::<Result<_>>()?,
            ),
            TypeExpr::Named { name, span, .. } => {
                if self.depth > MAX_DEPTH {
                    return Err(TooDeep(*span));
                }
                match self.defs.lookup(name) {
                    Some(index) if !self.shallow && !self.written[index] => {
                        self.definition(index, enclosing)?
                    }
                    Some(index) => Value::from(reference(&self.defs.types[index], enclosing)),
                    None => Value::from(name.as_str()),
                }
            }
        };
        self.depth -= 1;
        Ok(value)
    }

    /// The full definition of type `index`, marking it written.
    fn definition(&mut self, index: usize, enclosing: Option<&str>) -> Result<Value> {
        self.written[index] = true;
        let named = &self.defs.types[index];
        self.named(named, enclosing)
    }

    fn named(&mut self, named: &NamedType, enclosing: Option<&str>) -> Result<Value> {
        let ns = named.namespace.as_deref();
        let type_name = match &named.kind {
            NamedKind::Record { is_error: true, .. } => "error",
            NamedKind::Record { .. } => "record",
            NamedKind::Enum { .. } => "enum",
            NamedKind::Fixed { .. } => "fixed",
        };
        let mut obj = object([
            ("type", Value::from(type_name)),
            ("name", Value::from(named.name.as_str())),
        ]);
        if ns != enclosing {
            obj.insert("namespace".into(), Value::from(ns.unwrap_or("")));
        }
        self.doc(&mut obj, &named.doc);
        match &named.kind {
            NamedKind::Record { fields, .. } => {
                let fields = fields
                    .iter()
                    .map(|f| self.field(f, ns))
                    .collect::<Result<_>>()?;
                obj.insert("fields".into(), Value::Array(fields));
            }
            NamedKind::Enum { symbols, default } => {
                obj.insert(
                    "symbols".into(),
                    symbols.iter().map(|s| Value::from(s.as_str())).collect(),
                );
                if let Some(default) = default {
                    obj.insert("default".into(), Value::from(default.as_str()));
                }
            }
            NamedKind::Fixed { size } => {
                obj.insert("size".into(), Value::from(*size));
            }
        }
        extend(&mut obj, &named.props);
        if let Some(aliases) = &named.aliases {
            let written = aliases.iter().map(|a| Value::from(alias(a, ns))).collect();
            obj.insert("aliases".into(), Value::Array(written));
        }
        Ok(Value::Object(obj))
    }

    fn field(&mut self, field: &Field, enclosing: Option<&str>) -> Result<Value> {
        let ty = self.schema(&field.ty, enclosing)?;
        let mut obj = object([("name", Value::from(field.name.as_str())), ("type", ty)]);
        self.doc(&mut obj, &field.doc);
        if let Some(default) = &field.default {
            obj.insert("default".into(), default.clone());
        }
        if let Some(order) = field.order {
            obj.insert("order".into(), Value::from(order));
        }
        if let Some(aliases) = &field.aliases {
            obj.insert(
                "aliases".into(),
                aliases.iter().map(|a| Value::from(a.as_str())).collect(),
            );
        }
        extend(&mut obj, &field.props);
        Ok(Value::Object(obj))
    }

    fn message(&mut self, message: &Message, ns: Option<&str>) -> Result<Value> {
        let mut obj = Map::new();
        self.doc(&mut obj, &message.doc);
        extend(&mut obj, &message.props);
        let request = message
            .request
            .iter()
            .map(|f| self.field(f, ns))
            .collect::<Result<_>>()?;
        obj.insert("request".into(), Value::Array(request));
        obj.insert("response".into(), self.schema(&message.response, ns)?);
        if let Some(errors) = &message.errors {
            let errors = errors
                .iter()
                .map(|e| self.schema(e, ns))
                .collect::<Result<_>>()?;
            obj.insert("errors".into(), Value::Array(errors));
        }
        if message.one_way {
            obj.insert("one-way".into(), Value::Bool(true));
        }
        Ok(Value::Object(obj))
    }

    fn doc(&self, obj: &mut Map<String, Value>, doc: &Option<String>) {
        if let (Some(doc), false) = (doc, self.shallow) {
            obj.insert("doc".into(), Value::from(doc.as_str()));
        }
    }
}

fn object<const N: usize>(entries: [(&str, Value); N]) -> Map<String, Value> {
    entries
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect()
}

fn extend(obj: &mut Map<String, Value>, props: &Map<String, Value>) {
    for (k, v) in props {
        obj.insert(k.clone(), v.clone());
    }
}

/// How a reference to `named` is spelled inside namespace `enclosing`: the simple name when
/// the namespaces agree (and the name is not one of Avro's type names), else the full name.
fn reference(named: &NamedType, enclosing: Option<&str>) -> String {
    qualified(named.namespace.as_deref(), &named.name, enclosing)
}

fn qualified(ns: Option<&str>, name: &str, enclosing: Option<&str>) -> String {
    if ns.is_some() && ns == enclosing && !names::is_avro_type_name(name) {
        name.to_owned()
    } else {
        crate::ast::full_name(ns, name)
    }
}

/// A schema alias, read relative to the type's namespace and spelled like a reference.
fn alias(alias: &str, ns: Option<&str>) -> String {
    let full = if alias.contains('.') {
        alias.to_owned()
    } else {
        crate::ast::full_name(ns, alias)
    };
    let (alias_ns, simple) = split_full_name(&full);
    qualified(alias_ns, simple, ns)
}

/// The `.avpr` JSON of a protocol.
pub(crate) fn protocol(header: &ProtocolHeader, defs: &Definitions) -> Result<Value> {
    let mut w = Writer::new(defs);
    let ns = header.namespace.as_deref();
    let mut obj = object([("protocol", Value::from(header.name.as_str()))]);
    if let Some(ns) = ns {
        obj.insert("namespace".into(), Value::from(ns));
    }
    w.doc(&mut obj, &header.doc);
    extend(&mut obj, &header.props);
    let mut types = Vec::new();
    for index in 0..defs.types.len() {
        if !w.written[index] {
            types.push(w.definition(index, ns)?);
        }
    }
    obj.insert("types".into(), Value::Array(types));
    let mut messages = Map::new();
    for (name, message) in &defs.messages {
        messages.insert(name.clone(), w.message(message, ns)?);
    }
    obj.insert("messages".into(), Value::Object(messages));
    Ok(Value::Object(obj))
}

/// The JSON of a schema on its own (named types it uses defined inline at first use).
pub(crate) fn schema(ty: &TypeExpr, defs: &Definitions) -> Result<Value> {
    Writer::new(defs).schema(ty, None)
}

/// The self-contained JSON of named type `index`.
pub(crate) fn named_schema(index: usize, defs: &Definitions) -> Result<Value> {
    Writer::new(defs).definition(index, None)
}

/// Whether two definitions of the same name are the same type, docs aside.
pub(crate) fn same_definition(a: &NamedType, b: &NamedType) -> bool {
    let defs = Definitions::default();
    let mut w = Writer::shallow(&defs);
    let fa = w.named(a, None).ok();
    let fb = w.named(b, None).ok();
    fa.is_some() && fa == fb
}

/// A type's JSON with references as names, for messages about it.
pub(crate) fn describe(ty: &TypeExpr) -> Value {
    let defs = Definitions::default();
    let mut w = Writer::shallow(&defs);
    w.schema(ty, None).unwrap_or(Value::Null)
}
