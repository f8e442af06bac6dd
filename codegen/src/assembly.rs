//! The standalone schema texts of the named types, measured from their nodes.
//!
//! A generated type's `SCHEMA_JSON` and `CANONICAL_FORM` are assembled by the runtime from
//! the node of the type and the nodes it refers to (`__private::derive_schema`), given their
//! lengths; `FINGERPRINT` is written out. Those figures are computed here by the same walk
//! over the same pieces: each named type defined at its first occurrence and written by name
//! afterwards, a `namespace` key only where it differs from the enclosing one. The walk adds
//! up lengths and feeds the canonical pieces to the fingerprint.
//!
//! Along a chain of records each schema holds the whole chain below it, so walking every
//! type's pieces would be quadratic. What a walk measured for a nested type is remembered with
//! the context it depends on — the types it found defined already, and those it defined —
//! and reused wherever the same types are defined and undefined: a type's text depends on
//! nothing else (the name spellings inside it only on its own namespaces; its own `namespace`
//! key is added for each enclosing namespace). Fingerprints of parts are joined with
//! [`Rabin::then`].

use std::cell::RefCell;
use std::collections::HashMap;

use avdl2rs_emit::node::Piece;
use avdl2rs_schema::fingerprint::Rabin;
use avdl2rs_schema::SchemaSet;

use crate::nodes::{type_node, TypeNode};

/// How many contexts are remembered for a type: schemas of the usual shapes meet a type in
/// one or two.
const CONTEXTS_PER_TYPE: usize = 8;

/// The nodes of every named type of a schema set, each computed once.
pub(crate) struct NodeGraph {
    ids: HashMap<String, usize>,
    /// The nodes, or why one could not be computed.
    nodes: Vec<Result<GraphNode, String>>,
    /// Per form, per type: what walks measured in the contexts met so far.
    memo: RefCell<[Vec<Vec<Part>>; 2]>,
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

/// Which text of a schema a walk measures.
#[derive(Clone, Copy)]
enum Form {
    Json = 0,
    Canonical = 1,
}

/// What the walk of a type's definition measured, and what it depends on.
#[derive(Clone)]
struct Part {
    /// The bytes written, the type's own JSON as it stands alone (its `namespace` key kept
    /// where it has a namespace, see [`Walk::namespace_adjustment`]).
    len: usize,
    /// The fingerprint state of those bytes (canonical form only).
    rabin: Rabin,
    /// What the named types it defines count to.
    named_types: usize,
    /// The types it found defined before it and wrote by name.
    external: Vec<usize>,
    /// The types it defined, itself first.
    defines: Vec<usize>,
}

impl Part {
    fn new(named_types: usize, defines: Vec<usize>) -> Self {
        Part {
            len: 0,
            rabin: Rabin::new(),
            named_types,
            external: Vec::new(),
            defines,
        }
    }
}

impl NodeGraph {
    /// The nodes of the named types of `set`.
    pub fn new(set: &SchemaSet) -> Self {
        let ids: HashMap<String, usize> = set
            .iter()
            .enumerate()
            .map(|(id, named)| (named.name.full_name(), id))
            .collect();
        let nodes: Vec<_> = set
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
        let memo = RefCell::new([vec![Vec::new(); nodes.len()], vec![Vec::new(); nodes.len()]]);
        NodeGraph { ids, nodes, memo }
    }

    /// The node of the named type `full_name`.
    pub fn node(&self, full_name: &str) -> Result<&TypeNode, String> {
        self.graph_node(self.id(full_name)?).map(|n| &n.node)
    }

