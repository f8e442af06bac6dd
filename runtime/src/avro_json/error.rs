//! [`JsonError`]: JSON that is not the encoding of a value of the schema, located by a JSON
//! pointer into the datum.

use std::fmt;

use serde_json::Value;

/// One step of a path into a JSON datum.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    /// An array item.
    Index(usize),
    /// An object member: a record field, a map key or a union branch.
    Key(Box<str>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Inner {
    /// The steps from the failing value outwards, added as the error travels out.
    path: Vec<Step>,
    message: String,
}

/// JSON that is not the Avro JSON encoding of a value of the schema: what is wrong, and where.
///
/// Displayed as `at /lines/3/qty: expected int, found "3"`, the path being the JSON pointer
/// (RFC 6901) of the offending value inside the datum; an error of the datum as a whole shows
/// the message alone. One pointer wide, like the binary codec's errors.
#[derive(Clone, PartialEq, Eq)]
pub struct JsonError(Box<Inner>);

impl JsonError {
    /// An error of the value being read, before the path to it is known.
    #[cold]
    pub(crate) fn new(message: impl Into<String>) -> Self {
        JsonError(Box::new(Inner {
            path: Vec::new(),
            message: message.into(),
        }))
    }

    /// `expected <what>, found <the value, in short>`.
    #[cold]
    pub(crate) fn expected(what: impl fmt::Display, found: &Value) -> Self {
        Self::new(format!("expected {what}, found {}", describe(found)))
    }

    /// Adds the array index the failing value is at.
    #[cold]
    #[must_use]
    pub(crate) fn at_index(mut self, index: usize) -> Self {
        self.0.path.push(Step::Index(index));
        self
    }

    /// Adds the object key the failing value is at.
    #[cold]
    #[must_use]
    pub(crate) fn at_key(mut self, key: &str) -> Self {
        self.0.path.push(Step::Key(key.into()));
        self
    }

    /// The JSON pointer of the offending value inside the datum (`/lines/3/qty`; `""` for the
    /// datum itself), with `~` and `/` in keys escaped as `~0` and `~1`.
    pub fn path(&self) -> String {
        let mut out = String::new();
        for step in self.0.path.iter().rev() {
            out.push('/');
            match step {
                Step::Index(index) => out.push_str(&index.to_string()),
                Step::Key(key) => out.push_str(&key.replace('~', "~0").replace('/', "~1")),
            }
        }
        out
    }

    /// What is wrong, without the path.
    pub fn message(&self) -> &str {
        &self.0.message
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.path.is_empty() {
            return f.write_str(&self.0.message);
        }
        write!(f, "at {}: {}", self.path(), self.0.message)
    }
}

impl fmt::Debug for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for JsonError {}

/// The longest string shown whole in a message; a longer one is cut, so that a message stays
/// short whatever the input.
const SHOWN_CHARS: usize = 40;

/// A JSON value in a few words: a scalar as written (a long string cut), a container by kind.
fn describe(value: &Value) -> String {
    match value {
        Value::Array(_) => "an array".to_owned(),
        Value::Object(_) => "an object".to_owned(),
        Value::String(s) if s.chars().count() > SHOWN_CHARS => {
            let start: String = s.chars().take(SHOWN_CHARS).collect();
            format!("{}...", Value::String(start))
        }
        scalar => scalar.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_is_a_json_pointer_outermost_first() {
        let error = JsonError::new("bad")
            .at_key("a/b~c")
            .at_index(3)
            .at_key("lines");
        assert_eq!(error.path(), "/lines/3/a~1b~0c");
        assert_eq!(error.to_string(), "at /lines/3/a~1b~0c: bad");
        assert_eq!(JsonError::new("bad").to_string(), "bad");
    }

    #[test]
    fn found_values_are_shown_in_short() {
        let long = "x".repeat(50);
        let error = JsonError::expected("int", &Value::String(long));
        assert_eq!(
            error.message(),
            format!(r#"expected int, found "{}"..."#, "x".repeat(40))
        );
        let error = JsonError::expected("int", &serde_json::json!([1]));
        assert_eq!(error.message(), "expected int, found an array");
    }

    #[test]
    fn errors_are_one_pointer_wide() {
        assert_eq!(
            std::mem::size_of::<JsonError>(),
            std::mem::size_of::<usize>()
        );
    }
}
