//! The standalone schema texts of the named types, measured from their nodes.
//!
//! A generated type's `SCHEMA_JSON` and `CANONICAL_FORM` are assembled by the runtime from
//! the node of the type and the nodes it refers to (`__private::derive_schema`), given their
//! lengths; `FINGERPRINT` is written out. Those figures are computed here by the same walk
//! over the same pieces: each named type defined at its first occurrence and written by name
//! afterwards, a `namespace` key only where it differs from the enclosing one. The walk only
//! adds up lengths and feeds the canonical pieces to the fingerprint, so a type costs the
//! number of pieces its schema is made of, not a schema model and a text of its own.

use std::collections::HashMap;

use avdl2rs_emit::node::Piece;
use avdl2rs_schema::fingerprint::Rabin;
use avdl2rs_schema::SchemaSet;

use crate::nodes::{type_node, TypeNode};

/// The nodes of every named type of a schema set, each computed once.
pub(crate) struct NodeGraph {
    ids: HashMap<String, usize>,
    /// The nodes, or why one could not be computed.
    nodes: Vec<Result<GraphNode, String>>,
}

struct GraphNode {
    node: TypeNode,
    full_name: String,
    /// The ids of the types the node's placeholders stand for.
    nested: Vec<usize>,
}

/// The figures of a named type's standalone schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Measure {
    /// The length in bytes of the full JSON.
    pub json_len: usize,
    /// The length in bytes of the Parsing Canonical Form.
    pub canonical_len: usize,
    /// The CRC-64-AVRO fingerprint of the Parsing Canonical Form.
    pub fingerprint: u64,
    /// The named types the JSON defines, as [`avdl2rs_emit::node::named_types`] counts them.
    pub named_types: usize,
}

/// Which text of a schema a walk writes.
#[derive(Clone, Copy)]
enum Form {
    Json,
    Canonical,
}

impl NodeGraph {
    /// The nodes of the named types of `set`.
    pub fn new(set: &SchemaSet) -> Self {
        let ids: HashMap<String, usize> = set
            .iter()
            .enumerate()
            .map(|(id, named)| (named.name.full_name(), id))
            .collect();
        let nodes = set
            .iter()
            .map(|named| {
                let full_name = named.name.full_name();
                let graph_node = type_node(set, &full_name).and_then(|node| {
                    let nested = node
                        .nested
                        .iter()
                        .map(|name| ids.get(name).copied())
                        .collect::<Option<_>>()
                        .ok_or("a type it holds is not registered")?;
                    Ok(GraphNode {
                        node,
                        full_name: full_name.clone(),
                        nested,
                    })
                });
                graph_node.map_err(|message| format!("the schema node of {full_name}: {message}"))
            })
            .collect();
        NodeGraph { ids, nodes }
    }

    /// The node of the named type `full_name`.
    pub fn node(&self, full_name: &str) -> Result<&TypeNode, String> {
        self.graph_node(self.id(full_name)?).map(|n| &n.node)
    }

    /// The figures of the standalone schema of the named type `full_name`.
    pub fn measure(&self, full_name: &str) -> Result<Measure, String> {
        let root = self.id(full_name)?;
        let mut json_len = 0;
        let named_types = self.walk(root, Form::Json, &mut |text| json_len += text.len())?;
        let mut canonical_len = 0;
        let mut rabin = Rabin::new();
        self.walk(root, Form::Canonical, &mut |text| {
            canonical_len += text.len();
            rabin = rabin.update(text.as_bytes());
        })?;
        Ok(Measure {
            json_len,
            canonical_len,
            fingerprint: rabin.finish(),
            named_types,
        })
    }

    fn id(&self, full_name: &str) -> Result<usize, String> {
        self.ids
            .get(full_name)
            .copied()
            .ok_or_else(|| format!("type {full_name:?} is not registered"))
    }

    fn graph_node(&self, id: usize) -> Result<&GraphNode, String> {
        self.nodes[id].as_ref().map_err(String::clone)
    }

