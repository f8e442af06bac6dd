//! Compile-time assembly of the schemas of types using the `Avro` derive.
//!
//! A derived type's schema embeds the schemas of the derived types it holds, and those are
//! only known at their own expansion. So each expansion describes its schema as a [`Node`]:
//! text pieces, written by the derive with the schema model, between references to the nodes
//! of the other derived types. Generated named types carry a node too (written by codegen the
//! same way), so that derived types can hold them. The `AvroSchema` consts of derived types
//! are assembled from that graph by the `const fn`s below, which define each named type at
//! its first occurrence and write its name afterwards, and write a `namespace` only where it
//! differs from the enclosing one and names relative to it (the rules of the schema model's
//! writer), so recursive and shared types appear once and the texts equal the generator's.
//!
//! Nodes point at each other through raw pointers to statics: mutually recursive types form a
//! cycle of nodes, and a cycle of references in consts is rejected by the compiler, while a
//! raw pointer is not followed until the assembly reads it.

use core::marker::PhantomData;

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
    /// Where a named type's JSON has its `namespace` key (after `name`), written only when
    /// the namespace differs from the enclosing one.
    Namespace,
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
    /// The namespace of a named type; empty for none (and for a union).
    pub namespace: &'static str,
    /// The full JSON.
    pub json: &'static [Piece],
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

/// The table capacity of the derive's assembly, which cannot count a schema's named types
/// before assembling it: room for 2048 named types (generated types pass their own count).
const DERIVED_CAPACITY: usize = 4096;

/// The named types defined so far: an open-addressing hash table of `CAPACITY` slots (a
/// power of two), kept at most half full, so that each lookup probes a few slots and a
/// schema of thousands of named types assembles in linear time.
struct Defined<const CAPACITY: usize> {
    slots: [&'static str; CAPACITY],
    len: usize,
}

impl<const CAPACITY: usize> Defined<CAPACITY> {
    const fn new() -> Self {
        assert!(
            CAPACITY.is_power_of_two(),
            "the name table capacity must be a power of two"
        );
        Defined {
            slots: [""; CAPACITY],
            len: 0,
        }
    }

    /// Records `name` (never empty); false when it was defined already.
    const fn insert(&mut self, name: &'static str) -> bool {
        let mut slot = (fnv1a(name.as_bytes()) as usize) & (CAPACITY - 1);
        while !self.slots[slot].is_empty() {
            if str_eq(self.slots[slot], name) {
                return false;
            }
            slot = (slot + 1) & (CAPACITY - 1);
        }
        assert!(
            2 * (self.len + 1) <= CAPACITY,
            "an Avro schema with more named types than its assembly has room for"
        );
        self.slots[slot] = name;
        self.len += 1;
        true
    }
}

/// The Avro type names, which a named type's simple name never stands for alone.
const TYPE_NAMES: [&str; 14] = [
    "record", "enum", "array", "map", "union", "fixed", "string", "bytes", "int", "long", "float",
    "double", "boolean", "null",
];

/// How a reference to the named type of `node` is spelled inside namespace `enclosing`: its
/// simple name when the namespaces agree (and it is not a type name), else its full name.
const fn relative_name(node: &'static Node, enclosing: &str) -> &'static str {
    if node.namespace.is_empty() || !str_eq(node.namespace, enclosing) {
        return node.full_name;
    }
    let (_, simple) = node.full_name.split_at(node.namespace.len() + 1);
    let mut i = 0;
    while i < TYPE_NAMES.len() {
        if str_eq(TYPE_NAMES[i], simple) {
            return node.full_name;
        }
        i += 1;
    }
    simple
}

/// The 64-bit FNV-1a hash of `bytes`.
const fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    let mut i = 0;
    while i < bytes.len() {
        hash = (hash ^ bytes[i] as u64).wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    hash
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

/// Output text, or only its length when `buf` is `None`.
struct Out<'a> {
    buf: Option<&'a mut [u8]>,
    len: usize,
}

impl Out<'_> {
    const fn push(&mut self, text: &str) {
        let bytes = text.as_bytes();
        if let Some(buf) = &mut self.buf {
            assert!(
                self.len + bytes.len() <= buf.len(),
                "the assembled schema is longer than the length it was given"
            );
            let (_, rest) = buf.split_at_mut(self.len);
            let (target, _) = rest.split_at_mut(bytes.len());
            target.copy_from_slice(bytes);
        }
        self.len += bytes.len();
    }
}

/// A node being written: its pieces, the next one to write, the namespace of the types it
/// holds, and whether its `namespace` key is written.
#[derive(Clone, Copy)]
struct Frame {
    pieces: &'static [Piece],
    next: usize,
    namespace: &'static str,
    write_namespace: bool,
}

/// The nodes being written, innermost last. An explicit stack rather than recursion: a
/// chain of thousands of nested records is deeper than the compile-time evaluator lets
/// `const fn`s recurse. Each level defines a named type or is a union whose branches are
/// not unions, so the depth stays below twice the number of named types, within `CAPACITY`.
struct Stack<const CAPACITY: usize> {
    frames: [Frame; CAPACITY],
    len: usize,
}

impl<const CAPACITY: usize> Stack<CAPACITY> {
    const EMPTY: Frame = Frame {
        pieces: &[],
        next: 0,
        namespace: "",
        write_namespace: false,
    };

