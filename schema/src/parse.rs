//! Reading schemas from JSON into a [`SchemaSet`] (Avro specification, "Schema Declaration"
//! through "Aliases").

use std::collections::HashSet;
use std::fmt::Write as _;
use std::ops::Range;

use serde_json::{Map, Value};

use super::error::{SchemaError, SchemaErrorKind as Kind};
use super::logical::{self, Base};
use super::pointer::Pointer;
use super::{Field, Name, NamedKind, NamedSchema, Order, Props, Schema, SchemaKind, SchemaSet};

type Result<T> = std::result::Result<T, SchemaError>;

const RECORD_KEYS: &[&str] = &["type", "name", "namespace", "doc", "aliases", "fields"];
const ENUM_KEYS: &[&str] = &[
    "type",
    "name",
    "namespace",
    "doc",
    "aliases",
    "symbols",
    "default",
];
const FIXED_KEYS: &[&str] = &["type", "name", "namespace", "doc", "aliases", "size"];
const FIELD_KEYS: &[&str] = &["name", "type", "doc", "default", "order", "aliases"];

impl SchemaSet {
    /// Parses one schema (an `.avsc`), registering the named types it defines, and returns
    /// it. On error the set is left as it was.
    pub fn parse_str(&mut self, json: &str) -> Result<Schema> {
        with_json(json, |value| self.parse_value(value))
    }

    /// Parses a schema file's text, `.avsc` or `.avpr` (an object with a `protocol` key),
    /// registering its named types; returns the schema of an `.avsc`, `None` for a protocol.
    pub fn parse_file_text(&mut self, json: &str) -> Result<Option<Schema>> {
        with_json(json, |value| self.parse_file_value(value))
    }

    /// Parses a schema file's JSON; see [`SchemaSet::parse_file_text`].
    pub fn parse_file_value(&mut self, json: &Value) -> Result<Option<Schema>> {
        if json.get("protocol").is_some() {
            self.parse_protocol_value(json).map(|_| None)
        } else {
            self.parse_value(json).map(Some)
        }
    }

    /// Parses one schema from a JSON value; see [`SchemaSet::parse_str`].
    pub fn parse_value(&mut self, json: &Value) -> Result<Schema> {
        self.transaction(|parser| parser.schema(json, None, Pointer::Root))
    }