    /// Writes the standalone schema of `root` in `form` to `out`, piece by piece, as the
    /// runtime assembles it; returns what the JSON's named types count to.
    fn walk(&self, root: usize, form: Form, out: &mut dyn FnMut(&str)) -> Result<usize, String> {
        let mut walk = Walk {
            graph: self,
            form,
            defined: vec![false; self.nodes.len()],
            named_types: 0,
            stack: Vec::new(),
            out,
        };
        walk.enter(root, None)?;
        while let Some(frame) = walk.stack.last_mut() {
            let Some(piece) = frame.pieces.get(frame.next) else {
                walk.stack.pop();
                continue;
            };
            frame.next += 1;
            let Frame {
                nested,
                namespace,
                write_namespace,
                ..
            } = *frame;
            match piece {
                Piece::Text(text) => (walk.out)(text),
                Piece::Namespace if write_namespace => {
                    (walk.out)(",\"namespace\":\"");
                    (walk.out)(namespace.unwrap_or_default());
                    (walk.out)("\"");
                }
                Piece::Namespace => {}
                Piece::Nested(n) => {
                    let id = *nested.get(*n).ok_or("a placeholder without a type")?;
                    walk.enter(id, namespace)?;
                }
            }
        }
        Ok(walk.named_types)
    }
}

/// A walk over the nodes of one schema (see [`NodeGraph::walk`]).
struct Walk<'g, 'o> {
    graph: &'g NodeGraph,
    form: Form,
    /// The types defined so far, by id.
    defined: Vec<bool>,
    named_types: usize,
    /// The nodes being written, innermost last: a chain of thousands of records nests as
    /// deep, too deep for a recursion on the generator's stack.
    stack: Vec<Frame<'g>>,
    out: &'o mut dyn FnMut(&str),
}

/// A node being written: its pieces, the next one, the ids its placeholders stand for, the
/// namespace of the types it holds and whether its `namespace` key is written.
#[derive(Clone, Copy)]
struct Frame<'g> {
    pieces: &'g [Piece],
    next: usize,
    nested: &'g [usize],
    namespace: Option<&'g str>,
    write_namespace: bool,
}

