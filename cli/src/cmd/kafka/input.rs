//! The messages of `kafka produce`'s input, one JSON line each: the value alone or, with
//! `--envelope`, `{"key": …, "value": …, "headers": {…}}`; the key from a field of the value
//! (`--key-field`), from `--key`, or from the envelope; the headers of `-H` on every message.

use std::io::BufRead;

use avdl2rs_kafka::Header;
use serde_json::{Map, Value};

use super::Stop;
use crate::io::Failure;

/// Where each message's key comes from.
pub enum KeySource {
    /// No key.
    None,
    /// The value's field of this name.
    Field(String),
    /// The same key for every message.
    Fixed(Value),
    /// The envelope's `key`.
    Envelope,
}

/// One message as the input gives it, before it is written.
pub struct Message {
    /// Its line in the input, from 1.
    pub line: u64,
    /// The key, absent for none.
    pub key: Option<Value>,
    /// The headers, those of `-H` first.
    pub headers: Vec<Header>,
    /// The value, in Avro's JSON encoding.
    pub value: Value,
}

/// How the lines of the input become messages.
pub struct Shape {
    /// Where keys come from.
    pub keys: KeySource,
    /// The headers of every message.
    pub headers: Vec<Header>,
}

impl Shape {
    /// The message of line `line`, `text`; an error says what is wrong with it (its place
    /// is the caller's to add).
    pub fn message(&self, line: u64, text: &str) -> Result<Message, String> {
        let json: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        let mut headers = self.headers.clone();
        let (key, value) = match &self.keys {
            KeySource::None => (None, json),
            KeySource::Fixed(key) => (Some(key.clone()), json),
            KeySource::Field(name) => (Some(field(&json, name)?), json),
            KeySource::Envelope => {
                let (key, value, more) = envelope(json)?;
                headers.extend(more);
                (key, value)
            }
        };
        Ok(Message {
            line,
            key,
            headers,
            value,
        })
    }
}

/// The value of the field `name` of `value`.
fn field(value: &Value, name: &str) -> Result<Value, String> {
    match value {
        Value::Object(fields) => fields
            .get(name)
            .cloned()
            .ok_or_else(|| format!("the value has no field `{name}` for the key")),
        _ => Err(format!(
            "the value is not a record: it has no field `{name}`"
        )),
    }
}

/// The key (absent or null for none), value and headers of an envelope.
fn envelope(json: Value) -> Result<(Option<Value>, Value, Vec<Header>), String> {
    let Value::Object(mut members) = json else {
        return Err(r#"not an envelope {"key": …, "value": …, "headers": {…}}"#.to_owned());
    };
    let value = members
        .remove("value")
        .ok_or("the envelope has no \"value\"")?;
    let key = members.remove("key").filter(|key| !key.is_null());
    let headers = match members.remove("headers") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Object(headers)) => envelope_headers(headers)?,
        Some(_) => return Err("the envelope's \"headers\" is not an object".to_owned()),
    };
    match members.keys().next() {
        Some(unknown) => Err(format!(
            "the envelope has a member \"{unknown}\": only \"key\", \"value\" and \"headers\""
        )),
        None => Ok((key, value, headers)),
    }
}

/// Headers from an object of texts (or nulls).
fn envelope_headers(headers: Map<String, Value>) -> Result<Vec<Header>, String> {
    headers
        .into_iter()
        .map(|(name, value)| match value {
            Value::String(text) => Ok(Header::new(name, text)),
            Value::Null => Ok(Header {
                key: name,
                value: None,
            }),
            _ => Err(format!("the header \"{name}\" is not text")),
        })
        .collect()
}

/// The non-blank lines of `kafka produce`'s input, numbered from 1.
pub(super) struct Lines {
    name: String,
    lines: std::io::Lines<Box<dyn BufRead>>,
    number: u64,
}

