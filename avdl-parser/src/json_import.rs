//! `import protocol` / `import schema`: Avro JSON (comments allowed, as the reference's JSON
//! reader allows them) read into the same syntax tree as IDL.

use serde_json::{Map, Value};

use crate::ast::{Field, Message, NamedKind, NamedType, Props, TypeExpr};
use crate::error::{Error, ErrorKind};
use crate::full_name;
use crate::json_text::{offset_of, strip_comments};
use crate::loader::Loader;
use crate::names;
use crate::source::Span;

type Result<T> = std::result::Result<T, Error>;

/// Reads an imported `.avpr`: its types join the name table, its messages the protocol when
/// `keep_messages`.
pub(crate) fn protocol(loader: &mut Loader<'_>, file: u32, keep_messages: bool) -> Result<()> {
    let value = parse_json(loader, file)?;
    let mut reader = JsonReader {
        loader,
        span: Span {
            file,
            start: 0,
            end: 0,
        },
    };
    let obj = value
        .as_object()
        .ok_or_else(|| reader.invalid("a protocol must be a JSON object"))?;
    let written = obj
        .get("protocol")
        .and_then(Value::as_str)
        .ok_or_else(|| reader.invalid("a protocol needs a \"protocol\" name"))?;
    let declared = obj
        .get("namespace")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty());
    let ns = full_name::name_in(written, declared).1.map(str::to_owned);
    if let Some(types) = obj.get("types") {
        let types = types
            .as_array()
            .ok_or_else(|| reader.invalid("\"types\" must be an array"))?;
        for ty in types {
            reader.schema(ty, ns.as_deref())?;
        }
    }
    if let (Some(messages), true) = (obj.get("messages"), keep_messages) {
        let messages = messages
            .as_object()
            .ok_or_else(|| reader.invalid("\"messages\" must be an object"))?;
        for (name, message) in messages {
            let message = reader.message(message, ns.as_deref())?;
            reader.loader.defs.add_message(name.clone(), message);
        }
    }
    Ok(())
}

/// Reads an imported `.avsc`: every named type in it joins the name table.
pub(crate) fn schema(loader: &mut Loader<'_>, file: u32) -> Result<()> {
    let value = parse_json(loader, file)?;
    let mut reader = JsonReader {
        loader,
        span: Span {
            file,
            start: 0,
            end: 0,
        },
    };
    reader.schema(&value, None).map(drop)
}

/// Parses the file's JSON after blanking out comments, with errors at file:line:col.
fn parse_json(loader: &Loader<'_>, file: u32) -> Result<Value> {
    let text = &loader.sources.get(file).text;
    let stripped = strip_comments(text);
    serde_json::from_str(&stripped).map_err(|e| {
        let offset = offset_of(text, e.line(), e.column());
        let span = Span {
            file,
            start: offset as u32,
            end: offset as u32 + 1,
        };
        loader
            .sources
            .error(ErrorKind::InvalidJson, span, format!("invalid JSON: {e}"))
    })
}

/// Keys with a meaning of their own in a named schema; the others are properties.
const NAMED_KEYS: [&str; 8] = [
    "type",
    "name",
    "namespace",
    "doc",
    "aliases",
    "fields",
    "symbols",
    "size",
];
const FIELD_KEYS: [&str; 6] = ["name", "type", "doc", "default", "order", "aliases"];
const MESSAGE_KEYS: [&str; 5] = ["doc", "request", "response", "errors", "one-way"];

struct JsonReader<'l, 'o> {
    loader: &'l mut Loader<'o>,
    /// The start of the file; JSON values carry no positions of their own.
    span: Span,
}

impl JsonReader<'_, '_> {
    fn invalid(&self, message: &str) -> Error {
        let name = &self.loader.sources.get(self.span.file).name;
        self.loader.sources.error(
            ErrorKind::InvalidJson,
            self.span,
            format!("invalid schema in {name}: {message}"),
        )
    }

