//! The key sequences of the objects a [`Value`] is built of, so that an object of a sequence
//! met before is a copy of a map with those keys, its values filled in place: copying a map
//! copies its hash table, where inserting the keys one by one hashes each again. The writer
//! gives most objects one of a few sequences (every field with a doc and a default has the
//! keys `name`, `type`, `doc`, `default`), so most objects are copies.

use serde_json::{Map, Value};

/// How many longer sequences one sequence may lead to: a key that would lead beyond them is
/// not followed (its object is built key by key), so that looking a key up stays a short scan
/// whatever annotations the input holds.
const MAX_CONTINUATIONS: usize = 32;

/// A key sequence: the index of its node in [`ObjectShapes`].
pub(crate) type Shape = usize;

/// The key sequences met, as a tree whose nodes are the sequences: a node's parent is its
/// sequence without the last key; the root is the empty sequence.
pub(crate) struct ObjectShapes {
    nodes: Vec<Node>,
}

struct Node {
    parent: Shape,
    /// The last key of the sequence (empty at the root).
    key: String,
    /// The sequences one key longer.
    continuations: Vec<Shape>,
    /// Whether an object with this sequence has been built.
    built: bool,
    /// The sequence's keys with `null` values, made for the second object with them (one
    /// object alone would pay for the map and its copy).
    template: Option<Map<String, Value>>,
}

impl Node {
    fn new(parent: Shape, key: String) -> Node {
        Node {
            parent,
            key,
            continuations: Vec::new(),
            built: false,
            template: None,
        }
    }
}

impl Default for ObjectShapes {
    fn default() -> ObjectShapes {
        ObjectShapes {
            nodes: vec![Node::new(ObjectShapes::EMPTY, String::new())],
        }
    }
}

impl ObjectShapes {
    /// The sequence of an object with no key yet.
    pub const EMPTY: Shape = 0;

    /// `shape` followed by `key`; `None` when `shape` leads to as many sequences as it may.
    pub fn then(&mut self, shape: Shape, key: &str) -> Option<Shape> {
        let nodes = &self.nodes;
        let continuations = &nodes[shape].continuations;
        if let Some(found) = continuations
            .iter()
            .position(|&next| nodes[next].key == key)
        {
            // The last sequence taken comes first next time: objects come in runs of one
            // sequence (the fields of a record, the records of a protocol).
            let continuations = &mut self.nodes[shape].continuations;
            continuations.swap(0, found);
            return Some(continuations[0]);
        }
        if continuations.len() >= MAX_CONTINUATIONS {
            return None;
        }
        let next = self.nodes.len();
        self.nodes.push(Node::new(shape, key.to_owned()));
        self.nodes[shape].continuations.push(next);
        Some(next)
    }

    /// The keys of `shape`, last first.
    pub fn keys_backwards(&self, shape: Shape) -> impl Iterator<Item = &str> {
        std::iter::successors(Some(shape), |&shape| Some(self.nodes[shape].parent))
            .take_while(|&shape| shape != ObjectShapes::EMPTY)
            .map(|shape| self.nodes[shape].key.as_str())
    }

    /// A map with the keys of `shape` whose values are to be filled in, once an object with
    /// them has been built before; `None` for the first (build it from its keys), and for a
    /// sequence that repeats a key (which the writer never sends): its map would hold fewer
    /// entries than the object has values.
    pub fn template(&mut self, shape: Shape) -> Option<&Map<String, Value>> {
        let node = &mut self.nodes[shape];
        if node.template.is_none() {
            if !std::mem::replace(&mut node.built, true) {
                return None;
            }
            let mut keys: Vec<&str> = self.keys_backwards(shape).collect();
            keys.reverse();
            let length = keys.len();
            let template: Map<String, Value> = keys
                .into_iter()
                .map(|key| (key.to_owned(), Value::Null))
                .collect();
            if template.len() < length {
                return None;
            }
            self.nodes[shape].template = Some(template);
        }
        self.nodes[shape].template.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::ObjectShapes;

    #[test]
    fn a_sequence_is_found_again_by_its_keys_and_gets_a_template_the_second_time() {
        let mut shapes = ObjectShapes::default();
        let name = shapes.then(ObjectShapes::EMPTY, "name").unwrap();
        let named = shapes.then(name, "type").unwrap();
        assert_eq!(shapes.then(ObjectShapes::EMPTY, "name"), Some(name));
        assert_eq!(shapes.then(name, "type"), Some(named));
        assert_ne!(shapes.then(name, "doc"), Some(named));
        assert_eq!(
            shapes.keys_backwards(named).collect::<Vec<_>>(),
            ["type", "name"]
        );
        assert!(shapes.template(named).is_none());
        let template = shapes.template(named).unwrap();
        assert_eq!(
            serde_json::to_string(template).unwrap(),
            r#"{"name":null,"type":null}"#
        );
    }

    #[test]
    fn a_sequence_that_repeats_a_key_has_no_template() {
        let mut shapes = ObjectShapes::default();
        let mut shape = ObjectShapes::EMPTY;
        for key in ["a", "b", "a"] {
            shape = shapes.then(shape, key).unwrap();
        }
        assert!(shapes.template(shape).is_none());
        assert!(shapes.template(shape).is_none());
    }

    #[test]
    fn a_sequence_leads_to_a_bounded_number_of_others() {
        let mut shapes = ObjectShapes::default();
        let keys: Vec<String> = (0..=super::MAX_CONTINUATIONS)
            .map(|i| format!("k{i}"))
            .collect();
        let (last, others) = keys.split_last().unwrap();
        for key in others {
            assert!(shapes.then(ObjectShapes::EMPTY, key).is_some());
        }
        assert_eq!(shapes.then(ObjectShapes::EMPTY, last), None);
        assert!(shapes.then(ObjectShapes::EMPTY, &others[0]).is_some());
    }
}
