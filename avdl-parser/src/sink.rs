//! Where the writer's JSON goes: into a `serde_json::Value`, straight into JSON text, or
//! nowhere (a dry run that only walks the output, to check its depth).
//!
//! The writer describes its output as a stream of events, so that the `avdl2rs idl` command
//! can print a large protocol without first building it as a tree of values, while library
//! users still get a [`Value`].

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

/// Builds a [`Value`], without recursion: the members of open containers wait on one stack,
/// and each container is made from its members once they are all there, in one allocation of
/// the right size (an object filled one insert at a time would grow and rehash its table).
#[derive(Default)]
pub(crate) struct ValueSink {
    /// The open containers, innermost last: whether each is an array, and where its members
    /// begin in `members`.
    open: Vec<(bool, usize)>,
    /// The members of every open container, innermost last: an object's entries, each pushed
    /// by its key with a `null` its value replaces, and an array's elements under empty keys
    /// (an empty `String` takes no allocation).
    members: Vec<(String, Value)>,
    done: Option<Value>,
}

impl ValueSink {
    /// The finished value (`null` if nothing was written).
    pub fn into_value(self) -> Value {
        self.done.unwrap_or_default()
    }

    fn put(&mut self, value: Value) {
        match self.open.last() {
            None => self.done = Some(value),
            Some((true, _)) => self.members.push((String::new(), value)),
            Some((false, _)) => {
                if let Some((_, pending)) = self.members.last_mut() {
                    *pending = value;
                }
            }
        }
    }

    fn begin(&mut self, is_array: bool) {
        self.open.push((is_array, self.members.len()));
    }

    /// The members of the innermost container, taken off the stack.
    fn end(&mut self) -> std::vec::Drain<'_, (String, Value)> {
        let start = self
            .open
            .pop()
            .map_or(self.members.len(), |(_, start)| start);
        self.members.drain(start..)
    }
}

impl Sink for ValueSink {
    fn begin_object(&mut self) {
        self.begin(false);
    }

    fn key(&mut self, key: &str) {
        self.members.push((key.to_owned(), Value::Null));
    }

    fn end_object(&mut self) {
        let map: Map<String, Value> = self.end().collect();
        self.put(Value::Object(map));
    }

    fn begin_array(&mut self) {
        self.begin(true);
    }

    fn end_array(&mut self) {
        let items: Vec<Value> = self.end().map(|(_, item)| item).collect();
        self.put(Value::Array(items));
    }

    fn string(&mut self, value: &str) {
        self.put(Value::from(value));
    }

    fn value(&mut self, value: &Value) {
        self.put(value.clone());
    }
}

/// Writes JSON text, byte for byte what `serde_json::to_vec` or `to_vec_pretty` print for
/// the same [`Value`]: in pretty text each entry and element is on a line of its own,
/// indented by two spaces a level, empty containers are `{}` and `[]`, and a key is followed
/// by `": "`. Strings and numbers are written by `serde_json` itself.
pub(crate) struct TextSink {
    out: Vec<u8>,
    pretty: bool,
    /// For each open container: whether it is an array, and whether it is still empty.
    open: Vec<(bool, bool)>,
}

impl TextSink {
    pub fn new(pretty: bool) -> TextSink {
        TextSink {
            out: Vec::new(),
            pretty,
            open: Vec::new(),
        }
    }

    /// The text written.
    pub fn into_bytes(self) -> Vec<u8> {
        self.out
    }

    /// Starts an entry or element of the innermost container: a comma after an earlier one,
    /// then (pretty) a line break and the indentation.
    fn separate(&mut self) {
        let Some((_, empty)) = self.open.last_mut() else {
            return;
        };
        if !std::mem::replace(empty, false) {
            self.out.push(b',');
        }
        if self.pretty {
            self.out.push(b'\n');
            self.indent(self.open.len());
        }
    }

    fn indent(&mut self, levels: usize) {
        const SPACES: &[u8] = &[b' '; 64];
        let mut width = levels * 2;
        while width > 0 {
            let chunk = width.min(SPACES.len());
            self.out.extend_from_slice(&SPACES[..chunk]);
            width -= chunk;
        }
    }

    /// Starts a value: separated from the one before when it is an element of an array (an
    /// entry's value follows its key, which was separated already).
    fn start_value(&mut self) {
        if self.open.last().is_some_and(|&(array, _)| array) {
            self.separate();
        }
    }