    /// Starts writing `node` inside a scope of namespace `enclosing` (empty for none):
    /// writes its name if it was defined already, else pushes its definition.
    const fn enter(
        &mut self,
        node: &'static Node,
        form: Form,
        enclosing: &'static str,
        defined: &mut Defined<CAPACITY>,
        out: &mut Out<'_>,
    ) {
        let named = !node.full_name.is_empty();
        if named && !defined.insert(node.full_name) {
            out.push("\"");
            out.push(match form {
                Form::Canonical => node.full_name,
                Form::Json => relative_name(node, enclosing),
            });
            out.push("\"");
            return;
        }
        assert!(
            self.len < CAPACITY,
            "an Avro schema nested too deeply: a union that holds itself?"
        );
        self.frames[self.len] = Frame {
            pieces: match form {
                Form::Canonical => node.canonical,
                Form::Json => node.json,
            },
            next: 0,
            namespace: if named { node.namespace } else { enclosing },
            write_namespace: named && !str_eq(node.namespace, enclosing),
        };
        self.len += 1;
    }
}

/// Writes the standalone schema of `root` in `form`, defining each named type at its first
/// occurrence and writing its full name afterwards. `CAPACITY` is a power of two at least
/// twice the number of named types the schema defines, plus two.
const fn write<const CAPACITY: usize>(root: &'static Node, form: Form, out: &mut Out<'_>) {
    let mut defined = Defined::<CAPACITY>::new();
    let mut stack = Stack::<CAPACITY> {
        frames: [Stack::<CAPACITY>::EMPTY; CAPACITY],
        len: 0,
    };
    stack.enter(root, form, "", &mut defined, out);
    while stack.len > 0 {
        let frame = &mut stack.frames[stack.len - 1];
        if frame.next == frame.pieces.len() {
            stack.len -= 1;
            continue;
        }
        let pieces = frame.pieces;
        let piece = &pieces[frame.next];
        frame.next += 1;
        let Frame {
            namespace,
            write_namespace,
            ..
        } = *frame;
        match piece {
            Piece::Text(text) => out.push(text),
            Piece::Type(child) => stack.enter(child.get(), form, namespace, &mut defined, out),
            Piece::Namespace if write_namespace => {
                out.push(",\"namespace\":\"");
                out.push(namespace);
                out.push("\"");
            }
            Piece::Namespace => {}
        }
    }
}

/// The length in bytes of the standalone schema of `node` in `form`.
pub const fn schema_len(node: &'static Node, form: Form) -> usize {
    let mut out = Out { buf: None, len: 0 };
    write::<DERIVED_CAPACITY>(node, form, &mut out);
    out.len
}

/// The standalone schema of `node` in `form`; `N` is its [`schema_len`].
pub const fn schema_bytes<const N: usize>(node: &'static Node, form: Form) -> [u8; N] {
    assembled::<N, DERIVED_CAPACITY>(node, form)
}

/// The standalone schema of `node` in `form`, which must be exactly `LEN` bytes long.
const fn assembled<const LEN: usize, const CAPACITY: usize>(
    node: &'static Node,
    form: Form,
) -> [u8; LEN] {
    let mut buf = [0u8; LEN];
    let mut out = Out {
        buf: Some(&mut buf),
        len: 0,
    };
    write::<CAPACITY>(node, form, &mut out);
    assert!(
        out.len == LEN,
        "the assembled schema is shorter than the length it was given"
    );
    buf
}

/// The assembled bytes as text (they are made of UTF-8 pieces).
pub const fn utf8(bytes: &'static [u8]) -> &'static str {
    match core::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => panic!("schema text is not UTF-8"),
    }
}

/// The assembled schema texts of the generated type `T`, `LEN` bytes long, whose schema
/// defines fewer than `CAPACITY / 2` named types.
///
/// Generic so that a text is assembled only when a program reads it: the compiler evaluates
/// every constant that a non-generic item names, used or not, while the body of an unused
/// associated constant — the `AvroSchema` consts, which call [`schema_json`] — is never
/// evaluated. Naming these consts from the `AvroSchema` impls directly would assemble the
/// schema of every type in every build.
struct Assembly<T: ?Sized, const LEN: usize, const CAPACITY: usize>(PhantomData<T>);

impl<T: DerivedSchema + ?Sized, const LEN: usize, const CAPACITY: usize>
    Assembly<T, LEN, CAPACITY>
{
    const JSON: [u8; LEN] = assembled::<LEN, CAPACITY>(NodeRef::of::<T>().get(), Form::Json);
    const CANONICAL: [u8; LEN] =
        assembled::<LEN, CAPACITY>(NodeRef::of::<T>().get(), Form::Canonical);
}

/// The full schema JSON of the generated type `T`, assembled from its node when first read:
/// `LEN` is its length in bytes and `CAPACITY` a power of two at least twice the number of
/// named types it defines, plus two (both written by the code generator).
///
/// A text nothing reads is never assembled: the impl below, whose length is wrong, compiles.
///
/// ```
/// use avdl2rs::__private::derive_schema::{self as ds, Node, Piece};
/// struct Point;
/// static NODE: Node = Node {
///     full_name: "Point",
///     namespace: "",
///     json: &[Piece::Text(r#"{"type":"record","name":"Point""#), Piece::Namespace,
///             Piece::Text(r#","fields":[{"name":"x","type":"int"}]}"#)],
///     canonical: &[Piece::Text(r#"{"name":"Point","type":"record","fields":[{"name":"x","type":"int"}]}"#)],
/// };
/// unsafe impl ds::DerivedSchema for Point {
///     const NODE: *const Node = &NODE;
/// }
/// impl avdl2rs::AvroSchema for Point {
///     const SCHEMA_JSON: &'static str = ds::schema_json::<Self, 1, 4>();
///     const CANONICAL_FORM: &'static str = ds::canonical_form::<Self, 69, 4>();
///     const FINGERPRINT: u64 = 0;
///     const FULL_NAME: &'static str = "Point";
/// }
/// assert_eq!(
///     <Point as avdl2rs::AvroSchema>::CANONICAL_FORM,
///     r#"{"name":"Point","type":"record","fields":[{"name":"x","type":"int"}]}"#
/// );
/// ```
///
/// Reading it stops the build: "the assembled schema is longer than the length it was given".
///
/// ```compile_fail
/// # use avdl2rs::__private::derive_schema::{self as ds, Node, Piece};
/// # struct Point;
/// # static NODE: Node = Node {
/// #     full_name: "Point",
/// #     namespace: "",
/// #     json: &[Piece::Text(r#"{"type":"record","name":"Point""#), Piece::Namespace,
/// #             Piece::Text(r#","fields":[{"name":"x","type":"int"}]}"#)],
/// #     canonical: &[],
/// # };
/// # unsafe impl ds::DerivedSchema for Point {
/// #     const NODE: *const Node = &NODE;
/// # }
/// const JSON: &str = ds::schema_json::<Point, 1, 4>();
/// ```
pub const fn schema_json<T: DerivedSchema + ?Sized, const LEN: usize, const CAPACITY: usize>(
) -> &'static str {
    utf8(&Assembly::<T, LEN, CAPACITY>::JSON)
}

/// The Parsing Canonical Form of the generated type `T`, as [`schema_json`] assembles the
/// JSON.
pub const fn canonical_form<T: DerivedSchema + ?Sized, const LEN: usize, const CAPACITY: usize>(
) -> &'static str {
    utf8(&Assembly::<T, LEN, CAPACITY>::CANONICAL)
}