impl<'g> Walk<'g, '_> {
    /// Starts writing the type `id` inside a scope of namespace `enclosing`: its name if it
    /// was defined already, else its definition.
    fn enter(&mut self, id: usize, enclosing: Option<&str>) -> Result<(), String> {
        let graph_node = self.graph.graph_node(id)?;
        let node = &graph_node.node;
        if std::mem::replace(&mut self.defined[id], true) {
            (self.out)("\"");
            match self.form {
                Form::Json => (self.out)(&node.name.relative_to(enclosing)),
                Form::Canonical => (self.out)(&graph_node.full_name),
            }
            (self.out)("\"");
            return Ok(());
        }
        self.named_types += node.named_types;
        let namespace = node.name.namespace.as_deref();
        self.stack.push(Frame {
            pieces: match self.form {
                Form::Json => &node.texts.json,
                Form::Canonical => &node.texts.canonical,
            },
            next: 0,
            nested: &graph_node.nested,
            namespace,
            write_namespace: namespace != enclosing,
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use avdl2rs_emit::node::named_types;
    use avdl2rs_schema::fingerprint::rabin_fingerprint;
    use avdl2rs_schema::Schema;
    use serde_json::json;

    use super::*;

    /// The text of `full_name`'s standalone schema in `form`, joined from the walk.
    fn walked(graph: &NodeGraph, full_name: &str, form: Form) -> String {
        let mut text = String::new();
        let root = graph.id(full_name).unwrap();
        graph
            .walk(root, form, &mut |piece| text.push_str(piece))
            .unwrap();
        text
    }

    /// Checks every named type of `set` against the schema model's own texts: the whole
    /// JSON and Parsing Canonical Form, and the figures computed from them as the generator
    /// computed them before the nodes were walked.
    fn assert_walks_write_the_model_texts(set: &SchemaSet, case: &str) {
        let graph = NodeGraph::new(set);
        for named in set.iter() {
            let full_name = named.name.full_name();
            let json = set.named_to_json(&full_name).unwrap();
            let canonical = set.canonical_form(&Schema::named(named.name.clone()));
            // The nodes write a field's default after its other keys, where the model writes
            // it after `doc`: the same text, up to the order of keys.
            let walked_json = walked(&graph, &full_name, Form::Json);
            assert_eq!(
                walked_json.len(),
                json.to_string().len(),
                "{case}: {full_name}"
            );
            assert_eq!(
                serde_json::from_str::<serde_json::Value>(&walked_json).unwrap(),
                json,
                "{case}: {full_name}"
            );
            assert_eq!(
                walked(&graph, &full_name, Form::Canonical),
                canonical,
                "{case}: {full_name}"
            );
            let expected = Measure {
                json_len: json.to_string().len(),
                canonical_len: canonical.len(),
                fingerprint: rabin_fingerprint(canonical.as_bytes()),
                named_types: named_types(&json),
            };
            assert_eq!(
                graph.measure(&full_name),
                Ok(expected),
                "{case}: {full_name}"
            );
        }
    }

    #[test]
    fn shared_and_recursive_types_are_defined_once_then_named() {
        let mut set = SchemaSet::new();
        // `Money` is defined inside `Line`, so the order names it; `Node` holds itself;
        // `Plain` has the null namespace inside `shop`; `map` is a type keyword as a simple
        // name; a property and a default look like definitions to the count.
        let protocol = json!({"protocol": "P", "namespace": "shop", "types": [
            {"type": "enum", "name": "Currency", "namespace": "money", "symbols": ["EUR"]},
            {"type": "record", "name": "Money", "namespace": "money", "fields": [
                {"name": "units", "type": "long"},
                {"name": "currency", "type": "Currency", "default": "EUR"}]},
            {"type": "record", "name": "Plain", "namespace": "", "fields": [
                {"name": "kind", "type": "string", "default": "x",
                 "shape": {"type": "record", "name": "NotAType"}}]},
            {"type": "fixed", "name": "map", "size": 2},
            {"type": "record", "name": "Line", "doc": "A line.", "fields": [
                {"name": "price", "type": "money.Money"},
                {"name": "plain", "type": ["null", ".Plain"], "default": null},
                {"name": "code", "type": "map"}]},
            {"type": "record", "name": "Node", "fields": [
                {"name": "next", "type": ["null", "Node"]},
                {"name": "lines", "type": {"type": "array", "items": "Line"}},
                {"name": "plains", "type": {"type": "map", "values": ".Plain"}}]},
            {"type": "record", "name": "Order", "aliases": ["Old"], "fields": [
                {"name": "lines", "type": {"type": "array", "items": "Line"}},
                {"name": "total", "type": "money.Money"},
                {"name": "first", "type": "Plain", "default": {"kind": "enum", "type": "enum"}},
                {"name": "tree", "type": "Node"},
                {"name": "currency", "type": "money.Currency"}]},
        ]});
        set.parse_file_value(&protocol).unwrap();
        assert_walks_write_the_model_texts(&set, "protocol");
        let order = NodeGraph::new(&set).measure("shop.Order").unwrap();
        // Order (and its default), Line, Money, Currency, Plain (and its property), map, Node.
        assert_eq!(order.named_types, 9);
    }

    /// The schemas and IDL files of the conformance folders and the snapshot cases.
    #[test]
    fn conformance_and_snapshot_schemas_walk_to_the_model_texts() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let mut dirs = vec![root.join("conformance"), root.join("tests/snapshots")];
        let extra = std::env::var_os("AVDL2RS_CONFORMANCE").unwrap_or_default();
        dirs.extend(std::env::split_paths(&extra).map(|dir| root.join(dir)));
        let mut checked = 0;
        for dir in &dirs {
            for sub in ["", "schemas", "idl/input"] {
                let Ok(entries) = std::fs::read_dir(dir.join(sub)) else {
                    continue;
                };
                let mut files: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
                files.sort();
                let classpath = dir.join("idl/classpath");
                for file in files {
                    let mut generator = crate::Generator::new(crate::Options::default());
                    let includes = [file.parent().unwrap().to_path_buf(), classpath.clone()];
                    // Cases of rejected input have nothing to measure.
                    if generator.add_file(&file, &includes).is_ok() {
                        assert_walks_write_the_model_texts(
                            &generator.set,
                            &file.display().to_string(),
                        );
                        checked += generator.set.len();
                    }
                }
            }
        }
        assert!(checked > 50, "only {checked} named types checked");
    }
}
