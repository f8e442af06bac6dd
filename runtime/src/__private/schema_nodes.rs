//! Schema nodes, and the compile-time assembly of schema texts from them.
//!
//! A generated or derived type's `AvroSchema::SCHEMA_JSON` is its standalone schema: the
//! definitions of the named types it holds, each at its first occurrence, are part of it. A
//! schema text written out in every type that holds it would make generated code grow with
//! the square of a chain of records, and a derived type cannot see the schemas of the types it
//! holds at all. So each type describes only its own definition, as a [`Node`]: its JSON and
//! its Parsing Canonical Form as text pieces between references to the nodes of the named
//! types it uses. The `const fn`s below assemble a standalone text from that graph the way the
//! schema model's writer writes one: each named type defined at its first occurrence and
//! written by name afterwards, a `namespace` only where it differs from the enclosing one and
//! names relative to it, so that the texts equal those the generator would write.
//!
//! A named type's JSON is written as it stands alone (with its `namespace` key where it has a
//! namespace); the assembly drops the key inside a type of the same namespace and adds
//! `"namespace":""` for a type of the null namespace inside another one.
//!
//! The [`schema!`](crate::__private::schema) macro writes a type's node and its `AvroSchema`
//! impl.

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
    /// The schema of another type.
    Type(NodeRef),
}

/// The schema description of one type: a named type, or a union enum.
pub struct Node {
    /// The full name of a named type (see [`name_in_canonical_form`]); empty for a union,
    /// which is always written in full.
    pub full_name: &'static str,
    /// The JSON, a named type's as it stands alone.
    pub json: &'static [Piece],
    /// The Parsing Canonical Form.
    pub canonical: &'static [Piece],
}

impl Node {
    /// What `AvroSchema::FULL_NAME` says of the type: its full name, or `union`.
    pub const fn schema_name(&self) -> &'static str {
        if self.full_name.is_empty() {
            "union"
        } else {
            self.full_name
        }
    }

    /// The namespace of a named type; empty for none (and for a union).
    const fn namespace(&self) -> &'static str {
        let name = self.full_name.as_bytes();
        let mut i = name.len();
        while i > 0 {
            i -= 1;
            if name[i] == b'.' {
                let (namespace, _) = self.full_name.split_at(i);
                return namespace;
            }
        }
        ""
    }

    /// The length of the simple name of a named type.
    const fn simple_name_len(&self) -> usize {
        match self.namespace().len() {
            0 => self.full_name.len(),
            namespace => self.full_name.len() - namespace - 1,
        }
    }
}

/// The full name at the start of the canonical form of a named type, `{"name":"` and the name
/// up to its quote, so that a node's full name is not written beside it.
pub const fn name_in_canonical_form(text: &'static str) -> &'static str {
    const START: &[u8] = br#"{"name":""#;
    assert!(
        starts_with(text.as_bytes(), START),
        "a named type's canonical form starts with its name"
    );
    let (_, rest) = text.split_at(START.len());
    let mut end = 0;
    while rest.as_bytes()[end] != b'"' {
        end += 1;
    }
    let (name, _) = rest.split_at(end);
    name
}

/// A reference to a static [`Node`].
///
/// A pointer rather than `&'static Node`: nodes of mutually recursive types refer to each
/// other, and a constant holding a reference to a static makes the compiler evaluate the
/// static, which would then be a cycle; a pointer is not followed until the assembly reads
/// it. It is made only from a `&'static Node`, so it always points at one.
#[derive(Clone, Copy)]
pub struct NodeRef(*const Node);

// SAFETY: a `NodeRef` points at a static `Node`, which is immutable and lives for the whole
// program.
unsafe impl Sync for NodeRef {}

impl NodeRef {
    /// A reference to `node`.
    pub const fn new(node: &'static Node) -> NodeRef {
        NodeRef(node)
    }

    /// The node of `T`.
    pub const fn of<T: SchemaNode + ?Sized>() -> NodeRef {
        T::NODE
    }

    /// Whether the node is a union's, which cannot be a branch of another union.
    pub const fn is_union(self) -> bool {
        self.get().full_name.is_empty()
    }

    const fn get(self) -> &'static Node {
        // SAFETY: a `NodeRef` is made only from a `&'static Node` (see `new`).
        unsafe { &*self.0 }
    }
}

