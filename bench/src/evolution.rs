//! Earlier versions of three benchmark shapes, for measuring resolving decode on small
//! records: the bytes an older producer wrote, read into today's generated type through a
//! [`avdl2rs::resolve::ResolutionPlan`], against decoding today's bytes directly.
//!
//! * `OrderEvent` version 1 had `amount` as a `float` (promoted to `double`), a `note`
//!   string since dropped (skipped), and neither `currency` nor `discount` (defaults added).
//! * `LogLine` version 1 had no `trace_id` (its default added).
//! * `ClickEvent` version 1 had no `user.email` and no `session_id` (defaults added, one of
//!   them in a nested record).

use apache_avro::types::Value;
use apache_avro::writer::datum::GenericDatumWriter;

use crate::codecs::Error;
use crate::shapes::{ClickEvent, LogLine, OrderEvent};

/// A shape with an earlier version of its schema.
pub trait Evolved: Sized {
    /// The schema JSON of the earlier version.
    const WRITER_SCHEMA: &'static str;
    /// The earlier version of `self`, as apache-avro writes it.
    fn to_writer_value(&self) -> Value;
    /// What the resolving decode of [`Evolved::to_writer_value`] reads: `self` with the
    /// fields the earlier version lacks at their defaults, and promoted values as promoted.
    fn resolved(&self) -> Self;
}

/// The bytes of `value` written with its earlier schema, by apache-avro.
pub fn writer_bytes<T: Evolved>(value: &T) -> Result<Vec<u8>, Error> {
    let schema = apache_avro::Schema::parse_str(T::WRITER_SCHEMA)?;
    let mut out = Vec::new();
    GenericDatumWriter::builder(&schema)
        .build()?
        .write_value_ref(&mut out, &value.to_writer_value())?;
    Ok(out)
}

fn string(text: &str) -> Value {
    Value::String(text.to_owned())
}

impl Evolved for OrderEvent {
    const WRITER_SCHEMA: &'static str = r#"{"type": "record", "name": "OrderEvent", "namespace": "shapes", "fields": [
        {"name": "id", "type": "int"},
        {"name": "amount", "type": "float"},
        {"name": "user_id", "type": "int"},
        {"name": "note", "type": "string"}]}"#;

    fn to_writer_value(&self) -> Value {
        Value::Record(vec![
            ("id".into(), Value::Int(self.id)),
            ("amount".into(), Value::Float(self.amount as f32)),
            ("user_id".into(), Value::Int(self.user_id)),
            ("note".into(), string("first order of the day")),
        ])
    }

    fn resolved(&self) -> Self {
        OrderEvent {
            amount: f64::from(self.amount as f32),
            currency: "CNY".into(),
            discount: None,
            ..self.clone()
        }
    }
}

impl Evolved for LogLine {
    const WRITER_SCHEMA: &'static str = r#"{"type": "record", "name": "LogLine", "namespace": "shapes", "fields": [
        {"name": "host", "type": "string"},
        {"name": "service", "type": "string"},
        {"name": "level", "type": "string"},
        {"name": "message", "type": "string"}]}"#;

    fn to_writer_value(&self) -> Value {
        Value::Record(vec![
            ("host".into(), string(&self.host)),
            ("service".into(), string(&self.service)),
            ("level".into(), string(&self.level)),
            ("message".into(), string(&self.message)),
        ])
    }

    fn resolved(&self) -> Self {
        LogLine {
            trace_id: None,
            ..self.clone()
        }
    }
}

impl Evolved for ClickEvent {
    const WRITER_SCHEMA: &'static str = r#"{"type": "record", "name": "ClickEvent", "namespace": "shapes", "fields": [
        {"name": "event_id", "type": "string"},
        {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
        {"name": "user", "type": {"type": "record", "name": "User", "fields": [
            {"name": "id", "type": "long"},
            {"name": "name", "type": "string"}]}},
        {"name": "page", "type": {"type": "record", "name": "Page", "fields": [
            {"name": "url", "type": "string"},
            {"name": "referrer", "type": ["null", "string"], "default": null},
            {"name": "title", "type": ["null", "string"], "default": null}]}}]}"#;

    fn to_writer_value(&self) -> Value {
        let optional = |value: &Option<String>| match value {
            None => Value::Union(0, Box::new(Value::Null)),
            Some(text) => Value::Union(1, Box::new(string(text))),
        };
        Value::Record(vec![
            ("event_id".into(), string(&self.event_id)),
            ("at".into(), Value::Long(self.at.timestamp_millis())),
            (
                "user".into(),
                Value::Record(vec![
                    ("id".into(), Value::Long(self.user.id)),
                    ("name".into(), string(&self.user.name)),
                ]),
            ),
            (
                "page".into(),
                Value::Record(vec![
                    ("url".into(), string(&self.page.url)),
                    ("referrer".into(), optional(&self.page.referrer)),
                    ("title".into(), optional(&self.page.title)),
                ]),
            ),
        ])
    }

    fn resolved(&self) -> Self {
        let mut resolved = self.clone();
        resolved.user.email = None;
        resolved.session_id = None;
        resolved
    }
}