    fn begin(&mut self, is_array: bool) {
        self.start_value();
        self.out.push(if is_array { b'[' } else { b'{' });
        self.open.push((is_array, true));
    }

    fn end(&mut self) {
        if let Some((is_array, empty)) = self.open.pop() {
            if self.pretty && !empty {
                self.out.push(b'\n');
                self.indent(self.open.len());
            }
            self.out.push(if is_array { b']' } else { b'}' });
        }
    }

    /// A string in quotes. Names and most docs need no escapes, and are copied as they are;
    /// the others are escaped by `serde_json`.
    fn quoted(&mut self, text: &str) {
        if text.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
            self.out.push(b'"');
            self.out.extend_from_slice(text.as_bytes());
            self.out.push(b'"');
        } else {
            let _ = serde_json::to_writer(&mut self.out, text);
        }
    }

    /// A number, a boolean or `null`.
    fn scalar(&mut self, scalar: &Value) {
        self.start_value();
        // Writing into a `Vec` cannot fail, nor can serializing a number.
        let _ = serde_json::to_writer(&mut self.out, scalar);
    }
}

impl Sink for TextSink {
    fn begin_object(&mut self) {
        self.begin(false);
    }

    fn key(&mut self, key: &str) {
        self.separate();
        self.quoted(key);
        self.out
            .extend_from_slice(if self.pretty { b": " } else { b":" });
    }

    fn end_object(&mut self) {
        self.end();
    }

    fn begin_array(&mut self) {
        self.begin(true);
    }

    fn end_array(&mut self) {
        self.end();
    }

    fn string(&mut self, value: &str) {
        self.start_value();
        self.quoted(value);
    }

    /// Containers are written through the sink's own events, so that they are laid out
    /// like the rest; their depth is bounded by the limits on what the reader accepts.
    fn value(&mut self, value: &Value) {
        match value {
            Value::Object(map) => {
                self.begin_object();
                for (key, value) in map {
                    self.key(key);
                    self.value(value);
                }
                self.end_object();
            }
            Value::Array(items) => {
                self.begin_array();
                for item in items {
                    self.value(item);
                }
                self.end_array();
            }
            Value::String(text) => self.string(text),
            scalar => self.scalar(scalar),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::{Sink, TextSink, ValueSink};

    /// What serde_json prints for `value`.
    fn printed(value: &Value, pretty: bool) -> String {
        let text = if pretty {
            serde_json::to_string_pretty(value)
        } else {
            serde_json::to_string(value)
        };
        text.unwrap()
    }

    /// What the text sink writes for the events `send` sends it.
    fn written(pretty: bool, send: impl Fn(&mut TextSink)) -> String {
        let mut text = TextSink::new(pretty);
        send(&mut text);
        String::from_utf8(text.into_bytes()).unwrap()
    }

    #[test]
    fn text_is_what_serde_json_prints() {
        let value = json!({
            "plain": "name",
            "escaped": "a \"quote\", a \\ and\na line\tbreak \u{1} \u{7F} é 😀",
            "numbers": [0, -1, 1.5, 1e300, u64::MAX, i64::MIN],
            "empty": {}, "none": [], "nested": [[], {}, [{"a": [null, true, false]}]],
            "": {"key \"in\" quotes": "x"}
        });
        for pretty in [false, true] {
            assert_eq!(
                written(pretty, |t| t.value(&value)),
                printed(&value, pretty)
            );
        }
    }

    /// Events of nested containers, as the writer sends them.
    fn events(sink: &mut impl Sink) {
        sink.begin_object();
        sink.key("type");
        sink.string("record");
        sink.key("fields");
        sink.begin_array();
        for name in ["a", "b\"c"] {
            sink.begin_object();
            sink.key("name");
            sink.string(name);
            sink.key("default");
            sink.value(&json!({"x": [1, {}]}));
            sink.end_object();
        }
        sink.begin_array();
        sink.end_array();
        sink.end_array();
        sink.key("empty");
        sink.begin_object();
        sink.end_object();
        sink.end_object();
    }

    #[test]
    fn the_value_and_the_text_of_the_same_events_agree() {
        let mut built = ValueSink::default();
        events(&mut built);
        let value = built.into_value();
        assert_eq!(value["fields"][1]["name"], "b\"c");
        assert_eq!(value["fields"][0]["default"]["x"][0], 1);
        for pretty in [false, true] {
            assert_eq!(written(pretty, events), printed(&value, pretty));
        }
    }
}