    /// Runs `parse` and then the deferred default checks; forgets what it registered on error.
    pub(crate) fn transaction<T>(
        &mut self,
        parse: impl FnOnce(&mut Parser<'_>) -> Result<T>,
    ) -> Result<T> {
        let start = self.len();
        let mut parser = Parser {
            set: self,
            in_progress: Vec::new(),
            defaults: Vec::new(),
            default_paths: String::new(),
        };
        let result = parse(&mut parser).and_then(|value| parser.check_defaults().map(|()| value));
        if result.is_err() {
            self.truncate(start);
        }
        result
    }
}

/// How deeply schema JSON may nest: far beyond what the IDL parser writes (a thousand named
/// types defined inside each other, a few JSON levels each), where serde_json's own limit
/// of 128 refuses a chain of 41 records that each define the next.
pub const MAX_JSON_DEPTH: usize = 20_000;

/// The stack JSON text is read on: enough for [`MAX_JSON_DEPTH`] levels of serde_json's
/// recursive reader, whatever thread the caller runs on.
const JSON_STACK: usize = 256 << 20;

/// Parses JSON text and runs `read` on it, on a stack deep enough for [`MAX_JSON_DEPTH`]
/// levels (reading, `read` and dropping the value all recurse). Syntax errors are reported
/// with their line and column; `//` and `/* */` comments are allowed, as the Java
/// reference's parser allows them in schema files.
pub(crate) fn with_json<T>(json: &str, read: impl FnOnce(&Value) -> Result<T>) -> Result<T> {
    use serde::Deserialize as _;
    let json = blank_comments(json);
    let depth = nesting_depth(&json);
    if depth > MAX_JSON_DEPTH {
        let message = format!("nested {depth} levels deep, more than {MAX_JSON_DEPTH}");
        return Err(SchemaError::new("", Kind::Json(message)));
    }
    stacker::grow(JSON_STACK, || {
        let mut reader = serde_json::Deserializer::from_str(&json);
        reader.disable_recursion_limit();
        let value = Value::deserialize(&mut reader)
            .and_then(|value| reader.end().map(|()| value))
            .map_err(|e| SchemaError::new("", Kind::Json(e.to_string())))?;
        read(&value)
    })
}

/// The deepest nesting of brackets and braces outside string literals.
fn nesting_depth(json: &str) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0, false, false);
    for byte in json.bytes() {
        match (in_string, byte) {
            (true, _) if escaped => escaped = false,
            (true, b'\\') => escaped = true,
            (true, b'"') | (false, b'"') => in_string = !in_string,
            (false, b'[' | b'{') => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            (false, b']' | b'}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// `json` with every comment outside string literals replaced by spaces (line breaks kept),
/// so that error positions still point into the original text.
fn blank_comments(json: &str) -> std::borrow::Cow<'_, str> {
    if !json.contains("//") && !json.contains("/*") {
        return json.into();
    }
    let bytes = json.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let (mut i, mut in_string) = (0, false);
    while i < bytes.len() {
        let byte = bytes[i];
        if in_string {
            // An escape takes the next byte with it, so `\"` does not end the string.
            let len = if byte == b'\\' { 2 } else { 1 };
            out.extend_from_slice(&bytes[i..(i + len).min(bytes.len())]);
            in_string = byte != b'"';
            i += len;
            continue;
        }
        let end: &[u8] = match (byte, bytes.get(i + 1)) {
            (b'/', Some(b'/')) => b"\n",
            (b'/', Some(b'*')) => b"*/",
            _ => {
                in_string = byte == b'"';
                out.push(byte);
                i += 1;
                continue;
            }
        };
        // A line comment ends before its line break, a block comment after its `*/`.
        let body = i + 2;
        let close = bytes[body..]
            .windows(end.len())
            .position(|window| window == end)
            .map_or(bytes.len(), |at| {
                body + at + if end == b"*/" { 2 } else { 0 }
            });
        let blank = |&c: &u8| if c == b'\n' { b'\n' } else { b' ' };
        out.extend(bytes[i..close].iter().map(blank));
        i = close;
    }
    String::from_utf8_lossy(&out).into_owned().into()
}

/// A default waiting to be checked once every type it may mention is registered.
struct PendingDefault {
    schema: Schema,
    default: Value,
    /// Its JSON Pointer, in [`Parser::default_paths`].
    path: Range<usize>,
}

/// The state of one parse: the set being filled, the records whose fields are being read
/// (they may refer to themselves), and the defaults still to check.
pub(crate) struct Parser<'s> {
    set: &'s mut SchemaSet,
    in_progress: Vec<String>,
    defaults: Vec<PendingDefault>,
    /// The pending defaults' JSON Pointers, one after the other: one buffer rather than a
    /// string per default.
    default_paths: String,
}

impl Parser<'_> {
    /// Reads a schema at `path`, whose enclosing namespace is `namespace`.
    pub(crate) fn schema(
        &mut self,
        json: &Value,
        namespace: Option<&str>,
        path: Pointer<'_>,
    ) -> Result<Schema> {
        // Named types defined inside each other nest as deep as the input: grow the stack on
        // the heap instead of overflowing it.
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
            self.schema_on_stack(json, namespace, path)
        })
    }

    fn schema_on_stack(
        &mut self,
        json: &Value,
        namespace: Option<&str>,
        path: Pointer<'_>,
    ) -> Result<Schema> {
        match json {
            Value::String(name) => self.reference(name, namespace, path),
            Value::Array(branches) => self.union(branches, namespace, path),
            Value::Object(object) => self.object(object, namespace, path),
            _ => Err(SchemaError::malformed(
                path,
                "a schema must be a type name, an object or an array",
            )),
        }
    }

    /// A type name: a primitive, or a named type defined before (or being defined around) it.
    /// An undotted name is looked up in the enclosing namespace, then in the null namespace.
    fn reference(&self, name: &str, namespace: Option<&str>, path: Pointer<'_>) -> Result<Schema> {
        if let Some(kind) = SchemaKind::primitive(name) {
            return Ok(Schema::new(kind));
        }
        let candidates = [Name::parse(name, namespace), Name::parse(name, None)];
        candidates
            .into_iter()
            .find(|candidate| self.is_known(&candidate.full_name()))
            .map(Schema::named)
            .ok_or_else(|| {
                let full = Name::parse(name, namespace).full_name();
                SchemaError::new(path, Kind::UnknownType(full))
            })
    }

    fn is_known(&self, full_name: &str) -> bool {
        self.set.get(full_name).is_some() || self.in_progress.iter().any(|n| n == full_name)
    }

    fn union(
        &mut self,
        json: &[Value],
        namespace: Option<&str>,
        path: Pointer<'_>,
    ) -> Result<Schema> {
        let mut branches = Vec::with_capacity(json.len());
        let mut seen = HashSet::new();
        for (i, branch) in json.iter().enumerate() {
            let branch_path = path.index(i);
            let schema = self.schema(branch, namespace, branch_path)?;
            let key = match &schema.kind {
                SchemaKind::Union(_) => {
                    return Err(SchemaError::new(branch_path, Kind::NestedUnion))
                }
                SchemaKind::Array(_) => "array".to_owned(),
                SchemaKind::Map(_) => "map".to_owned(),
                SchemaKind::Named(name) => name.full_name(),
                primitive => primitive.primitive_name().unwrap_or_default().to_owned(),
            };
            if !seen.insert(key.clone()) {
                return Err(SchemaError::new(
                    branch_path,
                    Kind::DuplicateUnionBranch(key),
                ));
            }
            branches.push(schema);
        }
        Ok(Schema::new(SchemaKind::Union(branches)))
    }

    fn object(
        &mut self,
        json: &Map<String, Value>,
        namespace: Option<&str>,
        path: Pointer<'_>,
    ) -> Result<Schema> {
        let type_path = path.key("type");
        let type_name = match json.get("type") {
            Some(Value::String(type_name)) => type_name.as_str(),
            Some(nested) => return self.schema(nested, namespace, type_path),
            None => return Err(SchemaError::malformed(path, "missing \"type\"")),
        };
        let (kind, base, reserved): (SchemaKind, Base, &[&str]) = match type_name {
            "array" => {
                let items = required(json, "items", path)?;
                let items = self.schema(items, namespace, path.key("items"))?;
                (
                    SchemaKind::Array(Box::new(items)),
                    Base::Other,
                    &["type", "items"],
                )
            }
            "map" => {
                let values = required(json, "values", path)?;
                let values = self.schema(values, namespace, path.key("values"))?;
                (
                    SchemaKind::Map(Box::new(values)),
                    Base::Other,
                    &["type", "values"],
                )
            }
            "record" | "error" | "enum" | "fixed" => {
                return self.named(json, type_name, namespace, path)
            }
            other => match SchemaKind::primitive(other) {
                Some(kind) => {
                    let base = match kind {
                        SchemaKind::Int => Base::Int,
                        SchemaKind::Long => Base::Long,
                        SchemaKind::String => Base::String,
                        SchemaKind::Bytes => Base::Bytes,
                        _ => Base::Other,
                    };
                    (kind, base, &["type"])
                }
                None => return self.reference(other, namespace, type_path),
            },
        };
        let mut props = props(json, reserved);
        let logical_type = logical::extract(base, &mut props);
        Ok(Schema {
            kind,
            logical_type,
            props,
        })
    }

    /// A record, error, enum or fixed definition, registered after its nested types.
    fn named(
        &mut self,
        json: &Map<String, Value>,
        type_name: &str,
        enclosing: Option<&str>,
        path: Pointer<'_>,
    ) -> Result<Schema> {
        let name = self.definition_name(json, enclosing, path)?;
        let full_name = name.full_name();
        if self.in_progress.contains(&full_name) {
            return Err(SchemaError::new(
                path.key("name"),
                Kind::DuplicateName(full_name),
            ));
        }
        let namespace = name.namespace.clone();
        let aliases = string_list(json, "aliases", path)?
            .into_iter()
            .map(|alias| Name::parse(&alias, namespace.as_deref()))
            .collect();
        let doc = optional_string(json, "doc", path)?;
        let (kind, reserved) = match type_name {
            "enum" => (self.enum_kind(json, path)?, ENUM_KEYS),
            "fixed" => (fixed_kind(json, path)?, FIXED_KEYS),
            _ => {
                self.in_progress.push(full_name.clone());
                let fields = self.fields(json, namespace.as_deref(), path);
                self.in_progress.pop();
                let is_error = type_name == "error";
                (
                    NamedKind::Record {
                        fields: fields?,
                        is_error,
                    },
                    RECORD_KEYS,
                )
            }
        };
        let mut props = props(json, reserved);
        let logical_type = match kind {
            NamedKind::Fixed { size } => logical::extract(Base::Fixed(size), &mut props),
            _ => None,
        };
        let named = NamedSchema {
            name: name.clone(),
            aliases,
            doc,
            kind,
            logical_type,
            props,
        };
        match self.set.get(&full_name) {
            Some(existing) if *existing == named => {}
            Some(_) => {
                return Err(SchemaError::new(
                    path.key("name"),
                    Kind::DuplicateName(full_name),
                ))
            }
            None => self.set.register(named),
        }
        Ok(Schema::named(name))
    }

    /// The full name a definition declares: a dotted `name` is full, else `namespace` (when
    /// given, `""` being the null namespace) or the enclosing namespace qualifies it.
    fn definition_name(
        &self,
        json: &Map<String, Value>,
        enclosing: Option<&str>,
        path: Pointer<'_>,
    ) -> Result<Name> {
        let simple = required_string(json, "name", path)?;
        let namespace = optional_string(json, "namespace", path)?;
        let name = Name::parse(simple, namespace.as_deref().or(enclosing));
        match name.invalid_reason() {
            Some(reason) => Err(SchemaError::new(
                path.key("name"),
                Kind::InvalidName(reason),
            )),
            None => Ok(name),
        }
    }

    fn fields(
        &mut self,
        json: &Map<String, Value>,
        namespace: Option<&str>,
        path: Pointer<'_>,
    ) -> Result<Vec<Field>> {
        let fields_path = path.key("fields");
        let Value::Array(list) = required(json, "fields", path)? else {
            return Err(SchemaError::malformed(
                fields_path,
                "\"fields\" must be an array",
            ));
        };
        let mut fields: Vec<Field> = Vec::with_capacity(list.len());
        for (i, field) in list.iter().enumerate() {
            let field = self.field(field, namespace, fields_path.index(i))?;
            if fields.iter().any(|f| f.name == field.name) {
                let path = fields_path.index(i);
                let path = path.key("name");
                return Err(SchemaError::new(path, Kind::DuplicateField(field.name)));
            }
            fields.push(field);
        }
        Ok(fields)
    }

    /// A record field or message parameter.
    pub(crate) fn field(
        &mut self,
        json: &Value,
        namespace: Option<&str>,
        path: Pointer<'_>,
    ) -> Result<Field> {
        let Value::Object(json) = json else {
            return Err(SchemaError::malformed(path, "a field must be an object"));
        };
        let name = required_string(json, "name", path)?.to_owned();
        if let Some(reason) = super::name::invalid_simple_name(&name) {
            return Err(SchemaError::new(
                path.key("name"),
                Kind::InvalidName(reason),
            ));
        }
        let schema = self.schema(required(json, "type", path)?, namespace, path.key("type"))?;
        let default = json.get("default").cloned();
        if let Some(default) = &default {
            let start = self.default_paths.len();
            let _ = write!(self.default_paths, "{}", path.key("default"));
            self.defaults.push(PendingDefault {
                schema: schema.clone(),
                default: default.clone(),
                path: start..self.default_paths.len(),
            });
        }
        Ok(Field {
            name,
            doc: optional_string(json, "doc", path)?,
            schema,
            default,
            order: order(json, path)?,
            aliases: string_list(json, "aliases", path)?,
            props: props(json, FIELD_KEYS),
        })
    }

    fn enum_kind(&self, json: &Map<String, Value>, path: Pointer<'_>) -> Result<NamedKind> {
        let symbols_path = path.key("symbols");
        if !json.get("symbols").is_some_and(Value::is_array) {
            return Err(SchemaError::malformed(
                symbols_path,
                "\"symbols\" must be an array of strings",
            ));
        }
        let symbols = string_list(json, "symbols", path)?;
        for (i, symbol) in symbols.iter().enumerate() {
            let symbol_path = symbols_path.index(i);
            if let Some(reason) = super::name::invalid_simple_name(symbol) {
                return Err(SchemaError::new(symbol_path, Kind::InvalidName(reason)));
            }
            if symbols[..i].contains(symbol) {
                return Err(SchemaError::new(
                    symbol_path,
                    Kind::DuplicateSymbol(symbol.clone()),
                ));
            }
        }
        let default = optional_string(json, "default", path)?;
        if let Some(default) = &default {
            if !symbols.contains(default) {
                return Err(SchemaError::new(
                    path.key("default"),
                    Kind::UnknownEnumDefault(default.clone()),
                ));
            }
        }
        Ok(NamedKind::Enum { symbols, default })
    }

    /// Checks the defaults collected while parsing, now that every type is registered.
    fn check_defaults(&mut self) -> Result<()> {
        for pending in std::mem::take(&mut self.defaults) {
            if !self.set.is_valid_default(&pending.schema, &pending.default) {
                let schema = self.set.to_json(&pending.schema).to_string();
                let default = pending.default.to_string();
                return Err(SchemaError::new(
                    &self.default_paths[pending.path],
                    Kind::InvalidDefault { default, schema },
                ));
            }
        }
        Ok(())
    }
}

