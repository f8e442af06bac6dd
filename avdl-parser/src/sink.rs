//! Where the writer's JSON goes: into a `serde_json::Value`, straight into JSON text, or
//! nowhere (a dry run that only walks the output, to check its depth).
//!
//! The writer describes its output as a stream of events, so that the `avdl2rs idl` command
//! can print a large protocol without first building it as a tree of values, while library
//! users still get a [`Value`].

use serde_json::{Map, Value};

use crate::object_shapes::{ObjectShapes, Shape};

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
/// the right size (an object filled one insert at a time would grow and rehash its table). An
/// object whose keys came in the same order before is a copy of a map with those keys
/// ([`ObjectShapes`]), its values put in place.
#[derive(Default)]
pub(crate) struct ValueSink {
    /// The open containers, innermost last.
    open: Vec<Open>,
    /// The members of every open container, innermost last: an object's entries (their keys
    /// empty while the object's key sequence is followed in `shapes`, which knows them) and
    /// an array's elements, under empty keys. An empty `String` takes no allocation.
    members: Vec<(String, Value)>,
    shapes: ObjectShapes,
    done: Option<Value>,
}

/// An open container: where its members begin in `members`, and for an object its key
/// sequence so far (unless that is not followed) and the key of the value to come, when the
/// sequence does not know it.
enum Open {
    Array {
        start: usize,
    },
    Object {
        start: usize,
        shape: Option<Shape>,
        key: String,
    },
}

impl ValueSink {
    /// The finished value (`null` if nothing was written).
    pub fn into_value(self) -> Value {
        self.done.unwrap_or_default()
    }

    fn put(&mut self, value: Value) {
        match self.open.last_mut() {
            None => self.done = Some(value),
            Some(Open::Array { .. }) => self.members.push((String::new(), value)),
            Some(Open::Object { key, .. }) => self.members.push((std::mem::take(key), value)),
        }
    }

    /// The object of the members from `start` on, of key sequence `shape` when followed.
    fn object(&mut self, start: usize, shape: Option<Shape>) -> Map<String, Value> {
        let Some(shape) = shape else {
            return self.members.drain(start..).collect();
        };
        let Some(template) = self.shapes.template(shape) else {
            name_entries(&mut self.members[start..], &self.shapes, shape);
            return self.members.drain(start..).collect();
        };
        // A copy into a map of the right size: `clone` would size the entries like the table.
        let mut object = Map::with_capacity(template.len());
        object.clone_from(template);
        for (slot, (_, value)) in object.values_mut().zip(self.members.drain(start..)) {
            // The template's values are `null`, which owns nothing: forgetting the one
            // replaced spares a call to drop it for every entry.
            std::mem::forget(std::mem::replace(slot, value));
        }
        object
    }
}

/// Gives `entries`, an object's, the keys of `shape`, which has as many.
fn name_entries(entries: &mut [(String, Value)], shapes: &ObjectShapes, shape: Shape) {
    for ((key, _), known) in entries.iter_mut().rev().zip(shapes.keys_backwards(shape)) {
        known.clone_into(key);
    }
}

impl Sink for ValueSink {
    fn begin_object(&mut self) {
        self.open.push(Open::Object {
            start: self.members.len(),
            shape: Some(ObjectShapes::EMPTY),
            key: String::new(),
        });
    }

    fn key(&mut self, key: &str) {
        let Some(Open::Object {
            start,
            shape,
            key: pending,
        }) = self.open.last_mut()
        else {
            return;
        };
        let known = *shape;
        *shape = known.and_then(|known| self.shapes.then(known, key));
        if shape.is_none() {
            // From here on the object is built from its keys: name the entries so far.
            if let Some(known) = known {
                name_entries(&mut self.members[*start..], &self.shapes, known);
            }
            key.clone_into(pending);
        }
    }

    fn end_object(&mut self) {
        if let Some(Open::Object { start, shape, .. }) = self.open.pop() {
            let object = self.object(start, shape);
            self.put(Value::Object(object));
        }
    }

    fn begin_array(&mut self) {
        let start = self.members.len();
        self.open.push(Open::Array { start });
    }

    fn end_array(&mut self) {
        if let Some(Open::Array { start }) = self.open.pop() {
            let items = self.members.drain(start..).map(|(_, item)| item).collect();
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

    /// Sends `value` to `sink` as events, containers included.
    fn send(value: &Value, sink: &mut impl Sink) {
        match value {
            Value::Object(map) => {
                sink.begin_object();
                for (key, member) in map {
                    sink.key(key);
                    send(member, sink);
                }
                sink.end_object();
            }
            Value::Array(items) => {
                sink.begin_array();
                items.iter().for_each(|item| send(item, sink));
                sink.end_array();
            }
            Value::String(text) => sink.string(text),
            scalar => sink.value(scalar),
        }
    }

    #[test]
    fn objects_keep_their_keys_in_order_however_many_key_sequences_there_are() {
        // The same keys again and again (objects copied from a template), objects nested in
        // the middle of others, and more sequences after one prefix than are followed, so
        // that objects are built from their keys from the middle on.
        let objects: Vec<Value> = (0..120)
            .map(|i| {
                let mut object = serde_json::Map::new();
                object.insert("name".into(), json!(format!("f{i}")));
                object.insert("type".into(), json!({"type": "long", "at": i}));
                object.insert(format!("p{}", i % 60), json!([i, {"deep": {}}]));
                object.insert("doc".into(), json!("d"));
                Value::Object(object)
            })
            .collect();
        let value = json!({"fields": objects, "empty": {}, "last": [{}, {"a": 1}]});
        let mut built = ValueSink::default();
        send(&value, &mut built);
        let built = built.into_value();
        assert_eq!(printed(&built, false), printed(&value, false));
    }

    #[test]
    fn a_repeated_key_keeps_its_first_place_and_its_last_value_every_time() {
        let mut sink = ValueSink::default();
        sink.begin_array();
        for value in 0..3 {
            sink.begin_object();
            for (key, value) in [("a", value), ("b", 10), ("a", value + 100)] {
                sink.key(key);
                sink.value(&json!(value));
            }
            sink.end_object();
        }
        sink.end_array();
        let expected = json!([{"a": 100, "b": 10}, {"a": 101, "b": 10}, {"a": 102, "b": 10}]);
        assert_eq!(
            printed(&sink.into_value(), false),
            printed(&expected, false)
        );
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
