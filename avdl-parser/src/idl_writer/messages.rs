//! A protocol's head and its messages.

use serde_json::{Map, Value};

use super::declarations::{declared_name, identifier};
use super::layout::annotation;
use super::names::NameTable;
use super::{IdlWriteError, Writer};

/// Keys of a protocol that are not properties.
const PROTOCOL_KEYS: [&str; 5] = ["protocol", "namespace", "doc", "types", "messages"];
/// Keys of a message that are not properties.
const MESSAGE_KEYS: [&str; 5] = ["doc", "request", "response", "errors", "one-way"];

/// A message's name and its JSON object.
pub(super) type Message<'a> = (&'a String, &'a Map<String, Value>);

/// A protocol's messages, in order, by name.
pub(super) fn messages(protocol: &Map<String, Value>) -> Result<Vec<Message<'_>>, IdlWriteError> {
    let Some(messages) = protocol.get("messages") else {
        return Ok(Vec::new());
    };
    let Some(messages) = messages.as_object() else {
        return Err(IdlWriteError::new(
            "/messages",
            "messages that are not an object",
        ));
    };
    messages
        .iter()
        .map(|(name, message)| match message.as_object() {
            Some(message) => Ok((name, message)),
            None => Err(IdlWriteError::new(
                &message_path(name),
                "a message that is not an object",
            )),
        })
        .collect()
}

fn message_path(name: &str) -> String {
    format!("/messages/{}", name.replace('~', "~0").replace('/', "~1"))
}

/// The parameters of a message.
fn request<'m>(message: &'m Map<String, Value>, name: &str) -> Result<&'m [Value], IdlWriteError> {
    match message.get("request") {
        Some(Value::Array(params)) => Ok(params),
        _ => Err(IdlWriteError::new(
            &message_path(name),
            "a message without a `request` array",
        )),
    }
}

/// Records the named types a message defines inline.
pub(super) fn collect<'a>(
    table: &mut NameTable<'a>,
    message: &'a Map<String, Value>,
    namespace: &str,
    name: &str,
) -> Result<(), IdlWriteError> {
    let path = message_path(name);
    for (i, param) in request(message, name)?.iter().enumerate() {
        if let Some(ty) = param.get("type") {
            table.collect(ty, namespace, &format!("{path}/request/{i}/type"))?;
        }
    }
    match message.get("response") {
        Some(response) => table.collect(response, namespace, &format!("{path}/response")),
        None => Ok(()),
    }
}

impl Writer<'_, '_> {
    /// Doc, `@namespace`, properties and `protocol Name {`.
    pub(super) fn protocol_head(
        &mut self,
        protocol: &Map<String, Value>,
        namespace: &str,
        name: &str,
    ) -> Result<(), IdlWriteError> {
        self.doc(protocol, "", "")?;
        if !namespace.is_empty() {
            let ns = Value::String(namespace.to_owned());
            self.out
                .push_str(&format!("{}\n", annotation("namespace", &ns)));
        }
        let reserved = ["errors"];
        self.properties(protocol, &PROTOCOL_KEYS, &reserved, "", |p| {
            format!("{p}\n")
        })?;
        let name = declared_name(name, "/protocol")?;
        self.out.push_str(&format!("protocol {name} {{\n"));
        Ok(())
    }

    /// One message, one level deep; its parameters each on a line of their own when one of
    /// them has a doc.
    pub(super) fn message(
        &mut self,
        name: &str,
        message: &Map<String, Value>,
        namespace: &str,
    ) -> Result<(), IdlWriteError> {
        let path = message_path(name);
        let indent = self.indent.at(1);
        self.doc(message, &indent, &path)?;
        self.properties(message, &MESSAGE_KEYS, &[], &path, |p| {
            format!("{indent}{p}\n")
        })?;
        let response = message.get("response").unwrap_or(&Value::Null);
        let response = self.type_ref(response, namespace, &format!("{path}/response"), true)?;
        let written_name = identifier(name, &path)?;
        self.out
            .push_str(&format!("{indent}{response} {written_name}("));
        let params = request(message, name)?;
        let documented = params.iter().any(|p| p.get("doc").is_some());
        for (i, param) in params.iter().enumerate() {
            let separator = match (i, documented) {
                (0, false) => "",
                (0, true) => "\n",
                (_, false) => ", ",
                (_, true) => ",\n",
            };
            self.out.push_str(separator);
            let depth = documented.then_some(2);
            self.field(param, namespace, depth, &format!("{path}/request/{i}"))?;
        }
        if documented {
            self.out.push_str(&format!("\n{indent}"));
        }
        self.out.push(')');
        self.message_end(message, namespace, &path)
    }

    /// ` oneway;`, or ` throws A, B;`, or `;`.
    fn message_end(
        &mut self,
        message: &Map<String, Value>,
        namespace: &str,
        path: &str,
    ) -> Result<(), IdlWriteError> {
        match message.get("one-way") {
            Some(Value::Bool(true)) => {
                self.out.push_str(" oneway;\n");
                return Ok(());
            }
            None => {}
            Some(_) => {
                return Err(IdlWriteError::new(
                    &format!("{path}/one-way"),
                    "IDL can only write `one-way` as `true` (the keyword `oneway`)",
                ))
            }
        }
        let errors = match message.get("errors") {
            None => &[][..],
            Some(Value::Array(errors)) => errors,
            Some(_) => {
                return Err(IdlWriteError::new(
                    &format!("{path}/errors"),
                    "errors that are not an array",
                ))
            }
        };
        let written = errors
            .iter()
            .enumerate()
            .map(|(i, e)| self.type_ref(e, namespace, &format!("{path}/errors/{i}"), false))
            .collect::<Result<Vec<_>, _>>()?;
        if !written.is_empty() {
            self.out
                .push_str(&format!(" throws {}", written.join(", ")));
        }
        self.out.push_str(";\n");
        Ok(())
    }
}
