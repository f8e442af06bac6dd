//! Protocols (`.avpr`): named types plus messages (Avro specification, "Protocol
//! Declaration").

use serde_json::{Map, Value};

use super::error::SchemaError;
use super::json::JsonWriter;
use super::parse::{optional_string, props, required, required_string, with_json, Parser};
use super::pointer::Pointer;
use super::{Field, Name, Props, Schema, SchemaSet};

/// A protocol read from an `.avpr`; its named types are registered in the [`SchemaSet`] it was
/// parsed into.
#[derive(Debug, Clone, PartialEq)]
pub struct Protocol {
    /// The protocol name and namespace.
    pub name: Name,
    /// The `doc` string.
    pub doc: Option<String>,
    /// The entries of `types`, in the order written (each usually a named type's definition).
    pub types: Vec<Schema>,
    /// The messages, in the order written.
    pub messages: Vec<(String, Message)>,
    /// Other properties of the protocol, in the order written.
    pub props: Props,
}

/// A message of a protocol.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// The `doc` string.
    pub doc: Option<String>,
    /// The request parameters, which are written like record fields.
    pub request: Vec<Field>,
    /// The response type (`null` for none).
    pub response: Schema,
    /// The declared errors, if `errors` was given.
    pub errors: Option<Vec<Schema>>,
    /// `"one-way": true`: no response is sent.
    pub one_way: bool,
    /// Other properties of the message, in the order written.
    pub props: Props,
}

const PROTOCOL_KEYS: &[&str] = &["protocol", "namespace", "doc", "types", "messages"];
const MESSAGE_KEYS: &[&str] = &["doc", "request", "response", "errors", "one-way"];

impl SchemaSet {
    /// Parses a protocol (an `.avpr`), registering its types in order. On error the set is
    /// left as it was.
    pub fn parse_protocol(&mut self, json: &str) -> Result<Protocol, SchemaError> {
        with_json(json, |value| self.parse_protocol_value(value))
    }

    /// Parses a protocol from a JSON value; see [`SchemaSet::parse_protocol`].
    pub fn parse_protocol_value(&mut self, json: &Value) -> Result<Protocol, SchemaError> {
        let Value::Object(json) = json else {
            return Err(SchemaError::malformed("", "a protocol must be an object"));
        };
        self.transaction(|parser| parser.protocol(json))
    }

    /// The JSON of `protocol` as the Java tools write it: types in order, each named type
    /// defined once (at its first use), messages after them.
    pub fn protocol_to_json(&self, protocol: &Protocol) -> Value {
        let namespace = protocol.name.namespace.as_deref();
        let mut writer = JsonWriter::new(self);
        let mut object = Map::new();
        object.insert("protocol".into(), protocol.name.name.clone().into());
        if let Some(namespace) = namespace {
            object.insert("namespace".into(), namespace.into());
        }
        if let Some(doc) = &protocol.doc {
            object.insert("doc".into(), doc.clone().into());
        }
        object.extend(protocol.props.clone());
        let types = protocol.types.iter().map(|t| writer.schema(t, namespace));
        object.insert("types".into(), types.collect());
        let mut messages = Map::new();
        for (name, message) in &protocol.messages {
            messages.insert(
                name.clone(),
                message_to_json(&mut writer, message, namespace),
            );
        }
        object.insert("messages".into(), Value::Object(messages));
        Value::Object(object)
    }
}

fn message_to_json(
    writer: &mut JsonWriter<'_>,
    message: &Message,
    namespace: Option<&str>,
) -> Value {
    let mut object = Map::new();
    if let Some(doc) = &message.doc {
        object.insert("doc".into(), doc.clone().into());
    }
    object.extend(message.props.clone());
    let request = message.request.iter().map(|f| writer.field(f, namespace));
    object.insert("request".into(), request.collect());
    object.insert(
        "response".into(),
        writer.schema(&message.response, namespace),
    );
    if let Some(errors) = &message.errors {
        let errors = errors.iter().map(|e| writer.schema(e, namespace));
        object.insert("errors".into(), errors.collect());
    }
    if message.one_way {
        object.insert("one-way".into(), true.into());
    }
    Value::Object(object)
}

impl Parser<'_> {
    fn protocol(&mut self, json: &Map<String, Value>) -> Result<Protocol, SchemaError> {
        let simple = required_string(json, "protocol", Pointer::Root)?;
        let namespace = optional_string(json, "namespace", Pointer::Root)?;
        let name = Name::parse(simple, namespace.as_deref());
        let ns = name.namespace.clone();
        let ns = ns.as_deref();
        let types = match json.get("types") {
            None => Vec::new(),
            Some(Value::Array(types)) => types
                .iter()
                .enumerate()
                .map(|(i, t)| self.schema(t, ns, Pointer::Root.key("types").index(i)))
                .collect::<Result<_, _>>()?,
            Some(_) => {
                return Err(SchemaError::malformed(
                    "/types",
                    "\"types\" must be an array",
                ))
            }
        };
        let messages = match json.get("messages") {
            None => Vec::new(),
            Some(Value::Object(messages)) => messages
                .iter()
                .map(|(m, json)| {
                    Ok((
                        m.clone(),
                        self.message(json, ns, Pointer::Root.key("messages").key(m))?,
                    ))
                })
                .collect::<Result<_, SchemaError>>()?,
            Some(_) => {
                return Err(SchemaError::malformed(
                    "/messages",
                    "\"messages\" must be an object",
                ))
            }
        };
        Ok(Protocol {
            name,
            doc: optional_string(json, "doc", Pointer::Root)?,
            types,
            messages,
            props: props(json, PROTOCOL_KEYS),
        })
    }

    fn message(
        &mut self,
        json: &Value,
        ns: Option<&str>,
        path: Pointer<'_>,
    ) -> Result<Message, SchemaError> {
        let Value::Object(json) = json else {
            return Err(SchemaError::malformed(path, "a message must be an object"));
        };
        let request_path = path.key("request");
        let Value::Array(request) = required(json, "request", path)? else {
            return Err(SchemaError::malformed(
                request_path,
                "\"request\" must be an array",
            ));
        };
        let request = request
            .iter()
            .enumerate()
            .map(|(i, p)| self.field(p, ns, request_path.index(i)))
            .collect::<Result<_, _>>()?;
        let response = self.schema(required(json, "response", path)?, ns, path.key("response"))?;
        let errors_path = path.key("errors");
        let errors = match json.get("errors") {
            None => None,
            Some(Value::Array(errors)) => Some(
                errors
                    .iter()
                    .enumerate()
                    .map(|(i, e)| self.schema(e, ns, errors_path.index(i)))
                    .collect::<Result<_, _>>()?,
            ),
            Some(_) => {
                return Err(SchemaError::malformed(
                    errors_path,
                    "\"errors\" must be an array",
                ))
            }
        };
        let one_way = match json.get("one-way") {
            None => false,
            Some(Value::Bool(one_way)) => *one_way,
            Some(_) => {
                return Err(SchemaError::malformed(
                    path.key("one-way"),
                    "\"one-way\" must be a boolean",
                ))
            }
        };
        Ok(Message {
            doc: optional_string(json, "doc", path)?,
            request,
            response,
            errors,
            one_way,
            props: props(json, MESSAGE_KEYS),
        })
    }
}
