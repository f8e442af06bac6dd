//! Lowering to JSON with the reference's layout: key order, namespace and reference spelling,
//! and each named type defined in full at its first use and referenced by name afterwards.

use std::borrow::Cow;

use serde_json::Value;

use crate::ast::Props;
use crate::ast::{Field, Message, NamedKind, NamedType, ProtocolHeader, TypeExpr};
use crate::sink::{Discard, Sink, TextSink, ValueSink};
use crate::source::Span;
use crate::table::Definitions;
use crate::{full_name, names};

/// How deeply schemas may nest in the output (named types inlined inside each other count);
/// bounds the recursion of this writer and of whoever serializes or drops the result.
pub(crate) const MAX_DEPTH: usize = 1000;

/// The output nested deeper than [`MAX_DEPTH`]; the span is the reference where it happened.
#[derive(Debug)]
pub(crate) struct TooDeep(pub Span);

type Result<T = ()> = std::result::Result<T, TooDeep>;

/// One output document: remembers which named types it has already defined.
struct Writer<'a, S> {
    defs: &'a Definitions,
    written: Vec<bool>,
    depth: usize,
    /// Fingerprint mode: references stay names and docs are left out.
    shallow: bool,
    out: S,
}

impl<'a, S: Sink> Writer<'a, S> {
    fn new(defs: &'a Definitions, out: S) -> Writer<'a, S> {
        Writer {
            defs,
            written: vec![false; defs.types.len()],
            depth: 0,
            shallow: false,
            out,
        }
    }

    fn schema(&mut self, ty: &TypeExpr, enclosing: Option<&str>) -> Result {
        // Inlined definitions nest as deep as the chain of first uses, which the source does
        // not bound: grow the stack on the heap instead of overflowing it.
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
            self.schema_on_stack(ty, enclosing)
        })
    }

    fn schema_on_stack(&mut self, ty: &TypeExpr, enclosing: Option<&str>) -> Result {
        self.depth += 1;
        match ty {
            TypeExpr::Primitive { name, props } if props.is_empty() => self.out.string(name),
            TypeExpr::Primitive { name, props } => {
                self.out.begin_object();
                self.entry("type", name);
                self.props(props);
                self.out.end_object();
            }
            TypeExpr::Array { items, props } => {
                self.container("array", "items", items, props, enclosing)?
            }
            TypeExpr::Map { values, props } => {
                self.container("map", "values", values, props, enclosing)?
            }
            TypeExpr::Union { branches } => {
                self.out.begin_array();
                for branch in branches {
                    self.schema(branch, enclosing)?;
                }
                self.out.end_array();
            }
            TypeExpr::Named { name, span, .. } => {
                if self.depth > MAX_DEPTH {
                    return Err(TooDeep(*span));
                }
                match self.defs.lookup(name) {
                    Some(index) if !self.shallow && !self.written[index] => {
                        self.definition(index, enclosing)?
                    }
                    Some(index) => {
                        let reference = reference(&self.defs.types[index], enclosing);
                        self.out.string(&reference);
                    }
                    None => self.out.string(name),
                }
            }
        }
        self.depth -= 1;
        Ok(())
    }

    /// An array or map schema: `{"type": kind, key: inner, props…}`.
    fn container(
        &mut self,
        kind: &str,
        key: &str,
        inner: &TypeExpr,
        props: &Props,
        enclosing: Option<&str>,
    ) -> Result {
        self.out.begin_object();
        self.entry("type", kind);
        self.out.key(key);
        self.schema(inner, enclosing)?;
        self.props(props);
        self.out.end_object();
        Ok(())
    }

    /// The full definition of type `index`, marking it written.
    fn definition(&mut self, index: usize, enclosing: Option<&str>) -> Result {
        self.written[index] = true;
        let named = &self.defs.types[index];
        self.named(named, enclosing)
    }

    fn named(&mut self, named: &NamedType, enclosing: Option<&str>) -> Result {
        let ns = named.namespace.as_deref();
        let type_name = match &named.kind {
            NamedKind::Record { is_error: true, .. } => "error",
            NamedKind::Record { .. } => "record",
            NamedKind::Enum { .. } => "enum",
            NamedKind::Fixed { .. } => "fixed",
        };
        self.out.begin_object();
        self.entry("type", type_name);
        self.entry("name", &named.name);
        if ns != enclosing {
            self.entry("namespace", ns.unwrap_or(""));
        }
        self.doc(&named.doc);
        match &named.kind {
            NamedKind::Record { fields, .. } => self.fields("fields", fields, ns)?,
            NamedKind::Enum { symbols, default } => {
                self.strings("symbols", symbols);
                if let Some(default) = default {
                    self.entry("default", default);
                }
            }
            NamedKind::Fixed { size } => {
                self.out.key("size");
                self.out.value(&Value::from(*size));
            }
        }
        self.props(&named.props);
        if let Some(aliases) = &named.aliases {
            self.strings("aliases", aliases.iter().map(|a| alias(a, ns)));
        }
        self.out.end_object();
        Ok(())
    }

    fn field(&mut self, field: &Field, enclosing: Option<&str>) -> Result {
        self.out.begin_object();
        self.entry("name", &field.name);
        self.out.key("type");
        self.schema(&field.ty, enclosing)?;
        self.doc(&field.doc);
        if let Some(default) = &field.default {
            self.out.key("default");
            self.out.value(default);
        }
        if let Some(order) = field.order {
            self.entry("order", order);
        }
        if let Some(aliases) = &field.aliases {
            self.strings("aliases", aliases);
        }
        self.props(&field.props);
        self.out.end_object();
        Ok(())
    }

    /// A record's fields or a message's parameters, under `key`.
    fn fields(&mut self, key: &str, fields: &[Field], enclosing: Option<&str>) -> Result {
        self.out.key(key);
        self.out.begin_array();
        for field in fields {
            self.field(field, enclosing)?;
        }
        self.out.end_array();
        Ok(())
    }

    fn message(&mut self, message: &Message, ns: Option<&str>) -> Result {
        self.out.begin_object();
        self.doc(&message.doc);
        self.props(&message.props);
        self.fields("request", &message.request, ns)?;
        self.out.key("response");
        self.schema(&message.response, ns)?;
        if let Some(errors) = &message.errors {
            self.out.key("errors");
            self.out.begin_array();
            for error in errors {
                self.schema(error, ns)?;
            }
            self.out.end_array();
        }
        if message.one_way {
            self.out.key("one-way");
            self.out.value(&Value::Bool(true));
        }
        self.out.end_object();
        Ok(())
    }

    fn protocol(&mut self, header: &ProtocolHeader) -> Result {
        let ns = header.namespace.as_deref();
        self.out.begin_object();
        self.entry("protocol", &header.name);
        if let Some(ns) = ns {
            self.entry("namespace", ns);
        }
        self.doc(&header.doc);
        self.props(&header.props);
        self.out.key("types");
        self.out.begin_array();
        for index in 0..self.defs.types.len() {
            if !self.written[index] {
                self.definition(index, ns)?;
            }
        }
        self.out.end_array();
        self.out.key("messages");
        self.out.begin_object();
        let defs = self.defs;
        for (name, message) in &defs.messages {
            self.out.key(name);
            self.message(message, ns)?;
        }
        self.out.end_object();
        self.out.end_object();
        Ok(())
    }

    /// Every named type, each self-contained, as a JSON array.
    fn all_named(&mut self) -> Result {
        self.out.begin_array();
        for index in 0..self.defs.types.len() {
            self.written.fill(false);
            self.definition(index, None)?;
        }
        self.out.end_array();
        Ok(())
    }

    fn entry(&mut self, key: &str, value: &str) {
        self.out.key(key);
        self.out.string(value);
    }

    fn strings(&mut self, key: &str, values: impl IntoIterator<Item = impl AsRef<str>>) {
        self.out.key(key);
        self.out.begin_array();
        for value in values {
            self.out.string(value.as_ref());
        }
        self.out.end_array();
    }

    /// Properties follow the keys the writer sets itself, in the order written; none of them
    /// repeats such a key (those names are reserved, see `annotations`).
    fn props(&mut self, props: &Props) {
        for (key, value) in props {
            self.out.key(key);
            self.out.value(value);
        }
    }

    fn doc(&mut self, doc: &Option<String>) {
        if let (Some(doc), false) = (doc, self.shallow) {
            self.entry("doc", doc);
        }
    }
}