impl Lines {
    /// The lines of `input`, a file or `-` for stdin.
    pub fn open(input: &str) -> Result<Lines, Stop> {
        let (name, reader): (&str, Box<dyn BufRead>) = if input == "-" {
            ("<stdin>", Box::new(std::io::stdin().lock()))
        } else {
            let file = std::fs::File::open(input).map_err(|e| {
                Stop::Invalid(Failure::Message(format!("cannot read {input}: {e}")))
            })?;
            (input, Box::new(std::io::BufReader::new(file)))
        };
        Ok(Lines {
            name: name.to_owned(),
            lines: reader.lines(),
            number: 0,
        })
    }

    /// Line `line` of the input, as errors name it: `orders.jsonl:3`.
    pub fn at(&self, line: u64) -> String {
        format!("{}:{line}", self.name)
    }

    /// The input's name: its path, or `<stdin>`.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl Iterator for Lines {
    type Item = Result<(u64, String), Stop>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let line = self.lines.next()?;
            self.number += 1;
            match line {
                Ok(text) if text.trim().is_empty() => continue,
                Ok(text) => return Some(Ok((self.number, text))),
                Err(e) => {
                    let at = self.at(self.number);
                    return Some(Err(Stop::CannotRun(format!("{at}: cannot read: {e}"))));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn shape(keys: KeySource) -> Shape {
        Shape {
            keys,
            headers: vec![Header::new("source", "cli")],
        }
    }

    #[test]
    fn keys_from_a_field_a_fixed_text_or_the_envelope() {
        let line = r#"{"id": 7, "name": "x"}"#;
        let by_field = shape(KeySource::Field("id".into()))
            .message(1, line)
            .unwrap();
        assert_eq!(by_field.key, Some(json!(7)));
        assert_eq!(by_field.value, json!({"id": 7, "name": "x"}));
        let fixed = shape(KeySource::Fixed(json!("k")))
            .message(1, line)
            .unwrap();
        assert_eq!(fixed.key, Some(json!("k")));
        let none = shape(KeySource::None).message(1, line).unwrap();
        assert_eq!(none.key, None);
        assert_eq!(none.headers, [Header::new("source", "cli")]);

        let line = r#"{"key": "k1", "value": {"id": 1}, "headers": {"trace": "t", "n": null}}"#;
        let enveloped = shape(KeySource::Envelope).message(4, line).unwrap();
        assert_eq!(enveloped.line, 4);
        assert_eq!(enveloped.key, Some(json!("k1")));
        assert_eq!(enveloped.value, json!({"id": 1}));
        let nameless = Header {
            key: "n".into(),
            value: None,
        };
        let expected = [
            Header::new("source", "cli"),
            nameless,
            Header::new("trace", "t"),
        ];
        assert_eq!(enveloped.headers.len(), 3);
        for header in &expected {
            assert!(enveloped.headers.contains(header), "{header:?}");
        }
        let keyless = shape(KeySource::Envelope).message(1, r#"{"key": null, "value": 1}"#);
        assert_eq!(keyless.unwrap().key, None);
    }

    #[test]
    fn what_does_not_fit_says_why() {
        let errors = [
            (KeySource::None, "{not json", "not JSON"),
            (
                KeySource::Field("id".into()),
                r#"{"name": "x"}"#,
                "no field `id`",
            ),
            (KeySource::Field("id".into()), "3", "not a record"),
            (KeySource::Envelope, "[]", "not an envelope"),
            (KeySource::Envelope, r#"{"key": "k"}"#, "no \"value\""),
            (KeySource::Envelope, r#"{"value": 1, "kee": 2}"#, "\"kee\""),
            (
                KeySource::Envelope,
                r#"{"value": 1, "headers": []}"#,
                "not an object",
            ),
            (
                KeySource::Envelope,
                r#"{"value": 1, "headers": {"h": 1}}"#,
                "\"h\" is not text",
            ),
        ];
        for (keys, line, expected) in errors {
            let error = shape(keys).message(1, line).err().unwrap();
            assert!(error.contains(expected), "{line}: {error}");
        }
    }
}
