//! Schema Registry subject naming strategies: under which subject a topic's key or value
//! schema is registered.

/// Which part of a Kafka record a schema describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SubjectPart {
    /// The record key.
    Key,
    /// The record value.
    Value,
}

impl SubjectPart {
    /// `key` or `value`, the suffix of topic-name subjects.
    pub fn as_str(self) -> &'static str {
        match self {
            SubjectPart::Key => "key",
            SubjectPart::Value => "value",
        }
    }
}

/// A subject naming strategy of the Schema Registry serializers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SubjectNameStrategy {
    /// `<topic>-key` / `<topic>-value`: one schema (and its versions) per topic and part. The
    /// serializers' default.
    #[default]
    TopicName,
    /// `<namespace>.<Name>`: the record's full name, whatever the topic, so one type can be
    /// shared by many topics.
    RecordName,
    /// `<topic>-<namespace>.<Name>`: several record types in one topic, each with its own
    /// versions.
    TopicRecordName,
}

impl SubjectNameStrategy {
    /// The subject for a schema whose full name is `full_name`, used as `part` of `topic`.
    /// Strategies that do not need an argument ignore it.
    pub fn subject(self, topic: &str, part: SubjectPart, full_name: &str) -> String {
        match self {
            SubjectNameStrategy::TopicName => topic_name(topic, part),
            SubjectNameStrategy::RecordName => full_name.to_owned(),
            SubjectNameStrategy::TopicRecordName => topic_record_name(topic, full_name),
        }
    }
}

/// TopicNameStrategy: `<topic>-key` or `<topic>-value`.
pub fn topic_name(topic: &str, part: SubjectPart) -> String {
    format!("{topic}-{}", part.as_str())
}

/// RecordNameStrategy: `<namespace>.<Name>`, or `<Name>` in the null namespace.
pub fn record_name(namespace: Option<&str>, name: &str) -> String {
    match namespace {
        Some(namespace) if !namespace.is_empty() => format!("{namespace}.{name}"),
        _ => name.to_owned(),
    }
}

/// TopicRecordNameStrategy: `<topic>-<full name>`, where the full name is
/// `<namespace>.<Name>` or `<Name>` (see [`record_name`]).
pub fn topic_record_name(topic: &str, full_name: &str) -> String {
    format!("{topic}-{full_name}")
}
