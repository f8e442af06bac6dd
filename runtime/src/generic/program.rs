//! A schema flattened for decoding: every node of the schema tree an entry of one `Vec`,
//! its children and the named types it refers to by their index there, so that the decode
//! of a value follows indexes instead of looking a named type up by its name (a hash of two
//! strings per record) or matching on the schema's wider node types.

use std::collections::HashMap;
use std::sync::Arc;

use crate::schema::{Name, NamedKind, NamedSchema, Schema, SchemaKind};

/// The index of a [`Node`] in its [`Program`].
pub(super) type NodeId = usize;

/// What the decoder reads at one place of the schema.
#[derive(Debug, Clone)]
pub(super) enum Node {
    Null,
    Boolean,
    Int,
    Long,
    Float,
    Double,
    Bytes,
    String,
    Array(NodeId),
    Map(NodeId),
    Union(Box<[NodeId]>),
    /// A record: its named type, which every value of it shares, and its fields' nodes.
    Record(Arc<NamedSchema>, Box<[NodeId]>),
    /// An enum: its named type and its number of symbols.
    Enum(Arc<NamedSchema>, usize),
    Fixed(usize),
    /// A reference to a type the schema does not define (only a schema built by hand has
    /// one): an error when a value reaches it.
    Undefined(Name),
}

/// The nodes of one schema; its root is the first.
#[derive(Debug, Clone)]
pub(super) struct Program {
    nodes: Vec<Node>,
}

impl Program {
    /// The root node's id.
    pub(super) const ROOT: NodeId = 0;

    /// Flattens `root`, whose named types are those of `named`. Each named type gets one
    /// node, made the first time it is referred to, so a recursive type refers to itself.
    pub(super) fn new(root: &Schema, named: &HashMap<Name, Arc<NamedSchema>>) -> Self {
        let mut builder = Builder {
            named,
            nodes: Vec::new(),
            made: HashMap::new(),
        };
        builder.node(root);
        Program {
            nodes: builder.nodes,
        }
    }

    /// The node `id`, which this program gave out.
    #[inline]
    pub(super) fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id]
    }
}

struct Builder<'s> {
    named: &'s HashMap<Name, Arc<NamedSchema>>,
    nodes: Vec<Node>,
    /// The node of each named type made so far.
    made: HashMap<&'s Name, NodeId>,
}

impl<'s> Builder<'s> {
    /// Adds the node of `schema` (and those of its children) and answers its id. A node's
    /// slot is taken before its children's, so the root is the first.
    fn node(&mut self, schema: &Schema) -> NodeId {
        if let SchemaKind::Named(name) = &schema.kind {
            return self.named(name);
        }
        let id = self.nodes.len();
        self.nodes.push(Node::Null);
        self.nodes[id] = match &schema.kind {
            SchemaKind::Boolean => Node::Boolean,
            SchemaKind::Int => Node::Int,
            SchemaKind::Long => Node::Long,
            SchemaKind::Float => Node::Float,
            SchemaKind::Double => Node::Double,
            SchemaKind::Bytes => Node::Bytes,
            SchemaKind::String => Node::String,
            SchemaKind::Array(items) => Node::Array(self.node(items)),
            SchemaKind::Map(values) => Node::Map(self.node(values)),
            SchemaKind::Union(branches) => {
                Node::Union(branches.iter().map(|b| self.node(b)).collect())
            }
            // `null`; named types were made above.
            _ => Node::Null,
        };
        id
    }

    /// The node of the named type `name`, made on its first reference: its slot is taken
    /// before its fields are made, so that a field of the type itself finds it.
    fn named(&mut self, name: &Name) -> NodeId {
        let Some(named) = self.named.get(name) else {
            self.nodes.push(Node::Undefined(name.clone()));
            return self.nodes.len() - 1;
        };
        if let Some(&id) = self.made.get(&named.name) {
            return id;
        }
        let id = self.nodes.len();
        self.nodes.push(Node::Null);
        self.made.insert(&named.name, id);
        let node = match &named.kind {
            NamedKind::Record { fields, .. } => Node::Record(
                Arc::clone(named),
                fields.iter().map(|f| self.node(&f.schema)).collect(),
            ),
            NamedKind::Enum { symbols, .. } => Node::Enum(Arc::clone(named), symbols.len()),
            NamedKind::Fixed { size } => Node::Fixed(*size),
        };
        self.nodes[id] = node;
        id
    }
}

#[cfg(test)]
mod tests {
    use crate::generic::{GenericSchema, GenericValue};
    use crate::schema::{Name, Schema, SchemaKind, SchemaSet};

    #[test]
    fn a_type_used_twice_and_a_recursive_type_get_one_node_each() {
        let schema = GenericSchema::new(
            r#"{"type":"record","name":"N","fields":[
                {"name":"a","type":{"type":"fixed","name":"F","size":1}},
                {"name":"b","type":"F"},
                {"name":"next","type":["null","N"]}]}"#,
        )
        .unwrap();
        // Root record, its fixed, the union and its null: four nodes, `F` and `N` once each.
        assert_eq!(schema.program.nodes.len(), 4);
        let bytes = [1, 2, 2, 3, 4, 0];
        let value = schema.decode(&bytes).unwrap();
        let next = value.as_record().unwrap().field(2).unwrap();
        let GenericValue::Union(1, inner) = next else {
            panic!("{next:?}")
        };
        assert_eq!(
            inner.as_record().unwrap().field(0),
            Some(&GenericValue::Fixed(vec![3]))
        );
        assert_eq!(schema.encode(&value).unwrap(), bytes);
    }

    #[test]
    fn a_type_the_schema_does_not_define_is_an_error_where_a_value_reaches_it() {
        let named = Schema::new(SchemaKind::Named(Name::new("Gone", Some("x"))));
        let union = Schema::new(SchemaKind::Union(vec![
            Schema::new(SchemaKind::Null),
            named,
        ]));
        let schema = GenericSchema::from_schema(SchemaSet::new(), union);
        assert_eq!(
            schema.decode(&[0]).unwrap(),
            GenericValue::Union(0, Box::new(GenericValue::Null))
        );
        let error = schema.decode(&[2]).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("the schema refers to x.Gone, a type it does not define"),
            "{error}"
        );
    }
}
