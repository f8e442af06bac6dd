//! Where the writer's JSON goes: into a `serde_json::Value`, straight into JSON text, or
//! nowhere (a dry run that only walks the output, to check its depth).
//!
//! The writer describes its output as a stream of events, so that the `avdl2rs idl` command
//! can print a large protocol without first building it as a tree of values, while library
//! users still get a [`Value`].

use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};
use serde_json::{Map, Value};

/// Receives one JSON document as events; the writer always sends them well nested.
pub(crate) trait Sink {
    fn begin_object(&mut self);
    /// The key of the object's next entry; its value follows.
    fn key(&mut self, key: &str);
    fn end_object(&mut self);
    fn begin_array(&mut self);
    fn end_array(&mut self);
    fn string(&mut self, value: &str);
    /// A value given whole: a number, a property's or a default's JSON.
    fn value(&mut self, value: &Value);
}

/// Discards the output: what remains of a write is its depth check.
pub(crate) struct Discard;

impl Sink for Discard {
    fn begin_object(&mut self) {}
    fn key(&mut self, _: &str) {}
    fn end_object(&mut self) {}
    fn begin_array(&mut self) {}
    fn end_array(&mut self) {}
    fn string(&mut self, _: &str) {}
    fn value(&mut self, _: &Value) {}
}

/// Builds a [`Value`], without recursion: open containers wait on a stack.
#[derive(Default)]
pub(crate) struct ValueSink {
    open: Vec<Container>,
    done: Option<Value>,
}

enum Container {
    /// An object and the key of the entry being written.
    Object(Map<String, Value>, String),
    Array(Vec<Value>),
}

impl ValueSink {
    /// The finished value (`null` if nothing was written).
    pub fn into_value(self) -> Value {
        self.done.unwrap_or_default()
    }

    fn put(&mut self, value: Value) {
        match self.open.last_mut() {
            None => self.done = Some(value),
            Some(Container::Array(items)) => items.push(value),
            Some(Container::Object(map, key)) => {
                map.insert(std::mem::take(key), value);
            }
        }
    }
}

impl Sink for ValueSink {
    fn begin_object(&mut self) {
        self.open.push(Container::Object(Map::new(), String::new()));
    }

    fn key(&mut self, key: &str) {
        if let Some(Container::Object(_, pending)) = self.open.last_mut() {
            key.clone_into(pending);
        }
    }

    fn end_object(&mut self) {
        if let Some(Container::Object(map, _)) = self.open.pop() {
            self.put(Value::Object(map));
        }
    }

    fn begin_array(&mut self) {
        self.open.push(Container::Array(Vec::new()));
    }

    fn end_array(&mut self) {
        if let Some(Container::Array(items)) = self.open.pop() {
            self.put(Value::Array(items));
        }
    }

    fn string(&mut self, value: &str) {
        self.put(Value::from(value));
    }

    fn value(&mut self, value: &Value) {
        self.put(value.clone());
    }
}

/// Writes JSON text laid out by a `serde_json` formatter, byte for byte what `serde_json`
/// prints for the same [`Value`] with that formatter.
pub(crate) struct TextSink<F> {
    out: Vec<u8>,
    formatter: F,
    /// For each open container: whether it is an array, and whether it is still empty.
    open: Vec<(bool, bool)>,
}

/// Compact JSON text.
pub(crate) fn compact() -> TextSink<CompactFormatter> {
    TextSink::new(CompactFormatter)
}

/// JSON text indented by two spaces, as `serde_json::to_string_pretty`.
pub(crate) fn pretty() -> TextSink<PrettyFormatter<'static>> {
    TextSink::new(PrettyFormatter::new())
}

// Writing into a `Vec` cannot fail, and neither can serializing a `str` or a `Value`: the
// `io::Result`s below are all `Ok`.
impl<F: Formatter + Clone> TextSink<F> {
    fn new(formatter: F) -> TextSink<F> {
        TextSink {
            out: Vec::new(),
            formatter,
            open: Vec::new(),
        }
    }

    /// The text written.
    pub fn into_bytes(self) -> Vec<u8> {
        self.out
    }

    fn before_value(&mut self) {
        if let Some((true, empty)) = self.open.last_mut() {
            let first = std::mem::replace(empty, false);
            let _ = self.formatter.begin_array_value(&mut self.out, first);
        }
    }

    fn after_value(&mut self) {
        let _ = match self.open.last() {
            Some((true, _)) => self.formatter.end_array_value(&mut self.out),
            Some((false, _)) => self.formatter.end_object_value(&mut self.out),
            None => Ok(()),
        };
    }

    /// Writes a value given whole, in its place in the enclosing container.
    fn whole(&mut self, value: &(impl serde::Serialize + ?Sized)) {
        self.before_value();
        self.leaf(value);
        self.after_value();
    }

    /// Writes a leaf with a copy of the formatter, which carries the indentation into it.
    fn leaf(&mut self, leaf: &(impl serde::Serialize + ?Sized)) {
        let mut serializer =
            serde_json::Serializer::with_formatter(&mut self.out, self.formatter.clone());
        let _ = leaf.serialize(&mut serializer);
    }
}

impl<F: Formatter + Clone> Sink for TextSink<F> {
    fn begin_object(&mut self) {
        self.before_value();
        let _ = self.formatter.begin_object(&mut self.out);
        self.open.push((false, true));
    }

    fn key(&mut self, key: &str) {
        let first = match self.open.last_mut() {
            Some((false, empty)) => std::mem::replace(empty, false),
            _ => false,
        };
        let _ = self.formatter.begin_object_key(&mut self.out, first);
        self.leaf(key);
        let _ = self.formatter.end_object_key(&mut self.out);
        let _ = self.formatter.begin_object_value(&mut self.out);
    }

    fn end_object(&mut self) {
        self.open.pop();
        let _ = self.formatter.end_object(&mut self.out);
        self.after_value();
    }

    fn begin_array(&mut self) {
        self.before_value();
        let _ = self.formatter.begin_array(&mut self.out);
        self.open.push((true, true));
    }

    fn end_array(&mut self) {
        self.open.pop();
        let _ = self.formatter.end_array(&mut self.out);
        self.after_value();
    }

    fn string(&mut self, value: &str) {
        self.whole(value);
    }

    fn value(&mut self, value: &Value) {
        self.whole(value);
    }
}