/// Implemented by the `Avro` derive and by generated named types and union enums: the type's
/// schema [`Node`], through which the schemas of the types holding it are assembled.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is neither a type with `#[derive(Avro)]` nor a generated named type",
    label = "a field of a derived type must be a supported Rust type, a derived type or a generated named type",
    note = "derive `avdl2rs::Avro` for `{Self}`"
)]
pub trait SchemaNode {
    /// The type's node.
    const NODE: NodeRef;
}

/// The named types defined so far: an open-addressing hash table of `CAPACITY` slots (a
/// power of two), kept at most half full, so that each lookup probes a few slots and a
/// schema of thousands of named types assembles in linear time.
struct Defined<const CAPACITY: usize> {
    slots: [&'static str; CAPACITY],
    len: usize,
}

/// What recording a name found.
enum Insert {
    New,
    Known,
    Full,
}

impl<const CAPACITY: usize> Defined<CAPACITY> {
    const fn new() -> Self {
        Defined {
            slots: [""; CAPACITY],
            len: 0,
        }
    }

    /// Records `name` (never empty).
    const fn insert(&mut self, name: &'static str) -> Insert {
        let mut slot = (fnv1a(name.as_bytes()) as usize) & (CAPACITY - 1);
        while !self.slots[slot].is_empty() {
            if str_eq(self.slots[slot], name) {
                return Insert::Known;
            }
            slot = (slot + 1) & (CAPACITY - 1);
        }
        if 2 * (self.len + 1) > CAPACITY {
            return Insert::Full;
        }
        self.slots[slot] = name;
        self.len += 1;
        Insert::New
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
    let namespace = node.namespace();
    if namespace.is_empty() || !str_eq(namespace, enclosing) {
        return node.full_name;
    }
    let (_, simple) = node.full_name.split_at(namespace.len() + 1);
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

/// Whether two texts are equal, in constant evaluation (the derived `OneOf` checks that no
/// two variants hold types of one full name with it).
pub const fn str_eq(a: &str, b: &str) -> bool {
    a.len() == b.len() && starts_with(a.as_bytes(), b.as_bytes())
}

const fn starts_with(bytes: &[u8], prefix: &[u8]) -> bool {
    if bytes.len() < prefix.len() {
        return false;
    }
    let mut i = 0;
    while i < prefix.len() {
        if bytes[i] != prefix[i] {
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
    const fn push(&mut self, bytes: &[u8]) {
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

/// The `namespace` key of a named type's JSON, before the namespace and its closing quote.
const NAMESPACE_KEY: &[u8] = br#","namespace":""#;

/// Writes the first piece of a named type's JSON, `{"type":"…","name":"…"` and what follows,
/// inside namespace `enclosing`: without its `namespace` key where the namespaces agree,
/// with `"namespace":""` added for a type of the null namespace inside another one.
const fn write_json_head(node: &'static Node, enclosing: &str, out: &mut Out<'_>) {
    let Some(Piece::Text(head)) = node.json.first() else {
        panic!("a named type's JSON starts with its type and name");
    };
    let head = head.as_bytes();
    let namespace = node.namespace();
    if str_eq(namespace, enclosing) == namespace.is_empty() {
        return out.push(head);
    }
    // After `{"type":"`, the type, `","name":"`, the simple name and its quote.
    let mut end = br#"{"type":""#.len();
    while head[end] != b'"' {
        end += 1;
    }
    end += br#"","name":""#.len() + node.simple_name_len() + 1;
    let (before, after) = head.split_at(end);
    out.push(before);
    if namespace.is_empty() {
        out.push(NAMESPACE_KEY);
        out.push(b"\"");
        return out.push(after);
    }
    assert!(
        starts_with(after, NAMESPACE_KEY),
        "a named type's JSON has its namespace after its name"
    );
    let (_, rest) = after.split_at(NAMESPACE_KEY.len() + namespace.len() + 1);
    out.push(rest);
}

/// A node being written: its pieces, the next one to write, and the namespace of the types
/// it holds.
#[derive(Clone, Copy)]
struct Frame {
    pieces: &'static [Piece],
    next: usize,
    namespace: &'static str,
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
    };

    /// Starts writing `node` inside a scope of namespace `enclosing` (empty for none):
    /// writes its name if it was defined already, else pushes its definition. False when
    /// the table or the stack is full.
    const fn enter(
        &mut self,
        node: &'static Node,
        form: Form,
        enclosing: &'static str,
        defined: &mut Defined<CAPACITY>,
        out: &mut Out<'_>,
    ) -> bool {
        let named = !node.full_name.is_empty();
        if named {
            match defined.insert(node.full_name) {
                Insert::Full => return false,
                Insert::Known => {
                    out.push(b"\"");
                    out.push(
                        match form {
                            Form::Canonical => node.full_name,
                            Form::Json => relative_name(node, enclosing),
                        }
                        .as_bytes(),
                    );
                    out.push(b"\"");
                    return true;
                }
                Insert::New => {}
            }
        }
        if self.len == CAPACITY {
            return false;
        }
        let mut frame = Frame {
            pieces: match form {
                Form::Canonical => node.canonical,
                Form::Json => node.json,
            },
            next: 0,
            namespace: if named { node.namespace() } else { enclosing },
        };
        if named && matches!(form, Form::Json) {
            write_json_head(node, enclosing, out);
            frame.next = 1;
        }
        self.frames[self.len] = frame;
        self.len += 1;
        true
    }
}

/// Writes the standalone schema of `root` in `form` with a table and a stack of `CAPACITY`
/// entries; false when they are too small for it.
const fn write_in<const CAPACITY: usize>(
    root: &'static Node,
    form: Form,
    out: &mut Out<'_>,
) -> bool {
    let mut defined = Defined::<CAPACITY>::new();
    let mut stack = Stack::<CAPACITY> {
        frames: [Stack::<CAPACITY>::EMPTY; CAPACITY],
        len: 0,
    };
    if !stack.enter(root, form, "", &mut defined, out) {
        return false;
    }
    while stack.len > 0 {
        let frame = &mut stack.frames[stack.len - 1];
        if frame.next == frame.pieces.len() {
            stack.len -= 1;
            continue;
        }
        let pieces = frame.pieces;
        frame.next += 1;
        let namespace = frame.namespace;
        match &pieces[frame.next - 1] {
            Piece::Text(text) => out.push(text.as_bytes()),
            Piece::Type(child) => {
                if !stack.enter(child.get(), form, namespace, &mut defined, out) {
                    return false;
                }
            }
        }
    }
    true
}

/// Writes the standalone schema of `root` in `form`, defining each named type at its first
/// occurrence and writing its name afterwards.
///
/// A `const fn` cannot allocate, so the table of defined names and the stack of nodes being
/// written are arrays; their sizes are tried in turn, and an assembly that finds one too small
/// (the schema defines more than half as many named types) starts again with the next, so
/// that small schemas never pay for the large arrays.
const fn write(root: &'static Node, form: Form, out: &mut Out<'_>) {
    macro_rules! first_that_fits {
        ($($capacity:literal),*) => {$(
            out.len = 0;
            if write_in::<$capacity>(root, form, out) {
                return;
            }
        )*};
    }
    first_that_fits!(16, 256, 4096, 65536, 1048576);
    panic!("an Avro schema with more named types than its assembly has room for");
}

/// The length in bytes of the standalone schema of `node` in `form`.
pub const fn schema_len(node: &'static Node, form: Form) -> usize {
    let mut out = Out { buf: None, len: 0 };
    write(node, form, &mut out);
    out.len
}

/// The standalone schema of `node` in `form`, which must be exactly `LEN` bytes long.
const fn assembled<const LEN: usize>(node: &'static Node, form: Form) -> [u8; LEN] {
    let mut buf = [0u8; LEN];
    let mut out = Out {
        buf: Some(&mut buf),
        len: 0,
    };
    write(node, form, &mut out);
    assert!(
        out.len == LEN,
        "the assembled schema is shorter than the length it was given"
    );
    buf
}

/// The assembled bytes as text (they are made of UTF-8 pieces).
const fn utf8(bytes: &'static [u8]) -> &'static str {
    match core::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => panic!("schema text is not UTF-8"),
    }
}

/// The schema texts of `T`, `LEN` bytes long.
///
/// Generic so that a text is assembled only when a program reads it: the compiler evaluates
/// every constant that a non-generic item names, used or not, while the body of an unused
/// associated constant — the `AvroSchema` consts, which call [`schema_json`] — is never
/// evaluated. Naming these consts from the `AvroSchema` impls directly would assemble the
/// schema of every type in every build.
struct Assembly<T: ?Sized, const LEN: usize>(PhantomData<T>);

impl<T: SchemaNode + ?Sized, const LEN: usize> Assembly<T, LEN> {
    const JSON: [u8; LEN] = assembled::<LEN>(T::NODE.get(), Form::Json);
    const CANONICAL: [u8; LEN] = assembled::<LEN>(T::NODE.get(), Form::Canonical);
}

/// The full schema JSON of `T`, assembled from its node when first read; `LEN` is its length
/// in bytes, which the assembly checks.
pub const fn schema_json<T: SchemaNode + ?Sized, const LEN: usize>() -> &'static str {
    utf8(&Assembly::<T, LEN>::JSON)
}

/// The Parsing Canonical Form of `T`, as [`schema_json`] assembles the JSON.
pub const fn canonical_form<T: SchemaNode + ?Sized, const LEN: usize>() -> &'static str {
    utf8(&Assembly::<T, LEN>::CANONICAL)
}

/// The schema item of a generated or derived type: its [`Node`], its [`SchemaNode`] impl
/// and, for a named type, its `AvroSchema` impl, texts and fingerprint assembled from the
/// nodes when read.
///
/// * `schema!(Type, json, canonical)`: a named type whose schema holds no other named type,
///   its two texts (which are its `SCHEMA_JSON` and `CANONICAL_FORM`), and for a long one
///   the `fingerprint = ..` the generator computed (which the compiler would compute byte
///   by byte);
/// * `schema!(Type, [json pieces], [canonical pieces])`: a named type holding others, each
///   piece a text or `(Other)` for the schema of the type `Other` where it goes. A named
///   fixed under a logical type has no Rust type: its node is declared before the lists as
///   `fixed Name = (json, canonical),` and used as `(fixed Name)`. The lengths of the
///   texts are computed when the crate is compiled;
/// * the same followed by `json_len = .., canonical_len = .., fingerprint = ..`, for a
///   schema of many named types, whose lengths and fingerprint the generator measured:
///   computing the lengths walks the whole schema, which for each type of a chain of records
///   is the chain below it, in every build (the texts themselves are only assembled when a
///   program reads them, and the assembly checks the lengths);
/// * `schema!(union Type, [pieces])` (two lists where the canonical form differs): the node
///   of a union enum, which has no schema of its own name; `union Type with AvroSchema`
///   adds the `AvroSchema` impl the derive gives a union.
#[doc(hidden)]
#[macro_export]
macro_rules! __avdl2rs_schema {
    ($ty:ident, $json:literal, $canonical:literal $(, fingerprint = $fingerprint:literal)? $(,)?) => {
        const _: () = {
            static NODE: $crate::__private::Node = $crate::__private::Node {
                full_name: $crate::__private::name_in_canonical_form($canonical),
                json: &[$crate::__private::Piece::Text($json)],
                canonical: &[$crate::__private::Piece::Text($canonical)],
            };
            $crate::__avdl2rs_schema!(@node $ty);
            #[automatically_derived]
            impl $crate::AvroSchema for $ty {
                const SCHEMA_JSON: &'static str = $json;
                const CANONICAL_FORM: &'static str = $canonical;
                const FINGERPRINT: u64 = $crate::__avdl2rs_schema!(
                    @fingerprint $canonical $(, $fingerprint)?
                );
                const FULL_NAME: &'static str = NODE.full_name;
            }
        };
    };
    (
        $ty:ident,
        $(fixed $fixed:ident = ($fixed_json:literal, $fixed_canonical:literal),)*
        [$($json:tt),+ $(,)?],
        [$first:literal $(, $canonical:tt)* $(,)?]
        $(, json_len = $json_len:literal, canonical_len = $canonical_len:literal,
            fingerprint = $fingerprint:literal)?
        $(,)?
    ) => {
        const _: () = {
            $($crate::__avdl2rs_schema!(@fixed $fixed, $fixed_json, $fixed_canonical);)*
            static NODE: $crate::__private::Node = $crate::__private::Node {
                full_name: $crate::__private::name_in_canonical_form($first),
                json: &[$($crate::__avdl2rs_schema!(@piece $json)),+],
                canonical: &[
                    $crate::__private::Piece::Text($first),
                    $($crate::__avdl2rs_schema!(@piece $canonical)),*
                ],
            };
            $crate::__avdl2rs_schema!(@node $ty);
            $crate::__avdl2rs_schema!(
                @avro_schema $ty $(, $json_len, $canonical_len, $fingerprint)?
            );
        };
    };
    (
        union $ty:ident $(with $with:ident)?,
        $(fixed $fixed:ident = ($fixed_json:literal, $fixed_canonical:literal),)*
        [$($json:tt),+ $(,)?]
        $(, [$($canonical:tt),+ $(,)?])?
        $(,)?
    ) => {
        const _: () = {
            $($crate::__avdl2rs_schema!(@fixed $fixed, $fixed_json, $fixed_canonical);)*
            static NODE: $crate::__private::Node = $crate::__private::Node {
                full_name: "",
                json: &[$($crate::__avdl2rs_schema!(@piece $json)),+],
                canonical: $crate::__avdl2rs_schema!(
                    @union_canonical [$($json),+] $([$($canonical),+])?
                ),
            };
            $crate::__avdl2rs_schema!(@node $ty);
            $($crate::__avdl2rs_schema!(@with $with $ty);)?
        };
    };

    (@fingerprint $canonical:expr) => {
        $crate::fingerprint::rabin_fingerprint($canonical.as_bytes())
    };
    (@fingerprint $canonical:expr, $fingerprint:literal) => {
        $fingerprint
    };
    (@with AvroSchema $ty:ident) => {
        $crate::__avdl2rs_schema!(@avro_schema $ty);
    };
    (@node $ty:ident) => {
        #[automatically_derived]
        impl $crate::__private::SchemaNode for $ty {
            const NODE: $crate::__private::NodeRef = $crate::__private::NodeRef::new(&NODE);
        }
    };
    (@fixed $fixed:ident, $json:literal, $canonical:literal) => {
        #[allow(non_upper_case_globals)]
        static $fixed: $crate::__private::Node = $crate::__private::Node {
            full_name: $crate::__private::name_in_canonical_form($canonical),
            json: &[$crate::__private::Piece::Text($json)],
            canonical: &[$crate::__private::Piece::Text($canonical)],
        };
    };
    (@piece $text:literal) => {
        $crate::__private::Piece::Text($text)
    };
    (@piece (fixed $fixed:ident)) => {
        $crate::__private::Piece::Type($crate::__private::NodeRef::new(&$fixed))
    };
    (@piece ($ty:ty)) => {
        $crate::__private::Piece::Type($crate::__private::NodeRef::of::<$ty>())
    };
    (@union_canonical [$($json:tt),+]) => {
        &[$($crate::__avdl2rs_schema!(@piece $json)),+]
    };
    (@union_canonical [$($json:tt),+] [$($canonical:tt),+]) => {
        &[$($crate::__avdl2rs_schema!(@piece $canonical)),+]
    };
    // The texts' lengths computed here, from the nodes (a type's schema of a few named types).
    (@avro_schema $ty:ident) => {
        #[automatically_derived]
        impl $crate::AvroSchema for $ty {
            const SCHEMA_JSON: &'static str = $crate::__private::schema_json::<
                Self,
                { $crate::__private::schema_len(&NODE, $crate::__private::Form::Json) },
            >();
            const CANONICAL_FORM: &'static str = $crate::__private::canonical_form::<
                Self,
                { $crate::__private::schema_len(&NODE, $crate::__private::Form::Canonical) },
            >();
            const FINGERPRINT: u64 = $crate::__avdl2rs_schema!(@fingerprint Self::CANONICAL_FORM);
            const FULL_NAME: &'static str = NODE.schema_name();
        }
    };
    // The lengths and fingerprint the generator measured.
    (@avro_schema $ty:ident, $json_len:literal, $canonical_len:literal, $fingerprint:literal) => {
        #[automatically_derived]
        impl $crate::AvroSchema for $ty {
            const SCHEMA_JSON: &'static str =
                $crate::__private::schema_json::<Self, $json_len>();
            const CANONICAL_FORM: &'static str =
                $crate::__private::canonical_form::<Self, $canonical_len>();
            const FINGERPRINT: u64 = $fingerprint;
            const FULL_NAME: &'static str = NODE.full_name;
        }
    };
}
