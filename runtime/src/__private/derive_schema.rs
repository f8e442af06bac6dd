//! Compile-time assembly of the schemas of types using the `Avro` derive.
//!
//! A derived type's schema embeds the schemas of the derived types it holds, and those are
//! only known at their own expansion. So each expansion describes its schema as a [`Node`]:
//! text pieces, written by the derive with the schema model, between references to the nodes
//! of the other derived types. Generated named types carry a node too (written by codegen the
//! same way), so that derived types can hold them. The `AvroSchema` consts of derived types
//! are assembled from that graph by the `const fn`s below, which define each named type at
//! its first occurrence and write its full name afterwards (the rule of the schema model's
//! writers), so recursive and shared types appear once.
//!
//! Nodes point at each other through raw pointers to statics: mutually recursive types form a
//! cycle of nodes, and a cycle of references in consts is rejected by the compiler, while a
//! raw pointer is not followed until the assembly reads it.

/// Which text of a schema to assemble.
#[derive(Clone, Copy)]
pub enum Form {
    /// The full schema JSON.
    Json,
    /// The Parsing Canonical Form.
    Canonical,
}

/// A part of a schema's text.
pub enum Piece {
    /// Literal text.
    Text(&'static str),
    /// The schema of another derived type.
    Type(NodeRef),
}

/// A pointer to the [`Node`] of a derived type.
#[derive(Clone, Copy)]
pub struct NodeRef(*const Node);

// SAFETY: a `NodeRef` only ever points at a `static` `Node` (see `DerivedSchema`), which is
// immutable and lives for the whole program.
unsafe impl Sync for NodeRef {}

impl NodeRef {
    /// The node of `T`.
    pub const fn of<T: DerivedSchema + ?Sized>() -> NodeRef {
        NodeRef(T::NODE)
    }

    /// A node defined beside the one referring to it (a derived type's logical fixed types).
    pub const fn from_static(node: &'static Node) -> NodeRef {
        NodeRef(node)
    }

    /// Whether the node is a union's, which cannot be a branch of another union.
    pub const fn is_union(self) -> bool {
        self.get().full_name.is_empty()
    }

    const fn get(self) -> &'static Node {
        // SAFETY: `DerivedSchema::NODE` points at a `static` (the trait's contract).
        unsafe { &*self.0 }
    }
}

/// The schema description of one derived type.
pub struct Node {
    /// The full name of a named type; empty for a union, which is always written in full.
    pub full_name: &'static str,
    /// Whether the named type has a namespace.
    pub in_namespace: bool,
    /// The full JSON, written standalone.
    pub json: &'static [Piece],
    /// The full JSON as written inside a namespace: for a named type without a namespace it
    /// carries `"namespace":""`; otherwise it equals `json`.
    pub json_in_namespace: &'static [Piece],
    /// The Parsing Canonical Form.
    pub canonical: &'static [Piece],
}

/// Implemented by the `Avro` derive and by generated named types: the type's schema [`Node`],
/// through which derived types that hold the type assemble their schemas.
///
/// # Safety
///
/// `NODE` must point at a `static`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is neither a type with `#[derive(Avro)]` nor a generated named type",
    label = "a field of a derived type must be a supported Rust type, a derived type or a generated named type",
    note = "derive `avdl2rs::Avro` for `{Self}`"
)]
pub unsafe trait DerivedSchema {
    /// The type's node.
    const NODE: *const Node;
}

/// How many named types one schema may define, and how deeply unions may nest.
const MAX_NAMES: usize = 512;
const MAX_DEPTH: usize = 128;

/// The named types defined so far.
struct Defined {
    names: [&'static str; MAX_NAMES],
    len: usize,
}

impl Defined {
    const fn new() -> Self {
        Defined {
            names: [""; MAX_NAMES],
            len: 0,
        }
    }

    /// Records `name`; false when it was defined already.
    const fn insert(&mut self, name: &'static str) -> bool {
        let mut i = 0;
        while i < self.len {
            if str_eq(self.names[i], name) {
                return false;
            }
            i += 1;
        }
        assert!(
            self.len < MAX_NAMES,
            "an Avro schema with too many named types"
        );
        self.names[self.len] = name;
        self.len += 1;
        true
    }
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Output text; with an empty buffer it only counts.
struct Out<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl Out<'_> {
    const fn push(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if !self.buf.is_empty() {
                self.buf[self.len] = bytes[i];
            }
            self.len += 1;
            i += 1;
        }
    }
}

/// Writes `node` in `form`; `in_namespace` says whether the enclosing scope has a namespace.
const fn write(
    node: &'static Node,
    form: Form,
    in_namespace: bool,
    defined: &mut Defined,
    out: &mut Out<'_>,
    depth: usize,
) {
    assert!(
        depth < MAX_DEPTH,
        "an Avro schema nested too deeply: a union that holds itself?"
    );
    let named = !node.full_name.is_empty();
    if named && !defined.insert(node.full_name) {
        out.push("\"");
        out.push(node.full_name);
        out.push("\"");
        return;
    }
    let pieces = match form {
        Form::Canonical => node.canonical,
        Form::Json if named && in_namespace => node.json_in_namespace,
        Form::Json => node.json,
    };
    let inner_namespace = if named {
        node.in_namespace
    } else {
        in_namespace
    };
    let mut i = 0;
    while i < pieces.len() {
        match &pieces[i] {
            Piece::Text(text) => out.push(text),
            Piece::Type(child) => {
                write(child.get(), form, inner_namespace, defined, out, depth + 1)
            }
        }
        i += 1;
    }
}

/// The length in bytes of the standalone schema of `node` in `form`.
pub const fn schema_len(node: &'static Node, form: Form) -> usize {
    let mut out = Out {
        buf: &mut [],
        len: 0,
    };
    write(node, form, false, &mut Defined::new(), &mut out, 0);
    out.len
}

/// The standalone schema of `node` in `form`; `N` is its [`schema_len`].
pub const fn schema_bytes<const N: usize>(node: &'static Node, form: Form) -> [u8; N] {
    let mut buf = [0u8; N];
    let mut out = Out {
        buf: &mut buf,
        len: 0,
    };
    write(node, form, false, &mut Defined::new(), &mut out, 0);
    buf
}

/// The assembled bytes as text (they are made of UTF-8 pieces).
pub const fn utf8(bytes: &'static [u8]) -> &'static str {
    match core::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => panic!("schema text is not UTF-8"),
    }
}