    /// The figures of the standalone schema of the named type `full_name`.
    pub fn measure(&self, full_name: &str) -> Result<Measure, String> {
        let root = self.id(full_name)?;
        let json = self.walk(root, Form::Json)?;
        let canonical = self.walk(root, Form::Canonical)?;
        Ok(Measure {
            json_len: json.len,
            canonical_len: canonical.len,
            fingerprint: canonical.rabin.finish(),
            named_types: json.named_types,
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

    /// Measures the standalone schema of `root` in `form`, as the runtime assembles it.
    fn walk(&self, root: usize, form: Form) -> Result<Part, String> {
        let mut memo = self.memo.borrow_mut();
        let mut walk = Walk {
            graph: self,
            form,
            memo: &mut memo[form as usize],
            defined_at: vec![None; self.nodes.len()],
            defined: 0,
            // The schema itself, as the part of a frame that holds it and nothing else.
            stack: vec![Frame {
                id: root,
                pieces: &[],
                next: 0,
                nested: &[],
                namespace: None,
                namespace_adjustment: 0,
                start: 0,
                part: Part::new(0, Vec::new()),
            }],
        };
        walk.enter(root, None)?;
        while walk.stack.len() > 1 {
            let frame = walk.stack.last_mut().expect("more than one frame");
            let Some(piece) = frame.pieces.get(frame.next) else {
                walk.leave();
                continue;
            };
            frame.next += 1;
            match piece {
                Piece::Text(text) => walk.write(text),
                Piece::Nested(n) => {
                    let id = *frame.nested.get(*n).ok_or("a placeholder without a type")?;
                    let enclosing = frame.namespace;
                    walk.enter(id, enclosing)?;
                }
            }
        }
        Ok(walk.stack.pop().expect("the schema's frame").part)
    }
}

/// A walk over the nodes of one schema (see [`NodeGraph::walk`]).
struct Walk<'g, 'm> {
    graph: &'g NodeGraph,
    form: Form,
    memo: &'m mut Vec<Vec<Part>>,
    /// By type: its position in the order of the types defined so far, if it is.
    defined_at: Vec<Option<usize>>,
    /// How many types are defined so far.
    defined: usize,
    /// The definitions being written, innermost last, below the schema's own frame: a chain
    /// of thousands of records nests as deep, too deep for a recursion on the generator's
    /// stack.
    stack: Vec<Frame<'g>>,
}

/// A definition being written.
struct Frame<'g> {
    id: usize,
    pieces: &'g [Piece],
    next: usize,
    /// The ids its placeholders stand for.
    nested: &'g [usize],
    /// The namespace of the types it holds.
    namespace: Option<&'g str>,
    /// What its JSON is longer or shorter where it is written than as it stands alone (see
    /// [`Walk::namespace_adjustment`]).
    namespace_adjustment: isize,
    /// The position of its type in the order of definitions: the types defined before it
    /// are those before.
    start: usize,
    part: Part,
}

impl<'g> Walk<'g, '_> {
    /// Writes `text` in the innermost frame.
    fn write(&mut self, text: &str) {
        let part = &mut self.stack.last_mut().expect("a frame").part;
        part.len += text.len();
        if let Form::Canonical = self.form {
            part.rabin = part.rabin.update(text.as_bytes());
        }
    }

    /// Writes the type `id` inside a scope of namespace `enclosing`: its name if it was
    /// defined already, else what a walk measured in the same context, else its definition,
    /// in a new frame.
    fn enter(&mut self, id: usize, enclosing: Option<&str>) -> Result<(), String> {
        let graph_node = self.graph.graph_node(id)?;
        let node = &graph_node.node;
        let frame = self.stack.last_mut().expect("a frame");
        if let Some(at) = self.defined_at[id] {
            if at < frame.start {
                frame.part.external.push(id);
            }
            let name = match self.form {
                Form::Json => node.name.relative_to(enclosing),
                Form::Canonical => graph_node.full_name.clone(),
            };
            self.write(&format!("\"{name}\""));
            return Ok(());
        }
        let namespace = node.name.namespace.as_deref();
        let namespace_adjustment = self.namespace_adjustment(graph_node, enclosing);
        let defined_at = &self.defined_at;
        let reusable = self.memo[id].iter().position(|part| {
            part.external.iter().all(|&x| defined_at[x].is_some())
                && part.defines.iter().all(|&x| defined_at[x].is_none())
        });
        if let Some(index) = reusable {
            let mut part = self.memo[id][index].clone();
            for &x in &part.defines {
                self.defined_at[x] = Some(self.defined);
                self.defined += 1;
            }
            part.len = adjusted(part.len, namespace_adjustment);
            self.add_to_holder(part);
            return Ok(());
        }
        self.defined_at[id] = Some(self.defined);
        self.stack.push(Frame {
            id,
            pieces: match self.form {
                Form::Json => &node.texts.json,
                Form::Canonical => &node.texts.canonical,
            },
            next: 0,
            nested: &graph_node.nested,
            namespace,
            namespace_adjustment,
            start: self.defined,
            part: Part::new(node.named_types, vec![id]),
        });
        self.defined += 1;
        Ok(())
    }

    /// What the JSON of `graph_node`, written as it stands alone (with its `namespace` key
    /// where it has a namespace), gains inside namespace `enclosing`, as the runtime writes
    /// it: the key is dropped where the namespaces agree, and `"namespace":""` added for a
    /// type of the null namespace inside another one.
    fn namespace_adjustment(&self, graph_node: &GraphNode, enclosing: Option<&str>) -> isize {
        const KEY: &str = r#","namespace":"""#;
        let own = graph_node.node.name.namespace.as_deref();
        match (self.form, own) {
            (Form::Canonical, _) => 0,
            (Form::Json, Some(own)) if Some(own) == enclosing => {
                -((KEY.len() + own.len()) as isize)
            }
            (Form::Json, None) if enclosing.is_some() => KEY.len() as isize,
            (Form::Json, _) => 0,
        }
    }

    /// Ends the innermost frame: remembers what it measured, and adds it to its holder.
    fn leave(&mut self) {
        let mut frame = self.stack.pop().expect("a frame to leave");
        frame.part.external.sort_unstable();
        frame.part.external.dedup();
        let contexts = &mut self.memo[frame.id];
        if contexts.len() < CONTEXTS_PER_TYPE {
            contexts.push(frame.part.clone());
        }
        let mut part = frame.part;
        part.len = adjusted(part.len, frame.namespace_adjustment);
        self.add_to_holder(part);
    }

    /// Adds the measure of a type written in full (its `namespace` key included) to the
    /// innermost frame.
    fn add_to_holder(&mut self, part: Part) {
        let defined_at = &self.defined_at;
        let holder = self.stack.last_mut().expect("the schema's frame at least");
        let start = holder.start;
        let held = &mut holder.part;
        if let Form::Canonical = self.form {
            held.rabin = held.rabin.then(part.rabin, part.len);
        }
        held.len += part.len;
        held.named_types += part.named_types;
        held.external.extend(
            part.external
                .iter()
                .filter(|&&x| defined_at[x].is_some_and(|at| at < start)),
        );
        held.defines.extend(part.defines);
    }
}

/// `len` changed by `adjustment`, which never removes more than a text holds.
fn adjusted(len: usize, adjustment: isize) -> usize {
    len.checked_add_signed(adjustment)
        .expect("a namespace key is removed only from a text that holds it")
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use avdl2rs_emit::node::named_types;
    use avdl2rs_schema::fingerprint::rabin_fingerprint;
    use avdl2rs_schema::Schema;
    use serde_json::json;

    use super::*;

    /// Checks every named type of `set`, in the order of `names`, against the figures the
    /// generator computed from the schema model's whole texts before the nodes were walked.
    fn assert_measures_are_the_model_texts(set: &SchemaSet, names: &[String], case: &str) {
        let graph = NodeGraph::new(set);
        for full_name in names {
            let json = set.named_to_json(full_name).unwrap();
            let named = set.get(full_name).unwrap();
            let canonical = set.canonical_form(&Schema::named(named.name.clone()));
            let expected = Measure {
                json_len: json.to_string().len(),
                canonical_len: canonical.len(),
                fingerprint: rabin_fingerprint(canonical.as_bytes()),
                named_types: named_types(&json),
            };
            assert_eq!(
                graph.measure(full_name),
                Ok(expected),
                "{case}: {full_name}"
            );
        }
    }

    /// [`assert_measures_are_the_model_texts`] in the order of registration, then backwards
    /// (with nothing remembered yet, the first walk is the deepest).
    fn assert_walks_write_the_model_texts(set: &SchemaSet, case: &str) {
        let mut names: Vec<String> = set.iter().map(|n| n.name.full_name()).collect();
        assert_measures_are_the_model_texts(set, &names, case);
        names.reverse();
        assert_measures_are_the_model_texts(set, &names, case);
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

    /// A chain of records, each holding types defined before the one below it (which that
    /// one then writes by name), one in another namespace, and the previous record: what was
    /// measured for a record is reused in the schemas of the records above it.
    #[test]
    fn chains_reuse_what_was_measured_below() {
        let mut types = vec![
            json!({"type": "enum", "name": "Color", "symbols": ["RED"]}),
            json!({"type": "fixed", "name": "Hash", "namespace": "other", "size": 4}),
            json!({"type": "record", "name": "Leaf", "fields": [{"name": "x", "type": "int"}]}),
        ];
        for n in 0..40 {
            let previous = match n {
                0 => json!("Leaf"),
                n => json!(["null", format!("Rec{}", n - 1)]),
            };
            types.push(
                json!({"type": "record", "name": format!("Rec{n}"), "fields": [
                    {"name": "color", "type": "Color", "default": "RED"},
                    {"name": "hash", "type": "other.Hash"},
                    {"name": "previous", "type": previous},
                    {"name": "leaf", "type": "Leaf"},
                ]}),
            );
        }
        let mut set = SchemaSet::new();
        set.parse_file_value(&json!({"protocol": "P", "namespace": "chain", "types": types}))
            .unwrap();
        assert_walks_write_the_model_texts(&set, "chain");
        let graph = NodeGraph::new(&set);
        graph.measure("chain.Rec39").unwrap();
        graph.measure("chain.Rec38").unwrap();
        // Rec38 below Rec39 (Color and Hash defined before it), and alone.
        assert_eq!(
            graph.memo.borrow()[Form::Json as usize][graph.id("chain.Rec38").unwrap()].len(),
            2
        );
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
