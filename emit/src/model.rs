//! The codec model: an Avro shape together with the Rust type standing for each part of it,
//! generic over how the types with codecs of their own are named ([`Value`]), and the shapes
//! of the types that get codec impls ([`TypeCodec`]).

use crate::{TimeCrate, TimeKind};

/// How a Rust value is written as Avro: the Avro schema of a field, array item, map value or
/// union branch, together with the Rust type that represents it.
///
/// `N` names the types with codec impls of their own (named types and union enums): code
/// generation names them by their place in its type space, the derive by the `syn::Type` the
/// user wrote. The emitter asks its caller for their paths (see [`crate::type_impls`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value<N> {
    /// `null` as `()`.
    Null,
    /// `boolean` as `bool`.
    Boolean,
    /// `int` as `i32`.
    Int,
    /// `long` as `i64`.
    Long,
    /// `float` as `f32`.
    Float,
    /// `double` as `f64`.
    Double,
    /// `bytes` as `Vec<u8>` (anything that derefs to `[u8]`).
    Bytes,
    /// `string` as `String` (anything that derefs to `str`).
    String,
    /// An array as `Vec<T>`.
    Array(Box<Value<N>>),
    /// A map as any map type iterating `(&String, &T)` and collecting from `(String, T)`.
    Map(Box<Value<N>>),
    /// A two-branch union of `null` and one other schema, as `Option<T>`.
    Optional {
        /// The position of `null` in the union (0 or 1).
        null_index: usize,
        /// The non-null branch.
        some: Box<Value<N>>,
    },
    /// A union of `null` and two or more other schemas, as `Option<E>` where `E` is a union
    /// enum ([`Shape::Union`] with `null_index` set).
    OptionalUnion {
        /// The position of `null` in the union.
        null_index: usize,
        /// The number of branches of the union, `null` included.
        branches: usize,
        /// The union enum type.
        ty: N,
    },
    /// A type with its own `AvroEncode`/`AvroDecode` impls: a named type or a union enum.
    Named {
        /// The type.
        ty: N,
        /// Whether the Rust value is a `Box` of `ty` (a recursive reference).
        boxed: bool,
    },
    /// A logical type, through the runtime's helpers.
    Logical(Logical),
}

/// Logical types with a dedicated Rust representation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Logical {
    /// `date`, `time-*`, `timestamp-*`, `local-timestamp-*` as a date/time crate's type.
    Time {
        /// The crate whose types hold the value.
        time_crate: TimeCrate,
        /// The logical type.
        kind: TimeKind,
    },
    /// `uuid` on `string`, as `uuid::Uuid`.
    UuidString,
    /// `uuid` on `fixed(16)`, as `uuid::Uuid`.
    UuidFixed,
    /// `decimal` on `bytes`, as the runtime's `Decimal`.
    DecimalBytes {
        /// The decimal's precision.
        precision: u32,
        /// The decimal's scale.
        scale: u32,
    },
    /// `decimal` on `fixed(size)`, as the runtime's `Decimal`.
    DecimalFixed {
        /// The fixed size in bytes.
        size: usize,
        /// The decimal's precision.
        precision: u32,
        /// The decimal's scale.
        scale: u32,
    },
    /// `duration` on `fixed(12)`, as the runtime's `Duration`.
    Duration,
}

/// A record field: its Rust ident, its Avro name (used in error paths) and shape.
#[derive(Debug, Clone)]
pub struct RecordField<N> {
    /// The Rust field ident (`r#type` and the like allowed).
    pub ident: syn::Ident,
    /// The Avro field name.
    pub avro_name: String,
    /// How the field is encoded.
    pub value: Value<N>,
}

/// A variant of a union enum: a tuple variant holding one branch.
#[derive(Debug, Clone)]
pub struct UnionVariant<N> {
    /// The variant ident.
    pub ident: syn::Ident,
    /// The branch's position in the Avro union.
    pub index: usize,
    /// How the branch's value is encoded.
    pub value: Value<N>,
}

/// The Avro shape of a type that gets codec impls.
#[derive(Debug, Clone)]
pub enum Shape<N> {
    /// A record: a struct with named fields, in schema order.
    Record(Vec<RecordField<N>>),
    /// An enum: unit variants in symbol order.
    Enum(Vec<syn::Ident>),
    /// A fixed: a tuple struct around `[u8; size]`.
    Fixed(usize),
    /// A union: an enum of tuple variants, one per non-null branch.
    ///
    /// Without a `null` branch the enum gets `AvroDecode`; with one, an enclosing `Option`
    /// ([`Value::OptionalUnion`]) reads the index and calls the enum's implementation of the
    /// runtime's hidden `DecodeBranch` for the non-null branches.
    Union {
        /// The variants.
        variants: Vec<UnionVariant<N>>,
        /// The number of branches of the Avro union, `null` included.
        branches: usize,
        /// The position of the `null` branch, if the union has one.
        null_index: Option<usize>,
    },
}

/// One type to emit codec impls for.
#[derive(Debug, Clone)]
pub struct TypeCodec<N> {
    /// The Rust type ident.
    pub ident: syn::Ident,
    /// The shape.
    pub shape: Shape<N>,
    /// The Avro full name, which a record's errors name; `None` for union enums, which have
    /// no name of their own.
    pub full_name: Option<String>,
    /// Whether decoding the type enters a nesting level of the reader's depth and stack
    /// limits. Only a type that can hold itself can make a decode deep, so a caller that knows
    /// the type cannot (the code generator) leaves it out, and a caller that cannot tell (the
    /// derive sees one type) keeps it.
    pub nested: bool,
    /// Whether calls to the codecs of named types ([`Value::Named`]) name the type, so that
    /// a type without the impls is reported at the type as its author wrote it (the derive,
    /// with the user's field types). Without it the type is inferred from the field, which
    /// keeps generated code short where every type has its impls.
    pub name_field_types: bool,
}
