//! Writing `kafka produce`'s messages: values (and Avro keys) in the Avro binary encoding,
//! checked against their schemas before anything is registered or sent; then framed with
//! the schema ids the registry gave. Keys without a schema are UTF-8 text.

use avdl2rs::avro_json::AvroJson;
use avdl2rs::wire;
use avdl2rs_kafka::Header;
use serde_json::{json, Value};

use super::input::Message;

/// The schemas messages are written with.
pub struct Writer {
    /// The values' schema.
    pub value: AvroJson,
    /// The keys' schema: keys in its Avro binary encoding, framed with its id; without it,
    /// keys are UTF-8 text (a string as it is, a number or a boolean as its JSON text).
    pub key: Option<AvroJson>,
}

/// A message written, not yet framed: the Avro parts are bodies without a schema id.
pub struct Encoded {
    /// Its line in the input.
    pub line: u64,
    key: Option<Vec<u8>>,
    headers: Vec<Header>,
    value: Vec<u8>,
}

/// The schema ids the frames carry: the value's, and the key's when keys are Avro.
#[derive(Debug, Clone, Copy)]
pub struct Ids {
    /// The value schema's id.
    pub value: i32,
    /// The key schema's id.
    pub key: Option<i32>,
}

/// A message as it is sent.
pub struct Framed {
    /// Its line in the input.
    pub line: u64,
    /// The key's bytes.
    pub key: Option<Vec<u8>>,
    /// The headers.
    pub headers: Vec<Header>,
    /// The value's bytes.
    pub value: Vec<u8>,
}

impl Writer {
    /// Writes `message`; an error says which part does not fit and where in it.
    pub fn encode(&self, message: &Message) -> Result<Encoded, String> {
        let key = match &message.key {
            None => None,
            Some(key) => Some(self.key_bytes(key)?),
        };
        let mut value = Vec::new();
        self.value
            .encode(&message.value, &mut value)
            .map_err(|e| format!("the value does not fit its schema: {e}"))?;
        Ok(Encoded {
            line: message.line,
            key,
            headers: message.headers.clone(),
            value,
        })
    }

    fn key_bytes(&self, key: &Value) -> Result<Vec<u8>, String> {
        match &self.key {
            None => text_key(key).map(String::into_bytes),
            Some(schema) => {
                let mut body = Vec::new();
                schema
                    .encode(key, &mut body)
                    .map_err(|e| format!("the key does not fit its schema: {e}"))?;
                Ok(body)
            }
        }
    }

    /// What `--dry-run` prints of `message`: one JSON object with its key, headers (as
    /// `[name, value]` pairs, in order) and value, and the subjects of their schemas.
    pub fn dry_run_line(&self, message: &Message, subjects: &Subjects) -> Value {
        let headers: Vec<Value> = message
            .headers
            .iter()
            .map(|h| {
                let value = h.value.as_deref().map(String::from_utf8_lossy);
                json!([h.key, value])
            })
            .collect();
        let key = match (&message.key, &self.key) {
            (Some(key), None) => text_key(key).map_or(Value::Null, Value::String),
            (key, _) => key.clone().unwrap_or(Value::Null),
        };
        json!({
            "line": message.line,
            "key": key,
            "key_subject": subjects.key,
            "headers": headers,
            "value": message.value,
            "value_subject": subjects.value,
        })
    }
}

/// The subjects the schemas are registered under.
pub struct Subjects {
    /// The values'.
    pub value: String,
    /// The keys', when they are Avro.
    pub key: Option<String>,
}

/// A key as text: a string as it is, a number or a boolean as its JSON text.
fn text_key(key: &Value) -> Result<String, String> {
    match key {
        Value::String(text) => Ok(text.clone()),
        Value::Number(_) | Value::Bool(_) => Ok(key.to_string()),
        other => Err(format!(
            "a key without --key-schema is text: a string, number or boolean, not {other}"
        )),
    }
}

impl Encoded {
    /// The message with its Avro parts framed under `ids`.
    pub fn framed(self, ids: Ids) -> Framed {
        let frame = |id: i32, body: Vec<u8>| {
            let mut framed = Vec::with_capacity(body.len() + 5);
            wire::write_confluent_header(&mut framed, id);
            framed.extend_from_slice(&body);
            framed
        };
        Framed {
            line: self.line,
            key: match (self.key, ids.key) {
                (Some(body), Some(id)) => Some(frame(id, body)),
                (key, None) => key,
                (None, Some(_)) => None,
            },
            headers: self.headers,
            value: frame(ids.value, self.value),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(key: Option<Value>, value: Value) -> Message {
        Message {
            line: 3,
            key,
            headers: vec![Header::new("h", "v")],
            value,
        }
    }

    fn writer(key: Option<AvroJson>) -> Writer {
        Writer {
            value: AvroJson::new(
                r#"{"type": "record", "name": "R", "fields": [{"name": "n", "type": "long"}]}"#,
            )
            .unwrap(),
            key,
        }
    }

    #[test]
    fn values_and_avro_keys_are_framed_with_their_ids_text_keys_are_not() {
        let avro_keys = writer(Some(AvroJson::new(r#""string""#).unwrap()));
        let ids = Ids {
            value: 7,
            key: Some(9),
        };
        let encoded = avro_keys.encode(&message(Some(json!("ab")), json!({"n": 1})));
        let framed = encoded.unwrap().framed(ids);
        assert_eq!(framed.line, 3);
        assert_eq!(framed.value, [0, 0, 0, 0, 7, 2]);
        assert_eq!(framed.key, Some(vec![0, 0, 0, 0, 9, 4, b'a', b'b']));
        assert_eq!(framed.headers, [Header::new("h", "v")]);

        let text_keys = writer(None);
        let ids = Ids {
            value: 7,
            key: None,
        };
        for (key, text) in [
            (json!("ab"), "ab"),
            (json!(12), "12"),
            (json!(true), "true"),
        ] {
            let encoded = text_keys.encode(&message(Some(key), json!({"n": 1})));
            let framed = encoded.unwrap().framed(ids);
            assert_eq!(framed.key.as_deref(), Some(text.as_bytes()));
        }
        let keyless = text_keys.encode(&message(None, json!({"n": 1})));
        assert_eq!(keyless.unwrap().framed(ids).key, None);
    }

    #[test]
    fn what_does_not_fit_names_the_part_and_the_place() {
        let text_keys = writer(None);
        let error = text_keys.encode(&message(None, json!({"n": "x"})));
        let error = error.err().unwrap();
        assert!(error.contains("value") && error.contains("/n"), "{error}");
        let error = text_keys.encode(&message(Some(json!({"a": 1})), json!({"n": 1})));
        assert!(error.err().unwrap().contains("key without --key-schema"));
        let avro_keys = writer(Some(AvroJson::new(r#""int""#).unwrap()));
        let error = avro_keys.encode(&message(Some(json!("x")), json!({"n": 1})));
        assert!(error.err().unwrap().contains("the key does not fit"));
    }

    #[test]
    fn a_dry_run_shows_key_headers_value_and_subjects() {
        let subjects = Subjects {
            value: "t-value".into(),
            key: None,
        };
        let line = writer(None).dry_run_line(&message(Some(json!(5)), json!({"n": 1})), &subjects);
        assert_eq!(
            line,
            json!({"line": 3, "key": "5", "key_subject": null, "headers": [["h", "v"]],
                "value": {"n": 1}, "value_subject": "t-value"})
        );
    }
}