/// How a reference to `named` is spelled inside namespace `enclosing`: the simple name when
/// the namespaces agree (and the name is not one of Avro's type names), else the full name.
fn reference<'n>(named: &'n NamedType, enclosing: Option<&str>) -> Cow<'n, str> {
    qualified(named.namespace.as_deref(), &named.name, enclosing)
}

fn qualified<'n>(ns: Option<&str>, name: &'n str, enclosing: Option<&str>) -> Cow<'n, str> {
    if ns.is_some() && ns == enclosing && !names::is_avro_type_name(name) {
        Cow::Borrowed(name)
    } else {
        full_name::join(ns, name)
    }
}

/// A schema alias, read relative to the type's namespace and spelled like a reference.
fn alias(alias: &str, ns: Option<&str>) -> String {
    let full = full_name::qualify(alias, ns);
    let (alias_ns, simple) = full_name::namespace_and_name(&full);
    qualified(alias_ns, simple, ns).into_owned()
}

/// What an output document is.
#[derive(Clone, Copy)]
pub(crate) enum Document<'a> {
    /// The `.avpr` JSON of a protocol.
    Protocol(&'a ProtocolHeader),
    /// The JSON of a schema on its own (named types it uses defined inline at first use).
    Schema(&'a TypeExpr),
    /// The self-contained JSON of named type `index`.
    Named(usize),
    /// A JSON array of every named type, each self-contained.
    AllNamed,
}

/// Writes `document` into `out`.
pub(crate) fn write<S: Sink>(document: Document<'_>, defs: &Definitions, out: S) -> Result<S> {
    let mut w = Writer::new(defs, out);
    match document {
        Document::Protocol(header) => w.protocol(header)?,
        Document::Schema(ty) => w.schema(ty, None)?,
        Document::Named(index) => w.definition(index, None)?,
        Document::AllNamed => w.all_named()?,
    }
    Ok(w.out)
}

/// Checks that `document` can be written, without writing it.
pub(crate) fn check(document: Document<'_>, defs: &Definitions) -> Result {
    write(document, defs, Discard).map(drop)
}

/// `document` as a [`Value`].
pub(crate) fn value(document: Document<'_>, defs: &Definitions) -> Result<Value> {
    write(document, defs, ValueSink::default()).map(ValueSink::into_value)
}

/// `document` as JSON text, pretty-printed or compact.
pub(crate) fn text(document: Document<'_>, defs: &Definitions, pretty: bool) -> Result<Vec<u8>> {
    Ok(write(document, defs, TextSink::new(pretty))?.into_bytes())
}

/// The JSON of a definition or type in fingerprint mode, which needs no definitions:
/// references stay names and docs are left out.
fn shallow(write: impl FnOnce(&mut Writer<'_, ValueSink>) -> Result) -> Option<Value> {
    let defs = Definitions::default();
    let mut w = Writer::new(&defs, ValueSink::default());
    w.shallow = true;
    write(&mut w).ok()?;
    Some(w.out.into_value())
}

/// Whether two definitions of the same name are the same type, docs aside.
pub(crate) fn same_definition(a: &NamedType, b: &NamedType) -> bool {
    let fa = shallow(|w| w.named(a, None));
    fa.is_some() && fa == shallow(|w| w.named(b, None))
}

/// A type's JSON with references as names, for messages about it.
pub(crate) fn describe(ty: &TypeExpr) -> Value {
    shallow(|w| w.schema(ty, None)).unwrap_or(Value::Null)
}