    fn schema(&mut self, value: &Value, ns: Option<&str>) -> Result<TypeExpr> {
        match value {
            Value::String(name) => Ok(self.reference(name, ns)),
            Value::Array(branches) => Ok(TypeExpr::Union {
                branches: branches
                    .iter()
                    .map(|b| self.schema(b, ns))
                    .collect::<Result<_>>()?,
            }),
            Value::Object(obj) => self.complex(obj, ns),
            _ => Err(self.invalid(&format!("not a schema: {value}"))),
        }
    }

    fn reference(&self, name: &str, ns: Option<&str>) -> TypeExpr {
        if let Some(primitive) = names::primitive(name) {
            return TypeExpr::Primitive {
                name: primitive,
                props: Props::new(),
            };
        }
        if full_name::split(name).is_some() || ns.is_none() {
            return TypeExpr::Named {
                name: name.to_owned(),
                fallback: None,
                span: self.span,
            };
        }
        TypeExpr::Named {
            name: full_name::join(ns, name).into_owned(),
            fallback: Some(name.to_owned()),
            span: self.span,
        }
    }

    fn complex(&mut self, obj: &Map<String, Value>, ns: Option<&str>) -> Result<TypeExpr> {
        let props_except = |keys: &[&str]| -> Props {
            obj.iter()
                .filter(|(k, _)| !keys.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        };
        let ty = match obj.get("type") {
            Some(Value::String(t)) => t.as_str(),
            Some(other) => return self.schema(other, ns),
            None => return Err(self.invalid("a schema object needs a \"type\"")),
        };
        // An array's items or a map's values (the schema under `key`), and the properties.
        let element =
            |this: &mut Self, key: &str, missing: &str| -> Result<(Box<TypeExpr>, Props)> {
                let element = obj.get(key).ok_or_else(|| this.invalid(missing))?;
                Ok((
                    Box::new(this.schema(element, ns)?),
                    props_except(&["type", key]),
                ))
            };
        match ty {
            "array" => {
                let (items, props) = element(self, "items", "an array needs \"items\"")?;
                Ok(TypeExpr::Array { items, props })
            }
            "map" => {
                let (values, props) = element(self, "values", "a map needs \"values\"")?;
                Ok(TypeExpr::Map { values, props })
            }
            "record" | "error" | "enum" | "fixed" => self.named(obj, ty, ns),
            _ => match names::primitive(ty) {
                Some(name) => Ok(TypeExpr::Primitive {
                    name,
                    props: props_except(&["type"]),
                }),
                None => Ok(self.reference(ty, ns)),
            },
        }
    }

    /// A named definition: registered after its fields (post-order, as the reference's JSON
    /// reader does), and returned as a reference.
    fn named(&mut self, obj: &Map<String, Value>, ty: &str, ns: Option<&str>) -> Result<TypeExpr> {
        let written = obj
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| self.invalid("a named schema needs a \"name\""))?;
        let enclosing = match obj.get("namespace") {
            Some(Value::String(s)) => Some(s.as_str()).filter(|s| !s.is_empty()),
            _ => ns,
        };
        let (name, namespace) = full_name::name_in(written, enclosing);
        let (name, namespace) = (name.to_owned(), namespace.map(str::to_owned));
        let kind = match ty {
            "record" | "error" => {
                let fields = obj
                    .get("fields")
                    .and_then(Value::as_array)
                    .ok_or_else(|| self.invalid("a record needs \"fields\""))?;
                let fields = fields
                    .iter()
                    .map(|f| self.field(f, namespace.as_deref()))
                    .collect::<Result<_>>()?;
                NamedKind::Record {
                    is_error: ty == "error",
                    fields,
                }
            }
            "enum" => {
                let symbols = obj
                    .get("symbols")
                    .and_then(Value::as_array)
                    .ok_or_else(|| self.invalid("an enum needs \"symbols\""))?;
                let symbols = symbols
                    .iter()
                    .map(|s| s.as_str().map(str::to_owned))
                    .collect::<Option<_>>()
                    .ok_or_else(|| self.invalid("enum symbols must be strings"))?;
                let default = obj
                    .get("default")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                NamedKind::Enum { symbols, default }
            }
            _ => {
                let size = obj
                    .get("size")
                    .and_then(Value::as_u64)
                    .ok_or_else(|| self.invalid("a fixed needs a \"size\""))?;
                NamedKind::Fixed { size }
            }
        };
        let mut skip = NAMED_KEYS.to_vec();
        if ty == "enum" {
            skip.push("default");
        }
        let named = NamedType {
            name,
            namespace,
            doc: obj.get("doc").and_then(Value::as_str).map(str::to_owned),
            aliases: string_list(obj.get("aliases")),
            props: obj
                .iter()
                .filter(|(k, _)| !skip.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            kind,
            span: self.span,
        };
        let reference = TypeExpr::Named {
            name: named.full_name(),
            fallback: None,
            span: self.span,
        };
        self.loader.register(named)?;
        Ok(reference)
    }

    fn field(&mut self, value: &Value, ns: Option<&str>) -> Result<Field> {
        let obj = value
            .as_object()
            .ok_or_else(|| self.invalid("a field must be an object"))?;
        let name = obj
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| self.invalid("a field needs a \"name\""))?;
        let ty = obj
            .get("type")
            .ok_or_else(|| self.invalid("a field needs a \"type\""))?;
        let order = match obj.get("order").and_then(Value::as_str) {
            Some("descending") => Some("descending"),
            Some("ignore") => Some("ignore"),
            _ => None,
        };
        Ok(Field {
            name: name.to_owned(),
            ty: self.schema(ty, ns)?,
            doc: obj.get("doc").and_then(Value::as_str).map(str::to_owned),
            default: obj.get("default").cloned(),
            order,
            aliases: string_list(obj.get("aliases")),
            props: obj
                .iter()
                .filter(|(k, _)| !FIELD_KEYS.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            span: self.span,
            default_span: self.span,
        })
    }

    fn message(&mut self, value: &Value, ns: Option<&str>) -> Result<Message> {
        let obj = value
            .as_object()
            .ok_or_else(|| self.invalid("a message must be an object"))?;
        let request = match obj.get("request") {
            Some(Value::Array(params)) => params
                .iter()
                .map(|p| self.field(p, ns))
                .collect::<Result<_>>()?,
            _ => Vec::new(),
        };
        let response = match obj.get("response") {
            Some(r) => self.schema(r, ns)?,
            None => TypeExpr::Primitive {
                name: "null",
                props: Props::new(),
            },
        };
        let errors = match obj.get("errors") {
            Some(Value::Array(errors)) => Some(
                errors
                    .iter()
                    .map(|e| self.schema(e, ns))
                    .collect::<Result<_>>()?,
            ),
            _ => None,
        };
        Ok(Message {
            doc: obj.get("doc").and_then(Value::as_str).map(str::to_owned),
            props: obj
                .iter()
                .filter(|(k, _)| !MESSAGE_KEYS.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            request,
            response,
            errors,
            one_way: obj.get("one-way").and_then(Value::as_bool).unwrap_or(false),
        })
    }
}

fn string_list(value: Option<&Value>) -> Option<Vec<String>> {
    value?
        .as_array()?
        .iter()
        .map(|v| v.as_str().map(str::to_owned))
        .collect()
}

/// Line and column of a byte offset, for tests of the stripper's position keeping.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::offsets::line_column;

    #[test]
    fn comments_are_blanked_and_strings_kept() {
        let text = "/* a\n b */ {\"x\": \"//not /* a comment\"} // end";
        let stripped = strip_comments(text);
        assert_eq!(stripped.len(), text.len());
        let v: Value = serde_json::from_str(&stripped).unwrap();
        assert_eq!(v, serde_json::json!({"x": "//not /* a comment"}));
        assert_eq!(line_column(&stripped, stripped.find('{').unwrap()), (2, 7));
    }
}