fn fixed_kind(json: &Map<String, Value>, path: Pointer<'_>) -> Result<NamedKind> {
    let size = required(json, "size", path)?;
    size.as_u64()
        .and_then(|size| usize::try_from(size).ok())
        .filter(|&size| i32::try_from(size).is_ok())
        .map(|size| NamedKind::Fixed { size })
        .ok_or_else(|| SchemaError::new(path.key("size"), Kind::InvalidFixedSize(size.to_string())))
}

fn order(json: &Map<String, Value>, path: Pointer<'_>) -> Result<Order> {
    match optional_string(json, "order", path)?.as_deref() {
        None => Ok(Order::Ascending),
        Some(text) => Order::from_name(text).ok_or_else(|| {
            SchemaError::malformed(
                path.key("order"),
                format!("order must be \"ascending\", \"descending\" or \"ignore\", not {text:?}"),
            )
        }),
    }
}

/// The attributes of `json` not in `reserved`, in the order written.
pub(crate) fn props(json: &Map<String, Value>, reserved: &[&str]) -> Props {
    json.iter()
        .filter(|(key, _)| !reserved.contains(&key.as_str()))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect()
}

pub(crate) fn required<'j>(
    json: &'j Map<String, Value>,
    key: &str,
    path: Pointer<'_>,
) -> Result<&'j Value> {
    json.get(key)
        .ok_or_else(|| SchemaError::malformed(path, format!("missing {key:?}")))
}

pub(crate) fn required_string<'j>(
    json: &'j Map<String, Value>,
    key: &str,
    path: Pointer<'_>,
) -> Result<&'j str> {
    required(json, key, path)?
        .as_str()
        .ok_or_else(|| SchemaError::malformed(path.key(key), format!("{key:?} must be a string")))
}

pub(crate) fn optional_string(
    json: &Map<String, Value>,
    key: &str,
    path: Pointer<'_>,
) -> Result<Option<String>> {
    match json.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(SchemaError::malformed(
            path.key(key),
            format!("{key:?} must be a string"),
        )),
    }
}

/// An optional array of strings (`aliases`, `symbols`); absent is empty.
fn string_list(json: &Map<String, Value>, key: &str, path: Pointer<'_>) -> Result<Vec<String>> {
    let list_path = path.key(key);
    let Some(value) = json.get(key) else {
        return Ok(Vec::new());
    };
    let Value::Array(items) = value else {
        return Err(SchemaError::malformed(
            list_path,
            format!("{key:?} must be an array of strings"),
        ));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            item.as_str()
                .map(str::to_owned)
                .ok_or_else(|| SchemaError::malformed(list_path.index(i), "expected a string"))
        })
        .collect()
}
